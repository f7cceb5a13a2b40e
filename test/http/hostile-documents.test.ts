import { expect } from 'chai';
import { flateStream, onePagePdf } from '../../scripts/fuzz/pdf-writer.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, type RunningServer } from '../helpers/test-server.js';

/** One page of `count` text lines "Total 1.00", 10 pt apart, on a page as tall as they need. */
function tallPage(count: number): Buffer {
  const lines = '0 -10 Td (Total 1.00) Tj '.repeat(count);
  return onePagePdf({ mediaBox: `[0 0 612 ${count * 10 + 100}]`, content: flateStream('', `BT /F1 8 Tf 72 ${count * 10 + 50} Td ${lines} ET`) });
}

describe('documents built to break the code on their size', function () {
  this.timeout(120_000);
  let server: RunningServer;

  before(async () => {
    server = await startTestServer(await sharedServices());
  });

  after(async () => {
    await server?.close();
    await closeSharedServices();
  });

  it('reads a page of 150,000 text lines where MAX_WORDS allows it (Math.min(...lines) overflowed the stack: a 500)', async () => {
    const roomy = await startTestServer(await sharedServices(), { MAX_WORDS: '400000' });
    try {
      const schema = { type: 'object', properties: { total: { type: 'number' } } };
      const response = await postJson(`${roomy.url}/v1/`, { schema, contents: [content(tallPage(150_000), 'application/pdf')] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body).to.deep.equal({ total: 1 });
    } finally {
      await roomy.close();
    }
  });

  it('refuses more words of text than MAX_WORDS with a 400 naming the file, the page and the limit', async () => {
    const schema = { type: 'object', properties: { total: { type: 'number' } } };
    const small = tallPage(10);
    const response = await postJson(`${server.url}/v1/`, { schema, contents: [content(small, 'application/pdf'), content(tallPage(100_001), 'application/pdf')] });
    expect(response.status).to.equal(400);
    expect(response.body.error).to.equal('contents[1].data: PDF has more words of text by page 1 than the 199980 left of the per-request word limit (MAX_WORDS)');
  });
});
