import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import Tesseract from 'tesseract.js';
import type { OcrConfig } from '../../../config.js';
import type { Affine } from '../../../document/document.js';
import { compose } from '../../../document/page-frame.js';
import type { GreyRaster } from '../../../document/raster.js';
import { errorFrom, noopOcrLogger, rasterProblem, type OcrEngine, type OcrLogger, type OcrResult, type OcrStatus } from '../engine.js';
import { PageQueue, type PageJob, type SlotState } from '../page-queue.js';
import { WARM_UP_RASTER } from '../warm-up.js';
import { MAX_OCR_SIDE, shrinkToSide } from './fit-side.js';
import { PAGE_SEGMENTATION_MODE, readPage, recognizeWith } from './page.js';

/** A worker that cannot even start within this time is treated as failed, so create() never hangs. */
const WORKER_START_TIMEOUT_MS = 60_000;
/** How often a crashed or recycled worker is re-created before its slot is given up. */
const MAX_START_ATTEMPTS = 3;

/** The OCR settings with the worker count decided (ingest/ocr-choice.ts workersFor). */
export type TesseractConfig = OcrConfig & { workers: number };

/** The bundled offline English model (@tesseract.js-data/eng, best_int). */
export function defaultLangPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

async function assertLanguageDataPresent(langPath: string, langs: string[]): Promise<void> {
  const missing: string[] = [];
  for (const lang of langs) {
    try {
      await access(join(langPath, `${lang}.traineddata.gz`));
    } catch {
      missing.push(lang);
    }
  }
  if (missing.length > 0) {
    throw new Error(
      `OCR language data missing for ${missing.map((l) => `"${l}"`).join(', ')}: expected ${missing
        .map((l) => `${l}.traineddata.gz`)
        .join(', ')} in ${langPath} (set OCR_LANG_PATH or OCR_LANGS)`,
    );
  }
}

/** One tesseract.js worker plus what the pool needs to know about it. */
interface Slot {
  id: number;
  state: SlotState;
  worker: Tesseract.Worker | undefined;
  jobsSinceStart: number;
  /** The job on this worker and how to fail it when the worker dies or the job is abandoned. */
  current: { job: PageJob; fail(error: Error): void } | undefined;
}

/**
 * A fixed number of tesseract.js workers with our own queue. We do not use
 * tesseract's scheduler because workers must be recycled: after
 * `recycleAfterJobs` jobs a worker is terminated and replaced (long-lived wasm
 * heaps only grow), and a worker that crashes or is abandoned mid-job is
 * replaced too.
 */
export class TesseractPool implements OcrEngine {
  readonly name = 'tesseract' as const;
  private readonly slots: Slot[] = [];
  private readonly queue = new PageQueue(
    (job) => this.abortRunning(job),
    () => this.dispatch(),
  );

  private constructor(
    private readonly config: TesseractConfig,
    private readonly langPath: string,
    private readonly logger: OcrLogger,
  ) {}

  static async create(config: TesseractConfig, logger: OcrLogger = noopOcrLogger): Promise<TesseractPool> {
    const langPath = resolve(config.langPath ?? defaultLangPath());
    await assertLanguageDataPresent(langPath, config.langs);
    const pool = new TesseractPool(config, langPath, logger);
    const started = performance.now();
    try {
      await Promise.all(
        Array.from({ length: config.workers }, (_, id) => {
          const slot: Slot = { id, state: 'starting', worker: undefined, jobsSinceStart: 0, current: undefined };
          pool.slots.push(slot);
          return pool.startWorker(slot);
        }),
      );
    } catch (error) {
      await pool.close();
      throw error;
    }
    logger.info(
      { workers: config.workers, langs: config.langs, ms: Math.round(performance.now() - started) },
      'OCR workers ready',
    );
    return pool;
  }

  /**
   * Reads one page. The result's boxes refer to the raster described by its
   * `width`/`height`/`rotation`: the input, or the input turned by a quarter
   * when OCR_ROTATION=auto found it sideways. All passes of one page run on one
   * worker as one job.
   */
  recognize(raster: GreyRaster, signal?: AbortSignal): Promise<OcrResult> {
    if (Math.max(raster.width, raster.height) > MAX_OCR_SIDE && !rasterProblem(raster)) return this.recognizeShrunk(raster, signal);
    return this.queue.submit(raster, signal, this.slots.some((slot) => slot.state !== 'dead'));
  }

  /** Reads the raster shrunk to fit; its boxes still lead back to the raster as given (toInput scales them up). */
  private async recognizeShrunk(raster: GreyRaster, signal?: AbortSignal): Promise<OcrResult> {
    const fitting = await shrinkToSide(raster, MAX_OCR_SIDE);
    const result = await this.recognize(fitting, signal);
    const scaleUp: Affine = [raster.width / fitting.width, 0, 0, raster.height / fitting.height, 0, 0];
    return { ...result, toInput: compose(scaleUp, result.toInput) };
  }

  status(): OcrStatus {
    return this.queue.status(this.name, this.slots);
  }

  async close(): Promise<void> {
    this.queue.closed = true;
    const closing = new Error('OCR engine is closed');
    this.queue.rejectAll(closing);
    await Promise.all(
      this.slots.map(async (slot) => {
        slot.current?.fail(closing);
        slot.state = 'dead';
        await this.terminate(slot);
      }),
    );
  }

  private abortRunning(job: PageJob): void {
    // Tesseract cannot cancel a recognition, so the worker is
    // replaced rather than left burning CPU on a page nobody waits for.
    const slot = this.slots.find((candidate) => candidate.current?.job === job);
    slot?.current?.fail(errorFrom(job.signal?.reason, 'OCR job aborted'));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.state !== 'idle') continue;
      void this.run(slot, this.queue.take() as PageJob);
    }
  }

  private async run(slot: Slot, job: PageJob): Promise<void> {
    slot.state = 'busy';
    slot.jobsSinceStart++;
    let workerBroken = false;
    try {
      job.resolve(await this.recognizeOn(slot, job));
    } catch (error) {
      // Any failure inside the wasm worker may leave it in a bad state; a fresh one is cheap.
      workerBroken = true;
      job.reject(error);
    } finally {
      job.detachAbort();
      slot.current = undefined;
      this.queue.jobsDone++;
    }
    if (this.queue.closed) return;
    if (workerBroken || slot.jobsSinceStart >= this.config.recycleAfterJobs) {
      await this.replaceWorker(slot, workerBroken ? 'failed' : 'recycled');
    } else {
      slot.state = 'idle';
    }
    this.dispatch();
  }

  private recognizeOn(slot: Slot, job: PageJob): Promise<OcrResult> {
    const worker = slot.worker;
    if (!worker) return Promise.reject(new Error('OCR worker is not running'));
    return new Promise<OcrResult>((resolveResult, rejectResult) => {
      slot.current = { job, fail: rejectResult };
      readPage(worker, job.raster, this.config.rotation).then(resolveResult, rejectResult);
    });
  }

  private async replaceWorker(slot: Slot, reason: 'failed' | 'recycled' | 'crashed'): Promise<void> {
    slot.state = 'starting';
    await this.terminate(slot);
    if (this.queue.closed) return;
    try {
      await this.startWorker(slot);
      this.logger.info({ worker: slot.id, reason }, 'OCR worker replaced');
    } catch (error) {
      slot.state = 'dead';
      this.logger.warn({ worker: slot.id, err: errorFrom(error, 'unknown').message }, 'OCR worker could not be restarted');
      if (!this.slots.some((candidate) => candidate.state !== 'dead')) this.queue.rejectAll(new Error('OCR engine has no working workers'));
    }
  }

  private async startWorker(slot: Slot): Promise<void> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= MAX_START_ATTEMPTS && !this.queue.closed; attempt++) {
      try {
        slot.worker = await this.spawn(slot);
        slot.jobsSinceStart = 0;
        slot.state = this.queue.closed ? 'dead' : 'idle';
        if (this.queue.closed) await this.terminate(slot);
        return;
      } catch (error) {
        lastError = error;
      }
    }
    throw errorFrom(lastError, 'OCR worker failed to start');
  }

  /** Creates, configures and warms one worker; rejects (never hangs) when any step fails. */
  private async spawn(slot: Slot): Promise<Tesseract.Worker> {
    let failStartup: (error: Error) => void = () => {};
    const startupFailed = new Promise<never>((_, reject) => {
      failStartup = reject;
    });
    startupFailed.catch(() => {});
    const timeout = setTimeout(
      () => failStartup(new Error(`OCR worker did not start within ${WORKER_START_TIMEOUT_MS} ms`)),
      WORKER_START_TIMEOUT_MS,
    );
    let worker: Tesseract.Worker | undefined;
    try {
      worker = await Promise.race([
        Tesseract.createWorker(this.config.langs, Tesseract.OEM.LSTM_ONLY, {
          langPath: this.langPath,
          gzip: true,
          cacheMethod: 'none',
          // Without it a failed language load throws inside tesseract.js's message
          // handler; the failed load also never settles createWorker, hence the race.
          errorHandler: (error: unknown) => failStartup(errorFrom(error, 'OCR worker error')),
        }),
        startupFailed,
      ]);
      this.watchThread(slot, worker, failStartup);
      await Promise.race([
        worker.setParameters({
          tessedit_pageseg_mode: PAGE_SEGMENTATION_MODE as Tesseract.PSM,
          // Tesseract's diagnostics ("Estimating resolution as ...") would otherwise go to our stdout.
          debug_file: '/dev/null',
        }),
        startupFailed,
      ]);
      await Promise.race([recognizeWith(worker, WARM_UP_RASTER, 'none'), startupFailed]);
      return worker;
    } catch (error) {
      await worker?.terminate().catch(() => {});
      throw error;
    } finally {
      clearTimeout(timeout);
    }
  }

  /**
   * tesseract.js watches its thread only through `onerror`, which Node never
   * calls: an 'error' event would crash the process and the job on that
   * worker would never settle. We listen ourselves, fail the job and replace
   * the worker.
   */
  private watchThread(slot: Slot, worker: Tesseract.Worker, failStartup: (error: Error) => void): void {
    const thread = (worker as unknown as { worker?: ThreadWorker }).worker;
    if (!thread) return;
    const onDeath = (cause: unknown): void => {
      const error = errorFrom(cause, 'OCR worker thread exited');
      failStartup(error);
      if (slot.worker !== worker) return;
      this.logger.warn({ worker: slot.id, err: error.message }, 'OCR worker thread died');
      if (slot.current) {
        slot.current.fail(error);
      } else if (slot.state === 'idle' && !this.queue.closed) {
        slot.worker = undefined;
        void this.replaceWorker(slot, 'crashed').then(() => this.dispatch());
      }
    };
    thread.on('error', onDeath);
    thread.on('exit', (code) => onDeath(new Error(`OCR worker thread exited with code ${code}`)));
  }

  private async terminate(slot: Slot): Promise<void> {
    const worker = slot.worker;
    slot.worker = undefined;
    if (!worker) return;
    try {
      await worker.terminate();
    } catch {
      // Already gone; nothing left to release.
    }
  }
}
