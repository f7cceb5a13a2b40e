import type { ExtractionRequest } from '../pipeline.js';
import type { FinalStatus, JobError, JobProgress, JobRecord } from './job.js';

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

/** What finish() writes into the record. */
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
