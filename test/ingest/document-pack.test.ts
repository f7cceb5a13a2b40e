import { expect } from 'chai';
import type { Document } from '../../src/document/document.js';
import { packDocument, unpackDocument } from '../../src/ingest/document-pack.js';

describe('packDocument', () => {
  it('unpacks to the same Document: text-layer and OCR words (with and without a weakest character), odd text, empty lines and pages, a page as shown', () => {
    const box = (x: number) => ({ x0: x, y0: 1.5, x1: x + 10.25, y1: 12 });
    const document: Document = {
      files: [
        {
          index: 0,
          filename: 'a.pdf',
          mimeType: 'application/pdf',
          pages: [
            {
              index: 0,
              width: 612,
              height: 792,
              units: 'pdf-points',
              source: 'text-layer',
              lines: [
                { text: 'Total 1.00', bbox: box(0), words: [{ text: 'Total', bbox: box(0), confidence: 1, source: 'text-layer' }, { text: '1.00', bbox: box(20), confidence: 1, source: 'text-layer' }] },
                { text: '', bbox: box(0), words: [] },
                { text: '𝔘nicode\u0000 é', bbox: box(5), words: [{ text: '𝔘nicode\u0000', bbox: box(5), confidence: 1, source: 'text-layer' }, { text: 'é', bbox: box(40), confidence: 1, source: 'text-layer' }] },
              ],
            },
            { index: 1, width: 612, height: 792, units: 'pdf-points', source: 'empty', lines: [] },
          ],
        },
        {
          index: 1,
          filename: 'scan.png',
          mimeType: 'image/png',
          pages: [
            {
              index: 0,
              width: 800,
              height: 600,
              units: 'raster-pixels',
              source: 'ocr',
              shown: { width: 600, height: 800, transform: [0, -1, 1, 0, 0, 800] },
              lines: [{ text: 'TOTAL 6.25', bbox: box(1), words: [{ text: 'TOTAL', bbox: box(1), confidence: 0.93, weakest: 0.61, source: 'ocr' }, { text: '6.25', bbox: box(30), confidence: 0.4127, source: 'ocr' }] }],
            },
          ],
        },
      ],
    };
    expect(unpackDocument(structuredClone(packDocument(document)))).to.deep.equal(document);
  });
});
