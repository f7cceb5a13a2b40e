import { expect } from 'chai';
import { HELVETICA, rawPdf, stream, textContent } from '../../scripts/fuzz/pdf-writer.js';
import { AppError } from '../../src/errors.js';
import type { DecodedFile } from '../../src/ingest/decode.js';
import type { BBox, Word } from '../../src/document/document.js';
import { PDF_THREAD_YOUNG_GENERATION_MB, PdfProcessor, unpackingTextPage, type PdfInspection } from '../../src/ingest/pdf.js';
import type { PackedTextPage, PdfThreadWarmUp } from '../../src/ingest/pdf-protocol.js';
import { unionBox } from '../../src/ingest/line-grouping.js';
import { runSync } from '../../src/util/paced.js';
import type { GreyRaster } from '../../src/document/raster.js';
import {
  A4,
  INVOICE_COLUMNS,
  INVOICE_EXPECTED,
  FORM_VALUES,
  makeEncryptedPdf,
  makeFormPdf,
  makeInvoicePdf,
  makeManyPagesPdf,
  makeMixedPdf,
  makeRotatedPdf,
  makeScannedPdf,
  makeTextPdf,
  truncate,
} from '../fixtures/pdfs.js';
import { cpuMsOf, mainThreadCpuMs } from '../helpers/cpu-time.js';
import { longestStall } from '../helpers/healthz.js';

function pdfFile(bytes: Buffer, index = 0): DecodedFile {
  return { index, filename: `file-${index + 1}.pdf`, mimeType: 'application/pdf', bytes };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return expect.fail('expected the promise to reject');
}

/** Promise.withResolvers, which Node 20 lacks. */
function promiseWithResolvers<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

async function badRequestMessage(promise: Promise<unknown>): Promise<string> {
  const error = await rejection(promise);
  expect(error).to.be.instanceOf(AppError);
  expect((error as AppError).status, (error as Error).message).to.equal(400);
  return (error as AppError).message;
}

function findWord(words: Word[], text: string): Word {
  const word = words.find((w) => w.text === text);
  if (!word) expect.fail(`no word "${text}" in ${words.map((w) => w.text).join(' ')}`);
  return word;
}

/** The words whose vertical centre is within 3 pt of `anchor`'s, left to right. */
function rowOf(words: Word[], anchor: Word): string[] {
  return words
    .filter((w) => Math.abs(w.bbox.y0 + w.bbox.y1 - anchor.bbox.y0 - anchor.bbox.y1) / 2 < 3)
    .sort((a, b) => a.bbox.x0 - b.bbox.x0)
    .map((w) => w.text);
}

/** CPU time used so far by the main thread (not its workers), from Linux's /proc; undefined elsewhere. */
/** The box around all pixels darker than mid-grey, in PDF points. */
function inkBox(raster: GreyRaster): BBox {
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (let y = 0; y < raster.height; y++) {
    for (let x = 0; x < raster.width; x++) {
      if (raster.data[y * raster.width + x]! >= 128) continue;
      box.x0 = Math.min(box.x0, x);
      box.y0 = Math.min(box.y0, y);
      box.x1 = Math.max(box.x1, x + 1);
      box.y1 = Math.max(box.y1, y + 1);
    }
  }
  const scale = 72 / raster.dpi;
  return { x0: box.x0 * scale, y0: box.y0 * scale, x1: box.x1 * scale, y1: box.y1 * scale };
}

function boxAroundWords(words: Word[]): BBox {
  return {
    x0: Math.min(...words.map((w) => w.bbox.x0)),
    y0: Math.min(...words.map((w) => w.bbox.y0)),
    x1: Math.max(...words.map((w) => w.bbox.x1)),
    y1: Math.max(...words.map((w) => w.bbox.y1)),
  };
}

/** Word boxes span the font's ascent to descent, so they may reach a few points beyond the glyphs' ink. */
function expectWordsOverInk(words: Word[], raster: GreyRaster): void {
  const ink = inkBox(raster);
  const text = boxAroundWords(words);
  expect(text.x0).to.be.within(ink.x0 - 5, ink.x0 + 1);
  expect(text.y0).to.be.within(ink.y0 - 5, ink.y0 + 1);
  expect(text.x1).to.be.within(ink.x1 - 1, ink.x1 + 5);
  expect(text.y1).to.be.within(ink.y1 - 1, ink.y1 + 5);
}

describe('a text page unpacked from its thread\'s packing', () => {
  /** A packed page of `lines` lines, the first `longest` words long, the others 0 to 5 (an empty one among them). */
  const packed = (longest: number, lines = 40): PackedTextPage => {
    const lengths = [longest, 0, ...Array.from({ length: lines - 2 }, (_, i) => i % 6)];
    const total = lengths.reduce((sum, length) => sum + length, 0);
    const texts = Array.from({ length: total }, (_, i) => ['x', 'Total', '12.50', 'é€', '2024-03-14'][i % 5]).join(' ');
    const boxes = Float64Array.from({ length: total * 4 }, (_, i) => (i % 4 < 2 ? 100 - (i % 97) : 200 + (i % 89)));
    return { index: 0, width: 600, height: 800, needsOcr: false, texts, boxes, lineLengths: Uint32Array.from(lengths) };
  };
  /** The words and lines made at once, the plain way: what the unpacking in turns must give. */
  const reference = ({ texts, boxes, lineLengths, ...page }: PackedTextPage) => {
    const words: Word[] = texts === '' ? [] : texts.split(' ').map((text, i) => ({ text, bbox: { x0: boxes[i * 4]!, y0: boxes[i * 4 + 1]!, x1: boxes[i * 4 + 2]!, y1: boxes[i * 4 + 3]! }, confidence: 1, source: 'text-layer' }));
    let first = 0;
    const lines = Array.from(lineLengths, (length) => {
      const lineWords = words.slice(first, (first += length));
      return { text: lineWords.map((word) => word.text).join(' '), bbox: unionBox(lineWords.map((word) => word.bbox)), words: lineWords };
    });
    return { ...page, lines, words };
  };
  const unitsOf = (page: PackedTextPage) => {
    let units = 0;
    const work = unpackingTextPage(page);
    let step = work.next();
    for (; !step.done; step = work.next()) units++;
    expect(step.value).to.deep.equal(reference(page));
    return units;
  };

  it('gives the words and lines the plain unpacking gives, in units of a few words even within one long line (n vs 4n)', () => {
    expect(runSync(unpackingTextPage(packed(0, 2)))).to.deep.equal(reference(packed(0, 2)));
    const small = unitsOf(packed(10_000));
    const large = unitsOf(packed(40_000));
    expect(small).to.be.at.least(100);
    expect(large / small).to.be.within(3.5, 4.5);
  });
});

describe('PdfProcessor', function () {
  let processor: PdfProcessor;
  let invoice: Buffer;
  let scanned: Buffer;
  let mixed: Buffer;

  before(async () => {
    processor = new PdfProcessor({ workers: 2, maxPixelsPerPage: 80_000_000, renderDpi: 300 });
    [invoice, scanned, mixed] = await Promise.all([
      makeInvoicePdf(),
      makeScannedPdf(['Scanned delivery note', 'Order number 55120', 'Thank you for your business']),
      makeMixedPdf(),
    ]);
  });

  after(async () => {
    await processor.close();
  });

  describe('inspect', () => {
    let inspection: PdfInspection;
    let words: Word[];

    before(async () => {
      inspection = await processor.inspect(pdfFile(invoice), 100);
      words = inspection.pages[0]!.words;
    });

    it('reads a born-digital invoice: one page, A4 in points, text layer, no OCR needed', () => {
      expect(inspection.pageCount).to.equal(1);
      const page = inspection.pages[0]!;
      expect(page.index).to.equal(0);
      expect(page.width).to.be.closeTo(A4.width, 0.01);
      expect(page.height).to.be.closeTo(A4.height, 0.01);
      expect(page.needsOcr).to.equal(false);
      for (const word of words) {
        expect(word.source).to.equal('text-layer');
        expect(word.confidence).to.equal(1);
        expect(word.text).to.match(/^\S+$/);
        expect(word.bbox.x0).to.be.within(0, word.bbox.x1);
        expect(word.bbox.y0).to.be.within(0, word.bbox.y1);
        expect(word.bbox.x1).to.be.at.most(A4.width);
        expect(word.bbox.y1).to.be.at.most(A4.height);
      }
    });

    it('splits items into words, keeping identifiers, dates and amounts whole', () => {
      const texts = words.map((w) => w.text);
      for (const expected of ['Acme', 'Tools', 'Ltd', INVOICE_EXPECTED.invoiceNumber, INVOICE_EXPECTED.invoiceDate, '63.50', '12.70', '76.20']) {
        expect(texts).to.include(expected);
      }
      const rightBlock = words.filter((w) => w.bbox.x0 >= 300);
      expect(rowOf(rightBlock, findWord(words, INVOICE_EXPECTED.invoiceNumber))).to.deep.equal(['Invoice', 'number:', 'INV-2024-0042']);
      expect(rowOf(words, findWord(words, 'Subtotal'))).to.deep.equal(['Subtotal', '63.50']);
      expect(rowOf(words, findWord(words, 'due'))).to.deep.equal(['Total', 'due', '76.20']);
    });

    it('gives top-left-origin positions in points (y grows down the page)', () => {
      const seller = findWord(words, 'Acme');
      const total = findWord(words, '76.20');
      expect(seller.bbox.x0).to.be.closeTo(60, 0.5);
      expect(seller.bbox.y0).to.be.within(50, 62);
      expect(seller.bbox.y1 - seller.bbox.y0).to.be.within(15, 25); // 20 pt font
      expect(total.bbox.y0).to.be.greaterThan(seller.bbox.y1);
      // Apportioned widths: words on one line do not overlap and keep their order.
      const [invoiceWord, numberWord, idWord] = ['Invoice', 'number:', 'INV-2024-0042'].map((t) => findWord(words, t));
      expect(invoiceWord!.bbox.x1).to.be.lessThan(numberWord!.bbox.x0);
      expect(numberWord!.bbox.x1).to.be.lessThan(idWord!.bbox.x0);
    });

    it('keeps table columns at distinct x positions, aligned with their headers', () => {
      const header = ['Description', 'Quantity', 'price', 'Amount'].map((t) => findWord(words, t));
      const rightEdges = header.slice(1).map((w) => w.bbox.x1);
      expect(new Set(rightEdges.map(Math.round)).size).to.equal(3);
      expect(header[0]!.bbox.x0).to.be.closeTo(INVOICE_COLUMNS.description, 0.5);

      const hammer = findWord(words, 'hammer');
      expect(rowOf(words, hammer)).to.deep.equal(['Steel', 'hammer', '2', '14.50', '29.00']);
      expect(hammer.bbox.y0).to.be.greaterThan(header[0]!.bbox.y1);
      const cells = { quantity: findWord(words, '2'), unitPrice: findWord(words, '14.50'), amount: findWord(words, '29.00') };
      expect(cells.quantity.bbox.x1).to.be.closeTo(INVOICE_COLUMNS.quantityRight, 1);
      expect(cells.unitPrice.bbox.x1).to.be.closeTo(INVOICE_COLUMNS.unitPriceRight, 1);
      expect(cells.amount.bbox.x1).to.be.closeTo(INVOICE_COLUMNS.amountRight, 1);
      expect(cells.quantity.bbox.x0).to.be.lessThan(cells.unitPrice.bbox.x0);
      expect(cells.unitPrice.bbox.x0).to.be.lessThan(cells.amount.bbox.x0);
      expect(rowOf(words, findWord(words, 'nails'))).to.deep.equal(['Box', 'of', 'nails', '10', '2.25', '22.50']);
      expect(rowOf(words, findWord(words, 'gloves'))).to.deep.equal(['Safety', 'gloves', '3', '4.00', '12.00']);
    });

    it('places words where the rendered page has ink', async () => {
      expectWordsOverInk(words, await processor.render(pdfFile(invoice), 0));
    });

    for (const rotate of [90, 180, 270] as const) {
      it(`applies a /Rotate ${rotate} page rotation to sizes and positions`, async () => {
        const rotated = await makeRotatedPdf(['A rotated page', 'with two lines of text'], rotate);
        const page = (await processor.inspect(pdfFile(rotated), 100)).pages[0]!;
        const [width, height] = rotate === 180 ? [A4.width, A4.height] : [A4.height, A4.width];
        expect(page.width).to.be.closeTo(width, 0.01);
        expect(page.height).to.be.closeTo(height, 0.01);
        // the words line after line as grouped on the page as displayed, where these run down it
        expect(page.words.map((w) => w.text)).to.have.members('A rotated page with two lines of text'.split(' '));
        expectWordsOverInk(page.words, await processor.render(pdfFile(rotated), 0));
      });
    }

    it('adds the values of filled-in form fields, next to their labels', async () => {
      const page = (await processor.inspect(pdfFile(await makeFormPdf()), 100)).pages[0]!;
      const customer = rowOf(page.words, findWord(page.words, 'Customer'));
      expect(customer).to.deep.equal(['Customer', 'name:', ...FORM_VALUES.customer.split(' ')]);
      const notes = findWord(page.words, 'Notes:');
      const deliver = findWord(page.words, 'Deliver');
      const ring = findWord(page.words, 'Ring');
      expect(deliver.bbox.x0).to.be.greaterThan(notes.bbox.x1);
      expect(deliver.bbox.y0).to.be.closeTo(notes.bbox.y0, 6);
      expect(ring.bbox.y0).to.be.greaterThan(deliver.bbox.y1 - 1);
    });

    it('reads every page of a multi-page text PDF', async () => {
      const result = await processor.inspect(pdfFile(await makeTextPdf([['First page'], ['Second page'], ['Third page here']])), 100);
      expect(result.pageCount).to.equal(3);
      expect(result.pages.map((p) => p.index)).to.deep.equal([0, 1, 2]);
      expect(result.pages.map((p) => p.words.map((w) => w.text).join(' '))).to.deep.equal(['First page', 'Second page', 'Third page here']);
      expect(result.pages.every((p) => !p.needsOcr)).to.equal(true);
    });

    it('flags a scanned page (image only) as needing OCR', async () => {
      const result = await processor.inspect(pdfFile(scanned), 100);
      expect(result.pageCount).to.equal(1);
      expect(result.pages[0]!.words).to.deep.equal([]);
      expect(result.pages[0]!.needsOcr).to.equal(true);
    });

    it('flags only the scanned page of a mixed PDF', async () => {
      const result = await processor.inspect(pdfFile(mixed), 100);
      expect(result.pages.map((p) => p.needsOcr)).to.deep.equal([false, true]);
    });

    it('flags a page whose text layer has almost no letters or digits', async () => {
      const result = await processor.inspect(pdfFile(await makeTextPdf([['-- . --', '1'], ['OK, 12']])), 100);
      expect(result.pages.map((p) => p.needsOcr)).to.deep.equal([true, false]);
    });
  });

  describe('errors', () => {
    it('rejects an encrypted PDF with 400 naming the field', async () => {
      const message = await badRequestMessage(processor.inspect(pdfFile(await makeEncryptedPdf(), 2), 100));
      expect(message).to.equal('contents[2].data: PDF is encrypted (password-protected); send an unencrypted file');
    });

    it('rejects a PDF over the page limit before reading its pages: a fraction of the work of reading them', async function () {
      this.timeout(120_000);
      const many = pdfFile(await makeManyPagesPdf(2000), 1);
      const refuse = async () => badRequestMessage(processor.inspect(many, 100));
      await refuse();
      // CPU time of the whole process (the PDF threads included), side by side in one run: here some 0.25 s
      // against 5.5 s for reading the 2,000 pages that a refusal after reading them would cost
      let message = '';
      const refusing = await cpuMsOf(async () => (message = await refuse()));
      const reading = await cpuMsOf(() => processor.inspect(many, 2000));
      expect(message).to.equal('contents[1].data: PDF has 2000 pages, more than the 100 left of the per-request page limit (MAX_PAGES)');
      expect(refusing, `CPU ms; reading the 2,000 pages: ${reading.toFixed(0)} ms`).to.be.below(reading / 4);
    });

    for (const fraction of [0.3, 0.6, 0.9]) {
      it(`answers a PDF truncated to ${fraction * 100}% with 400 or a parse, never a crash or hang`, async function () {
        this.timeout(20_000);
        for (const [name, full] of [['invoice', invoice], ['mixed', mixed]] as const) {
          const file = pdfFile(truncate(full, fraction));
          for (const attempt of [() => processor.inspect(file, 100), () => processor.render(file, 0)]) {
            try {
              await attempt();
            } catch (error) {
              expect(error, `${name} at ${fraction}`).to.be.instanceOf(AppError);
              expect((error as AppError).status).to.equal(400);
              expect((error as AppError).message).to.match(/^contents\[0\]\.data: PDF cannot be read \(.+\)$/);
            }
          }
        }
      });
    }

    it('rejects bytes that only start like a PDF', async () => {
      const message = await badRequestMessage(processor.inspect(pdfFile(Buffer.from('%PDF-1.7\nthis is not a pdf\n')), 100));
      expect(message).to.match(/^contents\[0\]\.data: PDF cannot be read/);
    });

    it("runs pdf.js on threads whose V8 young generation is capped (a thread's memory, README \"Memory\")", () => {
      // the pool is private: its threads are read here only to see what the process asked V8 for
      const { pool } = processor as unknown as { pool: { threads: { worker: { resourceLimits?: { maxYoungGenerationSizeMb?: number } } }[] } };
      expect(pool.threads.length).to.be.above(0);
      for (const thread of pool.threads) expect(thread.worker.resourceLimits?.maxYoungGenerationSizeMb).to.equal(PDF_THREAD_YOUNG_GENERATION_MB);
    });

    it('keeps working after failures (workers survive)', async () => {
      await rejection(processor.inspect(pdfFile(await makeEncryptedPdf()), 100));
      await rejection(processor.inspect(pdfFile(truncate(invoice, 0.5)), 100));
      const results = await Promise.all([processor.inspect(pdfFile(invoice), 100), processor.inspect(pdfFile(invoice), 100)]);
      expect(results.map((r) => r.pages[0]!.needsOcr)).to.deep.equal([false, false]);
    });

    it('reads the next PDF after one whose damage makes pdf.js reject a promise nobody awaits (the corpus: a 500 for the next request)', async () => {
      // page 1 fails to parse ("+Type"); page 2's MediaBox, an unterminated string, then rejects a promise of the destroyed document
      const damaged = rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
        '<< +Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 6 0 R >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 (792] /Resources << /Font << /F1 5 0 R >> >> /Contents 6 0 R >>',
        HELVETICA,
        stream('', textContent(['Total 1.00'])),
      ]);
      const single = new PdfProcessor({ workers: 1, maxPixelsPerPage: 40_000_000, renderDpi: 150 });
      try {
        for (let round = 0; round < 3; round++) {
          expect(await badRequestMessage(single.inspect(pdfFile(damaged), 100))).to.match(/PDF cannot be read/);
          expect((await single.inspect(pdfFile(invoice), 100)).pages[0]!.needsOcr).to.equal(false);
        }
      } finally {
        await single.close();
      }
    });

    it('rejects a page index outside the document as a server error', async () => {
      const error = await rejection(processor.render(pdfFile(invoice), 5));
      expect(error).to.be.instanceOf(AppError);
      expect((error as AppError).status).to.equal(500);
    });

    it('does not detach or change the caller\'s bytes', async () => {
      const copy = Buffer.from(invoice);
      await processor.inspect(pdfFile(invoice), 100);
      await processor.render(pdfFile(invoice), 0);
      expect(invoice.equals(copy)).to.equal(true);
    });
  });

  describe('a thread\'s warm-up before its first task', () => {
    it('reads the generated invoice as often as asked before it takes a task, and says so once per thread', async () => {
      const reports: PdfThreadWarmUp[] = [];
      const { promise: firstReport, resolve } = promiseWithResolvers<void>();
      const warmed = new PdfProcessor({ workers: 1, maxPixelsPerPage: 1_000_000, renderDpi: 100, warmUpReadings: 4, onThreadWarmedUp: (report) => resolve(void reports.push(report)) });
      try {
        for (let round = 0; round < 3; round++) expect((await warmed.inspect(pdfFile(invoice), 100)).pages[0]!.needsOcr).to.equal(false);
        // the report crosses on a channel of its own, posted before the thread took the first task
        await firstReport;
        expect(reports).to.have.length(1);
        expect(reports[0]!.readings).to.equal(4);
        expect(reports[0]!.failure).to.equal(undefined);
      } finally {
        await warmed.close();
      }
    });

    it('stops at a reading that fails, says why, and the thread reads PDFs all the same', async () => {
      const { promise: report, resolve } = promiseWithResolvers<PdfThreadWarmUp>();
      // the generated invoice's content stream is over 64 bytes, and so is the test's
      const strict = new PdfProcessor({ workers: 1, maxPixelsPerPage: 1_000_000, renderDpi: 100, maxStreamBytes: 64, warmUpReadings: 4, onThreadWarmedUp: resolve });
      try {
        expect(await badRequestMessage(strict.inspect(pdfFile(invoice), 100))).to.match(/stream/);
        const { ms, ...rest } = await report;
        expect(rest).to.deep.equal({ readings: 0, failure: 'stream_too_large' });
        expect(ms).to.be.a('number');
      } finally {
        await strict.close();
      }
    });

    it('makes none by default', async () => {
      const reports: PdfThreadWarmUp[] = [];
      const plain = new PdfProcessor({ workers: 1, maxPixelsPerPage: 1_000_000, renderDpi: 100, onThreadWarmedUp: (report) => reports.push(report) });
      try {
        await plain.inspect(pdfFile(invoice), 100);
        expect(reports).to.deep.equal([]);
      } finally {
        await plain.close();
      }
    });
  });

  describe('render', () => {
    it('renders an A4 page at 300 DPI as an 8-bit grey raster', async () => {
      const raster = await processor.render(pdfFile(scanned), 0);
      expect(raster.dpi).to.equal(300);
      expect(raster.width).to.equal(2480);
      expect(raster.height).to.equal(3508);
      expect(raster.data).to.be.instanceOf(Uint8Array);
      expect(raster.data.length).to.equal(raster.width * raster.height);

      let dark = 0;
      let darkInLowerHalf = 0;
      for (let i = 0; i < raster.data.length; i++) {
        if (raster.data[i]! < 128) {
          dark++;
          if (i >= (raster.data.length >> 1)) darkInLowerHalf++;
        }
      }
      expect(dark / raster.data.length).to.be.within(0.001, 0.05); // text on a white page
      expect(darkInLowerHalf).to.equal(0); // the three lines sit at the top
      expect(raster.data[0]).to.equal(255);
    });

    it('lowers the DPI to stay under maxPixelsPerPage', async () => {
      const small = new PdfProcessor({ workers: 1, maxPixelsPerPage: 1_000_000, renderDpi: 300 });
      try {
        const raster = await small.render(pdfFile(invoice), 0);
        expect(raster.dpi).to.be.below(300).and.above(90);
        expect(raster.width * raster.height).to.be.at.most(1_000_000);
        expect(raster.width).to.be.closeTo((A4.width * raster.dpi) / 72, 1);
        expect(raster.height).to.be.closeTo((A4.height * raster.dpi) / 72, 1);
      } finally {
        await small.close();
      }
    });

    it('renders the scanned page of a mixed PDF', async () => {
      const raster = await processor.render(pdfFile(mixed), 1);
      expect([raster.width, raster.height, raster.dpi]).to.deep.equal([2480, 3508, 300]);
      expect(raster.data.some((v) => v < 128)).to.equal(true);
    });

    it('keeps the event loop responsive while pages render', async () => {
      const cpuBefore = mainThreadCpuMs();
      let work = 0;
      const stall = await longestStall(async () => {
        work = await cpuMsOf(async () => {
          for (const [bytes, page] of [[scanned, 0], [invoice, 0], [mixed, 1]] as const) await processor.render(pdfFile(bytes), page);
          await processor.inspect(pdfFile(invoice), 100);
        });
      });
      const cpuAfter = mainThreadCpuMs();
      expect(work, 'CPU ms of the whole process').to.be.greaterThan(200); // real work happened meanwhile
      expect(stall, 'longest event-loop stall, CPU ms').to.be.lessThan(100);
      // pdf.js on this thread would spend hundreds of ms of CPU per page: nearly all the work. The share allows for
      // the stall watch's own reads of the thread's CPU time every 5 ms.
      if (cpuBefore !== undefined && cpuAfter !== undefined) expect(cpuAfter - cpuBefore, `main-thread CPU ms; the whole process ${work.toFixed(0)} ms`).to.be.below(0.25 * work);
    });

    it('stops on abort, rejecting with the signal\'s reason, and keeps working afterwards', async () => {
      const controller = new AbortController();
      const reason = new Error('request cancelled');
      const pending = processor.render(pdfFile(scanned), 0, controller.signal);
      setTimeout(() => controller.abort(reason), 20);
      expect(await rejection(pending)).to.equal(reason);

      const already = AbortSignal.abort(reason);
      expect(await rejection(processor.inspect(pdfFile(invoice), 100, already))).to.equal(reason);

      const raster = await processor.render(pdfFile(invoice), 0);
      expect(raster.width).to.equal(2480);
    });
  });
});
