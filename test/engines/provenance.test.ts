/**
 * Where each value was read, through the real pipeline: the words the rules
 * engine and the grounding check return must be the words the value was
 * printed with, at the place the fixture printed it.
 */
import { expect } from 'chai';
import { crossCheckerFor } from '../../src/engines/cross-check.js';
import { LlmEngine } from '../../src/engines/llm/llm-engine.js';
import { ThreadedRulesEngine } from '../../src/engines/rules/threaded.js';
import type { ValueSource } from '../../src/schema/provenance.js';
import { wordAt, type Document } from '../../src/document/document.js';
import { silentLogger } from '../../src/logger.js';
import { answerFromDocument, prepareRequest, readDocument, runExtraction, type ExtractionOutcome, type PipelineDeps } from '../../src/pipeline.js';
import { makeReceiptImage, RECEIPT_EXPECTED } from '../fixtures/images.js';
import { INVOICE_COLUMNS, INVOICE_EXPECTED, makeInvoicePdf } from '../fixtures/pdfs.js';
import { closeSharedServices, content, sharedServices, testConfig } from '../helpers/test-server.js';

const invoiceSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    total: { type: 'number', description: 'Total amount due' },
    line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } },
  },
};

/** The words a value points at, with their text, box and page. */
function wordsOf(document: Document, source: ValueSource | undefined) {
  expect(source, 'the value has a provenance entry').to.not.equal(undefined);
  return source!.words.map((ref) => ({ ref, ...wordAt(document, ref)! }));
}

function text(document: Document, source: ValueSource | undefined): string {
  return wordsOf(document, source).map((w) => w.word.text).join(' ');
}

describe('provenance: the words each value was read from', function () {
  this.timeout(120_000);
  let services: PipelineDeps;
  const signal = () => new AbortController().signal;

  before(async () => {
    services = await sharedServices();
  });
  after(closeSharedServices);

  describe('rules engine, born-digital PDF', () => {
    let outcome: ExtractionOutcome;
    before(async () => {
      outcome = await runExtraction(services, { schema: invoiceSchema, contents: [content(await makeInvoicePdf(), 'application/pdf')] }, signal());
    });

    it('points a labelled value at its own words, where the PDF printed them', () => {
      const e = INVOICE_EXPECTED;
      expect(outcome.result['invoice_number']).to.equal(e.invoiceNumber);
      const [number] = wordsOf(outcome.document, outcome.provenance.get('/invoice_number'));
      expect(number!.word.text).to.equal(e.invoiceNumber);
      expect(number!.word.source).to.equal('text-layer');
      // printed at (340, 88) after "Invoice number: " in 10 pt
      expect(number!.word.bbox.x0).to.be.within(340, 480);
      expect(number!.word.bbox.y0).to.be.within(84, 100);
      expect(number!.ref).to.deep.include({ file: 0, page: 0 });
    });

    it('points a re-printed date at the date as printed', () => {
      expect(outcome.result['invoice_date']).to.equal(INVOICE_EXPECTED.invoiceDateIso);
      expect(text(outcome.document, outcome.provenance.get('/invoice_date'))).to.equal(INVOICE_EXPECTED.invoiceDate);
    });

    it('points the total at the amount right-aligned in the amount column on the "Total due" line, not the subtotal', () => {
      const [total] = wordsOf(outcome.document, outcome.provenance.get('/total'));
      expect(total!.word.text).to.equal('76.20');
      expect(total!.word.bbox.x1).to.be.closeTo(INVOICE_COLUMNS.amountRight, 2);
      expect(total!.word.bbox.y0).to.be.within(376, 394);
    });

    it('points each table cell at its own row and column', () => {
      const items = INVOICE_EXPECTED.lineItems;
      items.forEach((item, i) => {
        expect(text(outcome.document, outcome.provenance.get(`/line_items/${i}/description`))).to.equal(item.description);
        const [amount] = wordsOf(outcome.document, outcome.provenance.get(`/line_items/${i}/amount`));
        expect(amount!.word.text).to.equal(item.amount.toFixed(2));
        expect(amount!.word.bbox.y0).to.be.within(250 + 24 + i * 18 - 3, 250 + 24 + i * 18 + 12);
      });
    });

    it('has a provenance entry for every value it returned and none for a missing one', async () => {
      const schema = { type: 'object', properties: { ...invoiceSchema.properties, purchase_order: { type: 'string' } } };
      const withMissing = await runExtraction(services, { schema, contents: [content(await makeInvoicePdf(), 'application/pdf')] }, signal());
      expect(withMissing.result['purchase_order']).to.equal(null);
      const pointers = [...withMissing.provenance.keys()].sort();
      expect(pointers).to.deep.equal(
        ['/invoice_date', '/invoice_number', '/total', ...INVOICE_EXPECTED.lineItems.flatMap((_, i) => [`/line_items/${i}/amount`, `/line_items/${i}/description`])].sort(),
      );
    });
  });

  describe('rules engine, generated image read by OCR', () => {
    it('points the total at the OCR word on the TOTAL line, below the items', async () => {
      const schema = { type: 'object', properties: { store: { type: 'string', description: 'Name of the store' }, total: { type: 'number', description: 'Total amount paid' } } };
      const outcome = await runExtraction(services, { schema, contents: [content(await makeReceiptImage('png'), 'image/png')] }, signal());
      expect(outcome.result).to.deep.equal({ store: RECEIPT_EXPECTED.store, total: Number(RECEIPT_EXPECTED.total) });
      const [total] = wordsOf(outcome.document, outcome.provenance.get('/total'));
      expect(total!.word.text).to.equal(RECEIPT_EXPECTED.total);
      expect(total!.word.source).to.equal('ocr');
      // the page names the engine that read it: its confidences are calibrated per engine
      expect(outcome.document.files[0]!.pages[0]!.ocrEngine).to.equal(services.ocr.name);
      const lines = outcome.document.files[0]!.pages[0]!.lines;
      // the last line of the receipt, right of its label
      expect(total!.ref.line).to.equal(lines.length - 1);
      expect(lines[total!.ref.line]!.words[0]!.text).to.equal('TOTAL');
      expect(text(outcome.document, outcome.provenance.get('/store'))).to.equal(RECEIPT_EXPECTED.store);
    });

    it('names the file each value came from in a two-file request', async () => {
      const schema = { type: 'object', properties: { store: { type: 'string', description: 'Name of the store' }, invoice_number: { type: 'string' } } };
      const contents = [content(await makeReceiptImage('png'), 'image/png'), content(await makeInvoicePdf(), 'application/pdf')];
      const outcome = await runExtraction(services, { schema, contents }, signal());
      expect(outcome.result).to.deep.equal({ store: RECEIPT_EXPECTED.store, invoice_number: INVOICE_EXPECTED.invoiceNumber });
      expect(outcome.provenance.get('/store')?.words.every((ref) => ref.file === 0)).to.equal(true);
      expect(outcome.provenance.get('/invoice_number')?.words.map((ref) => ref.file)).to.deep.equal([1]);
    });
  });

  describe('language-model engine: the grounding check', () => {
    const scripted = (answer: unknown): LlmEngine =>
      new LlmEngine(
        {
          name: 'scripted',
          acceptsImages: false,
          chat: async () => ({ content: JSON.stringify(answer), truncated: false }),
          capacity: async () => ({ contextTokens: undefined, source: 'scripted' }),
          status: async () => ({ ready: true }),
          close: async () => undefined,
        },
        testConfig().llm,
        silentLogger(),
      );

    it('has the model\'s answer read again by the rules engine on its threads for evidence: values both read agree', async () => {
      const engine = scripted({ invoice_number: 'INV-2024-0042', total: INVOICE_EXPECTED.subtotal });
      const crossCheck = crossCheckerFor(engine, 1)!;
      try {
        expect(crossCheck).to.be.instanceOf(ThreadedRulesEngine);
        const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number', description: 'Total amount due' } } };
        const prepared = await prepareRequest({ schema, contents: [content(await makeInvoicePdf(), 'application/pdf')], options: { evidence: true } }, services.limits);
        const { document } = await readDocument(services, prepared, signal());
        const agreement = async (deps: PipelineDeps) => {
          const { evidence } = await answerFromDocument(deps, prepared, document, signal());
          return { number: evidence?.features.get('/invoice_number')?.agreement, total: evidence?.features.get('/total')?.agreement };
        };
        expect(await agreement({ ...services, engine, crossCheck })).to.deep.equal({ number: 'agrees', total: 'differs' });
        expect(await agreement({ ...services, engine })).to.deep.equal({ number: 'none', total: 'none' });
      } finally {
        await crossCheck.close();
      }
    });

    it('points the values a model wrote at the words it found them in, a re-printed date at the date, and gives an invented value none', async () => {
      const answer = { invoice_number: 'INV-2024-0042', invoice_date: '2024-03-14', total: 76.2, line_items: [{ description: 'Box of nails', amount: 22.5 }], vendor: 'Globex' };
      const engine = scripted(answer);
      const schema = { type: 'object', properties: { ...invoiceSchema.properties, vendor: { type: 'string' } } };
      const prepared = await prepareRequest({ schema, contents: [content(await makeInvoicePdf(), 'application/pdf')] }, services.limits);
      const { document } = await readDocument(services, prepared, signal());
      const result = await answerFromDocument({ ...services, engine }, prepared, document, signal());
      expect(result.result).to.deep.include({ invoice_number: 'INV-2024-0042', total: 76.2, vendor: null });
      expect(text(document, result.provenance.get('/invoice_number'))).to.equal('INV-2024-0042');
      const [total] = wordsOf(document, result.provenance.get('/total'));
      expect(total!.word.text).to.equal('76.20');
      expect(total!.word.bbox.x1).to.be.closeTo(INVOICE_COLUMNS.amountRight, 2);
      expect(text(document, result.provenance.get('/line_items/0/description'))).to.equal('Box of nails');
      // the model re-printed the date: it points at the same day as the invoice prints it
      expect(text(document, result.provenance.get('/invoice_date'))).to.equal(INVOICE_EXPECTED.invoiceDate);
      expect(result.provenance.has('/vendor')).to.equal(false);
    });
  });
});
