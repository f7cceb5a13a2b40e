/**
 * Jobs when notices never arrive: Redis pub/sub drops what is published
 * while a connection is away, and the subscriber may not be connected at
 * all. GET /v1/jobs/{id}?wait=N must still see the job's end and never wait
 * past N; a running job must still stop when it is canceled.
 */
import { expect } from 'chai';
import { newRecord, type JobRecord } from '../../src/jobs/job.js';
import { Jobs } from '../../src/jobs/jobs.js';
import { MemoryWorkQueue } from '../../src/jobs/memory-queue.js';
import { MemoryJobStore } from '../../src/jobs/memory-store.js';
import { RedisJobStore } from '../../src/jobs/redis-store.js';
import { apiConnection, workerConnection } from '../../src/jobs/redis.js';
import { Webhooks } from '../../src/jobs/webhooks.js';
import { runJobWorkers } from '../../src/jobs/worker.js';
import { silentLogger } from '../../src/logger.js';
import { collectGarbage } from '../../src/util/collect-garbage.js';
import type { Engine } from '../../src/schema/engine.js';
import { makeInvoicePdf } from '../fixtures/pdfs.js';
import { closeSharedServices, sharedServices } from '../helpers/test-server.js';
import { freePort, redisForSuite } from '../helpers/redis-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store whose notices are all lost: waitForChange only ever runs out, and no cancel is ever announced. */
class DeafStore extends MemoryJobStore {
  override async waitForChange(_id: string, ms: number): Promise<void> {
    await sleep(ms);
  }

  override onCancel(): () => void {
    return () => undefined;
  }
}

/**
 * Waits for `waiting` while full garbage collections run every few
 * milliseconds (Node 20 collected a timeout signal inside AbortSignal.any,
 * and the wait never ended); mocha's timeout is the failure when it hangs.
 */
async function untilCollectedThrough(waiting: Promise<void>): Promise<void> {
  const collector = setInterval(collectGarbage, 5);
  try {
    await waiting;
  } finally {
    clearInterval(collector);
  }
}

const queueOptions = { attempts: 1, backoffMs: 10 };

function webhooksFor(logger: ReturnType<typeof silentLogger>): Webhooks {
  return new Webhooks(new MemoryWorkQueue(queueOptions), { allowedHosts: [], maxAttempts: 1, retryDelayMs: 10, timeoutMs: 1000, secret: undefined }, logger);
}

function jobsOn(store: MemoryJobStore, queue = new MemoryWorkQueue<Record<string, never>>(queueOptions)): Jobs {
  const logger = silentLogger();
  return new Jobs({ store, queue, webhooks: webhooksFor(logger), config: { resultTtlMs: 60_000, maxPending: 10 }, logger });
}

function record(id: string): JobRecord {
  return newRecord({ id, owner: 'owner', createdAt: Date.now(), metadata: null, webhook: null, resultUrl: `http://x/v1/jobs/${id}/result` }, 60_000);
}

describe('jobs when change and cancel notices are lost', function () {
  this.timeout(60_000);

  it('a job that ends during the wait is answered as ended, though no notice came', async () => {
    const store = new DeafStore();
    const jobs = jobsOn(store);
    await store.create(record('a'), { raw: Buffer.from('{}'), request: undefined as never });
    setTimeout(() => {
      void store.start('a').then(() => store.finish('a', { status: 'succeeded', result: '{}' }, 60_000));
    }, 50);
    // a wait that held on for a notice would answer after 300 s, past this test's 60 s (mocha's timeout is the failure);
    // reading the record again finds the end within a second or so
    const answer = await jobs.wait('owner', 'a', 300_000, new AbortController().signal);
    expect(answer.status).to.equal('succeeded');
    await store.close();
  });

  it('a job that does not change is answered unchanged when the wait runs out', async () => {
    const store = new DeafStore();
    const jobs = jobsOn(store);
    await store.create(record('b'), { raw: Buffer.from('{}'), request: undefined as never });
    const answer = await jobs.wait('owner', 'b', 1500, new AbortController().signal);
    expect(answer.status).to.equal('queued');
    await store.close();
  });

  it('a running job stops when it is canceled, though the cancel notice never came', async () => {
    let calls = 0;
    let aborted = 0;
    // answers only when its call is aborted, as a model that takes long
    const engine = {
      name: 'stalling',
      async extract({ signal }: { signal: AbortSignal }) {
        calls++;
        await new Promise((_resolve, reject) => signal.addEventListener('abort', () => (aborted++, reject(signal.reason)), { once: true }));
      },
      status: async () => ({ ready: true }),
      close: async () => undefined,
    } as unknown as Engine;
    const store = new DeafStore();
    const queue = new MemoryWorkQueue<Record<string, never>>(queueOptions);
    const jobs = jobsOn(store, queue);
    const logger = silentLogger();
    runJobWorkers({ store, queue, webhooks: webhooksFor(logger), pipeline: { ...(await sharedServices()), engine }, config: { concurrency: 1, resultTtlMs: 60_000, timeoutMs: 600_000 }, logger });
    try {
      const request = { schema: { type: 'object', properties: { total: { type: 'number' } } }, contents: [{ mimeType: 'application/pdf', data: (await makeInvoicePdf()).toString('base64') }] };
      const { record } = await jobs.submit({ owner: 'owner', input: { raw: Buffer.from(JSON.stringify(request)), request }, metadata: null, webhook: null, baseUrl: 'http://x' });
      for (let i = 0; i < 400 && calls === 0; i++) await sleep(50);
      expect(calls, 'the job reached its model call').to.equal(1);
      expect((await jobs.cancel('owner', record.id)).status).to.equal('canceled');
      // without a notice, the run reads its record again within seconds; before, it ran on until JOB_TIMEOUT (here 10 min)
      for (let i = 0; i < 600 && aborted === 0; i++) await sleep(50);
      expect(aborted, 'the model call was aborted').to.equal(1);
    } finally {
      await queue.close(0);
      await store.close();
      await closeSharedServices();
    }
  });

  it('the memory store\'s waitForChange ends when its time runs out with garbage collections running meanwhile', async () => {
    const store = new MemoryJobStore();
    try {
      await untilCollectedThrough(store.waitForChange('none', 100, new AbortController().signal));
    } finally {
      await store.close();
    }
  });

  describe('on Redis', () => {
    const server = redisForSuite();

    it('waitForChange ends when its time runs out with garbage collections running meanwhile (its timeout signal was collected, and a long poll hung)', async () => {
      const client = apiConnection(server().url);
      const subscriber = workerConnection(server().url, 'test-events');
      const store = new RedisJobStore({ client, subscriber, prefix: `t${Date.now()}` });
      try {
        await untilCollectedThrough(store.waitForChange('none', 100, new AbortController().signal));
      } finally {
        client.disconnect();
        subscriber.disconnect();
      }
    });

    it('waitForChange still ends when its time runs out (it waited for the subscription before, forever)', async () => {
      const client = apiConnection(server().url);
      // nothing listens on this port: the subscription never gets its answer
      const subscriber = workerConnection(`redis://127.0.0.1:${await freePort()}`, 'test-events');
      subscriber.on('error', () => undefined);
      const store = new RedisJobStore({ client, subscriber, prefix: `t${Date.now()}` });
      try {
        let ended = false;
        const waiting = store.waitForChange('none', 300, new AbortController().signal).then(() => (ended = true));
        // mocha's timeout is the failure when it hangs; a generous look here says which way it went
        for (let i = 0; i < 100 && !ended; i++) await sleep(100);
        expect(ended, 'waitForChange(300 ms) had not ended after 10 s').to.equal(true);
        await waiting;
      } finally {
        client.disconnect();
        subscriber.disconnect();
      }
    });
  });
});
