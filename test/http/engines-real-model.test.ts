/**
 * Opt-in check against a real Ollama: runs only when OLLAMA_HOST (or the
 * default 127.0.0.1:11434) answers and has OLLAMA_MODEL. Everywhere else,
 * including CI, it reports itself as pending.
 */
import { expect } from 'chai';
import { loadConfig } from '../../src/config.js';
import { LlmEngine } from '../../src/engines/llm/llm-engine.js';
import { OllamaBackend } from '../../src/engines/llm/backends/ollama.js';
import { silentLogger } from '../../src/logger.js';
import { INVOICE_EXPECTED, makeInvoicePdf } from '../fixtures/pdfs.js';
import { expectSchemaValid } from '../helpers/engine-fixtures.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer } from '../helpers/test-server.js';

describe('real model through Ollama (opt-in)', function () {
  this.timeout(600_000);

  it('extracts the invoice fixture', async function () {
    const config = loadConfig({ ...process.env, EXTRACTOR: 'ollama' });
    const backend = new OllamaBackend(config.ollama, config.llm);
    const probe = await backend.probe();
    if (probe.state !== 'ready') this.skip();
    const schema = {
      type: 'object',
      properties: {
        invoice_number: { type: 'string' },
        invoice_date: { type: 'string', description: 'date as YYYY-MM-DD' },
        total: { type: 'number' },
        line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } },
      },
    };
    const server = await startTestServer({ ...(await sharedServices()), engine: new LlmEngine(backend, config.llm, silentLogger()) });
    try {
      const response = await postJson(`${server.url}/v1/`, { schema, contents: [content(await makeInvoicePdf(), 'application/pdf')] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expectSchemaValid(response.body, schema);
      expect(response.body.invoice_number).to.equal(INVOICE_EXPECTED.invoiceNumber);
      expect(response.body.total).to.equal(INVOICE_EXPECTED.total);
      expect(response.body.line_items).to.have.length(INVOICE_EXPECTED.lineItems.length);
    } finally {
      await server.close();
      await closeSharedServices();
    }
  });
});
