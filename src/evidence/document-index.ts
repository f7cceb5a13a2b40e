/**
 * What the whole document says about one value, independent of the engine
 * that read it: whether the same value is printed elsewhere too, and, for an
 * amount, whether two other printed amounts add up to it or differ by it
 * (total = subtotal + tax, change = cash - total). A value the document
 * confirms by its own arithmetic is rarely a misreading or the wrong line.
 */
import { parseNumber } from '../schema/coerce.js';
import type { Document, WordRef } from '../document/document.js';
import { ContainingLines } from '../util/containing-lines.js';
import { foldText } from '../util/fold-text.js';
import { runSync, type PacedWork } from '../util/paced.js';

/** Amounts printed with cents ("1,234.50", "12,50"): figures of that shape are money, not counts or codes. */
const AMOUNT_WITH_CENTS = /(?<![\p{N}.,])\p{N}{1,3}(?:[ ,.']?\p{N}{3})*[.,]\p{N}{2}(?![\p{N}])/gu;
/** Amounts are equal when they differ by less than half a cent. */
const CENT = 0.005;
/**
 * Below this the sums prove little: among a receipt's figures some pair
 * differs by almost any few cents, and two lines printing 0.00 "differ" by 0.
 */
const MIN_CHECKED_AMOUNT = 1;
/** Enough amounts for any receipt or invoice; a long statement is checked on its first ones. */
const MAX_AMOUNTS = 2000;

/**
 * Other lines counted up to this many: whether a value is printed again is
 * what the confidence weighs (confidence.ts), and beyond a few the count
 * says nothing more. A bound is what keeps the count of a text that every
 * line of a long table prints (a unit, a currency) linear.
 */
export const REPEATS_COUNTED = 16;
/** Lines containing each text of the answer are counted up to this many: REPEATS_COUNTED others, besides a value's own lines. */
const LINES_COUNTED = 4 * REPEATS_COUNTED;
/** Texts shorter than this (folded) say little when printed again. */
const MIN_REPEATED_TEXT = 3;

/** Built once per answer. */
export class DocumentIndex {
  private readonly lines: Array<{ key: string; folded: string }> = [];
  private readonly lineIndex = new Map<string, number>();
  /** Printed amounts by their value, each with the lines that print it (MAX_AMOUNTS amounts at most). */
  private readonly amounts = new Map<number, Set<string>>();
  private amountCount = 0;
  /** Amounts by value in cents, for the sums. */
  private readonly cents = new Map<number, Set<string>>();
  /** The answer's texts folded, and the lines that contain each (counted up to LINES_COUNTED). */
  private readonly folded = new Map<string, string>();
  private containing: ContainingLines | undefined;

  /** `values`: the answer's values (and a second reading's), whose texts repeats() then counts in one pass over the lines. */
  constructor(document?: Document, values: Iterable<unknown> = []) {
    if (document) runSync(this.adding(document, values));
  }

  /** An index of `document`, built in steps (util/paced.ts): one per line, and one per value of `values`. */
  static *building(document: Document, values: Iterable<unknown> = []): PacedWork<DocumentIndex> {
    const index = new DocumentIndex();
    yield* index.adding(document, values);
    return index;
  }

  private *adding(document: Document, values: Iterable<unknown>): PacedWork<void> {
    let longest = 0;
    for (const file of document.files) {
      for (const page of file.pages) {
        for (const [index, line] of page.lines.entries()) {
          yield;
          const key = lineKey({ file: file.index, page: page.index, line: index });
          const text = line.words.map((word) => word.text).join(' ');
          const folded = foldText(text);
          longest = Math.max(longest, folded.length);
          this.lineIndex.set(key, this.lines.length);
          this.lines.push({ key, folded });
          for (const match of text.matchAll(AMOUNT_WITH_CENTS)) {
            const value = parseNumber(match[0]);
            if (value === null || this.amountCount >= MAX_AMOUNTS) continue;
            this.amountCount++;
            addTo(this.amounts, value, key);
            addTo(this.cents, Math.round(value * 100), key);
          }
        }
      }
    }
    const texts: string[] = [];
    for (const value of values) {
      if (typeof value !== 'string' || this.folded.has(value)) continue;
      yield;
      const folded = foldText(value);
      this.folded.set(value, folded);
      // a text longer than every line is in none
      if (folded.length >= MIN_REPEATED_TEXT && folded.length <= longest) texts.push(folded);
    }
    if (texts.length === 0) return;
    const containing = yield* ContainingLines.building(texts, LINES_COUNTED);
    for (const line of this.lines) {
      yield;
      containing.read(line.folded);
    }
    this.containing = containing;
  }

  /**
   * Lines other than the value's own that print it too: the same amount, or
   * for text the same letters and digits (at least three of them); up to
   * REPEATS_COUNTED.
   */
  repeats(value: string | number, own: readonly WordRef[]): number {
    const ownLines = new Set(own.map(lineKey));
    if (typeof value === 'number') {
      const lines = this.cents.get(Math.round(value * 100));
      return lines ? Math.min(REPEATS_COUNTED, lines.size - countWhere(ownLines, (line) => lines.has(line))) : 0;
    }
    const folded = this.folded.get(value) ?? foldText(value);
    if (folded.length < MIN_REPEATED_TEXT) return 0;
    const containing = this.containing?.count(folded) ?? (this.folded.has(value) ? 0 : undefined);
    if (containing !== undefined) {
      const ownContaining = countWhere(ownLines, (line) => this.lines[this.lineIndex.get(line) ?? -1]?.folded.includes(folded) === true);
      // below the bound the count is exact; at it, at least that many lines print the text
      if (containing < LINES_COUNTED || containing - ownContaining >= REPEATS_COUNTED) return Math.min(REPEATS_COUNTED, containing - ownContaining);
    }
    // a text not given when the index was built, or one that more lines of its own than the bound print
    let others = 0;
    for (const line of this.lines) if (!ownLines.has(line.key) && line.folded.includes(folded) && ++others === REPEATS_COUNTED) break;
    return others;
  }

  /** Whether two amounts printed on other lines (than the value's and each other's) add up to the value or differ by it. */
  addsUp(value: number, own: readonly WordRef[]): boolean {
    if (Math.abs(value) < MIN_CHECKED_AMOUNT) return false;
    const ownLines = new Set(own.map(lineKey));
    const target = Math.round(value * 100);
    // by distinct printed amount a: a + b = value, or a - b = value, a and b on two lines neither of them the value's
    for (const [amount, aLines] of this.amounts) {
      if (amount <= 0 || Math.abs(amount - value) < CENT) continue;
      const aCents = Math.round(amount * 100);
      for (const bCents of [target - aCents, aCents - target]) {
        const bLines = bCents > 0 ? this.cents.get(bCents) : undefined;
        if (bLines && onTwoLines(aLines, bLines, ownLines)) return true;
      }
    }
    return false;
  }
}

function addTo<K>(index: Map<K, Set<string>>, key: K, line: string): void {
  const lines = index.get(key);
  if (lines) lines.add(line);
  else index.set(key, new Set([line]));
}

function countWhere<T>(items: Iterable<T>, test: (item: T) => boolean): number {
  let count = 0;
  for (const item of items) if (test(item)) count++;
  return count;
}

/** Whether a line of `a` and another line of `b` lie outside `excluded`: two of each (outside it) settle it, whatever the sets' sizes. */
function onTwoLines(a: ReadonlySet<string>, b: ReadonlySet<string>, excluded: ReadonlySet<string>): boolean {
  const fromA = firstTwoOutside(a, excluded);
  const fromB = firstTwoOutside(b, excluded);
  if (fromA.length === 0 || fromB.length === 0) return false;
  return fromA.length > 1 || fromB.length > 1 || fromA[0] !== fromB[0];
}

function firstTwoOutside(lines: ReadonlySet<string>, excluded: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const line of lines) {
    if (excluded.has(line)) continue;
    found.push(line);
    if (found.length === 2) break;
  }
  return found;
}

function lineKey(ref: Pick<WordRef, 'file' | 'page' | 'line'>): string {
  return `${ref.file}/${ref.page}/${ref.line}`;
}
