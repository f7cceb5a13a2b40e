import { expect } from 'chai';
import type { BBox, Line, Word } from '../../src/document/document.js';
import { groupWordsIntoLines } from '../../src/ingest/line-grouping.js';
import { median } from '../../src/util/median.js';
import { expectLinearGrowth } from '../helpers/growth.js';

/** The grouping as first written: every word compared with every word of a line, the line's band re-sorted per word. The specification. */
function referenceGrouping(words: Word[]): Array<{ text: string; words: Word[] }> {
  const collides = (line: { words: Word[] }, box: BBox) =>
    line.words.some((word) => Math.min(word.bbox.x1, box.x1) - Math.max(word.bbox.x0, box.x0) > 0.5 * Math.min(word.bbox.x1 - word.bbox.x0, box.x1 - box.x0));
  const height = (box: BBox) => Math.max(1, box.y1 - box.y0);
  const open: Array<{ words: Word[]; top: number; bottom: number }> = [];
  for (const word of [...words].sort((a, b) => a.bbox.y0 + a.bbox.y1 - (b.bbox.y0 + b.bbox.y1))) {
    let best: (typeof open)[number] | undefined;
    let bestOverlap = 0.5;
    for (let i = open.length - 1; i >= 0 && i >= open.length - 8; i--) {
      const line = open[i]!;
      const overlap = (Math.min(word.bbox.y1, line.bottom) - Math.max(word.bbox.y0, line.top)) / Math.min(height(word.bbox), Math.max(1, line.bottom - line.top));
      if (overlap >= bestOverlap && !collides(line, word.bbox)) {
        best = line;
        bestOverlap = overlap;
      }
    }
    if (best) {
      best.words.push(word);
      best.top = median(best.words.map((w) => w.bbox.y0)) ?? 0;
      best.bottom = median(best.words.map((w) => w.bbox.y1)) ?? 0;
    } else open.push({ words: [word], top: word.bbox.y0, bottom: word.bbox.y1 });
  }
  return open
    .map((line) => ({ words: line.words.sort((a, b) => a.bbox.x0 - b.bbox.x0), centre: 0 }))
    .map((line) => ({ ...line, centre: (Math.min(...line.words.map((w) => w.bbox.y0)) + Math.max(...line.words.map((w) => w.bbox.y1))) / 2 }))
    .sort((a, b) => a.centre - b.centre)
    .map((line) => ({ text: line.words.map((w) => w.text).join(' '), words: line.words }));
}

/** A small deterministic generator, so that a failure repeats. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function word(text: string, x0: number, y0: number, x1: number, y1: number): Word {
  return { text, bbox: { x0, y0, x1, y1 }, confidence: 1, source: 'text-layer' };
}

const shape = (lines: Line[]) => lines.map((line) => ({ text: line.text, words: line.words }));

describe('groupWordsIntoLines', () => {
  it('groups as the all-pairs specification does, on random pages of overlapping, stacked, tall, wide and empty boxes', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      // half the pages scatter a few words; half put hundreds on a few rows, so that long lines are built too
      const rows = seed % 2 === 0 ? 0 : 1 + Math.floor(next() * 3);
      const words = Array.from({ length: 1 + Math.floor(next() * (rows ? 400 : 60)) }, (_, i) => {
        const x0 = Math.floor(next() * (rows ? 4000 : 400));
        const y0 = rows ? Math.floor(next() * rows) * 20 + Math.floor(next() * 3) : Math.floor(next() * 120);
        const width = next() < 0.1 ? Math.floor(next() * 300) : next() < 0.1 ? 0 : 5 + Math.floor(next() * 40);
        const tall = next() < 0.1 ? 30 : 8 + Math.floor(next() * 4);
        return word(`w${i}`, x0, y0, x0 + width, y0 + tall);
      });
      expect(shape(groupWordsIntoLines(words)), `seed ${seed}`).to.deep.equal(referenceGrouping(words));
    }
  });

  it('groups a line of words, in reading order, against it or with a page-wide word in it, in time linear in their number (comparing each word with the whole line took minutes for 50,000; shifting one sorted index for each word read right to left, seconds for 100,000)', async function () {
    this.timeout(60_000);
    const layouts = (count: number) => {
      const inOrder = Array.from({ length: count }, (_, i) => word('ab', i * 10, 100, i * 10 + 8, 110));
      return [inOrder, [...inOrder].reverse(), [word('wide', -1e6, 100, 1e7, 110), ...inOrder.map((w) => ({ ...w, bbox: { ...w.bbox, x0: w.bbox.x0 + 2e7, x1: w.bbox.x1 + 2e7 } }))]];
    };
    const sizes = new Map([12_500, 50_000].map((count) => [count, layouts(count)]));
    for (const layout of [0, 1, 2]) {
      await expectLinearGrowth((count) => groupWordsIntoLines(sizes.get(count)![layout]!), 12_500);
      const words = sizes.get(50_000)![layout]!;
      const lines = groupWordsIntoLines(words);
      expect(lines.reduce((sum, line) => sum + line.words.length, 0)).to.equal(words.length);
      expect(lines).to.have.length(1);
    }
  });
});
