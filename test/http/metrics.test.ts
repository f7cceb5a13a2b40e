import { expect } from 'chai';
import { createEngine } from '../../src/engines/create-engine.js';
import type { Engine } from '../../src/schema/engine.js';
import { Admission } from '../../src/http/admission.js';
import { silentLogger } from '../../src/logger.js';
import type { PipelineDeps } from '../../src/pipeline.js';
import { makeReceiptImage } from '../fixtures/images.js';
import { makeInvoicePdf, makeTextPdf } from '../fixtures/pdfs.js';
import { REPORTED_TOKENS, startFakeOllama, startFakeOpenAi, type ModelServer, type Respond } from '../helpers/model-servers.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, TEST_API_KEY, testConfig, type RunningServer } from '../helpers/test-server.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format -> samples (comments skipped). */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name whose labels include `labels`; 0 when there is none (a counter never incremented). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}

async function scrape(server: RunningServer): Promise<{ text: string; samples: Sample[] }> {
  const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } });
  expect(response.status).to.equal(200);
  expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { text, samples: parseMetrics(text) };
}

const SCHEMA = {
  type: 'object',
  properties: { invoice_number: { type: 'string' }, total: { type: 'number' }, zz_private_field: { type: 'string' } },
};

describe('GET /metrics', function () {
  this.timeout(120_000);
  let base: PipelineDeps;
  const cleanups: Array<() => Promise<void>> = [];

  before(async () => {
    base = await sharedServices();
  });

  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await closeSharedServices();
  });

  async function serve(pipeline: PipelineDeps = base, overrides: Record<string, string> = {}): Promise<RunningServer> {
    const server = await startTestServer(pipeline, overrides);
    cleanups.push(() => server.close());
    return server;
  }

  it('takes the key as x-api-key or Authorization: Bearer, and nothing else', async () => {
    const server = await serve();
    const get = (headers: Record<string, string>) => fetch(`${server.url}/metrics`, { headers }).then((r) => r.status);
    expect(await get({})).to.equal(401);
    expect(await get({ 'x-api-key': TEST_API_KEY })).to.equal(200);
    expect(await get({ authorization: `Bearer ${TEST_API_KEY}` })).to.equal(200);
    expect(await get({ authorization: `Bearer ${TEST_API_KEY}x` })).to.equal(401);
    expect(await get({ authorization: `Basic ${TEST_API_KEY}` })).to.equal(401);
    // Bearer is for the scraper; the extraction endpoint still wants x-api-key.
    const extraction = await postJson(`${server.url}/v1/`, { schema: SCHEMA, contents: [] }, { authorization: `Bearer ${TEST_API_KEY}` });
    expect(extraction.status).to.equal(401);
  });

  it('METRICS=off removes the route', async () => {
    const server = await serve(base, { METRICS: 'off' });
    const response = await fetch(`${server.url}/metrics`, { headers: { 'x-api-key': TEST_API_KEY } });
    expect(response.status).to.equal(404);
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(spec.paths).to.not.have.property('/metrics');
  });

  it('counts requests, stage latencies, pages by source and OCR engine, engine calls, workers, queue and process', async () => {
    const server = await serve();
    const pdf = await makeInvoicePdf();
    const png = await makeReceiptImage('png');
    const ok1 = await postJson(`${server.url}/v1/`, { schema: SCHEMA, contents: [content(pdf, 'application/pdf', 'invoice.pdf')] });
    const ok2 = await postJson(`${server.url}/v1/`, { schema: SCHEMA, contents: [content(png, 'image/png')] });
    expect([ok1.status, ok2.status]).to.deep.equal([200, 200]);
    // The default OCR engine (auto: paddle for English) read the photo; its name is the label.
    expect(ok2.headers.get('x-docshape-ocr')).to.equal('paddle');
    expect((await postJson(`${server.url}/v1/`, { schema: SCHEMA })).status).to.equal(400);
    expect((await fetch(`${server.url}/no/such/path/12345`)).status).to.equal(404);

    const { samples } = await scrape(server);
    expect(valueOf(samples, 'docshape_http_requests_total', { route: '/v1/', method: 'POST', status: '200' })).to.equal(2);
    expect(valueOf(samples, 'docshape_http_requests_total', { route: '/v1/', method: 'POST', status: '400' })).to.equal(1);
    expect(valueOf(samples, 'docshape_http_requests_total', { route: 'other', method: 'GET', status: '404' })).to.equal(1);
    expect(valueOf(samples, 'docshape_http_request_duration_seconds_count', { route: '/v1/', method: 'POST' })).to.equal(3);
    for (const stage of ['decode', 'ocr', 'extract', 'validate', 'total']) {
      expect(valueOf(samples, 'docshape_extraction_stage_seconds_count', { stage }), stage).to.equal(2);
    }
    expect(valueOf(samples, 'docshape_extraction_stage_seconds_sum', { stage: 'total' })).to.be.greaterThan(0);
    expect(valueOf(samples, 'docshape_pages_total', { source: 'text-layer', ocr_engine: 'none' })).to.equal(1);
    expect(valueOf(samples, 'docshape_pages_total', { source: 'ocr', ocr_engine: 'paddle' })).to.equal(1);
    expect(valueOf(samples, 'docshape_files_total', { mime_type: 'application/pdf' })).to.equal(1);
    expect(valueOf(samples, 'docshape_files_total', { mime_type: 'image/png' })).to.equal(1);
    expect(valueOf(samples, 'docshape_engine_calls_total', { engine: 'rules', outcome: 'ok' })).to.equal(2);
    expect(valueOf(samples, 'docshape_engine_duration_seconds_count', { engine: 'rules' })).to.equal(2);
    expect(valueOf(samples, 'docshape_queue_wait_seconds_count', { outcome: 'admitted' })).to.equal(2);
    expect(valueOf(samples, 'docshape_requests_active')).to.equal(0);
    expect(valueOf(samples, 'docshape_requests_queued')).to.equal(0);
    expect(valueOf(samples, 'docshape_requests_limit', { kind: 'queued' })).to.equal(16);
    expect(valueOf(samples, 'docshape_workers', { pool: 'ocr' })).to.equal(2);
    expect(valueOf(samples, 'docshape_workers', { pool: 'pdf' })).to.equal(1);
    expect(valueOf(samples, 'docshape_worker_utilisation', { pool: 'ocr' })).to.be.within(0, 1);
    expect(valueOf(samples, 'docshape_worker_queue_length', { pool: 'pdf' })).to.equal(0);
    expect(valueOf(samples, 'process_resident_memory_bytes')).to.be.greaterThan(0);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).to.equal(true);
  });

  it('never puts a document value, a schema, a file name, a request id or a key in a label', async () => {
    const server = await serve();
    const pdf = await makeTextPdf([['Invoice INV-SECRET-7731', 'Total 4242.42']]);
    const response = await postJson(
      `${server.url}/v1/`,
      { schema: SCHEMA, contents: [content(pdf, 'application/pdf', 'secret-name-0193.pdf')] },
      { 'x-api-key': TEST_API_KEY, 'x-request-id': 'req-secret-5521' },
    );
    expect(response.status).to.equal(200);
    await fetch(`${server.url}/v1/INV-SECRET-7731`);
    const { text, samples } = await scrape(server);
    for (const secret of ['INV-SECRET-7731', '4242', 'zz_private_field', 'secret-name-0193', 'req-secret-5521', TEST_API_KEY]) {
      expect(text).to.not.contain(secret);
    }
    const allowed: Record<string, RegExp> = {
      route: /^(\/|\/v1\/|\/healthz|\/readyz|\/metrics|\/openapi\.json|\/playground\/\*|other)$/,
      method: /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|other)$/,
      status: /^(\d{3}|aborted)$/,
      stage: /^(decode|ocr|extract|validate|total)$/,
      source: /^(text-layer|ocr)$/,
      engine: /^rules$/,
      pool: /^(ocr|pdf)$/,
    };
    for (const sample of samples.filter((s) => s.name.startsWith('docshape_'))) {
      for (const [label, value] of Object.entries(sample.labels)) {
        if (allowed[label]) expect(value, `${sample.name} ${label}`).to.match(allowed[label]!);
      }
    }
  });

  describe('language-model engine calls', () => {
    async function serveModel(kind: 'ollama' | 'openai', respond: Respond): Promise<RunningServer> {
      const model: ModelServer = kind === 'ollama' ? await startFakeOllama({ respond, models: ['tiny:latest'] }) : await startFakeOpenAi(respond);
      const overrides: Record<string, string> =
        kind === 'ollama'
          ? { EXTRACTOR: 'ollama', OLLAMA_HOST: model.url, OLLAMA_MODEL: 'tiny', LLM_UNGROUNDED: 'keep' }
          : { EXTRACTOR: 'openai', OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_MODEL: 'tiny', LLM_UNGROUNDED: 'keep' };
      const { engine }: { engine: Engine } = await createEngine(testConfig(overrides), silentLogger());
      const server = await serve({ ...base, engine });
      cleanups.push(async () => {
        await engine.close();
        await model.close();
      });
      return server;
    }

    async function post(server: RunningServer): Promise<number> {
      const pdf = await makeTextPdf([['Invoice INV-2024-001', 'Total 99.50']]);
      return (await postJson(`${server.url}/v1/`, { schema: SCHEMA, contents: [content(pdf, 'application/pdf')] })).status;
    }

    for (const kind of ['ollama', 'openai'] as const) {
      it(`${kind}: counts calls, retries and the tokens the server reported`, async () => {
        const server = await serveModel(kind, (_call, index) =>
          index === 0 ? { content: '{"invoice_number": "INV-2024-001", "total": ' } : { content: '{"invoice_number":"INV-2024-001","total":99.5,"zz_private_field":null}' },
        );
        expect(await post(server)).to.equal(200);
        const { samples } = await scrape(server);
        const engine = `${kind}:tiny`;
        expect(valueOf(samples, 'docshape_model_calls_total', { engine, outcome: 'ok' })).to.equal(2);
        expect(valueOf(samples, 'docshape_model_retries_total', { engine })).to.equal(1);
        expect(valueOf(samples, 'docshape_model_prompt_tokens_total', { engine })).to.equal(2 * REPORTED_TOKENS.prompt);
        expect(valueOf(samples, 'docshape_model_output_tokens_total', { engine })).to.equal(2 * REPORTED_TOKENS.output);
        expect(valueOf(samples, 'docshape_engine_calls_total', { engine, outcome: 'ok' })).to.equal(1);
      });
    }

    it('counts a failed model call and the engine failure by its error code', async () => {
      const server = await serveModel('ollama', () => ({ status: 500, error: 'llama runner crashed' }));
      expect(await post(server)).to.equal(500);
      const { samples } = await scrape(server);
      expect(valueOf(samples, 'docshape_model_calls_total', { engine: 'ollama:tiny', outcome: 'failed' })).to.equal(1);
      expect(valueOf(samples, 'docshape_engine_calls_total', { engine: 'ollama:tiny', outcome: 'engine_failed' })).to.equal(1);
      expect(valueOf(samples, 'docshape_http_requests_total', { route: '/v1/', status: '500' })).to.equal(1);
    });
  });

  it('admission reports each wait: admitted at once, after queueing, or refused', async () => {
    const waits: Array<[number, boolean]> = [];
    const admission = new Admission({ maxActiveRequests: 1, maxQueuedRequests: 1, maxQueueWaitMs: 5_000 }, (ms, admitted) => waits.push([ms, admitted]));
    const release = await admission.acquire();
    const queued = admission.acquire();
    await admission.acquire().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 30));
    release();
    (await queued)();
    expect(waits.map(([, admitted]) => admitted)).to.deep.equal([true, false, true]);
    expect(waits[0]![0]).to.equal(0);
    expect(waits[2]![0]).to.be.greaterThanOrEqual(25);
  });
});
