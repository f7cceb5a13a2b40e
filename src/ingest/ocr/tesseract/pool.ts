import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import Tesseract from 'tesseract.js';
import type { OcrConfig } from '../../../config.js';
import type { Affine } from '../../../document/document.js';
import { compose } from '../../../document/page-frame.js';
import type { GreyRaster } from '../../../document/raster.js';
import { ThreadPool, type PoolThread } from '../../../threads/pool.js';
import { errorFrom, noopOcrLogger, ocrStatus, rasterProblem, type OcrEngine, type OcrLogger, type OcrResult, type OcrStatus } from '../engine.js';
import { WARM_UP_RASTER } from '../warm-up.js';
import { MAX_OCR_SIDE, shrinkToSide } from './fit-side.js';
import { PAGE_SEGMENTATION_MODE, readPage, recognizeWith } from './page.js';

/** A worker that cannot even start within this time is treated as failed, so create() never hangs. */
const WORKER_START_TIMEOUT_MS = 60_000;

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

/**
 * One tesseract.js worker as a thread of the pool. Special beside the
 * pool's other threads (task-thread.ts): tesseract.js starts the thread and
 * speaks to it itself, so this wraps its worker rather than a module of ours.
 */
class TesseractThread implements PoolThread<GreyRaster, OcrResult> {
  private constructor(
    /** The tesseract.js worker (for tests: its thread is `.worker`). */
    readonly worker: Tesseract.Worker,
    private readonly rotation: TesseractConfig['rotation'],
    /** Set when the pool stops the worker: its thread's exit is then no death. */
    private readonly life: { started: boolean; stopping: boolean },
  ) {}

  /** Creates, configures and warms one worker; rejects (never hangs) when any step fails. */
  static async start(config: TesseractConfig, langPath: string, died: (cause: Error) => void): Promise<TesseractThread> {
    let failStartup: (error: Error) => void = () => {};
    const startupFailed = new Promise<never>((_, reject) => {
      failStartup = reject;
    });
    startupFailed.catch(() => {});
    const timeout = setTimeout(() => failStartup(new Error(`OCR worker did not start within ${WORKER_START_TIMEOUT_MS} ms`)), WORKER_START_TIMEOUT_MS);
    const life = { started: false, stopping: false };
    let worker: Tesseract.Worker | undefined;
    try {
      worker = await Promise.race([
        Tesseract.createWorker(config.langs, Tesseract.OEM.LSTM_ONLY, {
          langPath,
          gzip: true,
          cacheMethod: 'none',
          // Without it a failed language load throws inside tesseract.js's message
          // handler; the failed load also never settles createWorker, hence the race.
          errorHandler: (error: unknown) => failStartup(errorFrom(error, 'OCR worker error')),
        }),
        startupFailed,
      ]);
      watchThread(worker, (cause) => {
        if (life.stopping) return;
        life.stopping = true;
        if (life.started) died(cause);
        else failStartup(cause);
      });
      await Promise.race([
        worker.setParameters({
          tessedit_pageseg_mode: PAGE_SEGMENTATION_MODE as Tesseract.PSM,
          // Tesseract's diagnostics ("Estimating resolution as ...") would otherwise go to our stdout.
          debug_file: '/dev/null',
        }),
        startupFailed,
      ]);
      await Promise.race([recognizeWith(worker, WARM_UP_RASTER, 'none'), startupFailed]);
      life.started = true;
      return new TesseractThread(worker, config.rotation, life);
    } catch (error) {
      life.stopping = true;
      await worker?.terminate().catch(() => {});
      throw error;
    } finally {
      clearTimeout(timeout);
    }
  }

  run(raster: GreyRaster): Promise<OcrResult> {
    return readPage(this.worker, raster, this.rotation);
  }

  async stop(): Promise<void> {
    this.life.stopping = true;
    try {
      await this.worker.terminate();
    } catch {
      // Already gone; nothing left to release.
    }
  }
}

/**
 * tesseract.js watches its thread only through `onerror`, which Node never
 * calls: an 'error' event would crash the process and the job on that
 * worker would never settle. We listen ourselves and tell the pool, which
 * fails the page and replaces the worker.
 */
function watchThread(worker: Tesseract.Worker, onDeath: (cause: Error) => void): void {
  const thread = (worker as unknown as { worker?: ThreadWorker }).worker;
  if (!thread) return;
  thread.on('error', (cause) => onDeath(errorFrom(cause, 'OCR worker thread exited')));
  thread.on('exit', (code) => onDeath(new Error(`OCR worker thread exited with code ${code}`)));
}

/**
 * A fixed number of tesseract.js workers on the service's thread pool. We do
 * not use tesseract's scheduler because workers must be recycled: after
 * `recycleAfterJobs` jobs a worker is terminated and replaced (long-lived wasm
 * heaps only grow), and a worker that crashes, fails a page or is abandoned
 * mid-job (Tesseract cannot cancel a recognition: it would burn CPU on a page
 * nobody waits for) is replaced too.
 */
export class TesseractPool implements OcrEngine {
  readonly name = 'tesseract' as const;
  private readonly pool: ThreadPool<GreyRaster, OcrResult>;

  private constructor(config: TesseractConfig, langPath: string, logger: OcrLogger) {
    this.pool = new ThreadPool({
      label: 'OCR',
      start: (died) => TesseractThread.start(config, langPath, died),
      minThreads: config.workers,
      maxThreads: config.workers,
      recycleAfterTasks: config.recycleAfterJobs,
      // any failure inside the wasm worker may leave it in a bad state; a fresh one is cheap
      replaceAfterFailure: true,
      runningAbort: 'stop',
      logger,
    });
  }

  static async create(config: TesseractConfig, logger: OcrLogger = noopOcrLogger): Promise<TesseractPool> {
    const langPath = resolve(config.langPath ?? defaultLangPath());
    await assertLanguageDataPresent(langPath, config.langs);
    const pool = new TesseractPool(config, langPath, logger);
    const started = performance.now();
    await pool.pool.started();
    logger.info({ workers: config.workers, langs: config.langs, ms: Math.round(performance.now() - started) }, 'OCR workers ready');
    return pool;
  }

  /**
   * Reads one page. The result's boxes refer to the raster described by its
   * `width`/`height`/`rotation`: the input, or the input turned by a quarter
   * when OCR_ROTATION=auto found it sideways. All passes of one page run on one
   * worker as one job.
   */
  recognize(raster: GreyRaster, signal?: AbortSignal): Promise<OcrResult> {
    const problem = rasterProblem(raster);
    if (problem) return Promise.reject(problem);
    if (Math.max(raster.width, raster.height) > MAX_OCR_SIDE) return this.recognizeShrunk(raster, signal);
    return this.pool.run(raster, signal);
  }

  /** Reads the raster shrunk to fit; its boxes still lead back to the raster as given (toInput scales them up). */
  private async recognizeShrunk(raster: GreyRaster, signal?: AbortSignal): Promise<OcrResult> {
    const fitting = await shrinkToSide(raster, MAX_OCR_SIDE);
    const result = await this.recognize(fitting, signal);
    const scaleUp: Affine = [raster.width / fitting.width, 0, 0, raster.height / fitting.height, 0, 0];
    return { ...result, toInput: compose(scaleUp, result.toInput) };
  }

  status(): OcrStatus {
    return ocrStatus(this.name, this.pool.status());
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
