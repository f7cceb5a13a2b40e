import { expect } from 'chai';
import type { Document, Word } from '../../src/document/document.js';
import { joinLayouts, renderLayoutText, sliceLayout, wordsInSpan } from '../../src/ingest/layout.js';
import { groupWordsIntoLines } from '../../src/ingest/line-grouping.js';

/** A word 10 units per character wide and 20 high, at (x, y) top-left. */
function word(text: string, x: number, y: number): Word {
  return { text, bbox: { x0: x, y0: y, x1: x + text.length * 10, y1: y + 20 }, confidence: 1, source: 'ocr' };
}

function documentOf(words: Word[]): Document {
  return {
    files: [{ index: 0, filename: 'scan.png', mimeType: 'image/png', pages: [{ index: 0, width: 1000, height: 1000, units: 'raster-pixels', source: 'ocr', lines: groupWordsIntoLines(words) }] }],
  };
}

describe('groupWordsIntoLines', () => {
  it('rebuilds reading order from boxes whatever order the words come in', () => {
    const words = [word('76.20', 400, 200), word('Total', 0, 202), word('Invoice', 0, 100), word('INV-1', 100, 98)];
    const lines = groupWordsIntoLines(words);
    expect(lines.map((l) => l.text)).to.deep.equal(['Invoice INV-1', 'Total 76.20']);
  });

  it('keeps a slightly skewed line together but separates the next line', () => {
    const words = [word('Coffee', 0, 100), word('3.50', 300, 108), word('Muffin', 0, 130), word('2.75', 300, 138)];
    expect(groupWordsIntoLines(words).map((l) => l.text)).to.deep.equal(['Coffee 3.50', 'Muffin 2.75']);
  });

  it('gives each line the union of its word boxes', () => {
    const [line] = groupWordsIntoLines([word('a', 10, 10), word('bb', 50, 12)]);
    expect(line?.bbox).to.deep.equal({ x0: 10, y0: 10, x1: 70, y1: 32 });
  });
});

describe('renderLayoutText', () => {
  it('keeps table columns apart and aligned across rows', () => {
    const { text } = renderLayoutText(
      documentOf([
        word('Description', 0, 0), word('Qty', 300, 0), word('Amount', 500, 0),
        word('Hammer', 0, 30), word('2', 300, 30), word('29.00', 500, 30),
        word('Box', 0, 60), word('of', 40, 60), word('nails', 70, 60), word('10', 300, 60), word('22.50', 500, 60),
      ]),
    );
    const rows = text.split('\n').slice(1, 4);
    expect(rows[0]).to.match(/^Description {2,}Qty {2,}Amount$/);
    expect(rows[2]).to.match(/^Box of nails {2,}10 {2,}22\.50$/);
    // Columns line up: each column starts at the same character offset in every row.
    expect(rows[1]?.indexOf('2 ')).to.equal(rows[0]?.indexOf('Qty'));
    expect(rows[2]?.indexOf('22.50')).to.equal(rows[0]?.indexOf('Amount'));
  });

  it('joins close words with one space', () => {
    const { text } = renderLayoutText(documentOf([word('Invoice', 0, 0), word('date:', 80, 0), word('14/03/2024', 140, 0)]));
    expect(text).to.contain('\nInvoice date: 14/03/2024\n');
  });

  it('marks files and pages, an empty page being only its marker', () => {
    const document: Document = {
      files: [
        { index: 0, filename: 'a.pdf', mimeType: 'application/pdf', pages: [{ index: 0, width: 10, height: 10, units: 'pdf-points', source: 'empty', lines: [] }] },
        { index: 1, filename: 'b.png', mimeType: 'image/png', pages: documentOf([word('hello', 0, 0)]).files[0]!.pages },
      ],
    };
    const { text } = renderLayoutText(document);
    expect(text).to.equal('--- file 1 (a.pdf), page 1 ---\n\n--- file 2 (b.png), page 1 ---\nhello\n');
  });

  it('separates paragraphs with a blank line when the vertical gap is large', () => {
    const { text } = renderLayoutText(documentOf([word('Header', 0, 0), word('Body', 0, 200)]));
    expect(text).to.contain('Header\n\nBody');
  });

  it('maps every word to its place in the text, and nothing else (page markers are no words)', () => {
    const document: Document = {
      files: [
        { index: 0, filename: 'a.pdf', mimeType: 'application/pdf', pages: [{ index: 0, width: 10, height: 10, units: 'pdf-points', source: 'empty', lines: [] }] },
        { index: 1, filename: 'b.png', mimeType: 'image/png', pages: documentOf([word('Total', 0, 0), word('76.20', 400, 2), word('Invoice', 0, 100)]).files[0]!.pages },
      ],
    };
    const layout = renderLayoutText(document);
    const placed = layout.words.map((w) => [layout.text.slice(w.start, w.end), w.ref]);
    expect(placed).to.deep.equal([
      ['Total', { file: 1, page: 0, line: 0, word: 0 }],
      ['76.20', { file: 1, page: 0, line: 0, word: 1 }],
      ['Invoice', { file: 1, page: 0, line: 1, word: 0 }],
    ]);
    const total = layout.text.indexOf('76.20');
    expect(wordsInSpan(layout, total + 1, total + 3)).to.deep.equal([{ file: 1, page: 0, line: 0, word: 1 }]);
    expect(wordsInSpan(layout, 0, layout.text.indexOf('Total'))).to.deep.equal([]);
  });

  it('slices and joins layout texts with their words', () => {
    const layout = renderLayoutText(documentOf([word('Hammer', 0, 0), word('29.00', 300, 0)]));
    const start = layout.text.indexOf('Hammer');
    const part = sliceLayout(layout, start + 3, layout.text.length);
    expect(part.words.map((w) => part.text.slice(w.start, w.end))).to.deep.equal(['mer', '29.00']);
    const joined = joinLayouts([{ text: 'x', words: [] }, part], '\n');
    expect(joined.words.map((w) => joined.text.slice(w.start, w.end))).to.deep.equal(['mer', '29.00']);
    expect(joined.words[0]!.ref).to.deep.equal({ file: 0, page: 0, line: 0, word: 0 });
  });
});
