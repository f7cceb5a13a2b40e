import { expect } from 'chai';
import type { Word } from '../../src/document/document.js';
import { PdfProcessor } from '../../src/ingest/pdf.js';
import { makeRunsPdf, RUN_FONTS, type PlacedTestWord } from '../fixtures/pdfs.js';

/**
 * A pdf.js text run ("Invoice no. INV-2024-0042 dated ...") has one position
 * and one width; its words are boxed by their glyphs' advances
 * (ingest/glyph-widths.ts), so each box starts at its first letter and ends
 * after its last, in every standard font and in an embedded one.
 */
const LINES = ['Invoice no. INV-2024-0042 dated 14/03/2024', 'illicit WWMMW mill Total: 1,234.50 EUR'];
/** Points a word edge may be off: kerning inside a run is not known per glyph. Splitting by character count is off by up to 17 pt here. */
const EDGE_TOLERANCE = 1.5;

describe('word boxes of a born-digital PDF', function () {
  this.timeout(60_000);
  let processor: PdfProcessor;
  let truth: PlacedTestWord[];
  let words: Word[];

  before(async () => {
    processor = new PdfProcessor({ workers: 1, maxPixelsPerPage: 10_000_000, renderDpi: 150 });
    const generated = await makeRunsPdf(LINES);
    truth = generated.words;
    const inspection = await processor.inspect({ index: 0, filename: 'runs.pdf', mimeType: 'application/pdf', bytes: generated.pdf }, 5, AbortSignal.timeout(30_000));
    words = inspection.pages[0]!.words;
  });

  after(() => processor.close());

  function boxOf(expected: PlacedTestWord): Word {
    const centre = (expected.y0 + expected.y1) / 2;
    const found = words.filter((w) => w.text === expected.text && Math.abs((w.bbox.y0 + w.bbox.y1) / 2 - centre) < 6);
    expect(found, `"${expected.text}" in ${expected.font}`).to.have.length(1);
    return found[0]!;
  }

  for (const font of RUN_FONTS) {
    it(`puts every word edge where its glyphs are (${font})`, () => {
      for (const expected of truth.filter((w) => w.font === font)) {
        const { bbox } = boxOf(expected);
        const where = `"${expected.text}" in ${font}: got ${bbox.x0}..${bbox.x1}, printed ${expected.x0.toFixed(2)}..${expected.x1.toFixed(2)}`;
        expect(Math.abs(bbox.x0 - expected.x0), where).to.be.below(EDGE_TOLERANCE);
        expect(Math.abs(bbox.x1 - expected.x1), where).to.be.below(EDGE_TOLERANCE);
        // the box spans the glyphs' height too
        expect(bbox.y0, where).to.be.below(expected.y1);
        expect(bbox.y1, where).to.be.above(expected.y0);
      }
    });
  }
});
