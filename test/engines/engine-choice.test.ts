import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError } from '../../src/config.js';
import { createEngine } from '../../src/engines/create-engine.js';
import { ExplainedEngine } from '../../src/engines/explained-engine.js';
import { RulesEngine } from '../../src/engines/rules/index.js';
import { EInvoiceTermsEngine } from '../../src/engines/e-invoice-terms.js';
import { ThreadedRulesEngine } from '../../src/engines/rules/threaded.js';
import { extractInWindows } from '../../src/engines/llm/windowed.js';
import { splitIntoWindows } from '../../src/engines/llm/windows.js';
import { wordAt } from '../../src/document/document.js';
import { silentLogger } from '../../src/logger.js';
import { buildDocument } from '../helpers/document-builder.js';
import { engineInput } from '../helpers/extraction.js';
import { closedPort, startFakeOllama } from '../helpers/model-servers.js';
import { testConfig } from '../helpers/test-server.js';
import { tinyGgufPath } from '../helpers/tiny-gguf.js';

const madeDirs: string[] = [];
const emptyModelsDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'docshape-models-'));
  madeDirs.push(dir);
  return dir;
};
after(() => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});

describe('engine choice (EXTRACTOR)', function () {
  this.timeout(30_000);

  it('auto: nothing on OLLAMA_HOST and no GGUF means the rules engine, decided at once (a refused connection, not the probe\'s time limit)', async () => {
    // a probe limit past this test's own: only a refused connection can decide it
    const { engine, reason } = await createEngine(testConfig({ EXTRACTOR: 'auto', OLLAMA_HOST: await closedPort(), OLLAMA_PROBE_TIMEOUT_MS: '600000', MODELS_DIR: emptyModelsDir() }), silentLogger());
    expect(engine.name).to.equal('rules');
    expect(reason).to.match(/Ollama.*not reachable/);
  });

  it('auto: an Ollama host that accepts connections but never answers costs at most OLLAMA_PROBE_TIMEOUT_MS', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const host = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const started = performance.now();
      const { engine, reason } = await createEngine(testConfig({ EXTRACTOR: 'auto', OLLAMA_HOST: host, OLLAMA_PROBE_TIMEOUT_MS: '300', MODELS_DIR: emptyModelsDir() }), silentLogger());
      expect(engine.name).to.equal('rules');
      // the probe's time limit ended it (a host that never answers would hold the start for ever)
      expect(reason).to.include(`Ollama at ${host} did not answer within 300 ms`);
      expect(performance.now() - started).to.be.at.least(300);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('auto: Ollama with the model wins', async () => {
    const ollama = await startFakeOllama({ models: ['tiny:latest'], respond: () => ({ content: '{}' }) });
    try {
      const { engine } = await createEngine(testConfig({ EXTRACTOR: 'auto', OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'tiny', MODELS_DIR: emptyModelsDir() }), silentLogger());
      expect(engine.name).to.equal('ollama:tiny');
    } finally {
      await ollama.close();
    }
  });

  it('auto: Ollama without the model, a GGUF in MODELS_DIR: the in-process engine', async () => {
    const ollama = await startFakeOllama({ models: ['other:latest'], respond: () => ({ content: '{}' }) });
    const dir = emptyModelsDir();
    copyFileSync(tinyGgufPath(), join(dir, 'tiny.gguf'));
    try {
      const { engine, reason } = await createEngine(testConfig({ EXTRACTOR: 'auto', OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'tiny', MODELS_DIR: dir, LLAMA_THREADS: '1' }), silentLogger());
      expect(engine.name).to.equal('llamacpp:tiny.gguf');
      expect(reason).to.contain('ollama pull tiny');
      await engine.close();
    } finally {
      await ollama.close();
    }
  });

  it('explicit choices fail at start when they cannot work', async () => {
    let failure: unknown;
    await createEngine(testConfig({ EXTRACTOR: 'llamacpp', MODELS_DIR: emptyModelsDir() }), silentLogger()).catch((error: unknown) => (failure = error));
    expect(String(failure)).to.match(/LLAMA_MODEL_PATH/);
    expect(() => testConfig({ EXTRACTOR: 'openai' })).to.throw(ConfigError, /OPENAI_BASE_URL/);
    expect(() => testConfig({ EXTRACTOR: 'gpt' })).to.throw(ConfigError, /EXTRACTOR/);
  });

  it('/readyz can say why: the chosen engine carries the reason in its status', async () => {
    const { engine, reason } = await createEngine(testConfig({ EXTRACTOR: 'auto', OLLAMA_HOST: await closedPort(), MODELS_DIR: emptyModelsDir() }), silentLogger());
    const status = await new ExplainedEngine(engine, reason).status();
    expect(status).to.include({ ready: true, chosenBecause: reason });
  });

  it('EXTRACTOR=ollama starts even when Ollama is down (requests get 503 until it is up)', async () => {
    const { engine, crossCheck } = await createEngine(testConfig({ EXTRACTOR: 'ollama', OLLAMA_HOST: await closedPort() }), silentLogger());
    expect(engine.name).to.equal('ollama:qwen2.5:7b-instruct');
    expect((await engine.status()).ready).to.equal(false);
    await crossCheck?.close();
  });

  it('a language model\'s answers get the rules engine on its threads as second reader for evidence; the rules engine\'s own do not', async () => {
    const model = await createEngine(testConfig({ EXTRACTOR: 'ollama', OLLAMA_HOST: await closedPort() }), silentLogger());
    expect(model.crossCheck).to.be.instanceOf(ThreadedRulesEngine);
    await model.crossCheck?.close();
    const rules = await createEngine(testConfig({ EXTRACTOR: 'rules' }), silentLogger());
    // every engine reads an e-invoice's terms from its XML first (e-invoice-terms.ts), the rules engine on its threads for the rest
    expect(rules.engine).to.be.instanceOf(EInvoiceTermsEngine);
    expect(rules.engine.name).to.equal('rules');
    expect(rules.crossCheck).to.equal(undefined);
    await rules.engine.close();
  });
});

describe('long documents with the rules engine: a table over many pages comes back whole', () => {
  const schema = {
    type: 'object',
    properties: {
      invoice_number: { type: 'string', description: 'Invoice number' },
      items: {
        type: 'array',
        items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, amount: { type: 'number' } } },
      },
    },
  };
  const PAGES = 6;
  const ROWS = 8;
  const header = { cells: [{ text: 'Description', x: 40 }, { text: 'Quantity', x: 260 }, { text: 'Amount', x: 380 }] };
  const pages = Array.from({ length: PAGES }, (_, p) => [
    ...(p === 0 ? ['Invoice number: INV-77'] : []),
    header,
    ...Array.from({ length: ROWS }, (_, r) => {
      const n = p * ROWS + r + 1;
      return { cells: [{ text: `Widget-${n}`, x: 40 }, { text: String(n), x: 260 }, { text: `${n}.00`, x: 380 }] };
    }),
  ]);

  it('extracts every row, in page order, once, and the scalar from the page that has it', async () => {
    const document = buildDocument(pages);
    const input = engineInput(document, schema);
    expect(splitIntoWindows(document, input.layout, 120).length).to.be.greaterThan(PAGES - 1);
    const rules = new RulesEngine();
    const merged = await extractInWindows(input, { maxTokens: 120, concurrency: 2 }, (window) =>
      rules.extract({ ...input, document: window.document, layout: window.layout }),
    );
    const value = merged.value as { invoice_number: string; items: Array<{ description: string; quantity: number }> };
    expect(value.invoice_number).to.equal('INV-77');
    expect(value.items.map((item) => item.description)).to.deep.equal(Array.from({ length: PAGES * ROWS }, (_, i) => `Widget-${i + 1}`));
    expect(value.items[PAGES * ROWS - 1]).to.deep.include({ quantity: PAGES * ROWS });
    // each row still points at its own words, on its own page
    const last = merged.provenance.get(`/items/${PAGES * ROWS - 1}/description`)?.words ?? [];
    expect(last.map((ref) => wordAt(document, ref)?.word.text)).to.deep.equal([`Widget-${PAGES * ROWS}`]);
    expect(last[0]?.page).to.equal(PAGES - 1);
  });
});
