/**
 * The rules engine's view of a document: lines in reading order, each with
 * word positions and "cells" (runs of words separated by a column gap),
 * built from the Document's word boxes. Every word keeps its reference into
 * the Document, so that a value read from a line can say which words it
 * came from.
 */
import { tokenize, type Token } from '../../../meaning/words.js';
import type { Document, Line, WordRef } from '../../../document/document.js';
import { COLUMN_GAP_CHARS } from '../../../ingest/layout.js';

import { maxOf } from '../../../util/extremes.js';
import { firstIndexWhere } from '../../../util/sorted-search.js';

/** A stretch of a line: its x extent and its character offsets in the line's text. */
interface Span {
  text: string;
  x0: number;
  x1: number;
  start: number;
  end: number;
}

export interface RuleWord extends Span {
  /** OCR confidence 0..1 (1 for text layers). */
  confidence: number;
  /** The Document word it is. */
  ref: WordRef;
}

export interface Cell extends Span {
  /** Mean confidence of its words. */
  confidence: number;
}

/** Where a line sits: its position in the request, page and vertical extent, and its scale. */
interface LinePlace {
  /** Position in the whole request, pages of all files in order. */
  index: number;
  page: number;
  y0: number;
  y1: number;
  /** Typical character width, the unit for "near" on this line. */
  charWidth: number;
  /** Mean word confidence, 0..1 (1 for text layers). */
  confidence: number;
  /** A line of an e-invoice page (ingest/einvoice/): one business term, stated once. */
  eInvoice?: boolean;
}

export interface RuleLine extends LinePlace {
  text: string;
  words: RuleWord[];
  cells: Cell[];
  tokens: Token[];
}

export function readLines(document: Document): RuleLine[] {
  const lines: RuleLine[] = [];
  let page = 0;
  for (const file of document.files) {
    for (const sourcePage of file.pages) {
      sourcePage.lines.forEach((line, lineIndex) => {
        const built = lineFromWords(line, { file: file.index, page: sourcePage.index, line: lineIndex }, lines.length, page, sourcePage.source === 'e-invoice');
        if (built) lines.push(built);
      });
      page++;
    }
  }
  return lines;
}

function lineFromWords(line: Line, at: Omit<WordRef, 'word'>, index: number, page: number, eInvoice: boolean): RuleLine | undefined {
  const words = line.words
    .map((w, word) => ({ text: w.text.trim(), x0: w.bbox.x0, x1: w.bbox.x1, confidence: w.confidence, ref: { file: at.file, page: at.page, line: at.line, word } }))
    .filter((w) => w.text !== '')
    .sort((a, b) => a.x0 - b.x0);
  if (words.length === 0) return undefined;
  const letters = words.reduce((sum, w) => sum + w.text.length, 0);
  const charWidth = Math.max(words.reduce((sum, w) => sum + (w.x1 - w.x0), 0) / letters, 0.01);
  const confidence = words.reduce((sum, w) => sum + w.confidence, 0) / words.length;
  return buildLine(words, { index, page, y0: line.bbox.y0, y1: line.bbox.y1, charWidth, confidence, ...(eInvoice ? { eInvoice } : {}) });
}

function buildLine(placed: ReadonlyArray<Pick<RuleWord, 'text' | 'x0' | 'x1' | 'confidence' | 'ref'>>, place: LinePlace): RuleLine {
  const words: RuleWord[] = [];
  let text = '';
  for (const word of placed) {
    if (text) text += ' ';
    words.push({ text: word.text, x0: word.x0, x1: word.x1, start: text.length, end: text.length + word.text.length, confidence: word.confidence, ref: word.ref });
    text += word.text;
  }
  const { index, page, y0, y1, charWidth, confidence, eInvoice } = place;
  return { index, page, y0, y1, charWidth, confidence, ...(eInvoice ? { eInvoice } : {}), text, words, cells: cellsOf(text, words, COLUMN_GAP_CHARS * place.charWidth), tokens: tokenize(text) };
}

function cellsOf(text: string, words: RuleWord[], gap: number): Cell[] {
  const cells: Cell[] = [];
  const members: RuleWord[][] = [];
  let current: Cell | undefined;
  for (const word of words) {
    if (current && word.x0 - current.x1 <= gap) {
      current.x1 = word.x1;
      current.end = word.end;
      members[members.length - 1]!.push(word);
    } else {
      current = { text: '', x0: word.x0, x1: word.x1, start: word.start, end: word.end, confidence: 1 };
      cells.push(current);
      members.push([word]);
    }
  }
  cells.forEach((cell, i) => {
    cell.text = text.slice(cell.start, cell.end);
    const own = members[i]!;
    cell.confidence = own.reduce((sum, w) => sum + w.confidence, 0) / own.length;
  });
  return cells;
}

/** The words of a line from character `fromChar` on whose left edge lies in [x0, x1) (one column of a two-column block). */
export function sliceLine(line: RuleLine, x0: number, x1: number, fromChar = 0): RuleLine | undefined {
  const kept = line.words.filter((w) => w.start >= fromChar && w.x0 >= x0 && w.x0 < x1);
  if (kept.length === 0) return undefined;
  return buildLine(kept, line);
}

/** The cell that holds a character offset. */
export function cellAt(line: RuleLine, offset: number): Cell | undefined {
  return line.cells.find((cell) => offset >= cell.start && offset <= cell.end);
}

/** The Document words under characters [start, end) of a line's text. */
export function wordsInRange(line: RuleLine, start: number, end: number): WordRef[] {
  // words are in text order: find the first that ends after `start` (a line may hold thousands)
  let low = 0;
  let high = line.words.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (line.words[middle]!.end <= start) low = middle + 1;
    else high = middle;
  }
  const refs: WordRef[] = [];
  for (let i = low; i < line.words.length && line.words[i]!.start < end; i++) refs.push(line.words[i]!.ref);
  return refs;
}

/** A blank narrower than this share of a character is a thin space inside one printed number ("1 234,56"), not a gap between two. */
const DIGIT_GROUP_GAP = 0.8;

/**
 * For text sliced from a line at `from`: whether the blank at an offset of
 * that text joins the groups of one number, the words on either side
 * printed closer than a character apart.
 */
export function digitGroupBlanks(line: RuleLine, from = 0): (offset: number) => boolean {
  return (offset) => {
    const at = from + offset;
    // words are in text order: the first that starts after the blank, found by binary search (a line may hold thousands)
    const next = firstIndexWhere(line.words, (word) => word.start > at);
    const before = line.words[next - 1];
    const after = line.words[next];
    return before?.end === at && after?.start === at + 1 && after.x0 - before.x1 <= DIGIT_GROUP_GAP * line.charWidth;
  };
}

/** x range of the characters [start, end) of a line. */
export function spanX(line: RuleLine, start: number, end: number): { x0: number; x1: number } {
  const inside = line.words.filter((w) => w.end > start && w.start < end);
  if (inside.length === 0) return { x0: 0, x1: 0 };
  return { x0: inside[0]!.x0, x1: inside[inside.length - 1]!.x1 };
}

/**
 * The line without stray cells: a "|" or "oo" read from a stamp or the
 * paper's edge, and short fragments far off to the side ("Redondo Car Wash
 * Ee", "ai   SIN   Din Tai Fung Restaurant   Pre ee"). Kept are the cells with
 * letters or digits that lie in one run with the longest cell, that is,
 * without a gap of ISOLATION_CHARS between them; a far cell stays when it holds
 * a word of its own (five letters or digits in a row), and so does all between.
 */
export function mainText(line: RuleLine): string {
  if (line.cells.length <= 1) return line.text;
  const alnum = (cell: Cell): number => (cell.text.match(/[\p{L}\p{N}]/gu) ?? []).length;
  // beside a clearly read cell, one the OCR itself barely trusts is background or a smudge
  const legible = maxOf(line.cells, (cell) => cell.confidence) >= LEGIBLE;
  const readable = line.cells.filter((cell) => alnum(cell) >= 2 && (!legible || cell.confidence >= ILLEGIBLE));
  if (readable.length === 0) return line.text;
  const main = readable.reduce((a, b) => (alnum(b) > alnum(a) ? b : a));
  const gap = ISOLATION_CHARS * line.charWidth;
  const at = readable.indexOf(main);
  let from = at;
  let to = at;
  while (from > 0 && readable[from]!.x0 - readable[from - 1]!.x1 <= gap) from--;
  while (to < readable.length - 1 && readable[to + 1]!.x0 - readable[to]!.x1 <= gap) to++;
  const farWord = (cell: Cell): boolean => /[\p{L}\p{N}]{5}/u.test(cell.text);
  const kept = readable.filter((cell, i) => (i >= from && i <= to) || farWord(cell));
  // what lies between kept cells is part of the line ("ORANGE      CA      92869")
  const first = kept[0]!;
  const last = kept[kept.length - 1]!;
  return readable.filter((cell) => cell.x0 >= first.x0 && cell.x1 <= last.x1).map((cell) => cell.text).join(' ');
}

/** Gap, in character widths, beyond which a tiny cell is not part of its line's text. */
const ISOLATION_CHARS = 6;
/** OCR confidences: a cell read at LEGIBLE or better makes cells below ILLEGIBLE on its line noise. */
const LEGIBLE = 0.7;
const ILLEGIBLE = 0.4;

/** Nothing readable: rule lines, specks, a lone bracket. */
export function isNoise(line: RuleLine): boolean {
  return (line.text.match(/[\p{L}\p{N}]/gu) ?? []).length === 0 || /^[^\p{L}\p{N}]*\p{L}[^\p{L}\p{N}]*$/u.test(line.text);
}
