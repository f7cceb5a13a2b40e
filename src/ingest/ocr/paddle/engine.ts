import type { GreyRaster } from '../../../document/raster.js';
import { ThreadPool } from '../../../threads/pool.js';
import { TaskFailed, taskThreads, ThreadStartError, type TaskMessage } from '../../../threads/task-thread.js';
import { COPY_BYTES_PER_UNIT, copyingBytes, Pacer, runPaced } from '../../../util/paced.js';
import { noopOcrLogger, ocrStatus, rasterProblem, type OcrEngine, type OcrLogger, type OcrResult, type OcrStatus } from '../engine.js';
import { checkModelFiles, type PaddleModelFiles } from './model-files.js';
import type { PaddleTask } from './protocol.js';
import type { PaddleReading } from './read-page.js';
import type { PaddleWorkerData } from './worker.js';

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
 * A private copy of the page is moved to the thread: the caller's buffer may
 * be a view into a larger one, or one postMessage copies anyway (sharp's). A
 * large raster is copied in turns of the loop; one aborted meanwhile never
 * reaches the thread.
 */
async function pageMessage(task: PaddleTask, signal: AbortSignal | undefined): Promise<TaskMessage> {
  const pixels = task.raster.data;
  const data = pixels.length <= COPY_BYTES_PER_UNIT ? new Uint8Array(pixels) : await runPaced(copyingBytes(pixels), new Pacer(signal, 1));
  return { task: { ...task, raster: { ...task.raster, data } } satisfies PaddleTask, transfer: [data.buffer] };
}

/**
 * PP-OCR on ONNX Runtime in a fixed set of worker threads (onnxruntime-node
 * runs models on the calling thread, so the event loop never does). Each
 * thread loads the models once at start and reads a warm-up page; a thread
 * that dies is replaced. An aborted page is given up at once: its thread
 * stops at the next model call and takes the next page (terminating a
 * thread inside ONNX Runtime can abort the process, so it is asked to stop).
 */
export class PaddleEngine implements OcrEngine {
  readonly name = 'paddle' as const;
  private readonly pool: ThreadPool<PaddleTask, PaddleReading>;

  private constructor(private readonly options: PaddleEngineOptions, logger: OcrLogger) {
    const data: PaddleWorkerData = { files: options.files, threads: options.threads, maxDetectorPixels: options.maxDetectorPixels };
    this.pool = new ThreadPool({
      label: 'OCR',
      start: taskThreads<PaddleTask, PaddleReading>(new URL('./worker.js', import.meta.url), {
        data,
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
        stop: 'ask',
        prepare: pageMessage,
      }),
      minThreads: options.workers,
      maxThreads: options.workers,
      runningAbort: 'wait',
      isPermanent: (error) => error instanceof ThreadStartError && error.permanent,
      logger,
      logFields: { engine: 'paddle' },
    });
  }

  static async create(options: PaddleEngineOptions, logger: OcrLogger = noopOcrLogger): Promise<PaddleEngine> {
    await checkModelFiles(options.files);
    const engine = new PaddleEngine(options, logger);
    const started = performance.now();
    await engine.pool.started();
    logger.info(
      { engine: 'paddle', workers: options.workers, threads: options.threads, models: options.files, ms: Math.round(performance.now() - started) },
      'OCR workers ready',
    );
    return engine;
  }

  async recognize(raster: GreyRaster, signal?: AbortSignal): Promise<OcrResult> {
    const problem = rasterProblem(raster);
    if (problem) throw problem;
    try {
      return resultOf(await this.pool.run({ raster, allowTurn: this.options.allowTurn }, signal));
    } catch (error) {
      throw error instanceof TaskFailed ? new Error(`OCR failed: ${error.message}`) : error;
    }
  }

  status(): OcrStatus {
    return ocrStatus(this.name, this.pool.status());
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
