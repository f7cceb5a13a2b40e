/**
 * The two job stores side by side (this process's memory and a real Redis):
 * the same calls leave the same records, so a caller cannot tell them apart.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { newRecord, type JobRecord } from '../../src/jobs/job.js';
import { MemoryJobStore } from '../../src/jobs/memory-store.js';
import { RedisJobStore } from '../../src/jobs/redis-store.js';
import { TOMBSTONE_MS, type JobStore } from '../../src/jobs/store.js';
import type { ExtractionRequest } from '../../src/pipeline.js';
import { redisForSuite } from '../helpers/redis-server.js';

const REQUEST = { schema: { type: 'object' }, contents: [] } as unknown as ExtractionRequest;
const INPUT = { raw: Buffer.from(JSON.stringify(REQUEST)), request: REQUEST };
const HOUR = 3_600_000;

/** The record without its times, which each store takes from its own clock. */
function shape(record: JobRecord | undefined): Omit<JobRecord, 'createdAt' | 'startedAt' | 'finishedAt' | 'expiresAt'> & { started: boolean; finished: boolean } {
  if (!record) throw new Error('no record');
  const { createdAt: _created, startedAt, finishedAt, expiresAt: _expires, ...rest } = record;
  return { ...rest, started: startedAt !== null, finished: finishedAt !== null };
}

/** A job's life through every change of state, the record after each step. */
async function lifeOf(store: JobStore): Promise<unknown[]> {
  const seen: unknown[] = [];
  const job = (id: string) => newRecord({ id, owner: 'owner', createdAt: Date.now(), metadata: { ref: 7 }, webhook: null, resultUrl: `/v1/jobs/${id}/result` }, HOUR);
  const a = job('job-a');
  await store.create(a, INPUT);
  seen.push(shape(await store.get(a.id)), await store.pendingCount());
  // progress and requeue only while running
  await store.progress(a.id, { stage: 'reading', pagesDone: 1, pagesTotal: 3 });
  await store.requeue(a.id);
  seen.push(shape(await store.get(a.id)));
  seen.push(shape(await store.start(a.id, 'worker-1')));
  await store.progress(a.id, { stage: 'extracting', pagesDone: 3, pagesTotal: 3 });
  seen.push(shape(await store.get(a.id)));
  await store.requeue(a.id);
  seen.push(shape(await store.get(a.id)));
  seen.push(shape(await store.start(a.id, 'worker-2')));
  seen.push(shape(await store.finish(a.id, { status: 'succeeded', result: '{"total":1}' }, HOUR)));
  // a job ends once: a second finish, a start and a cancel find it ended
  seen.push(await store.finish(a.id, { status: 'failed', error: { status: 500, body: { error: 'late' } } }, HOUR), await store.start(a.id, 'worker-3'));
  seen.push(String(await store.result(a.id)), await store.input(a.id));
  const cancelEnded = await store.cancel(a.id, HOUR);
  seen.push(cancelEnded?.canceled, shape(cancelEnded?.record), await store.result(a.id));
  // a failure without pages read, and a cancel of a running job
  const b = job('job-b');
  await store.create(b, INPUT);
  await store.start(b.id, 'worker-1');
  seen.push(shape(await store.finish(b.id, { status: 'failed', error: { status: 400, body: { error: 'bad file' } } }, HOUR)));
  const c = job('job-c');
  await store.create(c, INPUT);
  await store.start(c.id, 'worker-1');
  const canceled = await store.cancel(c.id, HOUR);
  seen.push(canceled?.canceled, shape(canceled?.record), await store.input(c.id), await store.pendingCount());
  seen.push(await store.cancel('no-such-job', HOUR), await store.get('no-such-job'));
  return seen;
}

describe('job stores: memory and Redis decide alike', function () {
  this.timeout(60_000);
  const redis = redisForSuite();
  const clients: Redis[] = [];

  after(() => {
    for (const client of clients) client.disconnect();
  });

  function redisStore(): RedisJobStore {
    const client = new Redis(redis().url);
    const subscriber = new Redis(redis().url);
    clients.push(client, subscriber);
    return new RedisJobStore({ client, subscriber, prefix: `stores-${clients.length}` });
  }

  it('every change of state leaves the same record, and a job ends once', async () => {
    const memory = new MemoryJobStore();
    const inRedis = redisStore();
    try {
      const life = await lifeOf(memory);
      expect(await lifeOf(inRedis)).to.deep.equal(life);
      // what the life went through, so that equal lives are not equally empty
      expect(life[0]).to.include({ status: 'queued', attempts: 0 });
      expect(life[4]).to.deep.include({ status: 'running', progress: { stage: 'extracting', pagesDone: 3, pagesTotal: 3 } });
      expect(life[5]).to.deep.include({ status: 'queued', progress: { stage: 'queued', pagesDone: 0, pagesTotal: null } });
      expect(life[6]).to.include({ status: 'running', attempts: 2 });
      expect(life[7]).to.deep.include({ status: 'succeeded', progress: { stage: 'done', pagesDone: 0, pagesTotal: 0 } });
    } finally {
      await Promise.all([memory.close(), inRedis.close()]);
    }
  });

  it("keeps an ended job's result until it expires and its record a week longer", async () => {
    let now = Date.now();
    const memory: JobStore = new MemoryJobStore(() => now);
    const record = newRecord({ id: 'expiring', owner: 'owner', createdAt: now, metadata: null, webhook: null, resultUrl: '' }, HOUR);
    await memory.create(record, INPUT);
    await memory.start(record.id, 'worker');
    await memory.finish(record.id, { status: 'succeeded', result: '{}' }, HOUR);
    now += HOUR - 1;
    expect(String(await memory.result(record.id))).to.equal('{}');
    now += 1;
    expect(await memory.result(record.id)).to.equal(undefined);
    expect((await memory.get(record.id))?.status).to.equal('succeeded');
    now += TOMBSTONE_MS;
    expect(await memory.get(record.id)).to.equal(undefined);
    await memory.close();

    // Redis keeps the same two times as the keys' time to live
    const inRedis = redisStore();
    await inRedis.create({ ...record, createdAt: Date.now() }, INPUT);
    await inRedis.start(record.id, 'worker');
    await inRedis.finish(record.id, { status: 'succeeded', result: '{}' }, HOUR);
    const ttl = (part: string) => Number(redis().cli('PTTL', `stores-${clients.length}:job:${record.id}${part}`));
    expect(ttl(':result')).to.be.within(HOUR - 60_000, HOUR);
    expect(ttl('')).to.be.within(HOUR + TOMBSTONE_MS - 60_000, HOUR + TOMBSTONE_MS);
    await inRedis.close();
  });
});
