import { EventEmitter, once } from 'node:events';
import type { ExtractionRequest } from '../pipeline.js';
import { deadline } from '../util/deadline.js';
import { isFinal, QUEUED_PROGRESS, type FinalStatus, type JobError, type JobProgress, type JobRecord, type JobStatus } from './job.js';

/**
 * Where jobs are kept: the records, the inputs until a job ends, the results
 * until they expire, and the news that a job changed or was canceled. Two
 * implementations: this process's memory (memory-store.ts) and Redis
 * (redis-store.ts, shared by every replica). Every change of state is one
 * atomic step, so a job ends once however many runs or cancels race for it.
 */

/**
 * The request of the submit, parsed; and its JSON body as received, when it
 * came as JSON (a store that keeps bytes keeps those; a multipart submit's
 * request it encodes itself: input-bytes.ts).
 */
export interface JobInput {
  raw?: Buffer;
  request: ExtractionRequest;
}

/** The Idempotency-Key of a submit (scoped to the submitting key by the store) and a digest of the body it came with. */
export interface IdempotencyClaim {
  key: string;
  bodyHash: string;
}

export type CreateOutcome = { record: JobRecord; created: boolean } | { conflict: true };

export type JobEnd = { status: 'succeeded'; result: string } | { status: 'failed'; error: JobError };

/** After a record's result expires it is kept this long, small, so that the id answers 410 rather than 404. */
export const TOMBSTONE_MS = 7 * 24 * 3_600_000;

export interface JobStore {
  readonly kind: 'in-process' | 'redis';
  /** Creates the record and keeps the input; or, for an Idempotency-Key seen before, the job it made (or a conflict). */
  create(record: JobRecord, input: JobInput, idempotency?: IdempotencyClaim): Promise<CreateOutcome>;
  get(id: string): Promise<JobRecord | undefined>;
  /** The result's JSON text, while it has not expired or been deleted. */
  result(id: string): Promise<Buffer | undefined>;
  /** Jobs queued or running. */
  pendingCount(): Promise<number>;
  /** Ids of jobs queued or running that were created before `before` (epoch ms), oldest first. */
  pendingBefore(before: number, limit: number): Promise<string[]>;
  /** A worker takes the job: running, one more attempt. Undefined when there is nothing to run (ended, canceled, gone). */
  start(id: string, worker: string): Promise<JobRecord | undefined>;
  /** The input of a job that has not ended. */
  input(id: string): Promise<ExtractionRequest | undefined>;
  progress(id: string, progress: JobProgress): Promise<void>;
  /** A run handed the job back (its worker is stopping): queued again, unless it ended meanwhile. */
  requeue(id: string): Promise<void>;
  /** Ends the job and deletes its input; undefined when it had already ended (another run or a cancel came first). */
  finish(id: string, end: JobEnd, resultTtlMs: number): Promise<JobRecord | undefined>;
  /**
   * Cancels a job that has not ended, or deletes the result of one that has; deletes its input either way.
   * `canceled` says whether this call ended it. Undefined when there is no such job.
   */
  cancel(id: string, resultTtlMs: number): Promise<{ record: JobRecord; canceled: boolean } | undefined>;
  /** Resolves when the job changes (status or progress), after `ms`, or when `signal` aborts. */
  waitForChange(id: string, ms: number, signal: AbortSignal): Promise<void>;
  /** Calls `listener` with the id of every job canceled from now on (by any replica); returns the way to stop. */
  onCancel(listener: (id: string) => void): () => void;
  close(): Promise<void>;
}

/*
 * What both stores decide the same way, written once. Each change of state
 * has a condition on the status the job has (in memory checked in place; in
 * Redis inside the change's Lua script, written from the same lists) and the
 * fields it writes.
 */

/*
 * A job is started, finished or canceled only while it has not ended
 * (isFinal, FINAL_STATUSES); its progress is reported, and it is handed back,
 * only in this status, while a worker runs it.
 */
export const RUNNING_STATUS = 'running' satisfies JobStatus;

/** What start() writes (attempts goes up by one besides: Redis counts it in the script, so that two starts never both write 1). */
export function startedFields(now: number): Pick<JobRecord, 'status' | 'startedAt' | 'progress'> {
  return { status: 'running', startedAt: now, progress: { stage: 'reading', pagesDone: 0, pagesTotal: null } };
}

/** What requeue() writes: waiting for a worker again. */
export function requeuedFields(): Pick<JobRecord, 'status' | 'progress'> {
  return { status: 'queued', progress: QUEUED_PROGRESS };
}

/** What finish() and cancel() write into the record. */
export function endedRecord(record: JobRecord, status: FinalStatus, now: number, resultTtlMs: number, error: JobError | null): JobRecord {
  const pagesDone = record.progress.pagesDone;
  return {
    ...record,
    status,
    finishedAt: now,
    expiresAt: now + resultTtlMs,
    error,
    progress: { stage: 'done', pagesDone, pagesTotal: record.progress.pagesTotal ?? (status === 'succeeded' ? pagesDone : null) },
  };
}

/** The fields endedRecord changes, for a store that writes only those. */
export function endedFields(record: JobRecord): Pick<JobRecord, 'status' | 'finishedAt' | 'expiresAt' | 'error' | 'progress'> {
  const { status, finishedAt, expiresAt, error, progress } = record;
  return { status, finishedAt, expiresAt, error, progress };
}

/**
 * Expiry: an ended job's result can be fetched until `expiresAt`; its record
 * stays TOMBSTONE_MS longer, so that the id answers 410 rather than 404.
 */
export function resultExpired(record: JobRecord, now: number): boolean {
  return isFinal(record.status) && record.expiresAt <= now;
}

export function recordExpired(record: JobRecord, now: number): boolean {
  return isFinal(record.status) && record.expiresAt + TOMBSTONE_MS <= now;
}

/** How long an ended record is kept, from its end (Redis sets it as the keys' time to live). */
export function recordTtlMs(resultTtlMs: number): number {
  return resultTtlMs + TOMBSTONE_MS;
}

/**
 * The news that a job changed or was canceled, as this process hears it:
 * the memory store tells it itself, the Redis store from its channels (so
 * from every replica). Long polls wait on it; workers hear cancels.
 */
export class JobNews {
  private readonly events = new EventEmitter();

  constructor() {
    this.events.setMaxListeners(0);
  }

  changed(id: string): void {
    this.events.emit(`changed ${id}`);
  }

  canceled(id: string): void {
    this.events.emit('cancel', id);
  }

  /** Resolves when the job changes (status or progress), after `ms`, or when `signal` aborts. */
  async waitForChange(id: string, ms: number, signal: AbortSignal): Promise<void> {
    const limit = deadline(ms, [signal]);
    try {
      await once(this.events, `changed ${id}`, { signal: limit.signal });
    } catch {
      // the wait ran out or the caller left: the record is read again either way
    } finally {
      limit.clear();
    }
  }

  onCancel(listener: (id: string) => void): () => void {
    this.events.on('cancel', listener);
    return () => this.events.off('cancel', listener);
  }

  close(): void {
    this.events.removeAllListeners();
  }
}
