import { hostname } from 'node:os';
import type { JobsConfig } from '../config.js';
import { AppError, errorAnswer, isAppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { responseBody, runExtraction, type PipelineDeps } from '../pipeline.js';
import { deadline } from '../util/deadline.js';
import { jsonText, Pacer, runPaced } from '../util/paced.js';
import { untilAborted } from '../util/until-aborted.js';
import type { JobError, JobProgress, JobRecord } from './job.js';
import type { ExtractionTask, JobObserver } from './jobs.js';
import type { JobStore } from './store.js';
import type { Webhooks } from './webhooks.js';
import { RetryLater, type Task, type WorkQueue } from './work-queue.js';

export interface WorkerDeps {
  store: JobStore;
  queue: WorkQueue<ExtractionTask>;
  webhooks: Webhooks;
  pipeline: PipelineDeps;
  config: Pick<JobsConfig, 'concurrency' | 'resultTtlMs' | 'timeoutMs'>;
  logger: Logger;
  observer?: JobObserver;
}

/** Why a run stopped when its job was canceled. */
class Canceled extends Error {}

/** A backend that was unavailable (503) may be back by the next attempt; the caller's mistakes and time limits will not change. */
function retryable(error: JobError): boolean {
  return error.status === 503;
}

/**
 * Cancels travel as notices (Redis pub/sub), and a notice published while
 * the worker's connection is away is lost: a running job also reads its own
 * record this often, so a cancel reaches it within that time whatever.
 */
const CANCEL_CHECK_MS = 5000;

/** Names this worker in the job record (not shown to callers): which host and process ran it. */
const WORKER_NAME = `${hostname()}:${process.pid}`;

/**
 * The worker loop: takes jobs from the queue, `config.concurrency` at once,
 * and runs each with the same pipeline as POST /v1/ (`runExtraction`, the
 * same OCR and engine pools), reporting progress per page. A cancel (from
 * any replica) aborts the run at its next page or model call; JOB_TIMEOUT
 * bounds a run. The result or the error is written once, however many
 * runs raced (a worker taken for dead that was not); then the webhook is
 * queued.
 */
export function runJobWorkers(deps: WorkerDeps): void {
  deps.queue.process((task) => runJob(deps, task), deps.config.concurrency);
}

async function runJob(deps: WorkerDeps, task: Task<ExtractionTask>): Promise<void> {
  const { store, logger, config } = deps;
  const id = task.id;
  const record = await store.start(id, WORKER_NAME);
  if (!record) return; // canceled or ended before this run: nothing to do
  const started = performance.now();
  deps.observer?.started(Math.max(0, (record.startedAt ?? record.createdAt) - record.createdAt));
  logger.info({ jobId: id, attempt: record.attempts }, 'job started');

  const canceled = new AbortController();
  const stopListening = store.onCancel((canceledId) => {
    if (canceledId === id) canceled.abort(new Canceled());
  });
  const cancelCheck = setInterval(() => {
    store.get(id).then(
      (now) => {
        if (!now || now.status === 'canceled') canceled.abort(new Canceled());
      },
      () => undefined, // Redis away: the next check, or the notice, tells
    );
  }, CANCEL_CHECK_MS);
  const limit = deadline(config.timeoutMs, [task.signal, canceled.signal], () => new AppError('timeout', `the job exceeded its time limit of ${config.timeoutMs} ms (JOB_TIMEOUT)`));
  const signal = limit.signal;
  let progress: JobProgress = record.progress;
  const report = (next: JobProgress) => {
    progress = next;
    store.progress(id, next).catch((error: unknown) => logger.warn({ jobId: id, err: (error as Error).message }, 'job progress not saved'));
  };

  try {
    const request = await store.input(id);
    if (!request) return; // canceled between start and now
    const outcome = await untilAborted(
      runExtraction(deps.pipeline, request, signal, {
        pages: (pagesDone, pagesTotal) => report({ stage: 'reading', pagesDone, pagesTotal }),
        extracting: () => report({ ...progress, stage: 'extracting' }),
      }),
      signal,
    );
    // written in turns, as POST /v1/ writes its answer: one JSON.stringify of thousands of rows with their evidence held the loop
    const result = await runPaced(jsonText(responseBody(outcome, request.options)), new Pacer(signal));
    const ended = await store.finish(id, { status: 'succeeded', result }, config.resultTtlMs);
    if (ended) await announce(deps, ended, started);
  } catch (error) {
    if (task.signal.aborted) {
      // handed back to the queue (this worker stops, or lost its hold): another run takes it
      await store.requeue(id).catch(() => undefined);
      throw error;
    }
    if (canceled.signal.aborted) {
      logger.info({ jobId: id }, 'job canceled while running');
      return;
    }
    const failure = jobError(error, logger, id);
    if (retryable(failure) && task.attempt < task.maxAttempts) {
      await store.requeue(id).catch(() => undefined);
      throw new RetryLater(failure.body.error);
    }
    const ended = await store.finish(id, { status: 'failed', error: failure }, config.resultTtlMs);
    if (ended) await announce(deps, ended, started);
  } finally {
    limit.clear();
    clearInterval(cancelCheck);
    stopListening();
  }
}

async function announce(deps: WorkerDeps, ended: JobRecord, started: number): Promise<void> {
  const ms = performance.now() - started;
  deps.observer?.finished(ended.status as 'succeeded' | 'failed', ms);
  deps.logger.info({ jobId: ended.id, status: ended.status, attempt: ended.attempts, ms: Math.round(ms), ...(ended.error ? { errorStatus: ended.error.status } : {}) }, 'job finished');
  await deps.webhooks.announce(ended);
}

/** The error as POST /v1/ would have answered it. */
function jobError(error: unknown, logger: Logger, id: string): JobError {
  if (!isAppError(error)) logger.error({ jobId: id, err: error }, 'job failed unexpectedly');
  const { status, body } = errorAnswer(error);
  return { status, body };
}
