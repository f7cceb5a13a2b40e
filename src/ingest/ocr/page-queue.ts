/**
 * What both OCR engines' pools share: pages waiting for a free worker,
 * refused at once when the engine cannot read them, dropped when their
 * request aborts while they wait, and the status /readyz shows. Each engine
 * decides how a page runs on its workers and what an abort does to a page
 * already running.
 */
import type { GreyRaster } from '../../document/raster.js';
import { rasterProblem, type OcrEngineName, type OcrResult, type OcrStatus } from './engine.js';

export interface PageJob {
  /** Unique within the queue: lets a worker thread say which page it answers. */
  id: number;
  raster: GreyRaster;
  signal: AbortSignal | undefined;
  resolve(result: OcrResult): void;
  reject(error: unknown): void;
  /** Stops listening to the signal; call when the job is settled. */
  detachAbort(): void;
}

export type SlotState = 'starting' | 'idle' | 'busy' | 'dead';

export class PageQueue {
  closed = false;
  jobsDone = 0;
  private readonly waiting: PageJob[] = [];
  private nextId = 1;

  /**
   * @param abortRunning called when the signal of a job no longer waiting aborts (the engine settles it)
   * @param dispatch called after a job was queued, to hand it to a free worker
   */
  constructor(
    private readonly abortRunning: (job: PageJob) => void,
    private readonly dispatch: () => void,
  ) {}

  /** A page to read; rejects at once when the engine is closed or without workers, the signal aborted or the raster malformed. */
  submit(raster: GreyRaster, signal: AbortSignal | undefined, hasWorkers: boolean): Promise<OcrResult> {
    if (this.closed) return Promise.reject(new Error('OCR engine is closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const problem = rasterProblem(raster);
    if (problem) return Promise.reject(problem);
    if (!hasWorkers) return Promise.reject(new Error('OCR engine has no working workers'));
    return new Promise<OcrResult>((resolveJob, rejectJob) => {
      const onAbort = (): void => {
        if (this.drop(job)) job.reject(signal?.reason);
        else this.abortRunning(job);
      };
      const job: PageJob = {
        id: this.nextId++,
        raster,
        signal,
        resolve: resolveJob,
        reject: rejectJob,
        detachAbort: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(job);
      this.dispatch();
    });
  }

  get length(): number {
    return this.waiting.length;
  }

  /** The next waiting job, if any. */
  take(): PageJob | undefined {
    return this.waiting.shift();
  }

  /** Fails every waiting job (the engine closes, or lost its last worker). */
  rejectAll(error: Error): void {
    for (const job of this.waiting.splice(0)) {
      job.detachAbort();
      job.reject(error);
    }
  }

  status(engine: OcrEngineName, slots: readonly { state: SlotState }[]): OcrStatus {
    const live = slots.filter((slot) => slot.state !== 'dead');
    return {
      engine,
      // A worker being replaced still counts: queued jobs run as soon as it is back.
      ready: !this.closed && live.length > 0,
      workers: live.length,
      busy: live.filter((slot) => slot.state === 'busy').length,
      queued: this.waiting.length,
      jobsDone: this.jobsDone,
    };
  }

  private drop(job: PageJob): boolean {
    const at = this.waiting.indexOf(job);
    if (at < 0) return false;
    this.waiting.splice(at, 1);
    job.detachAbort();
    return true;
  }
}
