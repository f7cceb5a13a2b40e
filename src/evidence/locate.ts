/**
 * Where on which page a value was read, from the Document words its engine
 * named: one box per line of the value, as fractions of the page the caller
 * sent (so they fit any rendering of it), the text of those words, and how
 * they were read.
 */
import { wordAt, type BBox, type Document, type Page, type Place, type Word, type WordRef, type WordSource } from '../document/document.js';
import { transformBox } from '../document/page-frame.js';
import { maxOf, minOf } from '../util/extremes.js';

/** [x0, y0, x1, y1] as fractions of the page's width and height, origin top-left. */
export type PageBox = [number, number, number, number];

export interface Location {
  /** Position of the file in the request's contents. */
  file: number;
  /** 0-based page (frame) of that file. */
  page: number;
  /** Around all of the value's words on that page. */
  bbox: PageBox;
  /** One box per line, when the value spans lines. */
  boxes?: PageBox[];
  /** The document's words the value was read from, a line break between lines. */
  text: string;
  source: WordSource;
  /** The lowest OCR confidence among the words, when OCR read them. */
  ocrConfidence?: number;
  /**
   * Where in its file, when the page is part of one rather than a printed page (ingest/formats/): the e-mail
   * attachment and its page, the sheet, the slide, and the places of the value's words as a user finds them
   * ("Invoice!B7", "paragraph 4", "table 1, row 3, column 2", "line 12", "/Order/Line[2]/Price", "header subject").
   * The page's boxes are made up for such a page; these are what to follow.
   */
  at?: PartLocation;
}

export interface PartLocation {
  attachment?: string;
  /** 1-based, as a viewer counts pages. */
  attachmentPage?: number;
  sheet?: string;
  slide?: number;
  places?: string[];
}

interface Resolved {
  ref: WordRef;
  word: Word;
  page: Page;
}

/** Fractions are given to 4 decimals: a tenth of a millimetre on an A4 page. */
const FRACTION_DIGITS = 4;

/** The value's place, or undefined when none of its words is in the Document. */
export function locate(refs: readonly WordRef[], document: Document): Location | undefined {
  const resolved: Resolved[] = [];
  for (const ref of refs) {
    const found = wordAt(document, ref);
    if (found) resolved.push({ ref, word: found.word, page: found.page });
  }
  const first = resolved[0];
  if (!first) return undefined;
  // a value is shown on one page: the page of its first word (a value broken across a page end is rare)
  const onPage = resolved.filter((r) => r.ref.file === first.ref.file && r.ref.page === first.ref.page);
  const lineBoxes = [...groupByLine(onPage).values()].map((words) => pageBox(union(words.map((w) => w.word.bbox)), first.page));
  const ocrWords = resolved.filter((r) => r.word.source === 'ocr');
  return {
    file: first.ref.file,
    page: first.ref.page,
    bbox: unionOfPageBoxes(lineBoxes),
    ...(lineBoxes.length > 1 ? { boxes: lineBoxes } : {}),
    text: textOf(resolved),
    source: first.word.source,
    ...(ocrWords.length > 0 ? { ocrConfidence: round(minOf(ocrWords, (r) => r.word.confidence), 3) } : {}),
    ...partLocation(first.page, onPage),
  };
}

/** The page's part of its file and the distinct places of the value's words on it, when the page has them. */
function partLocation(page: Page, words: readonly Resolved[]): { at?: PartLocation } {
  const part = page.part;
  const places: string[] = [];
  if (page.places) {
    for (const { ref } of words) {
      const placed = page.places[ref.line]?.find((run) => ref.word >= run.words[0] && ref.word < run.words[1]);
      const text = placed ? placeText(placed.place, part?.sheet) : undefined;
      if (text !== undefined && !places.includes(text)) places.push(text);
    }
  }
  if (!part && places.length === 0) return {};
  return {
    at: {
      ...(part?.attachment === undefined ? {} : { attachment: part.attachment }),
      ...(part?.attachmentPage === undefined ? {} : { attachmentPage: part.attachmentPage + 1 }),
      ...(part?.sheet === undefined ? {} : { sheet: part.sheet }),
      ...(part?.slide === undefined ? {} : { slide: part.slide }),
      ...(places.length > 0 ? { places } : {}),
    },
  };
}

/** A place as a user writes it: a cell with its sheet as a spreadsheet formula does ("'Q1 2024'!B7"). */
export function placeText(place: Place, sheet?: string): string {
  switch (place.kind) {
    case 'cell':
      return sheet === undefined ? place.ref : `${/^[A-Za-z_][\w.]*$/.test(sheet) ? sheet : `'${sheet.replace(/'/g, "''")}'`}!${place.ref}`;
    case 'paragraph':
      return place.part ? `${place.part}, paragraph ${place.paragraph}` : `paragraph ${place.paragraph}`;
    case 'table-cell':
      return `table ${place.table}, row ${place.row}, column ${place.column}`;
    case 'line':
      return place.column === undefined ? `line ${place.line}` : `line ${place.line}, column ${place.column}`;
    case 'path':
      return place.path;
    case 'header':
      return `header ${place.name}`;
  }
}

function groupByLine(words: readonly Resolved[]): Map<number, Resolved[]> {
  const lines = new Map<number, Resolved[]>();
  for (const word of words) lines.set(word.ref.line, [...(lines.get(word.ref.line) ?? []), word]);
  return lines;
}

/** Words of one line joined by spaces, lines by line breaks, in the order the engine gave them. */
function textOf(words: readonly Resolved[]): string {
  let text = '';
  words.forEach((current, i) => {
    const previous = words[i - 1];
    if (previous) text += sameLine(previous.ref, current.ref) ? ' ' : '\n';
    text += current.word.text;
  });
  return text;
}

function sameLine(a: WordRef, b: WordRef): boolean {
  return a.file === b.file && a.page === b.page && a.line === b.line;
}

function union(boxes: readonly BBox[]): BBox {
  return {
    x0: minOf(boxes, (b) => b.x0),
    y0: minOf(boxes, (b) => b.y0),
    x1: maxOf(boxes, (b) => b.x1),
    y1: maxOf(boxes, (b) => b.y1),
  };
}

/** A box in the page's own units as fractions of the page the caller sent (through Page.shown when OCR turned it). */
export function pageBox(box: BBox, page: Page): PageBox {
  const shown = page.shown;
  const onPage = shown ? transformBox(box, shown.transform) : box;
  const width = shown?.width ?? page.width;
  const height = shown?.height ?? page.height;
  const fraction = (value: number, size: number) => round(Math.min(1, Math.max(0, size > 0 ? value / size : 0)), FRACTION_DIGITS);
  return [fraction(onPage.x0, width), fraction(onPage.y0, height), fraction(onPage.x1, width), fraction(onPage.y1, height)];
}

function unionOfPageBoxes(boxes: readonly PageBox[]): PageBox {
  return [minOf(boxes, (b) => b[0]), minOf(boxes, (b) => b[1]), maxOf(boxes, (b) => b[2]), maxOf(boxes, (b) => b[3])];
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
