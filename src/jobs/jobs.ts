import { randomUUID } from 'node:crypto';
import type { JobsConfig } from '../config.js';
import { AppError, isAppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { isFinal, newRecord, type FinalStatus, type JobRecord, type WebhookTarget } from './job.js';
import type { IdempotencyClaim, JobInput, JobStore } from './store.js';
import type { Webhooks } from './webhooks.js';
import type { WorkQueue } from './work-queue.js';

/** What an extraction task carries through the queue: nothing but its id (the input is in the store). */
export type ExtractionTask = Record<string, never>;

/** Told when jobs start and end (metrics); the worker and the API each report their own. */
export interface JobObserver {
  started(queuedMs: number): void;
  finished(status: FinalStatus, runMs: number | null): void;
}

export interface SubmitRequest {
  owner: string;
  input: JobInput;
  metadata: Record<string, unknown> | null;
  webhook: WebhookTarget | null;
  /** The service's URL as the caller reached it (the result's address in webhooks). */
  baseUrl: string;
  idempotency?: IdempotencyClaim;
}

export interface JobsDeps {
  store: JobStore;
  queue: WorkQueue<ExtractionTask>;
  webhooks: Webhooks;
  config: Pick<JobsConfig, 'resultTtlMs' | 'maxPending'>;
  logger: Logger;
  observer?: JobObserver;
}

/** How long a caller is told to wait before asking again (202, a running job, an unreachable queue). */
export const POLL_AFTER_SECONDS = 1;
const UNAVAILABLE_RETRY_SECONDS = 5;
/** The longest a long poll goes without reading the record again (one HGETALL a second per waiting caller). */
const WAIT_REREAD_MS = 1000;

function changedSince(before: JobRecord, now: JobRecord): boolean {
  return before.status !== now.status || before.attempts !== now.attempts || JSON.stringify(before.progress) !== JSON.stringify(now.progress);
}

/**
 * The API's side of jobs: submit, status (with a long poll), result,
 * cancel. A job belongs to the API key that submitted it: to any other key
 * it does not exist (404), so no caller learns of another's documents.
 */
export class Jobs {
  constructor(private readonly deps: JobsDeps) {}

  get kind(): JobStore['kind'] {
    return this.deps.store.kind;
  }

  async submit(request: SubmitRequest): Promise<{ record: JobRecord; created: boolean }> {
    const { store, queue, config } = this.deps;
    return this.reachable(async () => {
      if ((await store.pendingCount()) >= config.maxPending) {
        throw new AppError('saturated', `the job queue is full (${config.maxPending} jobs queued or running, JOB_MAX_PENDING); retry later`, { retryAfterSeconds: 30 });
      }
      const id = randomUUID();
      const record = newRecord({ id, owner: request.owner, createdAt: Date.now(), metadata: request.metadata, webhook: request.webhook, resultUrl: `${request.baseUrl}/v1/jobs/${id}/result` }, config.resultTtlMs);
      const outcome = await store.create(record, request.input, request.idempotency);
      if ('conflict' in outcome) {
        throw new AppError('idempotency_conflict', 'Idempotency-Key was already used with a different request body; use a new key for a new request');
      }
      if (outcome.created) {
        try {
          await queue.add(id, {});
        } catch (error) {
          // never a record that no worker will ever take
          await store.cancel(id, config.resultTtlMs).catch(() => undefined);
          throw error;
        }
      }
      return outcome;
    });
  }

  async status(owner: string, id: string): Promise<JobRecord> {
    return this.reachable(async () => this.owned(owner, id, await this.deps.store.get(id)));
  }

  /**
   * The job once it changed (status, attempts or progress), or after `ms`;
   * at once when it has ended. Change notices make it quick, and the record
   * is read again at least every WAIT_REREAD_MS as well: a notice can be
   * lost (Redis pub/sub delivers at most once, and nothing while the
   * connection is away), and a lost one must not hold the caller for the
   * whole wait, or past the job's end.
   */
  async wait(owner: string, id: string, ms: number, signal: AbortSignal): Promise<JobRecord> {
    return this.reachable(async () => {
      const until = Date.now() + ms;
      let first: JobRecord | undefined;
      for (;;) {
        const left = until - Date.now();
        const stop = new AbortController();
        // listening before reading: a change between the two is not missed
        const changed = left > 0 ? this.deps.store.waitForChange(id, Math.min(left, WAIT_REREAD_MS), AbortSignal.any([signal, stop.signal])) : undefined;
        const record = this.owned(owner, id, await this.deps.store.get(id));
        first ??= record;
        if (!changed || signal.aborted || isFinal(record.status) || changedSince(first, record)) {
          stop.abort();
          return record;
        }
        await changed;
      }
    });
  }

  /** The result's JSON text; 409 while the job runs or when it did not succeed, 410 once it expired or was deleted. */
  async result(owner: string, id: string): Promise<Buffer> {
    return this.reachable(async () => {
      const record = this.owned(owner, id, await this.deps.store.get(id));
      if (!isFinal(record.status)) {
        throw new AppError('not_finished', `job ${id} is ${record.status}; its result is ready when GET /v1/jobs/${id} says succeeded`, { retryAfterSeconds: POLL_AFTER_SECONDS });
      }
      if (record.status === 'canceled') throw new AppError('gone', `job ${id} was canceled; it has no result`);
      if (record.status === 'failed') {
        throw new AppError('not_finished', `job ${id} failed: ${record.error?.body.error ?? 'no reason given'}`, record.error?.body.details ? { details: record.error.body.details } : {});
      }
      const result = await this.deps.store.result(id);
      if (!result) throw new AppError('gone', `the result of job ${id} has expired or was deleted (it is kept for JOB_RESULT_TTL after the job ends)`);
      return result;
    });
  }

  /** Cancels a job that has not ended (a running one stops at its next page or model call), or deletes a result; input and result are deleted. */
  async cancel(owner: string, id: string): Promise<JobRecord> {
    const { store, queue, config, webhooks, observer } = this.deps;
    return this.reachable(async () => {
      this.owned(owner, id, await store.get(id));
      const outcome = await store.cancel(id, config.resultTtlMs);
      if (!outcome) throw this.notFound(id);
      if (outcome.canceled) {
        await queue.remove(id);
        observer?.finished('canceled', null);
        await webhooks.announce(outcome.record);
      }
      return outcome.record;
    });
  }

  /** Jobs waiting and running in the queue (all replicas), for metrics and /readyz. */
  async counts(): Promise<{ queued: number; running: number }> {
    const { waiting, active } = await this.deps.queue.counts();
    return { queued: waiting, running: active };
  }

  private owned(owner: string, id: string, record: JobRecord | undefined): JobRecord {
    if (!record || record.owner !== owner) throw this.notFound(id);
    return record;
  }

  private notFound(id: string): AppError {
    return new AppError('not_found', `no job ${id} for this API key`);
  }

  /** The store's own failures (Redis unreachable, out of memory) become 503 with Retry-After; ours pass through. */
  private async reachable<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isAppError(error)) throw error;
      this.deps.logger.warn({ err: (error as Error).message }, 'job queue unavailable');
      throw new AppError('queue_unavailable', 'the job queue (Redis) is not reachable; retry later', { retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS, cause: error });
    }
  }
}
