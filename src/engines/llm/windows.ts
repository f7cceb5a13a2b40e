/**
 * Splits a document whose layout text does not fit the model's context into
 * windows of whole pages, in page order. A page that alone is too long is cut
 * between lines. Each window carries its own Document (for engines that read
 * words) and its own text (for the model).
 */
import type { Document, DocumentFile, Page } from '../../ingest/document.js';
import { pageMarker, renderPageText } from '../../ingest/layout.js';
import { estimateTokens } from './prompt.js';

export interface DocumentWindow {
  document: Document;
  text: string;
  /** "pages 3-5 of 60", for the prompt and the logs. */
  label: string;
}

interface PagePiece {
  file: DocumentFile;
  page: Page;
  /** Global page number, 1-based. */
  number: number;
  text: string;
}

export function splitIntoWindows(document: Document, layoutText: string, maxTokens: number): DocumentWindow[] {
  if (estimateTokens(layoutText) <= maxTokens) return [{ document, text: layoutText, label: 'the whole document' }];
  const pieces = pagePieces(document, maxTokens);
  const total = pieces.length === 0 ? 0 : pieces[pieces.length - 1]!.number;
  const windows: DocumentWindow[] = [];
  let current: PagePiece[] = [];
  let tokens = 0;
  const flush = () => {
    if (current.length > 0) windows.push(makeWindow(current, total));
    current = [];
    tokens = 0;
  };
  for (const piece of pieces) {
    const pieceTokens = estimateTokens(piece.text) + 1;
    if (current.length > 0 && tokens + pieceTokens > maxTokens) flush();
    current.push(piece);
    tokens += pieceTokens;
  }
  flush();
  return windows;
}

function pagePieces(document: Document, maxTokens: number): PagePiece[] {
  const pieces: PagePiece[] = [];
  let number = 0;
  for (const file of document.files) {
    for (const page of file.pages) {
      number++;
      const marker = pageMarker(file.index, file.filename, page.index);
      const body = renderPageText(page);
      for (const text of cutToFit(body, maxTokens - estimateTokens(marker) - 1)) {
        pieces.push({ file, page, number, text: `${marker}\n${text}`.trimEnd() + '\n' });
      }
    }
  }
  return pieces;
}

/** Cuts a page's text between lines into parts that fit; a single over-long line is cut by characters. */
function cutToFit(text: string, maxTokens: number): string[] {
  if (estimateTokens(text) <= maxTokens) return [text];
  // sized for the worst case (one token per character) so that every part fits whatever the script
  const maxChars = Math.max(1, estimateTokens(text) > text.length / 3 ? maxTokens : Math.floor(maxTokens * 3.2));
  const parts: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    for (let start = 0; start < Math.max(1, line.length); start += maxChars) {
      const segment = line.slice(start, start + maxChars);
      if (current.length > 0 && current.length + segment.length + 1 > maxChars) {
        parts.push(current);
        current = '';
      }
      current = current.length > 0 ? `${current}\n${segment}` : segment;
    }
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

function makeWindow(pieces: PagePiece[], totalPages: number): DocumentWindow {
  const files: DocumentFile[] = [];
  for (const piece of pieces) {
    let file = files.find((f) => f.index === piece.file.index);
    if (!file) {
      file = { ...piece.file, pages: [] };
      files.push(file);
    }
    if (!file.pages.includes(piece.page)) file.pages.push(piece.page);
  }
  const first = pieces[0]!.number;
  const last = pieces[pieces.length - 1]!.number;
  const label = first === last ? `page ${first} of ${totalPages}` : `pages ${first}-${last} of ${totalPages}`;
  return { document: { files }, text: pieces.map((p) => p.text).join('\n'), label };
}
