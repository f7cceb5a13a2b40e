import { Worker } from 'node:worker_threads';
import type { GreyRaster } from '../../../document/raster.js';
import { errorFrom, noopOcrLogger, type OcrEngine, type OcrLogger, type OcrResult, type OcrStatus } from '../engine.js';
import { PageQueue, type PageJob, type SlotState } from '../page-queue.js';
import { checkModelFiles, ModelFileError, type PaddleModelFiles } from './model-files.js';
import type { FromWorker, ToWorker } from './protocol.js';
import type { PaddleReading } from './read-page.js';
import type { PaddleWorkerData } from './worker.js';
import { COPY_BYTES_PER_UNIT, copyingBytes, Pacer, runPaced } from '../../../util/paced.js';

export interface PaddleEngineOptions {
  files: PaddleModelFiles;
  /** Worker threads, each with its own sessions: pages read at once. */
  workers: number;
  /** ONNX Runtime threads per model call in each worker. */
  threads: number;
  /** Turn pages whose text runs sideways or upside down (OCR_ROTATION is not "off"). */
  allowTurn: boolean;
  maxDetectorPixels: number;
}

/**
 * The detector reads the page shrunk to at most this many pixels (about
 * 840 x 840; an A4 page 700 x 990). Detection needs only the lines' shapes;
 * the recogniser reads each line from the full-resolution page. On 80 dev
 * receipts as many labelled values were found with 0.6-0.7 MP as with 1.3 or
 * 2 MP, and on A4 pages of 12 pt text at 300 and 600 DPI 386-387 of 405 words
 * at every budget from 0.7 to 2 MP, for 25-45% less CPU than 1.3-2 MP.
 */
export const DEFAULT_MAX_DETECTOR_PIXELS = 700_000;

/**
 * The thread's young generation: its pages leave millions of short-lived
 * points and arrays behind, and V8's default (16 MB semi-spaces) let it hold
 * ~25 MB more over 20 photos than 8 MB does.
 */
const WORKER_YOUNG_GENERATION_MB = 8;
/** A worker that cannot load its models and read the warm-up page within this time has failed. */
const WORKER_START_TIMEOUT_MS = 60_000;
/** How often a crashed worker is re-created before its slot is given up. */
const MAX_START_ATTEMPTS = 3;
/** How long a thread told to stop may take (it ends its current model call first) before it is terminated. */
const STOP_GRACE_MS = 10_000;

interface Slot {
  id: number;
  state: SlotState;
  thread: Worker | undefined;
  /** The job the thread is reading; undefined after it was abandoned (the thread still finishes its model call). */
  current: PageJob | undefined;
  /** Shared with the thread: the id of a job the main thread gave up on. */
  cancelled: Int32Array;
}

function resultOf(reading: PaddleReading): OcrResult {
  return {
    words: reading.words,
    width: reading.width,
    height: reading.height,
    rotation: reading.turn,
    deskewed: reading.deskewed,
    skewDegrees: reading.skewDegrees,
    passes: 1,
    toInput: reading.toInput,
  };
}

/**
 * PP-OCR on ONNX Runtime in a fixed set of worker threads (onnxruntime-node
 * runs models on the calling thread, so the event loop never does). Each
 * thread loads the models once at start and reads a warm-up page; a thread
 * that dies is replaced. An aborted page is given up at once: its thread
 * stops at the next model call and takes the next page.
 */
export class PaddleEngine implements OcrEngine {
  readonly name = 'paddle' as const;
  private readonly slots: Slot[] = [];
  private readonly queue = new PageQueue(
    (job) => this.abortRunning(job),
    () => this.dispatch(),
  );

  private constructor(
    private readonly options: PaddleEngineOptions,
    private readonly logger: OcrLogger,
  ) {}

  static async create(options: PaddleEngineOptions, logger: OcrLogger = noopOcrLogger): Promise<PaddleEngine> {
    await checkModelFiles(options.files);
    const engine = new PaddleEngine(options, logger);
    const started = performance.now();
    // Every start settles before a failure is reported: a thread torn down while ONNX Runtime
    // loads a model aborts the whole process.
    const starts = await Promise.allSettled(
      Array.from({ length: options.workers }, (_, id) => {
        const slot: Slot = { id, state: 'starting', thread: undefined, current: undefined, cancelled: new Int32Array(new SharedArrayBuffer(4)) };
        engine.slots.push(slot);
        return engine.startThread(slot);
      }),
    );
    const failure = starts.find((start): start is PromiseRejectedResult => start.status === 'rejected');
    if (failure) {
      await engine.close();
      throw failure.reason;
    }
    logger.info(
      { engine: 'paddle', workers: options.workers, threads: options.threads, models: options.files, ms: Math.round(performance.now() - started) },
      'OCR workers ready',
    );
    return engine;
  }

  recognize(raster: GreyRaster, signal?: AbortSignal): Promise<OcrResult> {
    return this.queue.submit(raster, signal, this.slots.some((slot) => slot.state !== 'dead'));
  }

  status(): OcrStatus {
    return this.queue.status(this.name, this.slots);
  }

  async close(): Promise<void> {
    this.queue.closed = true;
    this.queue.rejectAll(new Error('OCR engine is closed'));
    await Promise.all(
      this.slots.map(async (slot) => {
        const running = slot.current;
        if (running) this.settle(running, undefined, new Error('OCR engine is closed'));
        slot.current = undefined;
        slot.state = 'dead';
        await this.stopThread(slot, running);
      }),
    );
  }

  private settle(job: PageJob, result: OcrResult | undefined, error?: unknown): void {
    job.detachAbort();
    if (result) job.resolve(result);
    else job.reject(error);
  }

  private abortRunning(job: PageJob): void {
    const slot = this.slots.find((candidate) => candidate.current === job);
    if (!slot) return;
    // The thread finishes its current model call, then sees the flag and reports "abandoned".
    Atomics.store(slot.cancelled, 0, job.id);
    slot.current = undefined;
    this.queue.jobsDone++;
    this.settle(job, undefined, job.signal?.reason);
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.state !== 'idle' || !slot.thread) continue;
      const job = this.queue.take() as PageJob;
      slot.state = 'busy';
      slot.current = job;
      // A private copy is moved to the thread: the caller's buffer may be a view into a larger one, or one
      // postMessage copies anyway (sharp's). A large raster is copied in turns of the loop.
      const pixels = job.raster.data;
      if (pixels.length <= COPY_BYTES_PER_UNIT) this.send(slot, slot.thread, job, new Uint8Array(pixels));
      else this.sendCopied(slot, slot.thread, job);
    }
  }

  private send(slot: Slot, thread: Worker, job: PageJob, data: Uint8Array<ArrayBuffer>): void {
    const message: ToWorker = { type: 'read', id: job.id, raster: { ...job.raster, data }, allowTurn: this.options.allowTurn };
    thread.postMessage(message, [data.buffer]);
  }

  /** The page goes to the thread once copied, if still the slot's; one aborted meanwhile leaves the slot free. */
  private sendCopied(slot: Slot, thread: Worker, job: PageJob): void {
    void runPaced(copyingBytes(job.raster.data), new Pacer(undefined, 1)).then((data) => {
      if (slot.thread !== thread) return; // the thread died meanwhile: its slot was settled and is starting again
      if (slot.current === job) return this.send(slot, thread, job, data);
      if (slot.state === 'busy' && !slot.current) {
        slot.state = 'idle';
        this.dispatch();
      }
    });
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === 'ready' || message.type === 'failed') return;
    const job = slot.current;
    if (job && job.id === message.id) {
      slot.current = undefined;
      this.queue.jobsDone++;
      if (message.type === 'done') this.settle(job, resultOf(message.reading));
      else if (message.type === 'error') this.settle(job, undefined, new Error(`OCR failed: ${message.message}`));
      else this.settle(job, undefined, errorFrom(job.signal?.reason, 'OCR job aborted'));
    }
    if (slot.state === 'busy') slot.state = 'idle';
    this.dispatch();
  }

  /** Starts the slot's thread and waits for its "ready" (models loaded, warm-up page read). */
  private async startThread(slot: Slot): Promise<void> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= MAX_START_ATTEMPTS && !this.queue.closed; attempt++) {
      try {
        slot.thread = await this.spawn(slot);
        slot.state = this.queue.closed ? 'dead' : 'idle';
        if (this.queue.closed) await this.stopThread(slot);
        return;
      } catch (error) {
        lastError = error;
        // A model file that cannot be used fails the same way every time.
        if (error instanceof ModelFileError) break;
      }
    }
    throw errorFrom(lastError, 'OCR worker failed to start');
  }

  private spawn(slot: Slot): Promise<Worker> {
    const workerData: PaddleWorkerData = {
      files: this.options.files,
      threads: this.options.threads,
      maxDetectorPixels: this.options.maxDetectorPixels,
      cancelled: slot.cancelled.buffer as SharedArrayBuffer,
    };
    const thread = new Worker(new URL('./worker.js', import.meta.url), { workerData, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    const exited = new Promise<void>((resolveExit) => thread.once('exit', () => resolveExit()));
    return new Promise<Worker>((resolveStart, rejectStart) => {
      let started = false;
      const timeout = setTimeout(() => fail(new Error(`OCR worker did not start within ${WORKER_START_TIMEOUT_MS} ms`), 'terminate'), WORKER_START_TIMEOUT_MS);
      /**
       * Rejects once the thread is gone. After "failed" it exits by itself
       * (terminating a thread inside ONNX Runtime can abort the process); a
       * thread that never answered is terminated.
       */
      const fail = (error: Error, stop: 'wait' | 'terminate' = 'wait') => {
        clearTimeout(timeout);
        if (started) return;
        started = true;
        const stuck = setTimeout(() => void thread.terminate(), stop === 'terminate' ? 0 : STOP_GRACE_MS);
        void exited.then(() => {
          clearTimeout(stuck);
          rejectStart(error);
        });
      };
      thread.on('message', (message: FromWorker) => {
        if (!started) {
          if (message.type === 'ready') {
            started = true;
            clearTimeout(timeout);
            resolveStart(thread);
          } else if (message.type === 'failed') {
            fail(message.modelProblem ? new ModelFileError(message.message) : new Error(message.message));
          }
          return;
        }
        this.onMessage(slot, message);
      });
      const onDeath = (cause: Error) => {
        if (!started) return fail(cause);
        this.onThreadDeath(slot, thread, cause);
      };
      thread.on('error', onDeath);
      thread.on('exit', (code) => onDeath(new Error(`OCR worker thread exited with code ${code}`)));
    });
  }

  private onThreadDeath(slot: Slot, thread: Worker, cause: Error): void {
    if (slot.thread !== thread || this.queue.closed) return;
    slot.thread = undefined;
    this.logger.warn({ engine: 'paddle', worker: slot.id, err: cause.message }, 'OCR worker thread died');
    if (slot.current) {
      this.queue.jobsDone++;
      this.settle(slot.current, undefined, cause);
      slot.current = undefined;
    }
    slot.state = 'starting';
    this.startThread(slot).then(
      () => {
        this.logger.info({ engine: 'paddle', worker: slot.id, reason: 'crashed' }, 'OCR worker replaced');
        this.dispatch();
      },
      (error: unknown) => {
        slot.state = 'dead';
        this.logger.warn({ engine: 'paddle', worker: slot.id, err: errorFrom(error, 'unknown').message }, 'OCR worker could not be restarted');
        if (!this.slots.some((candidate) => candidate.state !== 'dead')) {
          this.queue.rejectAll(new Error('OCR engine has no working workers'));
        }
      },
    );
  }

  /**
   * Asks the thread to release its sessions and exit, after abandoning any
   * page it still reads; terminates it only if it has not exited within
   * STOP_GRACE_MS (terminating a thread inside ONNX Runtime can abort the
   * process).
   */
  private async stopThread(slot: Slot, abandoned?: PageJob): Promise<void> {
    const thread = slot.thread;
    slot.thread = undefined;
    if (!thread) return;
    if (abandoned) Atomics.store(slot.cancelled, 0, abandoned.id);
    const exited = new Promise<void>((resolveExit) => thread.once('exit', () => resolveExit()));
    thread.postMessage({ type: 'close' } satisfies ToWorker);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolveWait) => (timer = setTimeout(resolveWait, STOP_GRACE_MS)))]);
    clearTimeout(timer);
    // Resolves at once for a thread that has already exited.
    await thread.terminate();
  }
}
