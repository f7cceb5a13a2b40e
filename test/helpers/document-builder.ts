/**
 * Builds a Document from text lines for engine tests, the way a text-layer
 * PDF would come out of ingest: one word per space-separated token, with
 * boxes from character positions, so runs of spaces become column gaps.
 */
import type { Document, Line, Page, Word } from '../../src/document/document.js';

export interface LineSpec {
  /** Words separated by spaces; two or more spaces keep a column gap. */
  text?: string;
  /** Cells placed at explicit x positions (in points), instead of `text`. */
  cells?: Array<{ text: string; x: number; confidence?: number }>;
  /** Left edge of `text` in points. */
  x?: number;
  /** Font size in points; the line's height follows it. */
  size?: number;
  /** OCR confidence of every word of the line (default 1, as for a text layer). */
  confidence?: number;
}

export interface BuildOptions {
  filename?: string;
  pageWidth?: number;
  pageHeight?: number;
}

const DEFAULT_SIZE = 10;
const CHAR_WIDTH_PER_POINT = 0.6;
const LEFT_MARGIN = 40;
const TOP_MARGIN = 40;

/** One file; each inner array is a page. Plain strings are lines at the left margin. */
export function buildDocument(pages: Array<Array<string | LineSpec>> | Array<string | LineSpec>, options: BuildOptions = {}): Document {
  const pageSpecs = (pages.length > 0 && Array.isArray(pages[0]) ? pages : [pages]) as Array<Array<string | LineSpec>>;
  return {
    files: [{
      index: 0,
      filename: options.filename ?? 'test.pdf',
      mimeType: 'application/pdf',
      pages: pageSpecs.map((lines, index) => buildPage(lines, index, options)),
    }],
  };
}

function buildPage(specs: Array<string | LineSpec>, index: number, options: BuildOptions): Page {
  const lines: Line[] = [];
  let y = TOP_MARGIN;
  for (const raw of specs) {
    const spec: LineSpec = typeof raw === 'string' ? { text: raw } : raw;
    const size = spec.size ?? DEFAULT_SIZE;
    const height = size * 1.2;
    const words = spec.cells
      ? spec.cells.flatMap((cell) => wordsOf(cell.text, cell.x, y, size, cell.confidence ?? spec.confidence))
      : wordsOf(spec.text ?? '', spec.x ?? LEFT_MARGIN, y, size, spec.confidence);
    if (words.length > 0) {
      lines.push({
        text: words.map((w) => w.text).join(' '),
        bbox: { x0: words[0]!.bbox.x0, y0: y, x1: words[words.length - 1]!.bbox.x1, y1: y + height },
        words,
      });
    }
    y += height * 1.25;
  }
  return { index, width: options.pageWidth ?? 595, height: options.pageHeight ?? Math.max(842, y + TOP_MARGIN), units: 'pdf-points', source: 'text-layer', lines };
}

function wordsOf(text: string, x: number, y: number, size: number, confidence = 1): Word[] {
  const charWidth = size * CHAR_WIDTH_PER_POINT;
  return [...text.matchAll(/\S+/g)].map((match) => {
    const x0 = x + (match.index ?? 0) * charWidth;
    return {
      text: match[0],
      bbox: { x0, y0: y, x1: x0 + match[0].length * charWidth, y1: y + size * 1.2 },
      confidence,
      source: 'text-layer' as const,
    };
  });
}

/** Layout text as the ingest renders it, for engines that read text only. */
export function layoutOf(lines: string[], filename = 'test.pdf'): string {
  return [`--- file 1 (${filename}), page 1 ---`, ...lines, ''].join('\n');
}
