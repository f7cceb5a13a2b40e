import type { Redis } from 'ioredis';
import type { ExtractionRequest } from '../pipeline.js';
import { FINAL_STATUSES, QUEUED_PROGRESS, type JobProgress, type JobRecord, type JobStatus } from './job.js';
import { inputBytes, requestFromInputBytes } from './input-bytes.js';
import { endedFields, endedRecord, JobNews, recordTtlMs, requeuedFields, RUNNING_STATUS, startedFields, type CreateOutcome, type IdempotencyClaim, type JobEnd, type JobInput, type JobStore } from './store.js';

/**
 * Jobs in Redis, shared by every replica and worker. A record is a small
 * hash; the input (the submitted body, until the job ends) and the result
 * (until it expires) are strings beside it; a sorted set indexes the jobs
 * that have not ended. Each change of state is one Lua script, so it is
 * atomic: a job ends once (a second run or a cancel finds it ended), and
 * its changes are published on a channel for long polls and cancels.
 */

/** Lua: true when the status is one a job ends in (FINAL_STATUSES). */
const FINAL = `local function final(s) return ${FINAL_STATUSES.map((status) => `s == '${status}'`).join(' or ')} end`;
/** Lua: answers nil unless the record (KEYS[1]) exists and its job has not ended, so that a job ends once. */
const ONLY_WHILE_OPEN = `${FINAL}
      local status = redis.call('HGET', KEYS[1], 'status')
      if not status or final(status) then return nil end`;

const SCRIPTS = {
  // KEYS: record, input, pending, idempotency ('' when none); ARGV: id, createdAt, body hash, input, then field/value pairs
  jobCreate: {
    numberOfKeys: 4,
    lua: `
      if KEYS[4] ~= '' then
        local earlier = redis.call('GET', KEYS[4])
        if earlier then
          local hash, id = string.match(earlier, '^(%S+) (%S+)$')
          if redis.call('EXISTS', KEYS[1]:gsub('[^:]+$', id)) == 1 then
            if hash == ARGV[3] then return {'existing', id} end
            return {'conflict', id}
          end
        end
        redis.call('SET', KEYS[4], ARGV[3] .. ' ' .. ARGV[1])
      end
      redis.call('HSET', KEYS[1], unpack(ARGV, 5))
      redis.call('SET', KEYS[2], ARGV[4])
      redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
      return {'created', ARGV[1]}`,
  },
  // KEYS: record; ARGV: changed channel, id, then field/value pairs
  jobStart: {
    numberOfKeys: 1,
    lua: `${ONLY_WHILE_OPEN}
      redis.call('HSET', KEYS[1], unpack(ARGV, 3))
      redis.call('HINCRBY', KEYS[1], 'attempts', 1)
      redis.call('PUBLISH', ARGV[1], ARGV[2])
      return redis.call('HGETALL', KEYS[1])`,
  },
  // KEYS: record; ARGV: status it must have, field/value pairs..., changed channel, id (the last two)
  jobUpdateIf: {
    numberOfKeys: 1,
    lua: `
      if redis.call('HGET', KEYS[1], 'status') ~= ARGV[1] then return 0 end
      redis.call('HSET', KEYS[1], unpack(ARGV, 2, #ARGV - 2))
      redis.call('PUBLISH', ARGV[#ARGV - 1], ARGV[#ARGV])
      return 1`,
  },
  // KEYS: record, input, result, pending; ARGV: id, result ('' for none), result ttl ms, record ttl ms, changed channel, then field/value pairs
  jobFinish: {
    numberOfKeys: 4,
    lua: `${ONLY_WHILE_OPEN}
      redis.call('HSET', KEYS[1], unpack(ARGV, 6))
      if ARGV[2] ~= '' then redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3]) end
      redis.call('DEL', KEYS[2])
      redis.call('ZREM', KEYS[4], ARGV[1])
      redis.call('PEXPIRE', KEYS[1], ARGV[4])
      local idempotency = redis.call('HGET', KEYS[1], 'idempotency')
      if idempotency then redis.call('PEXPIRE', idempotency, ARGV[4]) end
      redis.call('PUBLISH', ARGV[5], ARGV[1])
      return redis.call('HGETALL', KEYS[1])`,
  },
  // KEYS: record, input, result, pending; ARGV: id, record ttl ms, changed channel, cancel channel, then field/value pairs
  jobCancel: {
    numberOfKeys: 4,
    lua: `${FINAL}
      local status = redis.call('HGET', KEYS[1], 'status')
      if not status then return nil end
      redis.call('DEL', KEYS[2], KEYS[3])
      if final(status) then return {0, redis.call('HGETALL', KEYS[1])} end
      redis.call('HSET', KEYS[1], unpack(ARGV, 5))
      redis.call('ZREM', KEYS[4], ARGV[1])
      redis.call('PEXPIRE', KEYS[1], ARGV[2])
      local idempotency = redis.call('HGET', KEYS[1], 'idempotency')
      if idempotency then redis.call('PEXPIRE', idempotency, ARGV[2]) end
      redis.call('PUBLISH', ARGV[3], ARGV[1])
      redis.call('PUBLISH', ARGV[4], ARGV[1])
      return {1, redis.call('HGETALL', KEYS[1])}`,
  },
} as const;

type ScriptName = keyof typeof SCRIPTS;
type ScriptClient = Redis & Record<ScriptName, (...args: (string | Buffer | number)[]) => Promise<unknown>>;

function fields(record: Partial<JobRecord>): string[] {
  const out: string[] = [];
  const put = (name: string, value: unknown) => out.push(name, typeof value === 'string' ? value : JSON.stringify(value));
  for (const [name, value] of Object.entries(record)) if (value !== undefined && name !== 'id') put(name, value);
  return out;
}

function pairs(flat: unknown): Record<string, string> {
  const list = (Array.isArray(flat) ? flat : []) as (string | Buffer)[];
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) out[String(list[i])] = String(list[i + 1]);
  return out;
}

function parseRecord(id: string, hash: Record<string, string>): JobRecord | undefined {
  if (!hash.status) return undefined;
  const json = <T>(name: string, fallback: T): T => (hash[name] === undefined ? fallback : (JSON.parse(hash[name]!) as T));
  return {
    id,
    owner: hash.owner ?? '',
    status: hash.status as JobStatus,
    progress: json('progress', QUEUED_PROGRESS),
    attempts: Number(hash.attempts ?? 0),
    createdAt: Number(hash.createdAt),
    startedAt: json('startedAt', null),
    finishedAt: json('finishedAt', null),
    expiresAt: Number(hash.expiresAt),
    error: json('error', null),
    metadata: json('metadata', null),
    webhook: json('webhook', null),
    resultUrl: hash.resultUrl ?? '',
  };
}

export interface RedisJobStoreOptions {
  /** Commands (fail fast on the API side; wait for a reconnect in workers). */
  client: Redis;
  /** A second connection, only for subscribing to changes and cancels. */
  subscriber: Redis;
  /** Prefix of every key, e.g. "docshape". */
  prefix: string;
}

export class RedisJobStore implements JobStore {
  readonly kind = 'redis';
  private readonly client: ScriptClient;
  private readonly news = new JobNews();
  private readonly changedChannel: string;
  private readonly cancelChannel: string;

  constructor(private readonly options: RedisJobStoreOptions) {
    for (const [name, script] of Object.entries(SCRIPTS)) options.client.defineCommand(name, script);
    this.client = options.client as ScriptClient;
    this.changedChannel = `${options.prefix}:jobs:changed`;
    this.cancelChannel = `${options.prefix}:jobs:cancel`;
    options.subscriber.on('message', (channel: string, id: string) => {
      if (channel === this.changedChannel) this.news.changed(id);
      else if (channel === this.cancelChannel) this.news.canceled(id);
    });
    // ioredis subscribes again after a reconnect; nothing waits for this answer (seen never to come when the first connect failed)
    options.subscriber.subscribe(this.changedChannel, this.cancelChannel).catch(() => undefined);
  }

  private key(id: string, part?: 'input' | 'result'): string {
    return `${this.options.prefix}:job:${id}${part ? `:${part}` : ''}`;
  }

  private get pendingKey(): string {
    return `${this.options.prefix}:jobs:pending`;
  }

  async create(record: JobRecord, input: JobInput, claim?: IdempotencyClaim): Promise<CreateOutcome> {
    const idempotencyKey = claim ? `${this.options.prefix}:idempotency:${record.owner}:${claim.key}` : '';
    const stored = { ...record, ...(claim ? { idempotency: idempotencyKey } : {}) };
    const [outcome, id] = (await this.client.jobCreate(
      this.key(record.id), this.key(record.id, 'input'), this.pendingKey, idempotencyKey,
      record.id, record.createdAt, claim?.bodyHash ?? '', await inputBytes(input), ...fields(stored),
    )) as [string, string];
    if (outcome === 'conflict') return { conflict: true };
    if (outcome === 'created') return { record, created: true };
    const existing = await this.get(id);
    return existing ? { record: existing, created: false } : { conflict: true };
  }

  async get(id: string): Promise<JobRecord | undefined> {
    return parseRecord(id, await this.client.hgetall(this.key(id)));
  }

  async result(id: string): Promise<Buffer | undefined> {
    return (await this.client.getBuffer(this.key(id, 'result'))) ?? undefined;
  }

  async pendingCount(): Promise<number> {
    return this.client.zcard(this.pendingKey);
  }

  async pendingBefore(before: number, limit: number): Promise<string[]> {
    return this.client.zrangebyscore(this.pendingKey, '-inf', `(${before}`, 'LIMIT', 0, limit);
  }

  async start(id: string, worker: string): Promise<JobRecord | undefined> {
    const hash = await this.client.jobStart(this.key(id), this.changedChannel, id, ...fields(startedFields(Date.now())), 'worker', worker);
    return hash ? parseRecord(id, pairs(hash)) : undefined;
  }

  async input(id: string): Promise<ExtractionRequest | undefined> {
    const raw = await this.client.getBuffer(this.key(id, 'input'));
    return raw ? requestFromInputBytes(raw) : undefined;
  }

  async progress(id: string, progress: JobProgress): Promise<void> {
    await this.client.jobUpdateIf(this.key(id), RUNNING_STATUS, ...fields({ progress }), this.changedChannel, id);
  }

  async requeue(id: string): Promise<void> {
    await this.client.jobUpdateIf(this.key(id), RUNNING_STATUS, ...fields(requeuedFields()), this.changedChannel, id);
  }

  async finish(id: string, end: JobEnd, resultTtlMs: number): Promise<JobRecord | undefined> {
    const current = await this.get(id);
    if (!current) return undefined;
    const ended = endedRecord(current, end.status, Date.now(), resultTtlMs, end.status === 'failed' ? end.error : null);
    const hash = await this.client.jobFinish(
      this.key(id), this.key(id, 'input'), this.key(id, 'result'), this.pendingKey,
      id, end.status === 'succeeded' ? end.result : '', resultTtlMs, recordTtlMs(resultTtlMs), this.changedChannel,
      ...fields(endedFields(ended)),
    );
    return hash ? parseRecord(id, pairs(hash)) : undefined;
  }

  async cancel(id: string, resultTtlMs: number): Promise<{ record: JobRecord; canceled: boolean } | undefined> {
    const current = await this.get(id);
    if (!current) return undefined;
    const ended = endedRecord(current, 'canceled', Date.now(), resultTtlMs, null);
    const answer = (await this.client.jobCancel(
      this.key(id), this.key(id, 'input'), this.key(id, 'result'), this.pendingKey,
      id, recordTtlMs(resultTtlMs), this.changedChannel, this.cancelChannel,
      ...fields(endedFields(ended)),
    )) as [number, unknown] | null;
    if (!answer) return undefined;
    const record = parseRecord(id, pairs(answer[1]));
    return record && { record, canceled: answer[0] === 1 };
  }

  waitForChange(id: string, ms: number, signal: AbortSignal): Promise<void> {
    return this.news.waitForChange(id, ms, signal);
  }

  onCancel(listener: (id: string) => void): () => void {
    return this.news.onCancel(listener);
  }

  async close(): Promise<void> {
    this.news.close();
  }
}
