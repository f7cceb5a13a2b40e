import { maxOf, minOf } from '../util/extremes.js';
import { median, RunningMedian } from '../util/median.js';
import { firstIndexWhere } from '../util/sorted-search.js';
import type { BBox, Line, Word } from '../document/document.js';

/**
 * Groups words into lines from their boxes alone. OCR and pdf.js both emit
 * words in an order that is not always reading order (Tesseract reorders
 * blocks, PDFs store text in drawing order), so reading order is rebuilt here:
 * words whose vertical extents overlap enough share a line, lines run top to
 * bottom and words left to right.
 */
const MIN_VERTICAL_OVERLAP = 0.5;

/** Up to this many words a line is searched and its median sorted directly; longer ones get the indexes below. */
const SHORT_LINE = 32;

/** A line being built: its words, and the band of the median word (which follows it as words join). */
class OpenLine {
  readonly words: Word[] = [];
  top: number;
  bottom: number;
  /** Built when the line outgrows SHORT_LINE: most lines never need them. */
  private long: { tops: RunningMedian; bottoms: RunningMedian; horizontal: HorizontalIndex } | undefined;

  constructor(first: Word) {
    this.top = first.bbox.y0;
    this.bottom = first.bbox.y1;
    this.words.push(first);
  }

  add(word: Word): void {
    this.words.push(word);
    if (this.long) this.index(word);
    else if (this.words.length > SHORT_LINE) {
      this.long = { tops: new RunningMedian(), bottoms: new RunningMedian(), horizontal: new HorizontalIndex() };
      for (const known of this.words) this.index(known);
    }
    // The band follows the median word so one tall glyph does not swallow the next line.
    this.top = (this.long ? this.long.tops.value : median(this.words.map((w) => w.bbox.y0))) ?? 0;
    this.bottom = (this.long ? this.long.bottoms.value : median(this.words.map((w) => w.bbox.y1))) ?? 0;
  }

  collidesHorizontally(box: BBox): boolean {
    return this.long ? this.long.horizontal.collides(box) : this.words.some((word) => collide(word.bbox, box));
  }

  private index(word: Word): void {
    this.long!.tops.add(word.bbox.y0);
    this.long!.bottoms.add(word.bbox.y1);
    this.long!.horizontal.add(word.bbox);
  }
}

/** Two boxes collide when they overlap by more than half the narrower one's width. */
function collide(a: BBox, b: BBox): boolean {
  const overlap = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  return overlap > 0.5 * Math.min(a.x1 - a.x0, b.x1 - b.x0);
}

/**
 * A line's word boxes, to ask whether a new box collides with any of them
 * without comparing it with all (a line of 20,000 words took half a minute
 * that way, on the event loop). Boxes are kept sorted by x0 in classes of
 * width (powers of two): a box of a class can only overlap the new one if it
 * starts less than its class's width before it, and boxes of one width that
 * do not collide with each other lie apart, so each class has only a few to
 * look at. A box without width collides with nothing.
 */
class HorizontalIndex {
  private readonly byWidthClass = new Map<number, SortedRuns>();

  add(box: BBox): void {
    const width = box.x1 - box.x0;
    if (!(width > 0)) return;
    const widthClass = Math.floor(Math.log2(width));
    let boxes = this.byWidthClass.get(widthClass);
    if (!boxes) this.byWidthClass.set(widthClass, (boxes = new SortedRuns()));
    boxes.add(box);
  }

  collides(box: BBox): boolean {
    if (!(box.x1 - box.x0 > 0)) return false;
    for (const [widthClass, boxes] of this.byWidthClass) {
      if (boxes.someFrom(box.x0 - 2 ** (widthClass + 1), box.x1, (known) => collide(known, box))) return true;
    }
    return false;
  }
}

/**
 * Boxes sorted by x0 in runs of distinct powers of two, merged like a binary
 * counter when one is added: O(log n) per box however they arrive. One sorted
 * array took a shift of everything after each new box (words right to left:
 * 2.3 s for a line of 100,000).
 */
class SortedRuns {
  private runs: BBox[][] = [];

  add(box: BBox): void {
    let carry = [box];
    while (this.runs.length > 0 && this.runs[this.runs.length - 1]!.length <= carry.length) carry = mergeByX0(this.runs.pop()!, carry);
    this.runs.push(carry);
  }

  /** Whether `test` holds for a box whose x0 lies in [from, to). */
  someFrom(from: number, to: number, test: (box: BBox) => boolean): boolean {
    for (const run of this.runs) {
      for (let i = firstIndexWhere(run, (known) => known.x0 > from); i < run.length && run[i]!.x0 < to; i++) {
        if (test(run[i]!)) return true;
      }
    }
    return false;
  }
}

function mergeByX0(a: BBox[], b: BBox[]): BBox[] {
  const merged: BBox[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) merged.push(a[i]!.x0 <= b[j]!.x0 ? a[i++]! : b[j++]!);
  while (i < a.length) merged.push(a[i++]!);
  while (j < b.length) merged.push(b[j++]!);
  return merged;
}

function height(box: BBox): number {
  return Math.max(1, box.y1 - box.y0);
}

function verticalOverlapRatio(box: BBox, top: number, bottom: number): number {
  const overlap = Math.min(box.y1, bottom) - Math.max(box.y0, top);
  return overlap / Math.min(height(box), Math.max(1, bottom - top));
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
      if (overlap >= bestOverlap && !line.collidesHorizontally(word.bbox)) {
        best = line;
        bestOverlap = overlap;
      }
    }
    if (best) {
      best.add(word);
    } else {
      open.push(new OpenLine(word));
    }
  }
  return open
    .map((line) => {
      const sorted = line.words.sort((a, b) => a.bbox.x0 - b.bbox.x0);
      return { text: sorted.map((w) => w.text).join(' '), bbox: unionBox(sorted.map((w) => w.bbox)), words: sorted };
    })
    .sort((a, b) => (a.bbox.y0 + a.bbox.y1) / 2 - (b.bbox.y0 + b.bbox.y1) / 2);
}
