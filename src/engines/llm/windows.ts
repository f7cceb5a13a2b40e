/**
 * Splits a document whose layout text does not fit the model's context into
 * windows of whole pages, in page order. A page that alone is too long is cut
 * between lines. Each window carries its own Document (for engines that read
 * words) and its own layout text with its map back to the words (for the
 * model and for finding its values again). Sizes are counted with the
 * model's tokenizer when the backend has one, else estimated (high).
 */
import type { Document, DocumentFile, Page } from '../../document/document.js';
import { joinLayouts, pageMarker, readingOrder, renderPageText, sliceLayout, trimEnd, type LayoutText } from '../../ingest/layout.js';
import { estimateTokens } from './prompt.js';

/** Tokens of a piece of text, as the model will count them (or an estimate that errs high). */
export type CountTokens = (text: string) => number;

export interface DocumentWindow {
  document: Document;
  layout: LayoutText;
  /** "pages 3-5 of 60", for the prompt and the logs. */
  label: string;
}

interface PagePiece {
  file: DocumentFile;
  page: Page;
  /** Global page number, 1-based. */
  number: number;
  layout: LayoutText;
}

export function splitIntoWindows(document: Document, layout: LayoutText, maxTokens: number, count: CountTokens = estimateTokens): DocumentWindow[] {
  if (count(layout.text) <= maxTokens) return [{ document, layout, label: 'the whole document' }];
  const pieces = pagePieces(document, maxTokens, count);
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
    const pieceTokens = count(piece.layout.text) + 1;
    if (current.length > 0 && tokens + pieceTokens > maxTokens) flush();
    current.push(piece);
    tokens += pieceTokens;
  }
  flush();
  return windows;
}

function pagePieces(document: Document, maxTokens: number, count: CountTokens): PagePiece[] {
  const pieces: PagePiece[] = [];
  let number = 0;
  for (const file of document.files) {
    for (const page of readingOrder(file.pages)) {
      number++;
      const marker = pageMarker(file.index, file.filename, page);
      const body = renderPageText(page, file.index);
      for (const part of cutToFit(body, maxTokens - count(marker) - 1, count)) {
        const text = trimEnd(joinLayouts([{ text: marker, words: [] }, part], '\n'));
        pieces.push({ file, page, number, layout: joinLayouts([text, { text: '', words: [] }], '\n') });
      }
    }
  }
  return pieces;
}

/**
 * Cuts a page's text between lines into parts that fit; a single over-long
 * line is cut by characters. The characters per part come from the page's
 * own ratio of characters to tokens; a part that still counts too many
 * tokens (its text is denser than the page's average) is cut again.
 */
function cutToFit(page: LayoutText, maxTokens: number, count: CountTokens, depth = 0): LayoutText[] {
  const tokens = count(page.text);
  if (tokens <= maxTokens) return [page];
  const charsPerToken = page.text.length / Math.max(1, tokens);
  // past a few rounds the text is as dense as one token per character: size for that
  const maxChars = Math.max(1, Math.floor(maxTokens * (depth < 3 ? charsPerToken * 0.9 : 1)));
  return cutByCharacters(page, maxChars).flatMap((part) => (count(part.text) <= maxTokens || part.text.length <= 1 ? [part] : cutToFit(part, maxTokens, count, depth + 1)));
}

/** Parts of at most `maxChars` characters, cut between lines where a line fits, inside a line where it does not. */
function cutByCharacters(page: LayoutText, maxChars: number): LayoutText[] {
  const parts: LayoutText[] = [];
  let current: LayoutText[] = [];
  let currentLength = 0;
  const flush = (): void => {
    parts.push(joinLayouts(current, '\n'));
    current = [];
    currentLength = 0;
  };
  let lineStart = 0;
  for (const line of page.text.split('\n')) {
    for (let start = 0; start < Math.max(1, line.length); start += maxChars) {
      const segment = sliceLayout(page, lineStart + start, lineStart + Math.min(line.length, start + maxChars));
      if (currentLength > 0 && currentLength + segment.text.length + 1 > maxChars) flush();
      // as with strings: an empty part so far is replaced, not joined to
      if (currentLength > 0) {
        current.push(segment);
        currentLength += 1 + segment.text.length;
      } else {
        current = [segment];
        currentLength = segment.text.length;
      }
    }
    lineStart += line.length + 1;
  }
  if (currentLength > 0) flush();
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
  return { document: { files }, layout: joinLayouts(pieces.map((p) => p.layout), '\n'), label };
}
