import { expect } from 'chai';
import type { PipelineDeps } from '../../src/pipeline.js';
import { makeCsv, makeDocx, makeEmail, makeHtml, makeOdt, makePptx, makeText, makeTiff, makeXlsx, invoiceSheetRows } from '../fixtures/formats.js';
import { INVOICE_EXPECTED, makeInvoicePdf } from '../fixtures/pdfs.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, TEST_API_KEY, type RunningServer } from '../helpers/test-server.js';
import { healthzDuring } from '../helpers/healthz.js';
import { postForm } from '../helpers/multipart.js';
import { deepHtml, DOCX_TYPE, longLineCsv, manyPartEmail, nestedEmail, zipBombDocx } from '../../scripts/fuzz/families/formats.js';

const OOXML = 'application/vnd.openxmlformats-officedocument';
const e = INVOICE_EXPECTED;

const SCHEMA = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    due_date: { type: 'string', format: 'date' },
    subtotal: { type: 'number' },
    total: { type: 'number', description: 'Total due' },
    line_items: {
      type: 'array',
      items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, unit_price: { type: 'number' }, amount: { type: 'number' } } },
    },
  },
};

const EXPECTED = {
  invoice_number: e.invoiceNumber,
  invoice_date: e.invoiceDateIso,
  due_date: e.dueDateIso,
  subtotal: e.subtotal,
  total: e.total,
  line_items: e.lineItems.map((item) => ({ description: item.description, quantity: item.quantity, unit_price: item.unitPrice, amount: item.amount })),
};

describe('every input type through POST /v1/ (rules engine)', function () {
  this.timeout(180_000);
  let server: RunningServer;
  let pipeline: PipelineDeps;

  before(async () => {
    pipeline = await sharedServices();
    server = await startTestServer(pipeline);
  });
  after(async () => {
    await server.close();
    await closeSharedServices();
  });

  const answer = async (bytes: Buffer, mimeType: string, filename: string, schema: object = SCHEMA) => {
    const response = await postJson(`${server.url}/v1/`, { schema, contents: [content(bytes, mimeType, filename)] });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body as Record<string, unknown>;
  };

  /** The same file sent as curl -F sends it: the schema a field, the file a part with its filename and type. */
  const answerAsForm = async (bytes: Buffer, mimeType: string, filename: string) => {
    const response = await postForm(`${server.url}/v1/`, [{ name: 'schema', body: JSON.stringify(SCHEMA) }, { name: 'file', filename, type: mimeType, body: bytes }], { 'x-api-key': TEST_API_KEY });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body as Record<string, unknown>;
  };

  it('reads the invoice as a PDF (the answer every other type must give)', async () => {
    expect(await answer(await makeInvoicePdf(), 'application/pdf', 'invoice.pdf')).to.deep.equal(EXPECTED);
  });

  const digital: Array<[string, string, string, () => Buffer]> = [
    ['DOCX', `${OOXML}.wordprocessingml.document`, 'invoice.docx', () => makeDocx()],
    ['XLSX (dates and amounts as numbers with formats)', `${OOXML}.spreadsheetml.sheet`, 'invoice.xlsx', () => makeXlsx(invoiceSheetRows())],
    ['ODT', 'application/vnd.oasis.opendocument.text', 'invoice.odt', () => makeOdt()],
    ['PPTX', `${OOXML}.presentationml.presentation`, 'invoice.pptx', () => makePptx()],
    ['HTML', 'text/html', 'invoice.html', () => makeHtml()],
    ['plain text', 'text/plain', 'invoice.txt', () => makeText()],
    ['CSV', 'text/csv', 'invoice.csv', () => makeCsv()],
    ['CSV with semicolons and decimal commas', 'text/csv', 'invoice.csv', () => makeCsv(';', true)],
  ];
  for (const [name, mimeType, filename, make] of digital) {
    it(`gives the same answer for the invoice as ${name}, sent as JSON and as multipart/form-data`, async () => {
      expect(await answer(make(), mimeType, filename)).to.deep.equal(EXPECTED);
      expect(await answerAsForm(make(), mimeType, filename)).to.deep.equal(EXPECTED);
    });
  }

  it('detects the type from the bytes when the declared type is application/octet-stream', async () => {
    expect(await answer(makeDocx(), 'application/octet-stream', 'scan-0042')).to.deep.equal(EXPECTED);
    expect(await answer(makeCsv(), '', 'invoice.csv')).to.deep.equal(EXPECTED);
  });

  it('reads an e-mail and the invoice PDF attached to it', async () => {
    const eml = makeEmail({ attachments: [{ filename: 'invoice.pdf', mimeType: 'application/pdf', bytes: await makeInvoicePdf() }] });
    expect(await answer(eml, 'message/rfc822', 'invoice.eml')).to.deep.equal(EXPECTED);
    expect(await answerAsForm(eml, 'message/rfc822', 'invoice.eml')).to.deep.equal(EXPECTED);
  });

  it('gives the same answer for the invoice as a TIFF scan (G4), read by OCR, sent as JSON and as multipart/form-data', async () => {
    const tiff = await makeTiff('ccittfax4');
    expect(await answer(tiff, 'image/tiff', 'invoice.tif')).to.deep.equal(EXPECTED);
    expect(await answerAsForm(tiff, 'image/tiff', 'invoice.tif')).to.deep.equal(EXPECTED);
  });
});

describe('input types through POST /v1/: tables, evidence and hostile files', function () {
  this.timeout(180_000);
  let server: RunningServer;

  before(async () => {
    server = await startTestServer(await sharedServices(), { MAX_INFLATE_MB: '20' });
  });
  after(async () => {
    await server.close();
    await closeSharedServices();
  });

  const post = (body: unknown) => postJson(`${server.url}/v1/`, body);

  it('reads a CSV of rows as an array of objects, a column per property', async () => {
    const csv = Buffer.from('Description,Quantity,Unit price,Amount\nSteel hammer,2,14.50,29.00\nBox of nails,10,2.25,22.50\nSafety gloves,3,4.00,12.00\n');
    const schema = { type: 'object', properties: { items: SCHEMA.properties.line_items } };
    const response = await post({ schema, contents: [content(csv, 'text/csv', 'items.csv')] });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body).to.deep.equal({ items: EXPECTED.line_items });
  });

  it('says in its evidence which sheet and cell a value stands in, and which attachment of an e-mail', async () => {
    const schema = { type: 'object', properties: { invoice_number: SCHEMA.properties.invoice_number, total: SCHEMA.properties.total } };
    const xlsx = await post({ schema, contents: [content(makeXlsx(invoiceSheetRows()), `${OOXML}.spreadsheetml.sheet`, 'invoice.xlsx')], options: { evidence: true } });
    expect(xlsx.status, JSON.stringify(xlsx.body)).to.equal(200);
    expect(xlsx.body.evidence['/invoice_number'].at).to.deep.equal({ sheet: 'Invoice', places: ['Invoice!B4'] });
    expect(xlsx.body.evidence['/total'].at).to.deep.equal({ sheet: 'Invoice', places: ['Invoice!D16'] });
    const eml = makeEmail({ attachments: [{ filename: 'invoice.docx', mimeType: 'application/octet-stream', bytes: makeDocx() }] });
    const mail = await post({ schema, contents: [content(eml, 'message/rfc822', 'mail.eml')], options: { evidence: true } });
    expect(mail.status, JSON.stringify(mail.body)).to.equal(200);
    expect(mail.body.data).to.deep.equal({ invoice_number: e.invoiceNumber, total: e.total });
    expect(mail.body.evidence['/total']).to.include({ file: 0, page: 1 });
    expect(mail.body.evidence['/total'].at).to.deep.equal({ attachment: 'invoice.docx', attachmentPage: 1, places: ['paragraph 11'] });
  });

  it('refuses an e-mail forwarded more than 50 deep, and one of more attachments than pages allowed', async () => {
    const deep = await post({ schema: SCHEMA, contents: [content(nestedEmail(52), 'message/rfc822', 'deep.eml')] });
    expect(deep.status).to.equal(400);
    expect(deep.body.error).to.match(/nests e-mails more than 50 deep; the limit is MAX_EMAIL_DEPTH|MIME parts nest more than 50 deep/);
    const wide = await post({ schema: SCHEMA, contents: [content(manyPartEmail(200), 'message/rfc822', 'wide.eml')] });
    expect(wide.status).to.equal(400);
    expect(wide.body.error).to.include('pages per request (MAX_PAGES)');
  });

  it('refuses a zip-bombed DOCX with a 400 naming MAX_INFLATE_MB while /healthz keeps answering', async () => {
    const bomb = zipBombDocx(1000);
    const request = post({ schema: SCHEMA, contents: [content(bomb, DOCX_TYPE, 'bomb.docx')] });
    const { longestStallMs, probes } = await healthzDuring(server.url, request);
    const response = await request;
    expect(response.status).to.equal(400);
    expect(response.body.error).to.equal('contents[0].data: it inflates to more than 20 MB (a zip bomb?); the limit is MAX_INFLATE_MB');
    expect(probes).to.be.above(0);
    expect(longestStallMs, `the event loop was held ${longestStallMs.toFixed(0)} ms (CPU)`).to.be.below(100);
  });

  it('keeps /healthz answering while a 36 MB CSV line, HTML nested 100,000 deep and an e-mail of 10,000 parts are refused', async () => {
    const files: Array<[Buffer, string, RegExp]> = [
      [longLineCsv(36), 'text/csv', /a record longer than 1048576 characters/],
      [deepHtml(100_000), 'text/html', /nests elements more than 1000 deep/],
      [manyPartEmail(10_000), 'message/rfc822', /MAX_PAGES/],
    ];
    for (const [bytes, mimeType, error] of files) {
      const request = post({ schema: SCHEMA, contents: [content(bytes, mimeType, 'hostile')] });
      const { longestStallMs } = await healthzDuring(server.url, request);
      const response = await request;
      expect(response.status, mimeType).to.equal(400);
      expect(response.body.error).to.match(error);
      expect(longestStallMs, `${mimeType}: the event loop was held ${longestStallMs.toFixed(0)} ms (CPU)`).to.be.below(100);
    }
  });
});
