/**
 * A job as docshape keeps it, and as GET /v1/jobs/{id} shows it. A record
 * holds no document byte and no value: the input and the result are kept
 * beside it (store.ts) and deleted when the job ends and when it expires.
 */

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** The statuses a job ends in: it never leaves one (redis-store.ts's scripts are written from this list too). */
export const FINAL_STATUSES = ['succeeded', 'failed', 'canceled'] as const satisfies readonly JobStatus[];
export type FinalStatus = (typeof FINAL_STATUSES)[number];

export function isFinal(status: JobStatus): status is FinalStatus {
  return (FINAL_STATUSES as readonly JobStatus[]).includes(status);
}

/** Where a running job is: reading pages (pdf.js, OCR), then the engine reading the document. */
export type JobStage = 'queued' | 'reading' | 'extracting' | 'done';

export interface JobProgress {
  stage: JobStage;
  pagesDone: number;
  /** Unknown (null) until the files were opened. */
  pagesTotal: number | null;
}

/** The progress of a job waiting for a worker (new, or handed back). */
export const QUEUED_PROGRESS: JobProgress = Object.freeze({ stage: 'queued', pagesDone: 0, pagesTotal: null });

/** The body a synchronous request would have been answered with, and its status. */
export interface JobError {
  status: number;
  body: { error: string; details?: string[] };
}

export interface WebhookTarget {
  url: string;
}

export interface JobRecord {
  id: string;
  /** Digest of the API key that submitted it: any other key is told the job does not exist. */
  owner: string;
  status: JobStatus;
  progress: JobProgress;
  /** Runs started so far (a worker that died mid-job makes a second). */
  attempts: number;
  /** Epoch ms. */
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** When the record and the result go (the result can be fetched until then). */
  expiresAt: number;
  error: JobError | null;
  metadata: Record<string, unknown> | null;
  webhook: WebhookTarget | null;
  /** The absolute URL of the result, for webhooks. */
  resultUrl: string;
}

/** A job as submitted, before it has a status. */
export type NewJob = Pick<JobRecord, 'id' | 'owner' | 'createdAt' | 'metadata' | 'webhook' | 'resultUrl'>;

export function newRecord(job: NewJob, resultTtlMs: number): JobRecord {
  return {
    ...job,
    status: 'queued',
    progress: QUEUED_PROGRESS,
    attempts: 0,
    startedAt: null,
    finishedAt: null,
    // finishedAt + the TTL once it ends; until then the earliest it can be
    expiresAt: job.createdAt + resultTtlMs,
    error: null,
  };
}

/** GET /v1/jobs/{id}: the record as the caller sees it (times as ISO 8601; no owner, no internals). */
export function jobView(record: JobRecord): Record<string, unknown> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: record.id,
    status: record.status,
    progress: record.progress,
    attempts: record.attempts,
    createdAt: iso(record.createdAt),
    startedAt: iso(record.startedAt),
    finishedAt: iso(record.finishedAt),
    expiresAt: iso(record.expiresAt),
    error: record.error?.body ?? null,
    errorStatus: record.error?.status ?? null,
    metadata: record.metadata,
  };
}
