/**
 * What the whole document says about one value, independent of the engine
 * that read it: whether the same value is printed elsewhere too, and, for an
 * amount, whether two other printed amounts add up to it or differ by it
 * (total = subtotal + tax, change = cash - total). A value the document
 * confirms by its own arithmetic is rarely a misreading or the wrong line.
 */
import { parseNumber } from '../extract/coerce.js';
import type { Document, WordRef } from '../document/document.js';
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

interface PrintedAmount {
  value: number;
  line: string;
}

/** Built once per answer. */
export class DocumentIndex {
  private readonly lines: Array<{ key: string; folded: string }> = [];
  private readonly amounts: PrintedAmount[] = [];
  /** Amounts by value in cents, for the sums. */
  private readonly cents = new Map<number, Set<string>>();

  constructor(document?: Document) {
    if (document) runSync(this.adding(document));
  }

  /** An index of `document`, built in steps (util/paced.ts): one per line. */
  static *building(document: Document): PacedWork<DocumentIndex> {
    const index = new DocumentIndex();
    yield* index.adding(document);
    return index;
  }

  private *adding(document: Document): PacedWork<void> {
    for (const file of document.files) {
      for (const page of file.pages) {
        for (const [index, line] of page.lines.entries()) {
          yield;
          const key = lineKey({ file: file.index, page: page.index, line: index });
          const text = line.words.map((word) => word.text).join(' ');
          this.lines.push({ key, folded: foldText(text) });
          for (const match of text.matchAll(AMOUNT_WITH_CENTS)) {
            const value = parseNumber(match[0]);
            if (value === null || this.amounts.length >= MAX_AMOUNTS) continue;
            this.amounts.push({ value, line: key });
            const inCents = Math.round(value * 100);
            this.cents.set(inCents, (this.cents.get(inCents) ?? new Set()).add(key));
          }
        }
      }
    }
  }

  /**
   * Lines other than the value's own that print it too: the same amount, or
   * for text the same letters and digits (at least three of them).
   */
  repeats(value: string | number, own: readonly WordRef[]): number {
    const ownLines = new Set(own.map(lineKey));
    if (typeof value === 'number') {
      return [...(this.cents.get(Math.round(value * 100)) ?? [])].filter((line) => !ownLines.has(line)).length;
    }
    const folded = foldText(value);
    if (folded.length < 3) return 0;
    return this.lines.filter((line) => !ownLines.has(line.key) && line.folded.includes(folded)).length;
  }

  /** Whether two amounts printed on other lines (than the value's and each other's) add up to the value or differ by it. */
  addsUp(value: number, own: readonly WordRef[]): boolean {
    if (Math.abs(value) < MIN_CHECKED_AMOUNT) return false;
    const ownLines = new Set(own.map(lineKey));
    const target = Math.round(value * 100);
    const others = this.amounts.filter((amount) => !ownLines.has(amount.line) && amount.value > 0 && Math.abs(amount.value - value) >= CENT);
    for (const a of others) {
      const aCents = Math.round(a.value * 100);
      // a + b = value, or a - b = value
      for (const bCents of [target - aCents, aCents - target]) {
        if (bCents <= 0) continue;
        const lines = this.cents.get(bCents);
        if (lines && [...lines].some((line) => line !== a.line && !ownLines.has(line))) return true;
      }
    }
    return false;
  }
}

function lineKey(ref: Pick<WordRef, 'file' | 'page' | 'line'>): string {
  return `${ref.file}/${ref.page}/${ref.line}`;
}
