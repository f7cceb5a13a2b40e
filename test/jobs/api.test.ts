/**
 * The job API end to end over HTTP, once on the in-process queue and once on
 * BullMQ with a real Redis: both must behave alike for a caller.
 */
import { expect } from 'chai';
import type { Engine } from '../../src/schema/engine.js';
import { startJobs, WAITING_LIST, type JobsRuntime } from '../../src/jobs/create-jobs.js';
import { silentLogger } from '../../src/logger.js';
import type { PipelineDeps } from '../../src/pipeline.js';
import { makeReceiptImage } from '../fixtures/images.js';
import { INVOICE_EXPECTED, makeInvoicePdf, truncate } from '../fixtures/pdfs.js';
import { healthzDuring } from '../helpers/healthz.js';
import { formBody, postBytes, postForm, type FormPart, type RawAnswer } from '../helpers/multipart.js';
import { NO_REDIS, redisInstalled, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, testConfig, TEST_API_KEY, type JsonResponse, type RunningServer } from '../helpers/test-server.js';

const OTHER_KEY = 'other-key-9876543210';
const KEYS = `${TEST_API_KEY},${OTHER_KEY}`;
const invoiceSchema = {
  type: 'object',
  properties: { invoice_number: { type: 'string' }, invoice_date: { type: 'string', format: 'date' }, total: { type: 'number' } },
};

async function call(method: string, url: string, key = TEST_API_KEY): Promise<JsonResponse> {
  const response = await fetch(url, { method, headers: { 'x-api-key': key } });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // the test says what it got
  }
  return { status: response.status, headers: response.headers, body };
}

/** Long-polls until the job has ended. */
async function untilEnded(base: string, id: string, key = TEST_API_KEY): Promise<JsonResponse> {
  for (let i = 0; i < 120; i++) {
    const answer = await call('GET', `${base}/v1/jobs/${id}?wait=5`, key);
    if (answer.status !== 200 || ['succeeded', 'failed', 'canceled'].includes(answer.body.status)) return answer;
  }
  throw new Error(`job ${id} did not end`);
}

/** An engine that answers only when its call is aborted (a job's cancel), counting the aborts. */
function stallingEngine(): Engine & { aborted: number; calls: number } {
  const engine = {
    name: 'stalling',
    aborted: 0,
    calls: 0,
    async extract({ signal }: { signal: AbortSignal }) {
      engine.calls++;
      await new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => {
          engine.aborted++;
          reject(signal.reason);
        }, { once: true }),
      );
      throw new Error('unreachable');
    },
    status: async () => ({ ready: true }),
    close: async () => undefined,
  };
  return engine as unknown as Engine & { aborted: number; calls: number };
}

for (const queue of ['in-process', 'redis'] as const) {
  describe(`jobs API (${queue} queue)`, function () {
    this.timeout(120_000);
    let redis: RedisServer | undefined;
    let runtime: JobsRuntime;
    let server: RunningServer;
    let pipeline: PipelineDeps;
    let base: string;
    const env = (extra: Record<string, string> = {}) => ({ API_KEYS: KEYS, ...(redis ? { REDIS_URL: redis.url } : {}), ...extra });
    /** A service of its own (its own Redis too): its workers alone take its jobs. */
    async function ownService(extra: Record<string, string>, deps: PipelineDeps) {
      const ownRedis = redis ? await startRedis() : undefined;
      const ownEnv = { ...env(extra), ...(ownRedis ? { REDIS_URL: ownRedis.url } : {}) };
      const jobs = await startJobs(testConfig(ownEnv), silentLogger());
      const own = await startTestServer(deps, ownEnv, { jobs });
      return {
        url: own.url,
        async close() {
          await own.close();
          await jobs.close(0);
          await ownRedis?.close();
        },
      };
    }

    before(async function () {
      if (queue === 'redis') {
        if (!redisInstalled()) {
          console.log(`      ${NO_REDIS}`);
          this.skip();
        }
        redis = await startRedis();
      }
      pipeline = await sharedServices();
      runtime = await startJobs(testConfig(env()), silentLogger());
      server = await startTestServer(pipeline, env(), { jobs: runtime });
      base = server.url;
    });

    after(async () => {
      await server?.close();
      await runtime?.close(0);
      await redis?.close();
      await closeSharedServices();
    });

    it('accepts a job with 202, Location and Retry-After, runs it, and serves the same JSON POST /v1/ answers, as often as asked', async () => {
      const body = { schema: invoiceSchema, contents: [content(await makeInvoicePdf(), 'application/pdf', 'invoice.pdf')], metadata: { batch: 'b-7', tags: ['a', 'b'] } };
      const submitted = await postJson(`${base}/v1/jobs`, body);
      expect(submitted.status).to.equal(202);
      const id = submitted.body.id as string;
      expect(submitted.headers.get('location')).to.equal(`/v1/jobs/${id}`);
      expect(Number(submitted.headers.get('retry-after'))).to.be.at.least(1);
      expect(submitted.body).to.have.keys('id', 'status', 'createdAt', 'expiresAt');
      expect(submitted.body.status).to.equal('queued');

      const ended = await untilEnded(base, id);
      expect(ended.body).to.include({ id, status: 'succeeded', attempts: 1, error: null });
      expect(ended.body.progress).to.deep.equal({ stage: 'done', pagesDone: 1, pagesTotal: 1 });
      expect(ended.body.metadata).to.deep.equal({ batch: 'b-7', tags: ['a', 'b'] });
      expect(Date.parse(ended.body.startedAt)).to.be.at.least(Date.parse(ended.body.createdAt));
      expect(Date.parse(ended.body.expiresAt)).to.be.greaterThan(Date.parse(ended.body.finishedAt));
      expect(ended.headers.get('retry-after')).to.equal(null);

      const direct = await postJson(`${base}/v1/`, { schema: body.schema, contents: body.contents });
      expect(direct.status).to.equal(200);
      for (let i = 0; i < 2; i++) {
        const result = await call('GET', `${base}/v1/jobs/${id}/result`);
        expect(result.status).to.equal(200);
        expect(result.body).to.deep.equal(direct.body);
      }
      expect(direct.body.invoice_number).to.equal(INVOICE_EXPECTED.invoiceNumber);
    });

    it('answers every 400 POST /v1/ gives, with the same message, before queueing anything', async () => {
      const png = await makeReceiptImage('png');
      const bad = [
        { contents: [content(png, 'image/png')] },
        { schema: invoiceSchema, contents: [] },
        { schema: invoiceSchema, contents: [{ mimeType: 'image/png', data: '@@not base64@@' }] },
        { schema: invoiceSchema, contents: [content(png, 'application/pdf')] },
        { schema: invoiceSchema, contents: [content(png, 'text/plain')] },
        { schema: { type: 'object', properties: { a: { $ref: 'http://example.com/s.json' } } }, contents: [content(png, 'image/png')] },
        { schema: invoiceSchema, contents: [content(truncate(await makeInvoicePdf(), 0.4), 'application/pdf')], options: { nonsense: true } },
      ];
      const before = (await runtime.jobs.counts()).queued;
      for (const request of bad) {
        const direct = await postJson(`${base}/v1/`, request);
        const job = await postJson(`${base}/v1/jobs`, request);
        expect(direct.status, JSON.stringify(direct.body)).to.equal(400);
        expect(job.status).to.equal(400);
        expect(job.body).to.deep.equal(direct.body);
      }
      expect((await runtime.jobs.counts()).queued).to.equal(before);
      const badWebhook = await postJson(`${base}/v1/jobs`, { schema: invoiceSchema, contents: [content(png, 'image/png')], webhook: { url: 'http://127.0.0.1:9/hook' } });
      expect(badWebhook.status).to.equal(400);
      expect(badWebhook.body.error).to.match(/WEBHOOK_SECRET/);
      const bigMetadata = await postJson(`${base}/v1/jobs`, { schema: invoiceSchema, contents: [content(png, 'image/png')], metadata: { note: 'x'.repeat(20_000) } });
      expect(bigMetadata.status).to.equal(400);
      expect(bigMetadata.body.error).to.match(/metadata must be at most/);
    });

    it('reads a body of millions of small values in slices, as POST /v1/ does: the same 400, /healthz answering throughout', async () => {
      const properties = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`p${i}`, { type: 'string' }]));
      const request = { schema: { type: 'object', properties }, contents: [content(await makeReceiptImage('png'), 'image/png')] };
      const direct = await postJson(`${base}/v1/`, request);
      const work = postJson(`${base}/v1/jobs`, request);
      const { longestStallMs } = await healthzDuring(base, work);
      const job = await work;
      expect(direct.status).to.equal(400);
      expect(job.body).to.deep.equal(direct.body);
      expect(longestStallMs, 'longest event-loop stall, CPU ms').to.be.below(100);
    });

    it('Idempotency-Key: the same body returns the same job, another body is a 422 naming the conflict', async () => {
      const key = `idem-${queue}-${Date.now()}`;
      const body = { schema: invoiceSchema, contents: [content(await makeInvoicePdf(), 'application/pdf')] };
      const first = await postJson(`${base}/v1/jobs`, body, { 'x-api-key': TEST_API_KEY, 'idempotency-key': key });
      const again = await postJson(`${base}/v1/jobs`, body, { 'x-api-key': TEST_API_KEY, 'idempotency-key': key });
      expect(first.status).to.equal(202);
      expect(again.status).to.equal(202);
      expect(again.body.id).to.equal(first.body.id);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      const other = await postJson(`${base}/v1/jobs`, { ...body, options: { dateOrder: 'mdy' } }, { 'x-api-key': TEST_API_KEY, 'idempotency-key': key });
      expect(other.status).to.equal(422);
      expect(other.body.error).to.match(/Idempotency-Key .*different request body/);
      // the key is the caller's own: another API key with the same Idempotency-Key gets a job of its own
      const otherCaller = await postJson(`${base}/v1/jobs`, body, { 'x-api-key': OTHER_KEY, 'idempotency-key': key });
      expect(otherCaller.status).to.equal(202);
      expect(otherCaller.body.id).to.not.equal(first.body.id);
      await untilEnded(base, first.body.id);
    });

    const submitForm = (parts: FormPart[], headers: Record<string, string> = {}): Promise<RawAnswer> => postForm(`${base}/v1/jobs`, parts, { 'x-api-key': TEST_API_KEY, ...headers });

    it('takes a multipart submit (a PDF and an image, the schema as a file part, options and metadata): its result is POST /v1/\'s answer', async () => {
      const [pdf, png] = await Promise.all([makeInvoicePdf(), makeReceiptImage('png')]);
      const options = { evidence: true };
      const submitted = await submitForm([
        { name: 'schema', filename: 'schema.json', type: 'application/json', body: JSON.stringify(invoiceSchema) },
        { name: 'options', body: JSON.stringify(options) },
        { name: 'metadata', body: '{"batch":"mp-1"}' },
        { name: 'file', filename: 'invoice.pdf', type: 'application/pdf', body: pdf },
        { name: 'file', filename: 'receipt.png', body: png },
      ]);
      expect(submitted.status, JSON.stringify(submitted.body)).to.equal(202);
      const ended = await untilEnded(base, submitted.body.id);
      expect(ended.body).to.include({ status: 'succeeded', error: null });
      expect(ended.body.metadata).to.deep.equal({ batch: 'mp-1' });
      const direct = await postJson(`${base}/v1/`, { schema: invoiceSchema, contents: [content(pdf, 'application/pdf', 'invoice.pdf'), content(png, 'image/png', 'receipt.png')], options });
      expect(direct.status).to.equal(200);
      const result = await call('GET', `${base}/v1/jobs/${submitted.body.id}/result`);
      expect(result.body).to.deep.equal(direct.body);
      expect(result.body.data.invoice_number).to.equal(INVOICE_EXPECTED.invoiceNumber);
    });

    it('answers a multipart submit\'s 400s as POST /v1/ does, before queueing anything', async () => {
      const png = await makeReceiptImage('png');
      const schemaPart = { name: 'schema', body: JSON.stringify(invoiceSchema) };
      const bad: FormPart[][] = [
        [schemaPart],
        [schemaPart, { name: 'file', filename: 'receipt.png', type: 'application/pdf', body: png }],
        [{ name: 'schema', body: '{' }, { name: 'file', filename: 'receipt.png', body: png }],
        [schemaPart, { name: 'options', body: '{"nonsense":true}' }, { name: 'file', filename: 'receipt.png', body: png }],
      ];
      const before = (await runtime.jobs.counts()).queued;
      for (const parts of bad) {
        const { body, contentType } = formBody(parts);
        const direct = await postBytes(`${base}/v1/`, body, { 'content-type': contentType, 'x-api-key': TEST_API_KEY });
        const job = await postBytes(`${base}/v1/jobs`, body, { 'content-type': contentType, 'x-api-key': TEST_API_KEY });
        expect(direct.status, JSON.stringify(direct.body)).to.equal(400);
        expect(job.status).to.equal(400);
        expect(job.body).to.deep.equal(direct.body);
      }
      expect((await runtime.jobs.counts()).queued).to.equal(before);
      const webhookPart = await submitForm([schemaPart, { name: 'webhook', body: '{"url":"http://127.0.0.1:9/hook"}' }, { name: 'file', filename: 'receipt.png', body: png }]);
      expect(webhookPart.status).to.equal(400);
      expect(webhookPart.body.error).to.match(/WEBHOOK_SECRET/);
    });

    it('Idempotency-Key on a multipart submit compares its parts, not its boundary', async () => {
      const key = `idem-multipart-${queue}-${Date.now()}`;
      const parts: FormPart[] = [{ name: 'schema', body: JSON.stringify(invoiceSchema) }, { name: 'file', filename: 'invoice.pdf', type: 'application/pdf', body: await makeInvoicePdf() }];
      const headers = { 'idempotency-key': key };
      const first = await submitForm(parts, headers);
      const again = await submitForm(parts, headers); // formBody draws a new boundary each time
      expect(first.status).to.equal(202);
      expect(again.status).to.equal(202);
      expect(again.body.id).to.equal(first.body.id);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      const other = await submitForm([...parts, { name: 'options', body: '{"dateOrder":"mdy"}' }], headers);
      expect(other.status).to.equal(422);
      await untilEnded(base, first.body.id);
    });

    it('a job belongs to the key that submitted it: any other key gets 404 for its status, result and cancel', async () => {
      const submitted = await postJson(`${base}/v1/jobs`, { schema: invoiceSchema, contents: [content(await makeInvoicePdf(), 'application/pdf')] });
      const id = submitted.body.id as string;
      await untilEnded(base, id);
      for (const [method, path] of [['GET', `/v1/jobs/${id}`], ['GET', `/v1/jobs/${id}?wait=1`], ['GET', `/v1/jobs/${id}/result`], ['DELETE', `/v1/jobs/${id}`]] as const) {
        const answer = await call(method, `${base}${path}`, OTHER_KEY);
        expect(answer.status, `${method} ${path}`).to.equal(404);
        expect(JSON.stringify(answer.body)).to.not.contain('INV-');
      }
      expect((await call('GET', `${base}/v1/jobs/${id}/result`)).status).to.equal(200);
      expect((await call('GET', `${base}/v1/jobs/00000000-0000-4000-8000-000000000000`)).status).to.equal(404);
      expect((await call('GET', `${base}/v1/jobs/${id}`, 'wrong')).status).to.equal(401);
      expect((await call('GET', `${base}/v1/jobs/${id}?wait=31`)).status).to.equal(400);
    });

    it('DELETE cancels a running job at its next model call, deletes its input, and the result answers 410', async () => {
      const engine = stallingEngine();
      const stallServer = await ownService({}, { ...pipeline, engine });
      try {
        const submitted = await postJson(`${stallServer.url}/v1/jobs`, { schema: invoiceSchema, contents: [content(await makeInvoicePdf(), 'application/pdf')] });
        const id = submitted.body.id as string;
        let view = (await call('GET', `${stallServer.url}/v1/jobs/${id}`)).body;
        for (let i = 0; i < 100 && view.progress.stage !== 'extracting'; i++) view = (await call('GET', `${stallServer.url}/v1/jobs/${id}?wait=2`)).body;
        expect(view.status).to.equal('running');
        expect((await call('GET', `${stallServer.url}/v1/jobs/${id}/result`)).status).to.equal(409);
        const canceled = await call('DELETE', `${stallServer.url}/v1/jobs/${id}`);
        expect(canceled.status).to.equal(200);
        expect(canceled.body.status).to.equal('canceled');
        for (let i = 0; i < 100 && engine.aborted === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(engine.aborted).to.equal(1);
        expect((await call('GET', `${stallServer.url}/v1/jobs/${id}/result`)).status).to.equal(410);
        expect((await call('GET', `${stallServer.url}/v1/jobs/${id}`)).body.status).to.equal('canceled');
      } finally {
        await stallServer.close();
      }
    });

    it('a job waits in the Redis list an autoscaler watches until a worker takes it', async function () {
      if (!redis) this.skip(); // the in-process queue has no list to watch
      const ownRedis = await startRedis();
      const apiOnly = await startJobs(testConfig(env({ REDIS_URL: ownRedis.url, ROLE: 'api' })), silentLogger());
      try {
        await apiOnly.jobs.submit({ owner: 'o', input: { raw: Buffer.from('{}'), request: { schema: {}, contents: [] } }, metadata: null, webhook: null, baseUrl: 'http://x' });
        expect(ownRedis.cli('LLEN', WAITING_LIST)).to.equal('1');
        expect(await apiOnly.jobs.counts()).to.deep.equal({ queued: 1, running: 0 });
      } finally {
        await apiOnly.close(0);
        await ownRedis.close();
      }
    });

    it('a result that expired answers 410, and the job still says when', async () => {
      const shortServer = await ownService({ JOB_RESULT_TTL: '1s' }, pipeline);
      try {
        const submitted = await postJson(`${shortServer.url}/v1/jobs`, { schema: invoiceSchema, contents: [content(await makeInvoicePdf(), 'application/pdf')] });
        const ended = await untilEnded(shortServer.url, submitted.body.id);
        expect(ended.body.status).to.equal('succeeded');
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(ended.body.expiresAt) - Date.now()) + 200));
        const result = await call('GET', `${shortServer.url}/v1/jobs/${submitted.body.id}/result`);
        expect(result.status).to.equal(410);
        expect(result.body.error).to.match(/expired/);
      } finally {
        await shortServer.close();
      }
    });
  });
}
