import { median } from '../util/median.js';
import { sameWord, type Document, type Line, type Page, type WordRef } from '../document/document.js';
import { minOf } from '../util/extremes.js';

/**
 * Renders the Document as plain text for the engines, the way `pdftotext
 * -layout` does: one text line per Line, words separated by one space when
 * they are close, and padded to their column when the gap is wide, so table
 * columns stay apart (2+ spaces) and line up across rows.
 *
 * The text comes with a map back to the Document: where each word sits in
 * it (as docling keeps a character span on every item). Whatever reads the
 * text and finds a value in it (grounding, the eval's evidence check) turns
 * character offsets into words with that map instead of parsing the text
 * again; page markers are text but no word, so they are never evidence.
 */
const MAX_COLUMNS = 240;
/** A gap wider than this many character widths is a column break, not a word space (the rules engine's cells follow the same rule). */
export const COLUMN_GAP_CHARS = 1.8;
/** A vertical gap above this many line heights becomes a blank line (paragraph/section). */
const BLANK_LINE_GAP = 1.2;

/** Where one Document word sits in a layout text: characters [start, end). */
export interface PlacedWord {
  start: number;
  end: number;
  ref: WordRef;
}

export interface LayoutText {
  text: string;
  /** Every word of the text, in text order (start ascending). */
  words: PlacedWord[];
}

/**
 * "--- file 1 (a.pdf), page 2 ---", and what part of its file a page is ("(sheet \"Invoice\")", "(attachment
 * invoice.pdf, page 1)"); an e-invoice page says what it is: the XML's values, which are exact.
 */
export function pageMarker(fileIndex: number, filename: string, page: Pick<Page, 'index' | 'source' | 'eInvoice' | 'part'>): string {
  const file = `file ${fileIndex + 1} (${filename})`;
  if (page.source !== 'e-invoice') return `--- ${file}, page ${page.index + 1}${partText(page.part)} ---`;
  const from = page.eInvoice?.attachment ? `the e-invoice XML it carries (${page.eInvoice.attachment}, ${page.eInvoice.standard})` : `its e-invoice XML (${page.eInvoice?.standard ?? 'CII or UBL'})`;
  return `--- ${file}, e-invoice: the values of ${from}, exact; where a printed page shows another value, this one is right ---`;
}

function partText(part: Page['part']): string {
  if (!part) return '';
  const parts = [
    ...(part.attachment === undefined ? [] : [`attachment ${part.attachment}${part.attachmentPage === undefined ? '' : `, page ${part.attachmentPage + 1}`}`]),
    ...(part.sheet === undefined ? [] : [`sheet ${JSON.stringify(part.sheet)}`]),
    ...(part.slide === undefined ? [] : [`slide ${part.slide}`]),
  ];
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** A file's pages in the order the engines read them: its e-invoice first (the exact values), then the printed pages. */
export function readingOrder<T extends Pick<Page, 'source'>>(pages: readonly T[]): T[] {
  return [...pages.filter((page) => page.source === 'e-invoice'), ...pages.filter((page) => page.source !== 'e-invoice')];
}

function estimateCharWidth(page: Page): number {
  const widths: number[] = [];
  for (const line of page.lines) {
    for (const word of line.words) {
      const length = [...word.text].length;
      if (length > 0) widths.push((word.bbox.x1 - word.bbox.x0) / length);
    }
  }
  const typical = median(widths);
  return typical && typical > 0 ? typical : Math.max(1, page.width / 100);
}

/** Appends text and the words it holds, keeping offsets straight. */
class LayoutWriter {
  text = '';
  readonly words: PlacedWord[] = [];

  append(text: string): void {
    this.text += text;
  }

  /** A piece with its own words, their offsets counted from the piece's start. */
  appendPlaced(piece: LayoutText): void {
    const base = this.text.length;
    for (const placed of piece.words) this.words.push({ start: placed.start + base, end: placed.end + base, ref: placed.ref });
    this.text += piece.text;
  }

  truncate(length: number): void {
    this.text = this.text.slice(0, length);
    while (this.words.length > 0 && this.words[this.words.length - 1]!.end > length) this.words.pop();
  }

  done(): LayoutText {
    return { text: this.text, words: this.words };
  }
}

/** One line of text, words padded to their columns; offsets from the line's start. */
function renderLine(line: Line, at: Omit<WordRef, 'word'>, originX: number, charWidth: number): LayoutText {
  let text = '';
  const words: PlacedWord[] = [];
  let previousEnd: number | undefined;
  line.words.forEach((word, index) => {
    const column = Math.min(MAX_COLUMNS, Math.max(0, Math.round((word.bbox.x0 - originX) / charWidth)));
    if (previousEnd === undefined) {
      text = ' '.repeat(column);
    } else {
      const gapChars = (word.bbox.x0 - previousEnd) / charWidth;
      const padding = gapChars > COLUMN_GAP_CHARS ? Math.max(2, column - text.length) : 1;
      text += ' '.repeat(padding);
    }
    words.push({ start: text.length, end: text.length + word.text.length, ref: { file: at.file, page: at.page, line: at.line, word: index } });
    text += word.text;
    previousEnd = word.bbox.x1;
  });
  return trimEnd({ text, words });
}

function writePage(out: LayoutWriter, page: Page, fileIndex: number): void {
  if (page.lines.length === 0) return;
  const charWidth = estimateCharWidth(page);
  const originX = minOf(page.lines, (line) => line.bbox.x0);
  let previous: Line | undefined;
  page.lines.forEach((line, index) => {
    if (previous) {
      out.append('\n');
      const lineHeight = Math.max(1, previous.bbox.y1 - previous.bbox.y0);
      if (line.bbox.y0 - previous.bbox.y1 > BLANK_LINE_GAP * lineHeight) out.append('\n');
    }
    out.appendPlaced(renderLine(line, { file: fileIndex, page: page.index, line: index }, originX, charWidth));
    previous = line;
  });
}

/** One page's text, without its marker; `fileIndex` names the file in the word references. */
export function renderPageText(page: Page, fileIndex: number): LayoutText {
  const out = new LayoutWriter();
  writePage(out, page, fileIndex);
  return out.done();
}

/** Every page after its marker ("--- file 1 (a.pdf), page 1 ---"), pages apart by a blank line. */
export function renderLayoutText(document: Document): LayoutText {
  const out = new LayoutWriter();
  for (const file of document.files) {
    for (const page of readingOrder(file.pages)) {
      if (out.text !== '') out.append('\n');
      out.append(pageMarker(file.index, file.filename, page));
      // An empty page is just its marker: a placeholder sentence would be read as document text.
      const beforeText = out.text.length;
      out.append('\n');
      writePage(out, page, file.index);
      if (out.text.length === beforeText + 1) out.truncate(beforeText);
      out.append('\n');
    }
  }
  const rendered = trimEnd(out.done());
  return { text: `${rendered.text}\n`, words: rendered.words };
}

/** The text without trailing white space; words are never white space, so none is cut. */
export function trimEnd(layout: LayoutText): LayoutText {
  const text = layout.text.trimEnd();
  return text.length === layout.text.length ? layout : { text, words: layout.words.filter((w) => w.start < text.length) };
}

/** Characters [start, end) of a layout text, with the words (or parts of words) inside them. */
export function sliceLayout(layout: LayoutText, start: number, end: number): LayoutText {
  const words: PlacedWord[] = [];
  for (let i = firstWordEndingAfter(layout, start); i < layout.words.length && layout.words[i]!.start < end; i++) {
    const placed = layout.words[i]!;
    words.push({ start: Math.max(placed.start, start) - start, end: Math.min(placed.end, end) - start, ref: placed.ref });
  }
  return { text: layout.text.slice(start, end), words };
}

/** Index of the first word that ends after `offset` (words are in text order and do not overlap). */
function firstWordEndingAfter(layout: LayoutText, offset: number): number {
  let low = 0;
  let high = layout.words.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (layout.words[middle]!.end <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Layout texts one after the other, `separator` between them. */
export function joinLayouts(parts: readonly LayoutText[], separator: string): LayoutText {
  const out = new LayoutWriter();
  parts.forEach((part, index) => {
    if (index > 0) out.append(separator);
    out.appendPlaced(part);
  });
  return out.done();
}

/** The words that characters [start, end) of a layout text overlap, in text order. */
export function wordsInSpan(layout: LayoutText, start: number, end: number): WordRef[] {
  const refs: WordRef[] = [];
  for (let i = firstWordEndingAfter(layout, start); i < layout.words.length && layout.words[i]!.start < end; i++) {
    const placed = layout.words[i]!;
    // a word cut at a window edge is placed twice; it is one word
    const previous = refs[refs.length - 1];
    if (!previous || !sameWord(previous, placed.ref)) refs.push(placed.ref);
  }
  return refs;
}
