/**
 * Tables of items through the whole pipeline: a PDF generated here (its
 * text layer), and the same pages rendered to pictures in an image-only PDF
 * that the real OCR reads. The rules engine must read the same items from
 * both, each value with the page and box it was printed at.
 */
import { expect } from 'chai';
import type { DecodedFile } from '../../../src/ingest/decode.js';
import { runExtraction, type ExtractionOutcome, type PipelineDeps } from '../../../src/pipeline.js';
import type { JsonSchema } from '../../../src/schema/schema.js';
import { GERMAN_INVOICE_ITEMS, makeGermanInvoicePdf, makeRunTogetherPdf, makeStatementPdf, RUN_TOGETHER_ITEMS, scannedCopy, STATEMENT_TRANSACTIONS } from '../../fixtures/table-pdfs.js';
import { content, sharedServices } from '../../helpers/test-server.js';

const invoiceSchema: JsonSchema = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          description: { type: 'string' },
          article_number: { type: 'string' },
          quantity: { type: 'number' },
          unit_of_measure: { type: 'string' },
          unit_price: { type: 'number' },
          amount: { type: 'number' },
        },
      },
    },
  },
};

const statementSchema: JsonSchema = {
  type: 'object',
  properties: {
    transactions: {
      type: 'array',
      items: {
        type: 'object',
        properties: { date: { type: 'string', format: 'date' }, description: { type: 'string' }, debit: { type: 'number' }, credit: { type: 'number' }, balance: { type: 'number' } },
      },
    },
  },
};

const invoiceItems = GERMAN_INVOICE_ITEMS.map(({ unit, ...item }) => ({ ...item, unit_of_measure: unit }));

async function extract(services: PipelineDeps, pdf: Buffer, schema: JsonSchema): Promise<ExtractionOutcome> {
  return runExtraction(services, { schema, contents: [content(pdf, 'application/pdf')], options: { dateOrder: 'dmy', evidence: true, eInvoice: 'ignore' } }, AbortSignal.timeout(300_000));
}

/** The pages of a PDF as a scanner would make them: rendered, then put into an image-only PDF. */
async function scanned(services: PipelineDeps, pdf: Buffer, pages: number): Promise<Buffer> {
  const file: DecodedFile = { index: 0, filename: 'table.pdf', mimeType: 'application/pdf', bytes: pdf };
  const rasters = [];
  for (let page = 0; page < pages; page++) rasters.push(await services.pdf.render(file, page));
  return scannedCopy(rasters);
}

describe('rules engine: tables of real documents, printed and scanned', function () {
  this.timeout(300_000);
  let services: PipelineDeps;
  let invoice: Buffer;
  let statement: Buffer;

  before(async () => {
    services = await sharedServices();
    invoice = await makeGermanInvoicePdf();
    statement = await makeStatementPdf();
  });

  it('reads a ruled invoice table over two pages: a heading over two lines, a wrapped name, an article number below a name, a discount row', async () => {
    const outcome = await extract(services, invoice, invoiceSchema);
    expect(outcome.stats.textLayerPages).to.equal(2);
    expect(outcome.result['items']).to.deep.equal(invoiceItems);
    // every cell has its page and box: rows 5 and 6 are on the second page, the wrapped name has a box per line
    const evidence = outcome.evidence!.evidence;
    expect(evidence['/items/4/amount']).to.include({ page: 1, text: '16,00' });
    expect(evidence['/items/0/amount']).to.include({ page: 0, text: '258,00' });
    expect(evidence['/items/1/description']!.boxes).to.have.length(2);
    expect(evidence['/items/0/article_number']).to.include({ text: 'Art.-Nr. 4711-0815' });
    for (const [pointer, value] of Object.entries(evidence)) if (pointer.startsWith('/items/')) expect(value.bbox, pointer).to.not.equal(undefined);
  });

  it('reads the same items from the scanned invoice through OCR', async () => {
    const outcome = await extract(services, await scanned(services, invoice, 2), invoiceSchema);
    expect(outcome.stats.ocrPages).to.equal(2);
    expect(outcome.result['items']).to.deep.equal(invoiceItems);
    expect(outcome.evidence!.evidence['/items/5/amount']).to.include({ page: 1, source: 'ocr' });
  });

  for (const language of ['de', 'fr'] as const) {
    it(`reads quantities printed a space before the VAT, as one text, in a ${language} invoice: printed and scanned`, async () => {
      const pdf = await makeRunTogetherPdf(language);
      const printed = await extract(services, pdf, invoiceSchema);
      expect(printed.stats.textLayerPages).to.equal(1);
      expect(printed.result['items']).to.deep.equal(RUN_TOGETHER_ITEMS[language].map((item) => ({ ...item, article_number: null })));
      const ocr = await extract(services, await scanned(services, pdf, 1), invoiceSchema);
      expect(ocr.stats.ocrPages).to.equal(1);
      expect(ocr.result['items']).to.deep.equal(RUN_TOGETHER_ITEMS[language].map((item) => ({ ...item, article_number: null })));
    });
  }

  it('reads a bank statement: dates in ISO form, a debit or a credit per row (null where the row leaves it empty), a reference line kept out', async () => {
    const outcome = await extract(services, statement, statementSchema);
    expect(outcome.result['transactions']).to.deep.equal(STATEMENT_TRANSACTIONS);
    // the re-printed date still points at the printed one
    expect(outcome.evidence!.evidence['/transactions/2/date']).to.include({ text: '07/03/2024' });
  });

  it('reads the same transactions from the scanned statement through OCR', async () => {
    const outcome = await extract(services, await scanned(services, statement, 1), statementSchema);
    expect(outcome.result['transactions']).to.deep.equal(STATEMENT_TRANSACTIONS);
  });
});
