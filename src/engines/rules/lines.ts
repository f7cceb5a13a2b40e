/**
 * The rules engine's view of a document: lines in reading order, each with
 * word positions and "cells" (runs of words separated by a column gap).
 * Built from the Document's word boxes, or from the layout text when the
 * Document carries no words (character columns then stand in for x).
 */
import type { Document, Line } from '../../ingest/document.js';
import { tokenize, type Token } from './fuzzy.js';

export interface RuleWord {
  text: string;
  x0: number;
  x1: number;
  /** Character offsets in the line's text. */
  start: number;
  end: number;
}

export interface Cell {
  text: string;
  x0: number;
  x1: number;
  start: number;
  end: number;
}

export interface RuleLine {
  text: string;
  words: RuleWord[];
  cells: Cell[];
  tokens: Token[];
  /** Position in the whole request, pages of all files in order. */
  index: number;
  page: number;
  y0: number;
  y1: number;
  /** Typical character width, the unit for "near" on this line. */
  charWidth: number;
  /** Mean word confidence, 0..1 (1 for text layers). */
  confidence: number;
}

/** Same rule as the layout text: a gap wider than this many character widths separates columns. */
const COLUMN_GAP_CHARS = 1.8;
/** What the layout text says for a page without words; not document content. */
const EMPTY_PAGE_NOTE = /^\(no text found on this page\)$/i;
const PAGE_MARKER = /^---\s*file\s+\d+.*page\s+\d+\s*---$/i;

export function readLines(document: Document, layoutText: string): RuleLine[] {
  const fromWords = linesFromDocument(document);
  return fromWords.length > 0 ? fromWords : linesFromLayoutText(layoutText);
}

function linesFromDocument(document: Document): RuleLine[] {
  const lines: RuleLine[] = [];
  let page = 0;
  for (const file of document.files) {
    for (const sourcePage of file.pages) {
      for (const line of sourcePage.lines) {
        const built = lineFromWords(line, lines.length, page);
        if (built) lines.push(built);
      }
      page++;
    }
  }
  return lines;
}

function lineFromWords(line: Line, index: number, page: number): RuleLine | undefined {
  const words = line.words
    .filter((w) => w.text.trim() !== '')
    .sort((a, b) => a.bbox.x0 - b.bbox.x0)
    .map((w) => ({ text: w.text.trim(), x0: w.bbox.x0, x1: w.bbox.x1, confidence: w.confidence }));
  if (words.length === 0) return undefined;
  const letters = words.reduce((sum, w) => sum + w.text.length, 0);
  const charWidth = Math.max(words.reduce((sum, w) => sum + (w.x1 - w.x0), 0) / letters, 0.01);
  const confidence = words.reduce((sum, w) => sum + w.confidence, 0) / words.length;
  return buildLine(words, { index, page, y0: line.bbox.y0, y1: line.bbox.y1, charWidth, confidence });
}

function linesFromLayoutText(layoutText: string): RuleLine[] {
  const lines: RuleLine[] = [];
  let page = -1;
  let row = 0;
  for (const raw of layoutText.split(/\r?\n/)) {
    if (PAGE_MARKER.test(raw.trim())) {
      page++;
      row = 0;
      continue;
    }
    if (page < 0) page = 0;
    row++;
    if (EMPTY_PAGE_NOTE.test(raw.trim())) continue;
    // character columns stand in for x: two or more spaces make a column gap
    const words = [...raw.matchAll(/\S+/g)].map((m) => ({ text: m[0], x0: m.index ?? 0, x1: (m.index ?? 0) + m[0].length }));
    if (words.length > 0) lines.push(buildLine(words, { index: lines.length, page, y0: row, y1: row + 1, charWidth: 1, confidence: 1 }));
  }
  return lines;
}

interface LinePlace {
  index: number;
  page: number;
  y0: number;
  y1: number;
  charWidth: number;
  confidence: number;
}

function buildLine(placed: Array<{ text: string; x0: number; x1: number }>, place: LinePlace): RuleLine {
  const words: RuleWord[] = [];
  let text = '';
  for (const word of placed) {
    if (text) text += ' ';
    words.push({ text: word.text, x0: word.x0, x1: word.x1, start: text.length, end: text.length + word.text.length });
    text += word.text;
  }
  const { index, page, y0, y1, charWidth, confidence } = place;
  return { index, page, y0, y1, charWidth, confidence, text, words, cells: cellsOf(text, words, COLUMN_GAP_CHARS * place.charWidth), tokens: tokenize(text) };
}

function cellsOf(text: string, words: RuleWord[], gap: number): Cell[] {
  const cells: Cell[] = [];
  let current: Cell | undefined;
  for (const word of words) {
    if (current && word.x0 - current.x1 <= gap) {
      current.x1 = word.x1;
      current.end = word.end;
    } else {
      current = { text: '', x0: word.x0, x1: word.x1, start: word.start, end: word.end };
      cells.push(current);
    }
  }
  for (const cell of cells) cell.text = text.slice(cell.start, cell.end);
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

/** x range of the characters [start, end) of a line. */
export function spanX(line: RuleLine, start: number, end: number): { x0: number; x1: number } {
  const inside = line.words.filter((w) => w.end > start && w.start < end);
  if (inside.length === 0) return { x0: 0, x1: 0 };
  return { x0: inside[0]!.x0, x1: inside[inside.length - 1]!.x1 };
}

/** The line without stray cells such as a "|" or "oo" read from a stamp or the paper's edge. */
export function mainText(line: RuleLine): string {
  if (line.cells.length <= 1) return line.text;
  const kept = line.cells.filter((cell) => (cell.text.match(/[\p{L}\p{N}]/gu) ?? []).length >= 2);
  return (kept.length > 0 ? kept : line.cells).map((cell) => cell.text).join(' ');
}

/** Nothing readable: rule lines, specks, a lone bracket. */
export function isNoise(line: RuleLine): boolean {
  return (line.text.match(/[\p{L}\p{N}]/gu) ?? []).length === 0 || /^[^\p{L}\p{N}]*\p{L}[^\p{L}\p{N}]*$/u.test(line.text);
}
