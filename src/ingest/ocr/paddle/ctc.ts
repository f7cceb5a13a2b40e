/**
 * Reading the recogniser's output: per output column a probability for every
 * class (0 = CTC blank, then the dictionary, then the space when the model
 * writes spaces). Greedy CTC decoding keeps, for each character, the columns
 * it was read in; those columns are where the character sits along the
 * line, which is what gives every word its own box and confidence.
 */

import { minOf } from '../../../util/extremes.js';

export interface DecodedChar {
  text: string;
  /** Centre of the character's columns, in columns (fractional). */
  centre: number;
  probability: number;
}

export interface DecodedWord {
  text: string;
  /** Extent along the line as fractions 0..1 of the recognised strip's width. */
  start: number;
  end: number;
  /** Mean probability of its characters. */
  confidence: number;
  /** Lowest probability among its characters. */
  weakest: number;
}

export interface Alphabet {
  /** Class index -> character; index 0 (blank) is unused. */
  characters: string[];
  /** Class index of the space, or -1 when the model has none. */
  space: number;
}

/**
 * The recogniser's classes from its dictionary (one character per line) and
 * its output width. Characters are NFKC-normalised: the Chinese dictionary
 * writes full-width punctuation beside the ASCII one, and "（126926-H)" or
 * "Tax：" must read as "(126926-H)" and "Tax:".
 */
export function alphabetFor(dictionary: string[], classes: number): Alphabet | undefined {
  const characters = dictionary.map((char) => char.normalize('NFKC'));
  if (classes === dictionary.length + 2) return { characters: ['', ...characters, ' '], space: classes - 1 };
  if (classes === dictionary.length + 1) return { characters: ['', ...characters], space: -1 };
  return undefined;
}

const DIGIT = /^\d$/;
/** Separators inside numbers, dates and times ("15-03-18", "9.00", "12:18"). */
const NUMBER_SEPARATOR = /^[-/.,:]$/;

/** A soft space between a digit and a separator, or a separator and a digit that follows a digit, would split a number. */
function splitsNumber(beforeLast: DecodedChar | undefined, last: DecodedChar, next: string): boolean {
  if (DIGIT.test(last.text) && NUMBER_SEPARATOR.test(next) && next !== '-') return true;
  return NUMBER_SEPARATOR.test(last.text) && DIGIT.test(next) && beforeLast !== undefined && DIGIT.test(beforeLast.text);
}

/**
 * PP-OCR's Chinese recogniser often lets the blank win over the space between
 * Latin words ("GARDENIABAKERIES"), yet gives the space class a clear share of
 * a column there: on the dev receipts 0.07-0.5 between words, at most 0.02
 * between the letters of a word. A gap whose columns give the space at least
 * this much is a space, except inside a number ("15-03-18" read as
 * "15- 03-18").
 */
export const SOFT_SPACE_PROBABILITY = 0.05;

/**
 * What greedy decoding reads of each output column: the most likely class,
 * its probability, and the probability of the last class (the space, when
 * the model writes one). Arrays of items x columns. The recogniser computes
 * them itself (best-class-outputs.ts); columnClasses derives them from a
 * full output when it cannot.
 */
export interface ColumnClasses {
  items: number;
  columns: number;
  best: Int32Array;
  bestProbability: Float32Array;
  lastProbability: Float32Array;
}

/** ColumnClasses of a full recogniser output (items x columns x classes probabilities). */
export function columnClasses(output: Float32Array, items: number, columns: number, classes: number): ColumnClasses {
  const count = items * columns;
  const best = new Int32Array(count);
  const bestProbability = new Float32Array(count);
  const lastProbability = new Float32Array(count);
  for (let column = 0; column < count; column++) {
    const offset = column * classes;
    let top = 0;
    let topProbability = output[offset] as number;
    for (let c = 1; c < classes; c++) {
      const p = output[offset + c] as number;
      if (p > topProbability) {
        topProbability = p;
        top = c;
      }
    }
    best[column] = top;
    bestProbability[column] = topProbability;
    lastProbability[column] = output[offset + classes - 1] as number;
  }
  return { items, columns, best, bestProbability, lastProbability };
}

/**
 * Greedy CTC decoding of one batch item: the most likely class per column,
 * repeats merged, blanks dropped, a space added where the gap between two
 * characters leans to the space class (SOFT_SPACE_PROBABILITY). Returns the
 * characters, spaces included, with the centre of the run of columns that
 * produced them.
 */
export function decodeColumns(output: ColumnClasses, item: number, alphabet: Alphabet): DecodedChar[] {
  const chars: DecodedChar[] = [];
  const { columns, best, bestProbability, lastProbability } = output;
  const hasSpace = alphabet.space >= 0;
  let previous = 0;
  let runStart = 0;
  let runBest = 0;
  /** Largest space probability in the blank columns since the last character, and where. */
  let gapSpace = 0;
  let gapColumn = 0;
  const base = item * columns;
  // One step past the last column closes the final run.
  for (let t = 0; t <= columns; t++) {
    const top = t < columns ? (best[base + t] as number) : -1;
    const topProbability = t < columns ? (bestProbability[base + t] as number) : 0;
    if (top !== previous) {
      if (previous !== 0) {
        const text = alphabet.characters[previous] ?? '';
        const last = chars[chars.length - 1];
        if (gapSpace >= SOFT_SPACE_PROBABILITY && text !== ' ' && last && last.text !== ' ' && !splitsNumber(chars[chars.length - 2], last, text)) {
          chars.push({ text: ' ', centre: gapColumn + 0.5, probability: gapSpace });
        }
        chars.push({ text, centre: (runStart + t) / 2, probability: runBest });
        gapSpace = 0;
      }
      previous = top;
      runStart = t;
      runBest = topProbability;
    } else if (topProbability > runBest) {
      runBest = topProbability;
    }
    if (top === 0 && hasSpace) {
      const space = lastProbability[base + t] as number;
      if (space > gapSpace) {
        gapSpace = space;
        gapColumn = t;
      }
    }
  }
  return chars;
}

/**
 * A gap between two characters this many times the line's usual character
 * pitch is a word break even when the model gave the space no share (a wide
 * gap inside one detected box, e.g. table cells); narrower gaps are left to
 * the space class, since a wide letter ("M") alone can be 1.5 pitches from
 * its neighbour.
 */
export const WORD_GAP_PITCHES = 3;

function medianOf(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Splits a decoded line into words: at every space (written or soft), and at
 * any gap between neighbouring characters wider than WORD_GAP_PITCHES times the median pitch
 * (centre to centre) of the line. A word reaches half a pitch beyond its
 * outer characters, never past the midpoint to its neighbour, and is
 * expressed as fractions of `usedColumns` (the columns covering the line's
 * pixels; the rest of a batch row is padding).
 */
export function words(chars: DecodedChar[], usedColumns: number): DecodedWord[] {
  const groups: DecodedChar[][] = [];
  let current: DecodedChar[] = [];
  const visible = chars.filter((c) => c.text.trim() !== '');
  const pitches: number[] = [];
  for (let i = 1; i < visible.length; i++) pitches.push((visible[i] as DecodedChar).centre - (visible[i - 1] as DecodedChar).centre);
  const pitch = Math.max(1, medianOf(pitches) ?? usedColumns / Math.max(1, visible.length));
  for (const char of chars) {
    if (char.text.trim() === '') {
      if (current.length > 0) groups.push(current);
      current = [];
      continue;
    }
    const last = current[current.length - 1];
    if (last && char.centre - last.centre > WORD_GAP_PITCHES * pitch) {
      groups.push(current);
      current = [];
    }
    current.push(char);
  }
  if (current.length > 0) groups.push(current);

  return groups.map((group, index) => {
    const first = group[0] as DecodedChar;
    const last = group[group.length - 1] as DecodedChar;
    const previous = groups[index - 1];
    const next = groups[index + 1];
    let start = first.centre - pitch / 2;
    let end = last.centre + pitch / 2;
    if (previous) start = Math.max(start, ((previous[previous.length - 1] as DecodedChar).centre + first.centre) / 2);
    if (next) end = Math.min(end, (last.centre + (next[0] as DecodedChar).centre) / 2);
    const confidence = group.reduce((sum, c) => sum + c.probability, 0) / group.length;
    return {
      text: group.map((c) => c.text).join(''),
      start: Math.max(0, Math.min(1, start / usedColumns)),
      end: Math.max(0, Math.min(1, end / usedColumns)),
      confidence,
      weakest: minOf(group, (c) => c.probability),
    };
  });
}
