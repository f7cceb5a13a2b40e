import type { ExtractionRequest } from '../pipeline.js';
import { isFinal, type JobProgress, type JobRecord } from './job.js';
import { endedRecord, JobNews, recordExpired, requeuedFields, resultExpired, RUNNING_STATUS, startedFields, type CreateOutcome, type IdempotencyClaim, type JobEnd, type JobInput, type JobStore } from './store.js';

interface Entry {
  record: JobRecord;
  input: ExtractionRequest | undefined;
  result: Buffer | undefined;
  idempotencyKey: string | undefined;
}

/** How often expired results and records are dropped. */
const SWEEP_MS = 60_000;

/**
 * Jobs in this process's memory: `npm start` alone serves jobs, but they do
 * not survive a restart and another replica cannot see them (REDIS_URL for
 * that). The input is kept parsed, so a worker does not parse it again.
 */
export class MemoryJobStore implements JobStore {
  readonly kind = 'in-process';
  private readonly entries = new Map<string, Entry>();
  /** `${owner} ${key}` -> [body hash, job id] */
  private readonly idempotency = new Map<string, [string, string]>();
  private readonly news = new JobNews();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  async create(record: JobRecord, input: JobInput, claim?: IdempotencyClaim): Promise<CreateOutcome> {
    const idempotencyKey = claim ? `${record.owner} ${claim.key}` : undefined;
    const earlier = idempotencyKey ? this.idempotency.get(idempotencyKey) : undefined;
    if (earlier) {
      const existing = this.entries.get(earlier[1]);
      if (existing) return earlier[0] === claim!.bodyHash ? { record: { ...existing.record }, created: false } : { conflict: true };
    }
    this.entries.set(record.id, { record: { ...record }, input: input.request, result: undefined, idempotencyKey });
    if (idempotencyKey) this.idempotency.set(idempotencyKey, [claim!.bodyHash, record.id]);
    return { record, created: true };
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const entry = this.live(id);
    return entry && { ...entry.record };
  }

  async result(id: string): Promise<Buffer | undefined> {
    const entry = this.live(id);
    return entry && !resultExpired(entry.record, this.now()) ? entry.result : undefined;
  }

  async pendingCount(): Promise<number> {
    let count = 0;
    for (const { record } of this.entries.values()) if (!isFinal(record.status)) count++;
    return count;
  }

  async pendingBefore(before: number, limit: number): Promise<string[]> {
    return [...this.entries.values()]
      .filter(({ record }) => !isFinal(record.status) && record.createdAt < before)
      .sort((a, b) => a.record.createdAt - b.record.createdAt)
      .slice(0, limit)
      .map(({ record }) => record.id);
  }

  /** (One process: the worker's name says nothing here.) */
  async start(id: string): Promise<JobRecord | undefined> {
    const entry = this.live(id);
    if (!entry || isFinal(entry.record.status)) return undefined;
    entry.record = { ...entry.record, ...startedFields(this.now()), attempts: entry.record.attempts + 1 };
    this.news.changed(id);
    return { ...entry.record };
  }

  async input(id: string): Promise<ExtractionRequest | undefined> {
    return this.live(id)?.input;
  }

  async progress(id: string, progress: JobProgress): Promise<void> {
    const entry = this.live(id);
    if (!entry || entry.record.status !== RUNNING_STATUS) return;
    entry.record = { ...entry.record, progress };
    this.news.changed(id);
  }

  async requeue(id: string): Promise<void> {
    const entry = this.live(id);
    if (!entry || entry.record.status !== RUNNING_STATUS) return;
    entry.record = { ...entry.record, ...requeuedFields() };
    this.news.changed(id);
  }

  async finish(id: string, end: JobEnd, resultTtlMs: number): Promise<JobRecord | undefined> {
    const entry = this.live(id);
    if (!entry || isFinal(entry.record.status)) return undefined;
    entry.record = endedRecord(entry.record, end.status, this.now(), resultTtlMs, end.status === 'failed' ? end.error : null);
    entry.input = undefined;
    if (end.status === 'succeeded') entry.result = Buffer.from(end.result);
    this.news.changed(id);
    return { ...entry.record };
  }

  async cancel(id: string, resultTtlMs: number): Promise<{ record: JobRecord; canceled: boolean } | undefined> {
    const entry = this.live(id);
    if (!entry) return undefined;
    entry.input = undefined;
    entry.result = undefined;
    if (isFinal(entry.record.status)) return { record: { ...entry.record }, canceled: false };
    entry.record = endedRecord(entry.record, 'canceled', this.now(), resultTtlMs, null);
    this.news.changed(id);
    this.news.canceled(id);
    return { record: { ...entry.record }, canceled: true };
  }

  waitForChange(id: string, ms: number, signal: AbortSignal): Promise<void> {
    return this.news.waitForChange(id, ms, signal);
  }

  onCancel(listener: (id: string) => void): () => void {
    return this.news.onCancel(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.news.close();
  }

  /** The entry unless its tombstone ran out too. */
  private live(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry && recordExpired(entry.record, this.now())) {
      this.drop(id, entry);
      return undefined;
    }
    return entry;
  }

  private drop(id: string, entry: Entry): void {
    this.entries.delete(id);
    if (entry.idempotencyKey) this.idempotency.delete(entry.idempotencyKey);
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) {
      if (resultExpired(entry.record, now)) entry.result = undefined;
      if (recordExpired(entry.record, now)) this.drop(id, entry);
    }
  }
}
