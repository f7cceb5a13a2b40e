import { median } from '../util/median.js';
import type { BBox, Line, Word } from './document.js';
import { maxOf, minOf } from '../util/extremes.js';

/**
 * Groups words into lines from their boxes alone. OCR and pdf.js both emit
 * words in an order that is not always reading order (Tesseract reorders
 * blocks, PDFs store text in drawing order), so reading order is rebuilt here:
 * words whose vertical extents overlap enough share a line, lines run top to
 * bottom and words left to right.
 */
const MIN_VERTICAL_OVERLAP = 0.5;

interface OpenLine {
  words: Word[];
  top: number;
  bottom: number;
}

function height(box: BBox): number {
  return Math.max(1, box.y1 - box.y0);
}

function verticalOverlapRatio(box: BBox, top: number, bottom: number): number {
  const overlap = Math.min(box.y1, bottom) - Math.max(box.y0, top);
  return overlap / Math.min(height(box), Math.max(1, bottom - top));
}

function collidesHorizontally(line: OpenLine, box: BBox): boolean {
  return line.words.some((word) => {
    const overlap = Math.min(word.bbox.x1, box.x1) - Math.max(word.bbox.x0, box.x0);
    return overlap > 0.5 * Math.min(word.bbox.x1 - word.bbox.x0, box.x1 - box.x0);
  });
}

export function unionBox(boxes: BBox[]): BBox {
  return {
    x0: minOf(boxes, (b) => b.x0),
    y0: minOf(boxes, (b) => b.y0),
    x1: maxOf(boxes, (b) => b.x1),
    y1: maxOf(boxes, (b) => b.y1),
  };
}

export function groupWordsIntoLines(words: Word[]): Line[] {
  const byCentre = [...words].sort((a, b) => a.bbox.y0 + a.bbox.y1 - (b.bbox.y0 + b.bbox.y1));
  const open: OpenLine[] = [];
  for (const word of byCentre) {
    let best: OpenLine | undefined;
    let bestOverlap = MIN_VERTICAL_OVERLAP;
    // Only recent lines can overlap: words arrive sorted by vertical centre.
    for (let i = open.length - 1; i >= 0 && i >= open.length - 8; i--) {
      const line = open[i] as OpenLine;
      const overlap = verticalOverlapRatio(word.bbox, line.top, line.bottom);
      if (overlap >= bestOverlap && !collidesHorizontally(line, word.bbox)) {
        best = line;
        bestOverlap = overlap;
      }
    }
    if (best) {
      best.words.push(word);
      // The band follows the median word so one tall glyph does not swallow the next line.
      best.top = median(best.words.map((w) => w.bbox.y0)) ?? 0;
      best.bottom = median(best.words.map((w) => w.bbox.y1)) ?? 0;
    } else {
      open.push({ words: [word], top: word.bbox.y0, bottom: word.bbox.y1 });
    }
  }
  return open
    .map((line) => {
      const sorted = line.words.sort((a, b) => a.bbox.x0 - b.bbox.x0);
      return { text: sorted.map((w) => w.text).join(' '), bbox: unionBox(sorted.map((w) => w.bbox)), words: sorted };
    })
    .sort((a, b) => (a.bbox.y0 + a.bbox.y1) / 2 - (b.bbox.y0 + b.bbox.y1) / 2);
}
