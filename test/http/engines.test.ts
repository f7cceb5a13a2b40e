import { expect } from 'chai';
import { createEngine } from '../../src/engines/create-engine.js';
import { LlamaCppBackend } from '../../src/engines/llm/backends/llamacpp.js';
import type { Engine } from '../../src/schema/engine.js';
import { silentLogger } from '../../src/logger.js';
import type { PipelineDeps } from '../../src/pipeline.js';
import { makeReceiptImage } from '../fixtures/images.js';
import { SYSTEM_PROMPT } from '../../src/engines/llm/prompt.js';
import { LABELLED_INVOICE_LINES, makeLabelledInvoicePng, makeManyPagesPdf, makeScannedPdf, makeTextPdf } from '../fixtures/pdfs.js';
import { expectSchemaValid, RICH_SCHEMA } from '../helpers/engine-fixtures.js';
import { closedPort, modelResponder, startFakeOllama, startFakeOpenAi, type ModelServer, type Respond } from '../helpers/model-servers.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, testConfig, type RunningServer } from '../helpers/test-server.js';
import { tinyGgufPath } from '../helpers/tiny-gguf.js';

const SIMPLE_SCHEMA = {
  type: 'object',
  properties: { invoice_number: { type: 'string' }, total: { type: 'number' }, items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } },
};
const DOCUMENT_LINES = ['ACME Supplies Ltd', 'Invoice INV-2024-001', 'Total 99.50'];
/** Six pages of about 700 tokens each: more than one 2,048-token context holds. */
/** The labelled invoice with 30 item lines: one page whose prompt is more than a 2,048-token model holds. */
const LONG_INVOICE_LINES = [
  ...LABELLED_INVOICE_LINES.slice(0, 6),
  ...Array.from({ length: 30 }, (_, i) => `Item ${i + 1}: copier paper, box of 5 reams     ${(24.5 + i).toFixed(2)}`),
  ...LABELLED_INVOICE_LINES.slice(6),
];
const LONG_PAGES = Array.from({ length: 6 }, (_, p) => Array.from({ length: 40 }, (_, l) => `Page ${p + 1} line ${l + 1}: delivered items and their prices, ${(l * 3.25).toFixed(2)}`));

/** Engines for the tiny model: one thread (the suite shares 2 cores with OCR workers), values kept so the shape is visible. */
const TINY = { LLAMA_THREADS: '1', LLM_UNGROUNDED: 'keep', LLM_MAX_OUTPUT_TOKENS: '512', LLM_MAX_CONTEXT_TOKENS: '8192' };

describe('language-model engines over HTTP', function () {
  this.timeout(120_000);
  let base: PipelineDeps;
  let tiny: LlamaCppBackend;
  const cleanups: Array<() => Promise<void>> = [];

  before(async () => {
    base = await sharedServices();
    const config = testConfig({ ...TINY, LLAMA_MODEL_PATH: tinyGgufPath() });
    tiny = await LlamaCppBackend.load(tinyGgufPath(), config.llamacpp, config.llm);
  });

  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await tiny?.close();
    await closeSharedServices();
  });

  async function serve(overrides: Record<string, string>): Promise<{ server: RunningServer; engine: Engine }> {
    const { engine } = await createEngine(testConfig(overrides), silentLogger());
    const server = await startTestServer({ ...base, engine });
    cleanups.push(async () => {
      await server.close();
      await engine.close();
    });
    return { server, engine };
  }

  async function fakeOllama(respond: Respond, models?: string[]): Promise<ModelServer> {
    const server = await startFakeOllama({ respond, ...(models ? { models } : {}) });
    cleanups.push(() => server.close());
    return server;
  }

  /** A text-layer PDF by default (no OCR: the error paths stay fast); scanned when the OCR path is the point. */
  async function postDocument(server: RunningServer, schema: object = SIMPLE_SCHEMA, scanned = false) {
    const pdf = scanned ? await makeScannedPdf(DOCUMENT_LINES) : await makeTextPdf([DOCUMENT_LINES]);
    return postJson(`${server.url}/v1/`, { schema, contents: [content(pdf, 'application/pdf', 'invoice.pdf')] });
  }

  /** The "done when" check of every engine: a scanned PDF and a PNG each come back 200 and schema-valid. */
  async function expectScanAndPhotoValid(server: RunningServer, engineName: string): Promise<void> {
    const scan = await postDocument(server, RICH_SCHEMA, true);
    expect(scan.status, JSON.stringify(scan.body)).to.equal(200);
    expect(scan.headers.get('x-docshape-engine')).to.equal(engineName);
    expectSchemaValid(scan.body, RICH_SCHEMA);
    const png = await makeReceiptImage('png');
    const photo = await postJson(`${server.url}/v1/`, { schema: RICH_SCHEMA, contents: [content(png, 'image/png')] });
    expect(photo.status, JSON.stringify(photo.body)).to.equal(200);
    expectSchemaValid(photo.body, RICH_SCHEMA);
  }

  describe('in-process llama.cpp (EXTRACTOR=llamacpp, tiny generated GGUF)', () => {
    let server: RunningServer;
    before(async () => {
      ({ server } = await serve({ ...TINY, EXTRACTOR: 'llamacpp', LLAMA_MODEL_PATH: tinyGgufPath() }));
    });

    it('answers a scanned PDF and a PNG with schema-valid JSON (nested objects, lists of objects, enums, numbers, nullable fields)', async () => {
      await expectScanAndPhotoValid(server, 'llamacpp:tiny.gguf');
    });

    it('shows the engine in /readyz', async () => {
      const response = await fetch(`${server.url}/readyz`);
      const body = (await response.json()) as { engine: { name: string; ready: boolean } };
      expect(body.engine.name).to.equal('llamacpp:tiny.gguf');
      expect(body.engine.ready).to.equal(true);
    });

    it('answers a one-page PNG invoice with 200 when the GGUF holds only 2,048 tokens: windows are sized to the model, not to LLM_MAX_CONTEXT_TOKENS', async () => {
      // default LLM_MAX_CONTEXT_TOKENS (16,384) and LLM_MAX_OUTPUT_TOKENS (4,096): nothing tuned by hand
      const { server: small } = await serve({ EXTRACTOR: 'llamacpp', LLAMA_MODEL_PATH: tinyGgufPath(2048), LLAMA_THREADS: '1', LLM_UNGROUNDED: 'keep' });
      const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' } } };
      // the tiny model's vocabulary is byte-level: at least a token per character, so one window of the whole page cannot fit
      expect(SYSTEM_PROMPT.length + LONG_INVOICE_LINES.join('\n').length).to.be.greaterThan(2048);
      const response = await postJson(`${small.url}/v1/`, { schema, contents: [content(await makeLabelledInvoicePng(LONG_INVOICE_LINES), 'image/png')] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expectSchemaValid(response.body, schema);
      const ready = (await (await fetch(`${small.url}/readyz`)).json()) as { engine: { detail: string } };
      expect(ready.engine.detail).to.contain('context 2048 tokens');
    });
  });

  describe('Ollama (EXTRACTOR=ollama) against an Ollama-protocol server backed by the tiny model', () => {
    let ollama: ModelServer;
    let server: RunningServer;
    before(async () => {
      ollama = await fakeOllama(modelResponder(tiny));
      ({ server } = await serve({ ...TINY, EXTRACTOR: 'ollama', OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'tiny' }));
    });

    it('answers a scanned PDF and a PNG with schema-valid JSON through the real ollama client', async () => {
      await expectScanAndPhotoValid(server, 'ollama:tiny');
      const call = ollama.calls[0]!;
      expect(call.body['options']).to.include({ temperature: 0, seed: 42 });
      expect((call.body['options'] as { num_ctx: number }).num_ctx).to.be.within(2048, 8192);
      expect(call.body['keep_alive']).to.equal('30m');
      expect(call.format).to.have.property('required').that.includes('total');
      expect(call.messages[1]!.content).to.contain('<document>').and.to.contain('INV-2024-001');
    });

    it('splits a 60-page PDF into windows and merges them into one schema-valid answer', async () => {
      ollama.calls.length = 0;
      const { server: small } = await serve({ ...TINY, EXTRACTOR: 'ollama', OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'tiny', LLM_MAX_CONTEXT_TOKENS: '1024', LLM_MAX_OUTPUT_TOKENS: '128' });
      const pdf = await makeManyPagesPdf(60);
      const response = await postJson(`${small.url}/v1/`, { schema: SIMPLE_SCHEMA, contents: [content(pdf, 'application/pdf')] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expectSchemaValid(response.body, SIMPLE_SCHEMA);
      expect(ollama.calls.length).to.be.greaterThan(1);
      expect(ollama.calls.some((call) => call.messages[1]!.content.includes('of 60'))).to.equal(true);
    });
  });

  describe('OpenAI-compatible (EXTRACTOR=openai) against a server backed by the tiny model', () => {
    it('answers a scanned PDF and a PNG with schema-valid JSON', async () => {
      const openai = await startFakeOpenAi(modelResponder(tiny));
      cleanups.push(() => openai.close());
      const { server } = await serve({ ...TINY, EXTRACTOR: 'openai', OPENAI_BASE_URL: `${openai.url}/v1`, OPENAI_MODEL: 'tiny', OPENAI_API_KEY: 'k' });
      await expectScanAndPhotoValid(server, 'openai:tiny');
      const body = openai.calls[0]!.body as { response_format: { type: string }; temperature: number };
      expect(body.response_format.type).to.equal('json_schema');
      expect(body.temperature).to.equal(0);
    });
  });

  describe('OpenAI-compatible error paths', () => {
    it('nothing listening: 503 naming the server', async () => {
      const { server } = await serve({ EXTRACTOR: 'openai', OPENAI_BASE_URL: `${await closedPort()}/v1` });
      const response = await postDocument(server);
      expect(response.status).to.equal(503);
      expect(response.body.error).to.match(/OpenAI-compatible server is not reachable/);
    });

    it('unknown model: 503 naming it; a refused key: 500 naming OPENAI_API_KEY', async () => {
      for (const [scripted, status, message] of [
        [{ status: 404, error: 'model "big" not found' }, 503, /no model "big"/],
        [{ status: 401, error: 'invalid api key' }, 500, /OPENAI_API_KEY/],
      ] as const) {
        const openai = await startFakeOpenAi(() => scripted);
        cleanups.push(() => openai.close());
        const { server } = await serve({ EXTRACTOR: 'openai', OPENAI_BASE_URL: `${openai.url}/v1`, OPENAI_MODEL: 'big' });
        const response = await postDocument(server);
        expect(response.status).to.equal(status);
        expect(response.body.error).to.match(message);
      }
    });
  });

  describe('OpenAI-compatible context size (OPENAI_CONTEXT_TOKENS)', () => {
    it('sizes windows and answers to the configured context', async () => {
      const openai = await startFakeOpenAi(() => ({ content: '{"invoice_number":null,"total":null,"items":[]}' }));
      cleanups.push(() => openai.close());
      const { server } = await serve({ EXTRACTOR: 'openai', OPENAI_BASE_URL: `${openai.url}/v1`, OPENAI_CONTEXT_TOKENS: '2048' });
      const response = await postJson(`${server.url}/v1/`, { schema: SIMPLE_SCHEMA, contents: [content(await makeTextPdf(LONG_PAGES), 'application/pdf')] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(openai.calls.length).to.be.greaterThan(1);
      for (const call of openai.calls) expect(call.body['max_tokens']).to.be.at.most(512);
    });

    it('a server that refuses a prompt for its context size: 500 saying to set OPENAI_CONTEXT_TOKENS', async () => {
      const openai = await startFakeOpenAi(() => ({ status: 400, error: 'the request exceeds the available context size, try increasing it' }));
      cleanups.push(() => openai.close());
      const { server } = await serve({ EXTRACTOR: 'openai', OPENAI_BASE_URL: `${openai.url}/v1` });
      const response = await postDocument(server);
      expect(response.status).to.equal(500);
      expect(response.body.error).to.contain('OPENAI_CONTEXT_TOKENS');
    });
  });

  describe('vision (Ollama reports the vision capability)', () => {
    async function visionCall(extra: Record<string, string>) {
      const ollama = await startFakeOllama({ capabilities: ['completion', 'vision'], respond: () => ({ content: '{"total": 6.25}' }) });
      cleanups.push(() => ollama.close());
      const { server } = await serve({ EXTRACTOR: 'ollama', OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'tiny', ...extra });
      const png = await makeReceiptImage('png');
      const response = await postJson(`${server.url}/v1/`, { schema: SIMPLE_SCHEMA, contents: [content(png, 'image/png')] });
      expect(response.status).to.equal(200);
      return ollama.calls[0]!.messages.at(-1) as { images?: string[] };
    }

    it('sends the page picture, downscaled PNG, with the text', async () => {
      const message = await visionCall({});
      expect(message.images).to.have.length(1);
      expect(Buffer.from(message.images![0]!, 'base64').subarray(1, 4).toString()).to.equal('PNG');
    });

    it('sends no picture with LLM_VISION=false', async () => {
      expect((await visionCall({ LLM_VISION: 'false' })).images).to.equal(undefined);
    });
  });

  describe('error paths (scripted Ollama answers)', () => {
    async function scripted(respond: Respond, extra: Record<string, string> = {}, models?: string[]) {
      const ollama = await fakeOllama(respond, models);
      const { server } = await serve({ EXTRACTOR: 'ollama', OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'tiny', LLM_UNGROUNDED: 'keep', ...extra });
      return { ollama, server };
    }

    it('nothing listening on OLLAMA_HOST: 503 naming Ollama, with Retry-After, at once (the refused connection, not a time limit)', async () => {
      // time limits past this test's own: only the refused connection can answer it
      const { server } = await serve({ EXTRACTOR: 'ollama', OLLAMA_HOST: await closedPort(), LLM_TIMEOUT_MS: '600000', OLLAMA_PROBE_TIMEOUT_MS: '600000' });
      const response = await postDocument(server);
      expect(response.status).to.equal(503);
      expect(response.body.error).to.match(/Ollama is not reachable at http:\/\/127\.0\.0\.1:\d+/);
      expect(response.headers.get('retry-after')).to.match(/^\d+$/);
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).to.equal(503);
    });

    it('model missing: 503 telling which model to pull', async () => {
      const { server } = await scripted(() => ({ status: 404, error: "model 'tiny' not found" }), {}, ['other:latest']);
      const response = await postDocument(server);
      expect(response.status).to.equal(503);
      expect(response.body.error).to.contain('ollama pull tiny');
    });

    it('backend answers 500: 500 with the reason, no stack', async () => {
      const { server } = await scripted(() => ({ status: 500, error: 'llama runner crashed' }));
      const response = await postDocument(server);
      expect(response.status).to.equal(500);
      expect(response.body.error).to.contain('llama runner crashed');
      expect(JSON.stringify(response.body)).not.to.contain('    at ');
    });

    it('broken JSON is retried with the problem; a good second answer wins', async () => {
      const { ollama, server } = await scripted((_call, index) =>
        index === 0 ? { content: '{"invoice_number": "INV-2024-001", "total": ' } : { content: '{"invoice_number":"INV-2024-001","total":99.5,"items":[]}' },
      );
      const response = await postDocument(server);
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.include({ invoice_number: 'INV-2024-001', total: 99.5 });
      expect(ollama.calls).to.have.length(2);
      expect(ollama.calls[1]!.messages.at(-1)!.content).to.match(/does not fit/);
    });

    it('JSON that is never valid: 500 after the configured retries', async () => {
      const { ollama, server } = await scripted(() => ({ content: 'I cannot help with that.' }), { LLM_MAX_RETRIES: '1' });
      const response = await postDocument(server);
      expect(response.status).to.equal(500);
      expect(response.body.error).to.match(/no usable answer after 2 attempts/);
      expect(ollama.calls).to.have.length(2);
    });

    it('an answer that is not JSON: the 500 quotes none of it (the answer holds document text)', async () => {
      const { server } = await scripted(() => ({ content: 'ACME Supplies Ltd owes 99.50 for INV-2024-001' }), { LLM_MAX_RETRIES: '0' });
      const response = await postDocument(server);
      expect(response.status).to.equal(500);
      expect(JSON.stringify(response.body)).not.to.match(/ACME|INV-2024|99\.50/);
      expect(response.body.details).to.deep.equal(['the answer is not valid JSON']);
    });

    it('overflowing numbers (1e400) become null after a retry, never Infinity', async () => {
      const { ollama, server } = await scripted(() => ({ content: '{"invoice_number":"INV-2024-001","total":1e400,"items":[]}' }), { LLM_MAX_RETRIES: '1' });
      const response = await postDocument(server);
      expect(response.status).to.equal(200);
      expect(response.body.total).to.equal(null);
      expect(ollama.calls).to.have.length(2);
      expect(ollama.calls[1]!.messages.at(-1)!.content).to.contain('/total');
    });

    it('empty content (a thinking model) is asked again with thinking off', async () => {
      const { ollama, server } = await scripted((_call, index) => (index === 0 ? { content: '' } : { content: '{"invoice_number":"INV-2024-001","total":99.5}' }));
      const response = await postDocument(server);
      expect(response.status).to.equal(200);
      expect(response.body.invoice_number).to.equal('INV-2024-001');
      expect(ollama.calls[1]!.body['think']).to.equal(false);
    });

    it('an answer cut off by the output limit is salvaged up to the last complete value', async () => {
      const { ollama, server } = await scripted(() => ({ content: '{"invoice_number":"INV-2024-001","items":[{"name":"Bo', truncated: true }));
      const response = await postDocument(server);
      expect(response.status).to.equal(200);
      expect(response.body.invoice_number).to.equal('INV-2024-001');
      expect(ollama.calls).to.have.length(1);
    });

    it('backend gone mid-request: 503', async () => {
      const { server } = await scripted(() => ({ hangUp: true }));
      const response = await postDocument(server);
      expect(response.status).to.equal(503);
      expect(response.body.error).to.match(/Ollama/);
    });

    it('backend too slow: 504 after LLM_TIMEOUT_MS', async () => {
      const { server } = await scripted(() => ({ stall: true }), { LLM_TIMEOUT_MS: '300' });
      const response = await postDocument(server);
      expect(response.status).to.equal(504);
      expect(response.body.error).to.match(/LLM_TIMEOUT_MS/);
    });

    it("sizes windows to the model's context length from /api/show, never asking num_ctx beyond it", async () => {
      const ollama = await startFakeOllama({ contextLength: 2048, respond: () => ({ content: '{"invoice_number":null,"total":null,"items":[]}' }) });
      cleanups.push(() => ollama.close());
      const { server } = await serve({ EXTRACTOR: 'ollama', OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'tiny' });
      const response = await postJson(`${server.url}/v1/`, { schema: SIMPLE_SCHEMA, contents: [content(await makeTextPdf(LONG_PAGES), 'application/pdf')] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(ollama.calls.length).to.be.greaterThan(1);
      for (const call of ollama.calls) {
        const options = call.body['options'] as { num_ctx: number; num_predict: number };
        expect(options.num_ctx).to.be.at.most(2048);
        expect(options.num_predict).to.be.at.most(512);
      }
    });

    it('refuses an answer when prompt_eval_count shows Ollama cut the prompt to fit num_ctx', async () => {
      // the model counted far more tokens than the estimate: Ollama keeps num_ctx of them and says so
      const { server } = await scripted(() => ({ content: '{"invoice_number":"INV-2024-001","total":99.5,"items":[]}', usage: { prompt: 100_000, output: 20 } }));
      const response = await postDocument(server);
      expect(response.status).to.equal(500);
      expect(response.body.error).to.match(/Ollama cut the prompt: it kept \d+ tokens of a \d+-token context \(num_ctx\)/);
    });

    it('takes an answer whose prompt_eval_count shows the whole prompt was read', async () => {
      const { server } = await scripted(() => ({ content: '{"invoice_number":"INV-2024-001","total":99.5,"items":[]}', usage: { prompt: 300, output: 20 } }));
      const response = await postDocument(server);
      expect(response.status).to.equal(200);
      expect(response.body.invoice_number).to.equal('INV-2024-001');
    });

    it('values the document does not contain are nulled by default (LLM_UNGROUNDED=null)', async () => {
      const ollama = await fakeOllama(() => ({ content: '{"invoice_number":"INV-9999-777","total":99.5,"items":[{"name":"Unicorn saddle"}]}' }));
      const { server } = await serve({ EXTRACTOR: 'ollama', OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'tiny' });
      const response = await postDocument(server);
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.equal({ invoice_number: null, total: 99.5, items: [] });
    });
  });
});
