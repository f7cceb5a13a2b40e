import { median } from '../util/median.js';
import type { Document, Line, Page } from './document.js';

/**
 * Renders the Document as plain text for the engines, the way `pdftotext
 * -layout` does: one text line per Line, words separated by one space when
 * they are close, and padded to their column when the gap is wide, so table
 * columns stay apart (2+ spaces) and line up across rows.
 */
const MAX_COLUMNS = 240;
/** A gap wider than this many character widths is a column break, not a word space. */
const COLUMN_GAP_CHARS = 1.8;
/** A vertical gap above this many line heights becomes a blank line (paragraph/section). */
const BLANK_LINE_GAP = 1.2;

export function pageMarker(fileIndex: number, filename: string, pageIndex: number): string {
  return `--- file ${fileIndex + 1} (${filename}), page ${pageIndex + 1} ---`;
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

export function renderLine(line: Line, originX: number, charWidth: number): string {
  let text = '';
  let previousEnd: number | undefined;
  for (const word of line.words) {
    const column = Math.min(MAX_COLUMNS, Math.max(0, Math.round((word.bbox.x0 - originX) / charWidth)));
    if (previousEnd === undefined) {
      text = ' '.repeat(column);
    } else {
      const gapChars = (word.bbox.x0 - previousEnd) / charWidth;
      const padding = gapChars > COLUMN_GAP_CHARS ? Math.max(2, column - text.length) : 1;
      text += ' '.repeat(padding);
    }
    text += word.text;
    previousEnd = word.bbox.x1;
  }
  return text.trimEnd();
}

export function renderPageText(page: Page): string {
  if (page.lines.length === 0) return '';
  const charWidth = estimateCharWidth(page);
  const originX = Math.min(...page.lines.map((line) => line.bbox.x0));
  const rendered: string[] = [];
  let previous: Line | undefined;
  for (const line of page.lines) {
    if (previous) {
      const lineHeight = Math.max(1, previous.bbox.y1 - previous.bbox.y0);
      if (line.bbox.y0 - previous.bbox.y1 > BLANK_LINE_GAP * lineHeight) rendered.push('');
    }
    rendered.push(renderLine(line, originX, charWidth));
    previous = line;
  }
  return rendered.join('\n');
}

export function renderLayoutText(document: Document): string {
  const parts: string[] = [];
  for (const file of document.files) {
    for (const page of file.pages) {
      parts.push(pageMarker(file.index, file.filename, page.index));
      // An empty page is just its marker: a placeholder sentence would be read as document text.
      const text = renderPageText(page);
      if (text !== '') parts.push(text);
      parts.push('');
    }
  }
  return parts.join('\n').trimEnd() + '\n';
}
