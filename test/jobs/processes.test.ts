/**
 * Jobs across real processes and a real Redis (Debian's redis-server, AOF
 * on): an API process, worker processes (ROLE=worker), and the failures a
 * deployment meets: a worker killed mid-job, Redis restarted, Redis away,
 * and a thousand small jobs through two workers.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { makeInvoicePdf, makeTextPdf } from '../fixtures/pdfs.js';
import { startFakeOpenAi, type ModelServer } from '../helpers/model-servers.js';
import { NO_REDIS, redisInstalled, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { content, postJson, TEST_API_KEY, type JsonResponse } from '../helpers/test-server.js';

const schema = { type: 'object', properties: { total: { type: 'number', description: 'Total amount' } } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function getJson(url: string): Promise<JsonResponse> {
  const response = await fetch(url, { headers: { 'x-api-key': TEST_API_KEY } });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

async function untilEnded(api: string, id: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const answer = await getJson(`${api}/v1/jobs/${id}?wait=5`);
    if (['succeeded', 'failed', 'canceled'].includes(answer.body.status)) return answer.body;
  }
  throw new Error(`job ${id} did not end`);
}

/**
 * Until the model got its first call: a worker process starts, takes the job
 * and reads its PDF first, which on a busy machine took longer than the 10 s
 * these tests once allowed; mocha's timeout is the only bound.
 */
async function untilCalled(model: ModelServer): Promise<void> {
  while (model.calls.length === 0) await sleep(25);
}

/** Lines of a process's JSON log with this msg. */
function logLines(service: ServiceProcess, msg: string): any[] {
  return service.stdout().split('\n').filter((line) => line.includes(`"msg":"${msg}"`)).map((line) => JSON.parse(line));
}

function rssMb(pid: number): number {
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

describe('jobs across processes on a real Redis', function () {
  this.timeout(300_000);
  let redis: RedisServer;
  const started: ServiceProcess[] = [];
  let env: Record<string, string>;

  const start = async (role: 'api' | 'worker', extra: Record<string, string> = {}) => {
    const service = await startServiceProcess({ ...env, ROLE: role, ...extra });
    started.push(service);
    return service;
  };

  before(async function () {
    if (!redisInstalled()) {
      console.log(`      ${NO_REDIS}`);
      this.skip();
    }
    redis = await startRedis();
    env = { API_KEYS: TEST_API_KEY, REDIS_URL: redis.url, JOB_LOCK: '3s', LOG_LEVEL: 'info', MALLOC_ARENA_MAX: '2' };
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
    if (redis) {
      await redis.start().catch(() => undefined); // a test that stopped it
      redis.cli('FLUSHALL');
    }
  });

  after(async () => {
    await redis?.close();
  });

  it('a worker killed with SIGKILL mid-job: the job finishes on another worker, with one result and attempts 2', async () => {
    let release: () => void = () => undefined;
    const firstCallHeld = new Promise<void>((resolve) => (release = resolve));
    const model: ModelServer = await startFakeOpenAi(async (_call, index) => {
      if (index === 0) {
        await firstCallHeld; // the first worker's model call never gets an answer: it is killed meanwhile
        return { hangUp: true };
      }
      return { content: '{"total": 76.2}' };
    });
    try {
      const llm = { EXTRACTOR: 'openai', OPENAI_BASE_URL: `${model.url}/v1` };
      const api = await start('api');
      const first = await start('worker', llm);
      const submitted = await postJson(`${api.url}/v1/jobs`, { schema, contents: [content(await makeInvoicePdf(), 'application/pdf')] });
      expect(submitted.status).to.equal(202);
      const id = submitted.body.id as string;
      await untilCalled(model);
      expect(model.calls).to.have.length(1);
      expect((await getJson(`${api.url}/v1/jobs/${id}`)).body).to.include({ status: 'running', attempts: 1 });

      const second = await start('worker', llm);
      await first.stop('SIGKILL');
      release();
      const ended = await untilEnded(api.url, id);
      expect(ended).to.include({ status: 'succeeded', attempts: 2 });
      expect((await getJson(`${api.url}/v1/jobs/${id}/result`)).body).to.deep.equal({ total: 76.2 });
      expect(logLines(second, 'job finished').map((line) => line.jobId)).to.deep.equal([id]);
      expect(logLines(first, 'job finished')).to.have.length(0);
      expect(redis.cli('EXISTS', `docshape:job:${id}:input`)).to.equal('0');
    } finally {
      release();
      await model.close();
    }
  });

  it('a worker sent SIGTERM mid-job takes no new job, hands the one it holds back after SHUTDOWN_TIMEOUT_MS, and another worker finishes it', async () => {
    const model: ModelServer = await startFakeOpenAi(async (_call, index) => (index === 0 ? { stall: true } : { content: '{"total": 76.2}' }));
    try {
      const llm = { EXTRACTOR: 'openai', OPENAI_BASE_URL: `${model.url}/v1`, SHUTDOWN_TIMEOUT_MS: '1000' };
      const api = await start('api');
      const first = await start('worker', llm);
      const submitted = await postJson(`${api.url}/v1/jobs`, { schema, contents: [content(await makeInvoicePdf(), 'application/pdf')] });
      const id = submitted.body.id as string;
      await untilCalled(model);
      expect(await first.stop('SIGTERM')).to.equal(0);
      expect((await getJson(`${api.url}/v1/jobs/${id}`)).body).to.include({ status: 'queued', attempts: 1 });
      await start('worker', llm);
      expect(await untilEnded(api.url, id)).to.include({ status: 'succeeded', attempts: 2 });
    } finally {
      await model.close();
    }
  });

  it('Redis restarted mid-run (append-only file): no submitted job is lost', async () => {
    const api = await start('api');
    await start('worker');
    const pdf = await makeInvoicePdf();
    const accepted: string[] = [];
    let refused = 0;
    for (let i = 0; i < 30; i++) {
      if (i === 10) {
        await redis.stop('SIGTERM');
        await redis.start();
      }
      // as a client does: a 503 is asked again after a while
      for (let tries = 0; tries < 100; tries++) {
        const submitted = await postJson(`${api.url}/v1/jobs`, { schema, contents: [content(pdf, 'application/pdf')] });
        if (submitted.status === 202) {
          accepted.push(submitted.body.id);
          break;
        }
        expect(submitted.status, JSON.stringify(submitted.body)).to.equal(503);
        refused++;
        await sleep(200);
      }
    }
    expect(accepted).to.have.length(30);
    for (const id of accepted) expect((await untilEnded(api.url, id)).status, id).to.equal('succeeded');
    console.log(`      ${refused} submits answered 503 while Redis restarted`);
  });

  it('Redis unreachable: submit answers 503 with Retry-After, /v1/ keeps working, and jobs run when Redis returns', async () => {
    await redis.stop('SIGKILL');
    const api = await start('api');
    await start('worker');
    const body = { schema, contents: [content(await makeInvoicePdf(), 'application/pdf')] };
    const refused = await postJson(`${api.url}/v1/jobs`, body);
    expect(refused.status).to.equal(503);
    expect(Number(refused.headers.get('retry-after'))).to.be.at.least(1);
    expect(refused.body.error).to.match(/Redis is not reachable/);
    const direct = await postJson(`${api.url}/v1/`, body);
    expect(direct.status).to.equal(200);
    const ready = await getJson(`${api.url}/readyz`);
    expect(ready.status).to.equal(200);
    expect(ready.body.jobs).to.include({ queue: 'redis', available: false });

    await redis.start();
    let submitted: JsonResponse | undefined;
    for (let i = 0; i < 120; i++) {
      submitted = await postJson(`${api.url}/v1/jobs`, body);
      if (submitted.status === 202) break;
      await sleep(250);
    }
    expect(submitted?.status).to.equal(202);
    const ended = await untilEnded(api.url, submitted!.body.id);
    expect(ended.status).to.equal('succeeded');
    expect((await getJson(`${api.url}/v1/jobs/${ended.id}/result`)).body).to.deep.equal(direct.body);
  });

  it('1,000 small jobs through 2 worker processes: all succeed, none runs twice, and the workers\' memory stays flat', async () => {
    const api = await start('api');
    const workers = [await start('worker'), await start('worker')];
    const body = JSON.stringify({ schema, contents: [content(await makeTextPdf([['Total 12.50']]), 'application/pdf')] });
    const ids: string[] = [];
    const rss: number[][] = [];
    const submit = async (count: number) => {
      let left = count;
      const lane = async () => {
        while (left > 0) {
          left--;
          const response = await fetch(`${api.url}/v1/jobs`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': TEST_API_KEY }, body });
          expect(response.status).to.equal(202);
          ids.push(((await response.json()) as { id: string }).id);
        }
      };
      await Promise.all(Array.from({ length: 8 }, lane));
      for (let i = 0; i < 3000 && Number(redis.cli('ZCARD', 'docshape:jobs:pending')) > 0; i++) await sleep(100);
    };
    // The workers warm up over the first 600 jobs (V8 and glibc grow their heaps to a working size in steps);
    // memory that stays with each job would grow as much over the next 400 as over any 400.
    await submit(200);
    await submit(400);
    rss.push(workers.map((worker) => rssMb(worker.pid)));
    await submit(400);
    rss.push(workers.map((worker) => rssMb(worker.pid)));

    expect(new Set(ids).size).to.equal(1000);
    const views = await Promise.all(ids.map((id) => getJson(`${api.url}/v1/jobs/${id}`)));
    expect(views.filter((view) => view.body.status === 'succeeded')).to.have.length(1000);
    expect(views.every((view) => view.body.attempts === 1)).to.equal(true);
    const finished = workers.flatMap((worker) => logLines(worker, 'job finished').map((line) => line.jobId));
    const runs = workers.flatMap((worker) => logLines(worker, 'job started').map((line) => line.jobId));
    expect(finished).to.have.length(1000);
    expect(new Set(finished).size).to.equal(1000);
    expect(runs).to.have.length(1000);
    for (const worker of workers) expect(logLines(worker, 'job finished').length).to.be.at.least(100); // both took their share
    expect(redis.cli('--scan', '--pattern', 'docshape:job:*:input')).to.equal('');
    // 800 more jobs grow neither worker by more than a few MB a hundred jobs
    // 20 MB over 400 jobs is 50 KB a job, far more than a job's input and result here (a few KB)
    for (let w = 0; w < workers.length; w++) expect(rss[1]![w]! - rss[0]![w]!, `worker ${w} RSS over the last 400 jobs ${rss[0]![w]!.toFixed(0)} -> ${rss[1]![w]!.toFixed(0)} MB`).to.be.below(20);
    console.log(`      worker RSS after 600 and after 1000 jobs: ${rss.map((row) => row.map((mb) => `${mb.toFixed(0)} MB`).join(', ')).join(' -> ')}`);
  });
});
