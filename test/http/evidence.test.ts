import { expect } from 'chai';
import { createEngine } from '../../src/engines/create-engine.js';
import type { Engine } from '../../src/schema/engine.js';
import { silentLogger } from '../../src/logger.js';
import type { PipelineDeps } from '../../src/pipeline.js';
import { makeTextPng, RECEIPT_LINES, type DrawnWord } from '../fixtures/images.js';
import { A4, makePlacedTextPdf, type PlacedTestWord } from '../fixtures/pdfs.js';
import { startFakeOllama, type ModelServer } from '../helpers/model-servers.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, testConfig, type RunningServer } from '../helpers/test-server.js';
import { tinyGgufPath } from '../helpers/tiny-gguf.js';

type Box = [number, number, number, number];

interface Evidence {
  file?: number;
  page?: number;
  bbox?: Box;
  boxes?: Box[];
  text?: string;
  source?: string;
  ocrConfidence?: number;
  confidence: number;
}

/** A born-digital invoice: every line one run at a known place. */
const INVOICE_LINES = [
  { text: 'ACME TOOLS LTD', x: 60, y: 60, size: 16 },
  { text: '12 Harbour Road', x: 60, y: 84 },
  { text: 'Bristol BS1 4DJ', x: 60, y: 98 },
  { text: 'Invoice number: INV-2024-0042', x: 340, y: 60 },
  { text: 'Invoice date: 14/03/2024', x: 340, y: 74 },
  { text: 'Total due: 76.20', x: 340, y: 300 },
];

const INVOICE_SCHEMA = {
  type: 'object',
  properties: {
    vendor_address: { type: 'string', description: 'Address of the vendor' },
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    total: { type: 'number' },
    po_number: { type: ['string', 'null'], description: 'Purchase order number' },
  },
};
/** What the rules engine answers for the invoice, in the schema's order: the response without evidence, byte for byte. */
const INVOICE_ANSWER = { vendor_address: '12 Harbour Road Bristol BS1 4DJ', invoice_number: 'INV-2024-0042', invoice_date: '2024-03-14', total: 76.2, po_number: null };

const RECEIPT_SCHEMA = {
  type: 'object',
  properties: { date: { type: 'string', format: 'date' }, total: { type: 'number', description: 'Total amount paid' } },
};

const area = (box: Box) => (box[2] - box[0]) * (box[3] - box[1]);

function intersection(a: Box, b: Box): number {
  return Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
}

/** Share of the smaller box that the two boxes have in common (1: one holds the other). */
function overlap(a: Box, b: Box): number {
  return intersection(a, b) / Math.min(area(a), area(b));
}

/** Intersection over union. */
function iou(a: Box, b: Box): number {
  const common = intersection(a, b);
  return common / (area(a) + area(b) - common);
}

function pdfTruth(words: PlacedTestWord[], text: string): Box {
  const word = words.find((w) => w.text === text)!;
  return [word.x0 / A4.width, word.y0 / A4.height, word.x1 / A4.width, word.y1 / A4.height];
}

function imageTruth(image: { width: number; height: number; words: DrawnWord[] }, text: string): Box {
  const word = image.words.find((w) => w.text === text)!;
  return [word.x0 / image.width, word.y0 / image.height, word.x1 / image.width, word.y1 / image.height];
}

function expectFraction(box: Box | undefined): asserts box is Box {
  expect(box).to.be.an('array').with.length(4);
  for (const value of box!) expect(value).to.be.within(0, 1);
  expect(box![2]).to.be.greaterThan(box![0]);
  expect(box![3]).to.be.greaterThan(box![1]);
}

/** Every non-null leaf of `data`, as JSON Pointers. */
function leaves(value: unknown, pointer = ''): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, `${pointer}/${i}`));
  if (typeof value === 'object') return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => leaves(item, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  return [pointer];
}

describe('per-value evidence (options.evidence)', function () {
  this.timeout(180_000);
  let services: PipelineDeps;
  let server: RunningServer;
  let invoice: { pdf: Buffer; words: PlacedTestWord[] };
  const cleanups: Array<() => Promise<void>> = [];

  before(async () => {
    services = await sharedServices();
    server = await startTestServer(services, { MAX_BODY_BYTES: '8mb' });
    invoice = await makePlacedTextPdf(INVOICE_LINES);
  });

  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await server?.close();
    await closeSharedServices();
  });

  const postInvoice = (options?: object, target: RunningServer = server) =>
    postJson(`${target.url}/v1/`, { schema: INVOICE_SCHEMA, contents: [content(invoice.pdf, 'application/pdf', 'invoice.pdf')], ...(options ? { options } : {}) });

  describe('a born-digital PDF', () => {
    let body: { data: Record<string, unknown>; evidence: Record<string, Evidence> };

    before(async () => {
      const response = await postInvoice({ evidence: true });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      body = response.body;
    });

    it('answers {data, evidence} with an entry for every non-null leaf and none for a null', () => {
      expect(Object.keys(body)).to.deep.equal(['data', 'evidence']);
      expect(body.data).to.deep.equal(INVOICE_ANSWER);
      expect(Object.keys(body.evidence)).to.have.members(leaves(body.data));
      expect(body.evidence).not.to.have.property('/po_number');
      for (const entry of Object.values(body.evidence)) expect(entry.confidence).to.be.within(0, 1);
    });

    it('boxes each value where it is printed, as fractions of the page, with its text and source', () => {
      for (const [pointer, word] of [
        ['/invoice_number', 'INV-2024-0042'],
        ['/total', '76.20'],
      ] as const) {
        const entry = body.evidence[pointer]!;
        expect(entry).to.include({ file: 0, page: 0, text: word, source: 'text-layer' });
        expect(entry).not.to.have.property('ocrConfidence');
        expectFraction(entry.bbox);
        // word boxes come from the glyphs' advances: the box is the printed word's, not a character off
        expect(iou(entry.bbox, pdfTruth(invoice.words, word)), `${pointer}: ${JSON.stringify(entry.bbox)}`).to.be.above(0.7);
      }
    });

    it('points a re-printed value at what it was read from: the ISO date at "14/03/2024"', () => {
      const entry = body.evidence['/invoice_date']!;
      expect(body.data.invoice_date).to.equal('2024-03-14');
      expect(entry.text).to.equal('14/03/2024');
      expect(overlap(entry.bbox!, pdfTruth(invoice.words, '14/03/2024'))).to.be.above(0.8);
    });

    it('gives a value over two lines one box per line', () => {
      const entry = body.evidence['/vendor_address']!;
      expect(entry.text).to.equal('12 Harbour Road\nBristol BS1 4DJ');
      expect(entry.boxes).to.have.length(2);
      expect(overlap(entry.boxes![0]!, pdfTruth(invoice.words, 'Harbour'))).to.be.above(0.8);
      expect(overlap(entry.boxes![1]!, pdfTruth(invoice.words, 'BS1'))).to.be.above(0.8);
      expect(entry.boxes![1]![1]).to.be.greaterThan(entry.boxes![0]![1]);
      // the bbox holds both lines
      expect(overlap(entry.bbox!, entry.boxes![0]!)).to.equal(1);
      expect(overlap(entry.bbox!, entry.boxes![1]!)).to.equal(1);
    });
  });

  describe('without the option', () => {
    it('answers the object itself, byte for byte as before, also for an empty options object or evidence: false', async () => {
      for (const options of [undefined, {}, { evidence: false }]) {
        const response = await fetch(`${server.url}/v1/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': 'test-key-0123456789' },
          body: JSON.stringify({ schema: INVOICE_SCHEMA, contents: [content(invoice.pdf, 'application/pdf')], ...(options ? { options } : {}) }),
        });
        expect(response.status).to.equal(200);
        expect(await response.text()).to.equal(JSON.stringify(INVOICE_ANSWER));
      }
    });

    it('answers 400 naming an unknown option, and a non-boolean evidence', async () => {
      const unknown = await postInvoice({ evidense: true });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.error).to.match(/options\.evidense is not a known option; the options are dateOrder, evidence/);
      const wrongType = await postInvoice({ evidence: 'yes' });
      expect(wrongType.status).to.equal(400);
      expect(wrongType.body.error).to.match(/options\.evidence must be a boolean/);
    });
  });

  describe('images read by OCR', () => {
    it('boxes a value on a rendered receipt where it was drawn, with the OCR confidence', async () => {
      const image = await makeTextPng(RECEIPT_LINES);
      const response = await postJson(`${server.url}/v1/`, { schema: RECEIPT_SCHEMA, contents: [content(image.png, 'image/png')], options: { evidence: true } });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.data).to.deep.equal({ date: '2024-05-17', total: 6.25 });
      const total: Evidence = response.body.evidence['/total'];
      expect(total).to.include({ file: 0, page: 0, text: '6.25', source: 'ocr' });
      expect(total.ocrConfidence).to.be.within(0, 1);
      expect(iou(total.bbox!, imageTruth(image, '6.25')), JSON.stringify(total.bbox)).to.be.above(0.5);
    });

    it('boxes a value of a photo OCR read turned (it lay sideways) on the image as it was sent', async () => {
      const image = await makeTextPng(RECEIPT_LINES, 90);
      const response = await postJson(`${server.url}/v1/`, { schema: RECEIPT_SCHEMA, contents: [content(image.png, 'image/png')], options: { evidence: true } });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.data.total).to.equal(6.25);
      const total: Evidence = response.body.evidence['/total'];
      expectFraction(total.bbox);
      // taller than wide, as "6.25" is on the sideways image
      expect(total.bbox[3] - total.bbox[1]).to.be.greaterThan((total.bbox[2] - total.bbox[0]) * (image.width / image.height));
      expect(iou(total.bbox, imageTruth(image, '6.25')), JSON.stringify(total.bbox)).to.be.above(0.5);
    });
  });

  it('names the file each value came from in a two-file request', async () => {
    const receipt = await makeTextPng(RECEIPT_LINES);
    const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, date: { type: 'string', format: 'date' } } };
    const response = await postJson(`${server.url}/v1/`, {
      schema,
      contents: [content(receipt.png, 'image/png', 'receipt.png'), content(invoice.pdf, 'application/pdf', 'invoice.pdf')],
      options: { evidence: true },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.data).to.deep.equal({ invoice_number: 'INV-2024-0042', date: '2024-05-17' });
    expect(response.body.evidence['/invoice_number']).to.include({ file: 1, page: 0, source: 'text-layer' });
    expect(response.body.evidence['/date']).to.include({ file: 0, page: 0, source: 'ocr' });
    expect(overlap(response.body.evidence['/invoice_number'].bbox, pdfTruth(invoice.words, 'INV-2024-0042'))).to.be.above(0.8);
  });

  describe('language-model engines', () => {
    async function serve(overrides: Record<string, string>): Promise<RunningServer> {
      const { engine, crossCheck }: { engine: Engine; crossCheck?: Engine } = await createEngine(testConfig(overrides), silentLogger());
      const modelServer = await startTestServer({ ...services, engine, ...(crossCheck ? { crossCheck } : {}) });
      cleanups.push(async () => {
        await modelServer.close();
        await Promise.all([engine.close(), crossCheck?.close()]);
      });
      return modelServer;
    }

    it('lists a value the model wrote that the document does not hold with a low confidence and no box; one the rules engine also read is boxed and surer', async () => {
      const answer = { vendor_address: null, invoice_number: 'INV-2024-0042', invoice_date: '2024-03-14', total: 76.2, po_number: 'PO-77123' };
      const ollama: ModelServer = await startFakeOllama({ respond: () => ({ content: JSON.stringify(answer) }) });
      cleanups.push(() => ollama.close());
      const modelServer = await serve({ EXTRACTOR: 'ollama', OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'tiny', LLM_UNGROUNDED: 'keep' });
      const response = await postInvoice({ evidence: true }, modelServer);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.headers.get('x-docshape-engine')).to.equal('ollama:tiny');
      const { data, evidence } = response.body as { data: typeof answer; evidence: Record<string, Evidence> };
      expect(data.po_number).to.equal('PO-77123');
      expect(Object.keys(evidence)).to.have.members(leaves(data));
      const invented = evidence['/po_number']!;
      expect(invented).to.deep.equal({ confidence: invented.confidence });
      expect(invented.confidence).to.be.below(0.5);
      const read = evidence['/invoice_number']!;
      expect(read).to.include({ file: 0, page: 0, text: 'INV-2024-0042', source: 'text-layer' });
      expect(read.confidence).to.be.greaterThan(invented.confidence);
      // the date the model re-printed is found where it is printed
      expect(evidence['/invoice_date']!.text).to.equal('14/03/2024');
    });

    it('gives the in-process tiny model\'s answer evidence too', async () => {
      const modelServer = await serve({ EXTRACTOR: 'llamacpp', LLAMA_MODEL_PATH: tinyGgufPath(), LLAMA_THREADS: '1', LLM_UNGROUNDED: 'keep', LLM_MAX_OUTPUT_TOKENS: '256', LLM_MAX_CONTEXT_TOKENS: '4096' });
      const response = await postInvoice({ evidence: true }, modelServer);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.headers.get('x-docshape-engine')).to.equal('llamacpp:tiny.gguf');
      expect(Object.keys(response.body)).to.deep.equal(['data', 'evidence']);
      const keys = Object.keys(response.body.evidence);
      expect(keys).to.have.members(leaves(response.body.data));
      for (const key of keys) {
        const entry: Evidence = response.body.evidence[key];
        expect(entry.confidence).to.be.within(0, 1);
        if (entry.bbox) expectFraction(entry.bbox);
      }
    });
  });
});
