/**
 * Where the printed pages first show each value of an answer, for the
 * comparison of an e-invoice's values with its printed pages (e-invoice.ts),
 * found for all the values in one pass over the pages. Searching the pages
 * again for each value was quadratic: a hybrid invoice of 1,000 lines took 5
 * s of the event loop, 2,000 lines 21 s.
 *
 * What counts as shown is searchPrinted's: an amount is the first word,
 * printed with a decimal separator, whose number is the same to half a cent;
 * a text is the words of the first line whose letters and digits hold the
 * value's, those words that are part of it.
 */
import { parseNumber } from '../schema/coerce.js';
import type { Document, Line, WordRef } from '../document/document.js';
import { ContainingLines } from '../util/containing-lines.js';
import { foldText } from '../util/fold-text.js';
import type { PacedWork } from '../util/paced.js';
import { locate, type Location } from './locate.js';

/** Lines that print a text kept per text, in the order read: the first one nearly always has the words too. */
const LINES_KEPT = 8;
/** Half a cent: amounts nearer than this are the same. */
const SAME_AMOUNT = 0.005;

interface PrintedLine {
  file: number;
  page: number;
  index: number;
  line: Line;
}

/** The number a value is as an amount (a number, or a text of digits and separators), else null; and its text folded. */
function asSought(value: unknown): { amount: number | null; folded: string } {
  const amount = typeof value === 'number' ? value : typeof value === 'string' && /^[-+]?\d[\d.,]*$/.test(value.trim()) ? parseNumber(value) : null;
  return { amount, folded: foldText(String(value)) };
}

/** A word that prints an amount: a decimal separator between digits, and a number. */
function printedAmount(text: string): number | null {
  return /\d[.,]\d/.test(text) ? parseNumber(text) : null;
}

/** The words of `line` that are part of the folded text `folded` (a text's words, in searchPrinted). */
function wordsWithin(line: PrintedLine, folded: string): WordRef[] {
  return line.line.words.flatMap((word, wordIndex) => {
    const own = foldText(word.text);
    return own !== '' && folded.includes(own) ? [{ file: line.file, page: line.page, line: line.index, word: wordIndex }] : [];
  });
}

function* printedLines(document: Document): Generator<PrintedLine> {
  for (const file of document.files) {
    for (const page of file.pages) {
      if (page.source === 'e-invoice') continue;
      for (const [index, line] of page.lines.entries()) yield { file: file.index, page: page.index, index, line };
    }
  }
}

/** The first printed line that shows `value` (see the module's note), searched page by page: for a value not given to PrintedValues. */
export function searchPrinted(value: unknown, document: Document): Location | undefined {
  const { amount, folded } = asSought(value);
  if (amount === null && folded.length < 2) return undefined;
  for (const line of printedLines(document)) {
    if (amount !== null) {
      const index = line.line.words.findIndex((word) => {
        const number = printedAmount(word.text);
        return number !== null && Math.abs(Math.abs(number) - Math.abs(amount)) < SAME_AMOUNT;
      });
      if (index >= 0) return locate([{ file: line.file, page: line.page, line: line.index, word: index }], document);
    } else if (foldText(line.line.text).includes(folded)) {
      const found = wordsWithin(line, folded);
      if (found.length > 0) return locate(found, document);
    }
  }
  return undefined;
}

export class PrintedValues {
  private readonly lines: PrintedLine[] = [];
  /** The amounts sought (absolute, distinct, ascending) and the first word that prints each. */
  private amounts = new Float64Array(0);
  private readonly firstWords: Array<WordRef | undefined> = [];
  private texts: ContainingLines | undefined;
  private readonly sought = new Set<unknown>();

  private constructor(private readonly document: Document) {}

  /** Where the printed pages of `document` show each of `values`, in steps: one per value and one per printed line. */
  static *building(document: Document, values: Iterable<unknown>): PacedWork<PrintedValues> {
    const index = new PrintedValues(document);
    const amounts = new Set<number>();
    const texts = new Set<string>();
    for (const value of values) {
      if (index.sought.has(value)) continue;
      yield;
      index.sought.add(value);
      const { amount, folded } = asSought(value);
      if (amount !== null) {
        if (!Number.isNaN(amount)) amounts.add(Math.abs(amount));
      } else if (folded.length >= 2) texts.add(folded);
    }
    index.amounts = Float64Array.from(amounts).sort();
    const containing = yield* ContainingLines.building(texts, LINES_KEPT, { keepLines: true });
    // the next amount (by its place in `amounts`) that no word has printed yet: each is found once
    const unfound = Array.from({ length: index.amounts.length + 1 }, (_, place) => place);
    const nextUnfound = (place: number): number => {
      let root = place;
      while (unfound[root] !== root) root = unfound[root]!;
      // the places passed on the way point at it from now on
      for (let at = place; at !== root; ) {
        const next = unfound[at]!;
        unfound[at] = root;
        at = next;
      }
      return root;
    };
    for (const line of printedLines(document)) {
      yield;
      index.lines.push(line);
      containing.read(foldText(line.line.text));
      for (const [wordIndex, word] of line.line.words.entries()) {
        const number = printedAmount(word.text);
        if (number === null) continue;
        const printed = Math.abs(number);
        const [from, to] = index.placesNear(printed);
        for (let place = nextUnfound(from); place < to; place = nextUnfound(place + 1)) {
          index.firstWords[place] = { file: line.file, page: line.page, line: line.index, word: wordIndex };
          unfound[place] = place + 1;
        }
      }
    }
    index.texts = containing;
    return index;
  }

  /** Where the printed pages first show `value` (searchPrinted's answer). */
  find(value: unknown): Location | undefined {
    if (!this.sought.has(value)) return searchPrinted(value, this.document);
    const { amount, folded } = asSought(value);
    if (amount !== null) {
      const place = this.placeOf(Math.abs(amount));
      const word = place === undefined ? undefined : this.firstWords[place];
      return word ? locate([word], this.document) : undefined;
    }
    const lines = folded.length >= 2 ? this.texts?.lines(folded) : undefined;
    if (!lines) return undefined;
    for (const place of lines) {
      const found = wordsWithin(this.lines[place]!, folded);
      if (found.length > 0) return locate(found, this.document);
    }
    // as many lines as are kept print the text, none with its words: the rest of the pages may
    return lines.length < LINES_KEPT ? undefined : searchPrinted(value, this.document);
  }

  /** [from, to): the places in `amounts` of the amounts the same as `printed`, |printed - amount| < SAME_AMOUNT (a run, as amounts ascend). */
  private placesNear(printed: number): [number, number] {
    const from = firstPlace(this.amounts, (amount) => printed - amount < SAME_AMOUNT);
    const to = firstPlace(this.amounts, (amount) => printed - amount <= -SAME_AMOUNT, from);
    return [from, to];
  }

  private placeOf(amount: number): number | undefined {
    const place = firstPlace(this.amounts, (sought) => sought >= amount);
    return this.amounts[place] === amount ? place : undefined;
  }
}

/** The first place from `from` in `sorted` where `holds` (false before it, true from it on), or its length. */
function firstPlace(sorted: Float64Array, holds: (value: number) => boolean, from = 0): number {
  let low = from;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (holds(sorted[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}
