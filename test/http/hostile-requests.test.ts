import { expect } from 'chai';
import { flateStream, inflatingContent, onePagePdf } from '../../scripts/fuzz/pdf-writer.js';
import { makeLongLinePdf, makeTextPdf } from '../fixtures/pdfs.js';
import { healthzDuring } from '../helpers/healthz.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, type RunningServer } from '../helpers/test-server.js';

/** One page of `count` text lines "Total 1.00", 10 pt apart, on a page as tall as they need. */
function tallPage(count: number): Buffer {
  const lines = '0 -10 Td (Total 1.00) Tj '.repeat(count);
  return onePagePdf({ mediaBox: `[0 0 612 ${count * 10 + 100}]`, content: flateStream('', `BT /F1 8 Tf 72 ${count * 10 + 50} Td ${lines} ET`) });
}

describe('requests built to be slow or to break the code: schemas and documents', function () {
  this.timeout(120_000);
  let server: RunningServer;

  before(async () => {
    server = await startTestServer(await sharedServices());
  });

  after(async () => {
    await server?.close();
    await closeSharedServices();
  });

  it('checks a catastrophic-backtracking pattern against 10,000 "a"s in linear time, /healthz answering throughout', async () => {
    const code = `${'a'.repeat(10_000)}!`;
    const pdf = await makeLongLinePdf(`Code: ${code}`);
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$', description: 'Code' } } };
    const work = postJson(`${server.url}/v1/`, { schema, contents: [content(pdf, 'application/pdf')] });
    const { longestStallMs } = await healthzDuring(server.url, work);
    const response = await work;
    expect(response.status).to.equal(200);
    // The value read does not match the pattern, so it cannot be returned; a backtracking engine never gets this far.
    expect(response.body).to.deep.equal({ code: null });
    expect(longestStallMs, 'longest event-loop stall, CPU ms').to.be.below(100);
  });

  it('compiles a new schema of 300 properties with patterns and formats off the event loop, /healthz answering throughout', async () => {
    const pdf = await makeTextPdf([['Code: AB-12345']]);
    // unique names: a schema compiled by an earlier test would come from the cache
    const properties: Record<string, unknown> = { code: { type: 'string', pattern: '^[A-Z]{2}-\\d{5}$', description: 'Code' } };
    for (let i = 0; i < 299; i++) properties[`field_${i}_${Date.now()}`] = { type: 'string', pattern: `^[a-z]{1,${(i % 40) + 1}}$`, ...(i % 3 === 0 ? { format: 'date' } : {}) };
    const work = postJson(`${server.url}/v1/`, { schema: { type: 'object', properties }, contents: [content(pdf, 'application/pdf')] });
    const { longestStallMs } = await healthzDuring(server.url, work);
    const response = await work;
    expect(response.status).to.equal(200);
    expect((response.body as Record<string, unknown>)['code']).to.equal('AB-12345');
    // generating this validator took the loop 0.2-0.6 s of CPU before it moved to the schema-compile thread
    expect(longestStallMs, 'longest event-loop stall, CPU ms').to.be.below(100);
  });

  it('answers 400 naming a pattern whose counted repeats would take the loop seconds to compile, /healthz answering throughout', async () => {
    const pdf = await makeTextPdf([['Code: AB-12345']]);
    const properties: Record<string, unknown> = {};
    // 800 characters that RE2 writes out as 19,902 instructions: ten of them held the loop 5 s before
    for (let i = 0; i < 10; i++) properties[`code${i}`] = { type: 'string', pattern: `${'a{1,100}'.repeat(100)}${i}` };
    const work = postJson(`${server.url}/v1/`, { schema: { type: 'object', properties }, contents: [content(pdf, 'application/pdf')] });
    const { longestStallMs } = await healthzDuring(server.url, work);
    const response = await work;
    expect(response.status).to.equal(400);
    expect(JSON.stringify(response.body)).to.match(/schema\.properties\.code0\.pattern: the pattern compiles to 19903 instructions .*the limit is 2500 per pattern/);
    expect(longestStallMs, 'longest event-loop stall, CPU ms').to.be.below(100);
  });

  it('answers 422, not a server error, for a schema no answer can fit, and says why (propertyNames refusing the declared names)', async () => {
    const pdf = await makeTextPdf([['Code: AB-12345']]);
    const schema = { type: 'object', properties: { code: { type: 'string', description: 'Code' } }, propertyNames: { pattern: '^x' } };
    const response = await postJson(`${server.url}/v1/`, { schema, contents: [content(pdf, 'application/pdf')] });
    expect(response.status).to.equal(422);
    expect(response.body.error).to.match(/^no answer can fit the schema/);
    expect(response.body.details.join(' ')).to.match(/property name must be valid|propertyName/);
    expect(JSON.stringify(response.body)).to.not.include('AB-12345');
  });

  it('still applies a pattern: a matching value is kept', async () => {
    const pdf = await makeTextPdf([['Code: AB-12345']]);
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{2}-\\d{5}$', description: 'Code' } } };
    const response = await postJson(`${server.url}/v1/`, { schema, contents: [content(pdf, 'application/pdf')] });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ code: 'AB-12345' });
  });

  it('answers 400 naming the place of a pattern that only a backtracking engine can run', async () => {
    const pdf = await makeTextPdf([['Code: AB-12345']]);
    for (const pattern of ['^(?=A)[A-Z]{2}', '^(a)\\1$']) {
      const schema = { type: 'object', properties: { code: { type: 'string', pattern } } };
      const response = await postJson(`${server.url}/v1/`, { schema, contents: [content(pdf, 'application/pdf')] });
      expect(response.status).to.equal(400);
      expect((response.body as { error: string }).error).to.match(/^schema\.properties\.code\.pattern: .*linear-time engine/);
    }
    const schema = { type: 'object', patternProperties: { '^(?!x)': { type: 'string' } }, properties: {} };
    const response = await postJson(`${server.url}/v1/`, { schema, contents: [content(pdf, 'application/pdf')] });
    expect(response.status).to.equal(400);
    expect((response.body as { error: string }).error).to.match(/^schema\.patternProperties\.\^\(\?!x\): /);
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

  it('refuses a content stream that inflates to 100 MB of one word with a 400 naming the limit, in bounded memory, and reads the next PDF', async () => {
    // before: pdf.js decoded such a stream whole (300 MB: 3.4 GB RSS, 20 s); a worker's resourceLimits ended the whole process instead
    const schema = { type: 'object', properties: { total: { type: 'number' } } };
    const bomb = content(onePagePdf({ content: inflatingContent(100, true) }), 'application/pdf');
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
    const request = postJson(`${server.url}/v1/`, { schema, contents: [bomb] });
    const { longestStallMs } = await healthzDuring(server.url, request).finally(() => clearInterval(sampler));
    const response = await request;
    expect(response.status).to.equal(400);
    expect(response.body.error).to.equal('contents[0].data: PDF has a stream (object 5) that decompresses to more than 8 MB, the limit for one stream (MAX_PDF_STREAM_MB)');
    expect(peakRss - rssBefore, 'RSS growth').to.be.below(300 * 1024 ** 2);
    expect(longestStallMs, 'longest event-loop stall, CPU ms').to.be.below(1000);
    const next = await postJson(`${server.url}/v1/`, { schema, contents: [content(tallPage(3), 'application/pdf')] });
    expect(next.status).to.equal(200);
    expect(next.body).to.deep.equal({ total: 1 });
  });
});
