import { expect } from 'chai';
import type { PipelineDeps } from '../../src/pipeline.js';
import { makeCsv, makeDocx, makeEmail, makeHtml, makeOdt, makePptx, makeText, makeTiff, makeXlsx, invoiceSheetRows } from '../fixtures/formats.js';
import { INVOICE_EXPECTED, makeInvoicePdf } from '../fixtures/pdfs.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, type RunningServer } from '../helpers/test-server.js';

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
    it(`gives the same answer for the invoice as ${name}`, async () => {
      expect(await answer(make(), mimeType, filename)).to.deep.equal(EXPECTED);
    });
  }

  it('detects the type from the bytes when the declared type is application/octet-stream', async () => {
    expect(await answer(makeDocx(), 'application/octet-stream', 'scan-0042')).to.deep.equal(EXPECTED);
    expect(await answer(makeCsv(), '', 'invoice.csv')).to.deep.equal(EXPECTED);
  });

  it('reads an e-mail and the invoice PDF attached to it', async () => {
    const eml = makeEmail({ attachments: [{ filename: 'invoice.pdf', mimeType: 'application/pdf', bytes: await makeInvoicePdf() }] });
    expect(await answer(eml, 'message/rfc822', 'invoice.eml')).to.deep.equal(EXPECTED);
  });

  it('gives the same answer for the invoice as a TIFF scan (G4), read by OCR', async () => {
    expect(await answer(await makeTiff('ccittfax4'), 'image/tiff', 'invoice.tif')).to.deep.equal(EXPECTED);
  });
});
