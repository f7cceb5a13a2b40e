/**
 * The document's words in the forms the grounding check searches: folded
 * text (letters and digits, lower case), the same with abbreviations in one
 * shared form, and the digits alone, grouped into the numbers they were
 * printed as. Each character remembers where in the layout text it came
 * from, and a value is only found where it starts and ends on a boundary
 * (a space, punctuation, a change between letters and digits): "art" is not
 * in "MART", nor 9 in "999999".
 */
import { wordsInSpan, type LayoutText } from '../../ingest/layout.js';
import type { ValueSource } from '../../schema/provenance.js';
import { foldCharacter } from '../../util/fold-text.js';
import { firstIndexWhere } from '../../util/sorted-search.js';
import { sharedForm } from './abbreviations.js';

const isDigit = (character: string): boolean => character >= '0' && character <= '9';

/** A searchable form of text: characters, the layout offset each came from, and the positions between them that are boundaries. */
export class FoldedText {
  text = '';
  readonly offsets: number[] = [];
  private readonly boundaries = new Set<number>([0]);

  /** Appends characters read at `offset` (the last one at `endOffset - 1`), with a boundary before them when `boundary`. */
  add(characters: string, offset: number, boundary: boolean, endOffset = offset + 1): void {
    for (let i = 0; i < characters.length; i++) {
      const index = this.text.length;
      const previous = this.text[index - 1];
      if (index > 0 && ((i === 0 && boundary) || isDigit(previous!) !== isDigit(characters[i]!))) this.boundaries.add(index);
      this.text += characters[i];
      this.offsets.push(i === characters.length - 1 ? endOffset - 1 : offset);
    }
  }

  /** Layout-text span of characters [start, end). */
  span(start: number, end: number): [number, number] {
    return [this.offsets[start]!, this.offsets[end - 1]! + 1];
  }

  /** Where `needle` first stands between two boundaries; -1 when nowhere. */
  find(needle: string): number {
    for (const at of this.places(needle)) return at;
    return -1;
  }

  /** Every place `needle` stands between two boundaries, in order. */
  findAll(needle: string): number[] {
    return [...this.places(needle)];
  }

  private *places(needle: string): Generator<number> {
    if (needle === '') return;
    for (let at = this.text.indexOf(needle); at >= 0; at = this.text.indexOf(needle, at + 1)) {
      if (this.boundaries.has(at) && (at + needle.length === this.text.length || this.boundaries.has(at + needle.length))) yield at;
    }
  }
}

/** Letters-and-digits tokens of a text, '&' read as "and", each with its place. */
export function tokens(text: string): Array<{ folded: string; start: number; end: number }> {
  const found: Array<{ folded: string; start: number; end: number }> = [];
  let current: { folded: string; start: number; end: number } | undefined;
  let offset = 0;
  for (const character of text) {
    const folded = character === '&' ? '' : foldCharacter(character);
    if (folded !== '') {
      current ??= { folded: '', start: offset, end: offset };
      current.folded += folded;
      current.end = offset + character.length;
    } else {
      if (current) found.push(current);
      current = undefined;
      if (character === '&') found.push({ folded: 'and', start: offset, end: offset + 1 });
    }
    offset += character.length;
  }
  if (current) found.push(current);
  return found;
}

/** A text in the shared form: folded tokens, abbreviations replaced. */
export function sharedText(text: string): string {
  return tokens(text)
    .map((token) => sharedForm(token.folded))
    .join('');
}

/** Digits of a number as compared: no sign, separators or outer zeros (1234.5 and "1,234.50" both give "12345"). */
export function significantDigits(text: string): string {
  return text.replace(/e.*$/i, '').replace(/\D/g, '').replace(/^0+|0+$/g, '');
}

/** The digits of the document, each run of digits as printed ("1,234.50" is one run). */
class DigitRuns {
  text = '';
  private readonly offsets: number[] = [];
  private readonly runOf: number[] = [];
  private readonly runs: Array<{ start: number; end: number }> = [];

  constructor(private readonly layout: LayoutText) {}

  /** Adds one word's digits; a separator between two digits (1,234.50; 12'500) keeps the run going. */
  addWord(start: number, end: number): void {
    let previousDigit = -2;
    for (let offset = start; offset < end; offset++) {
      const character = this.layout.text[offset]!;
      if (!isDigit(character)) continue;
      const continues = previousDigit === offset - 1 || (previousDigit === offset - 2 && /[.,'’\u00a0\u202f]/.test(this.layout.text[offset - 1]!));
      if (!continues || this.runs.length === 0) this.runs.push({ start: this.text.length, end: this.text.length });
      this.text += character;
      this.offsets.push(offset);
      this.runOf.push(this.runs.length - 1);
      this.runs[this.runs.length - 1]!.end = this.text.length;
      previousDigit = offset;
    }
  }

  /**
   * Where `digits` stands as a whole number: from the start of a run (or
   * after its leading zeros) to its end (or before its trailing zeros),
   * across runs only where they are printed side by side on one line (a
   * number OCR split in two: "76. 20").
   */
  find(digits: string): [number, number] | undefined {
    if (digits === '') return undefined;
    for (let at = this.text.indexOf(digits); at >= 0; at = this.text.indexOf(digits, at + 1)) {
      const last = at + digits.length - 1;
      const first = this.runOf[at]!;
      const final = this.runOf[last]!;
      if (!/^0*$/.test(this.text.slice(this.runs[first]!.start, at))) continue;
      if (!/^0*$/.test(this.text.slice(last + 1, this.runs[final]!.end))) continue;
      let joined = true;
      for (let run = first; run < final && joined; run++) joined = this.sideBySide(run);
      if (joined) return [this.offsets[at]!, this.offsets[last]! + 1];
    }
    return undefined;
  }

  private sideBySide(run: number): boolean {
    const gap = this.layout.text.slice(this.offsets[this.runs[run]!.end - 1]! + 1, this.offsets[this.runs[run + 1]!.start]!);
    return gap.length <= 2 && !gap.includes('\n');
  }
}

/** The three searchable forms of a layout text's words. */
export class GroundingIndex {
  readonly plain = new FoldedText();
  readonly shared = new FoldedText();
  readonly digits: DigitRuns;

  /** Layout-text offsets where each line starts. */
  private readonly lineStarts: number[] = [0];

  constructor(private readonly layout: LayoutText) {
    for (let at = layout.text.indexOf('\n'); at >= 0; at = layout.text.indexOf('\n', at + 1)) this.lineStarts.push(at + 1);
    this.digits = new DigitRuns(layout);
    for (const placed of layout.words) {
      let boundary = true;
      let offset = placed.start;
      for (const character of layout.text.slice(placed.start, placed.end)) {
        const folded = foldCharacter(character);
        if (folded === '') boundary = true;
        else {
          this.plain.add(folded, offset, boundary, offset + character.length);
          boundary = false;
        }
        offset += character.length;
      }
      for (const token of tokens(layout.text.slice(placed.start, placed.end))) {
        this.shared.add(sharedForm(token.folded), placed.start + token.start, true, placed.start + token.end);
      }
      this.digits.addWord(placed.start, placed.end);
    }
  }

  /** The line (0-based) of the layout text a layout-text offset is on. */
  lineOf(offset: number): number {
    return firstIndexWhere(this.lineStarts, (start) => start > offset) - 1;
  }

  /** The words under layout-text spans, each once, in order. */
  wordsOf(spans: Array<[number, number]>): ValueSource['words'] {
    const words: ValueSource['words'] = [];
    for (const [start, end] of spans) for (const ref of wordsInSpan(this.layout, start, end)) if (!words.includes(ref)) words.push(ref);
    return words;
  }
}
