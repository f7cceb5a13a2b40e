/**
 * A page laid out for a file that has none (Office, HTML, CSV, text, e-mail):
 * lines of words on a monospaced grid, 5 points a character, as the e-invoice
 * page does (einvoice/page.ts). Only the order, the line breaks and the gaps
 * mean anything: a table's columns stand at least three characters apart, so
 * the layout text and the rules engine (a gap over 1.8 characters is a column
 * break) see its cells as cells, and a word keeps the column it has in a text
 * file. Each run of words knows its place in the file (Page.places), which
 * evidence reports instead of the made-up box.
 */
import type { BBox, Line, Page, PagePart, Place, PlacedWords, Word } from '../../document/document.js';
import { FormatProblem } from './problem.js';

const CHAR_WIDTH = 5;
const LINE_HEIGHT = 10;
const LINE_STEP = 14;
/** Space between blocks (paragraph groups, tables): more than a line's height, so that a block ends there. */
const BLOCK_GAP = 14;
const MARGIN = 36;
/** Characters between table columns: a column gap for the layout text and the rules engine (more than 1.8). */
export const COLUMN_GAP = 3;
/** A paragraph longer than this is wrapped at spaces into lines of at most this many characters. */
export const WRAP_CHARS = 200;
/** A run of characters without a space longer than this (a base64 blob, a 50 MB CSV line) is cut to it. */
export const LONGEST_WORD_CHARS = 1000;
const TAB_STOP = 8;

/** Words of text the readers may still make in this request (MAX_WORDS); passing it stops the reading with a 400. */
export class WordAllowance {
  private used = 0;
  constructor(readonly limit: number) {}
  take(count: number): void {
    this.used += count;
    if (this.used > this.limit) throw new TooManyWords(this.limit);
  }
  get taken(): number {
    return this.used;
  }
}

export class TooManyWords extends FormatProblem {
  constructor(readonly limit: number) {
    super(`it brings the request to more than ${limit} words of text; the limit is MAX_WORDS`);
  }
}

/** A table cell: its text and where it stands in the file. */
export interface Cell {
  text: string;
  place: Place;
}

interface PlacedRun {
  column: number;
  text: string;
  /** Absent for text docshape wrote (a label before a value). */
  place?: Place;
}

/** One line's runs, each at a character column. */
type Row = { runs: PlacedRun[]; gapBefore: boolean };

export class PageBuilder {
  private readonly rows: Row[] = [];
  private gapPending = false;
  private table: Array<Array<Cell | undefined>> = [];

  constructor(private readonly allowance: WordAllowance) {}

  /** A line of text (a paragraph, a line of a text file): inner runs of spaces and tabs keep their columns; a long one wraps. */
  text(text: string, place: Place): void {
    this.endTable();
    const expanded = expandTabs(text);
    if (expanded.trim() === '') return;
    for (const piece of wrap(expanded)) this.push([{ column: 0, text: piece, place }]);
  }

  /** Labelled text on one line, "Subject: Invoice 42": the label is no place in the file, the value is. */
  labelled(label: string, value: string, place: Place): void {
    this.endTable();
    const text = collapse(value);
    if (text === '') return;
    this.push([{ column: 0, text: `${label}:` }, { column: label.length + 2, text, place }]);
  }

  /** Space before the next line: a new block (a blank line in text, a new paragraph group). */
  gap(): void {
    this.endTable();
    if (this.rows.length > 0) this.gapPending = true;
  }

  /** A table row; the rows of one table are laid out together, columns apart, when the table ends. */
  row(cells: Array<Cell | undefined>): void {
    if (!cells.some((cell) => cell && cell.text.trim() !== '')) return;
    // counted as it comes: a million-row sheet stops at the limit, not after all of it is held
    let words = 0;
    for (const cell of cells) if (cell) words += countWords(cell.text);
    this.allowance.take(words);
    this.table.push(cells);
  }

  /** Lays out the table rows given since the last table: each column as wide as its widest cell. */
  endTable(): void {
    const rows = this.table;
    if (rows.length === 0) return;
    this.table = [];
    const widths: number[] = [];
    const texts = rows.map((cells) => cells.map((cell) => (cell ? clip(collapse(cell.text)) : '')));
    for (const row of texts) row.forEach((text, i) => (widths[i] = Math.max(widths[i] ?? 0, text.length)));
    const columns: number[] = [];
    let x = 0;
    for (const width of widths) {
      columns.push(x);
      x += (width ?? 0) + (width ? COLUMN_GAP : 0);
    }
    if (this.rows.length > 0) this.gapPending = true;
    rows.forEach((cells, r) => {
      const runs: PlacedRun[] = [];
      cells.forEach((cell, i) => {
        const text = texts[r]![i]!;
        if (cell && text !== '') runs.push({ column: columns[i]!, text, place: cell.place });
      });
      this.push(runs, false);
    });
    this.gapPending = true;
  }

  private push(runs: PlacedRun[], count = true): void {
    if (count) {
      let words = 0;
      for (const run of runs) words += countWords(run.text);
      this.allowance.take(words);
    }
    this.rows.push({ runs, gapBefore: this.gapPending });
    this.gapPending = false;
  }

  /** The page; its source 'empty' when nothing was written. */
  build(index: number, part?: PagePart): Page {
    this.endTable();
    const lines: Line[] = [];
    const places: PlacedWords[][] = [];
    let y = MARGIN;
    let width = 0;
    for (const row of this.rows) {
      if (row.gapBefore) y += BLOCK_GAP;
      const words: Word[] = [];
      const placed: PlacedWords[] = [];
      for (const run of row.runs) {
        const first = words.length;
        for (const match of clip(run.text).matchAll(/\S+/g)) {
          const x0 = MARGIN + (run.column + match.index) * CHAR_WIDTH;
          const bbox: BBox = { x0, y0: y, x1: x0 + match[0].length * CHAR_WIDTH, y1: y + LINE_HEIGHT };
          words.push({ text: match[0], bbox, confidence: 1, source: 'text-layer' });
          width = Math.max(width, bbox.x1);
        }
        if (run.place && words.length > first) placed.push({ words: [first, words.length], place: run.place });
      }
      if (words.length === 0) continue;
      lines.push({ text: words.map((word) => word.text).join(' '), bbox: { x0: words[0]!.bbox.x0, y0: y, x1: words[words.length - 1]!.bbox.x1, y1: y + LINE_HEIGHT }, words });
      places.push(placed);
      y += LINE_STEP;
    }
    const page: Page = { index, width: Math.max(595, width + MARGIN), height: Math.max(842, y + MARGIN), units: 'text-grid', source: lines.length > 0 ? 'text-layer' : 'empty', lines, places };
    return part ? { ...page, part } : page;
  }
}

function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 0x20;
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

/** Whitespace runs as one space, trimmed: a cell's or a header's text. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Tabs to the next tab stop, at least two spaces (a tab separates columns); other control characters to spaces. */
function expandTabs(text: string): string {
  if (!/[\t\u0000-\u001f]/.test(text)) return text;
  let out = '';
  for (const char of text) {
    if (char === '\t') out += ' '.repeat(Math.max(2, TAB_STOP - (out.length % TAB_STOP)));
    else out += char < ' ' ? ' ' : char;
  }
  return out;
}

/** Words longer than LONGEST_WORD_CHARS cut to it. */
function clip(text: string): string {
  if (text.length <= LONGEST_WORD_CHARS) return text;
  return text.replace(new RegExp(`\\S{${LONGEST_WORD_CHARS + 1},}`, 'g'), (word) => word.slice(0, LONGEST_WORD_CHARS));
}

/** A line cut at spaces into pieces of at most WRAP_CHARS (leading spaces kept on the first: they are its column). */
function wrap(text: string): string[] {
  const clipped = clip(text.trimEnd());
  if (clipped.length <= WRAP_CHARS) return [clipped];
  const pieces: string[] = [];
  let rest = clipped;
  while (rest.length > WRAP_CHARS) {
    let cut = rest.lastIndexOf(' ', WRAP_CHARS);
    if (cut <= 0) cut = rest.indexOf(' ', WRAP_CHARS);
    if (cut <= 0) break;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  if (rest) pieces.push(rest);
  return pieces;
}
