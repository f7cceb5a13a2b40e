/**
 * pdf.js text layer -> words with boxes, in top-left-origin page points; runs
 * inside the PDF worker thread. Text items may hold several words or parts of
 * one, so they are split at spaces and joined across tiny gaps. Filled-in
 * form fields are read from annotations, since getTextContent leaves them out.
 */
import { Util, type PageViewport, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem, TextStyle } from 'pdfjs-dist/types/src/display/api.js';
import type { BBox, Word } from '../document/document.js';
import { sameSharePerCharacter, type RunOffsets } from './glyph-widths.js';

/** A page needs OCR when its text layer holds fewer letters/digits than this. */
const MIN_ALPHANUMERIC_CHARS = 3;
/** ...or when more than this share of its characters are unmappable glyphs. */
const MAX_UNREADABLE_SHARE = 0.3;
/** Fonts without metrics: typical Latin ascent/descent as a fraction of the font size. */
const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;
/** Two text items are one word when the gap between them is under this fraction of the font size. */
const JOIN_GAP_RATIO = 0.15;

type Point = [number, number];

interface WordInProgress {
  word: Word;
  /** Where the word's item ended, when the word ran to that end: the next item may continue it. */
  openEnd: Point | undefined;
  fontSize: number;
}

export function isTextItem(item: object): item is TextItem {
  return 'str' in item;
}

function unitVector(x: number, y: number): Point {
  const length = Math.hypot(x, y);
  return length === 0 ? [1, 0] : [x / length, y / length];
}

function boxAround(points: Point[]): BBox {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

function union(a: BBox, b: BBox): BBox {
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function roundBox(box: BBox): BBox {
  return { x0: round2(box.x0), y0: round2(box.y0), x1: round2(box.x1), y1: round2(box.y1) };
}

/**
 * Splits each text item into words. Items carry one position and width for a
 * whole run of text, so each word gets the share of the width its glyphs
 * take (`runOffsets`, see glyph-widths.ts; by character count when no font
 * can be measured). Coordinates go through the viewport (scale 1), giving
 * top-left-origin points on the page as displayed (rotation applied).
 */
export function wordsFromItems(items: TextItem[], styles: Record<string, TextStyle>, viewport: PageViewport, runOffsets: RunOffsets = sameSharePerCharacter): Word[] {
  const done: WordInProgress[] = [];
  let previous: WordInProgress | undefined;

  for (const item of items) {
    if (item.str.trim() === '') {
      if (previous) previous.openEnd = undefined;
      continue;
    }
    const m = Util.transform(viewport.transform, item.transform) as number[];
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
    const fontSize = Math.hypot(c, d);
    const along = unitVector(a, b);
    const up = unitVector(c, d);
    const style = styles[item.fontName];
    const ascent = style?.ascent || DEFAULT_ASCENT;
    const descent = style?.descent || DEFAULT_DESCENT;
    const advance = style?.vertical ? item.height : item.width;
    const offsets = runOffsets(item.str, style?.fontFamily, fontSize > 0 ? advance / fontSize : 0);
    const pointAt = (offset: number, rise: number): Point => [
      e + along[0] * offset + up[0] * rise * fontSize,
      f + along[1] * offset + up[1] * rise * fontSize,
    ];

    for (const match of item.str.matchAll(/\S+/g)) {
      const start = offsets[match.index]! * advance;
      const end = offsets[match.index + match[0].length]! * advance;
      const bbox = boxAround([pointAt(start, ascent), pointAt(end, ascent), pointAt(start, descent), pointAt(end, descent)]);
      const runsToItemEnd = match.index + match[0].length === item.str.length && !item.hasEOL;
      const openEnd = runsToItemEnd ? pointAt(end, 0) : undefined;
      const startPoint = pointAt(start, 0);

      if (match.index === 0 && previous?.openEnd && continuesWord(previous, startPoint, fontSize)) {
        previous.word.text += match[0];
        previous.word.bbox = union(previous.word.bbox, bbox);
        previous.openEnd = openEnd;
        continue;
      }
      previous = { word: { text: match[0], bbox, confidence: 1, source: 'text-layer' }, openEnd, fontSize };
      done.push(previous);
    }
    if (item.hasEOL && previous) previous.openEnd = undefined;
  }
  return done.map(({ word }) => ({ ...word, bbox: roundBox(word.bbox) }));
}

/** A font change mid-word splits it into two items; glue them back when they touch. */
function continuesWord(previous: WordInProgress, start: Point, fontSize: number): boolean {
  const end = previous.openEnd;
  if (!end) return false;
  const tolerance = JOIN_GAP_RATIO * Math.max(fontSize, previous.fontSize);
  return Math.abs(start[0] - end[0]) <= tolerance && Math.abs(start[1] - end[1]) <= tolerance;
}

// ---------------------------------------------------------------------------
// Form fields -> words

/** The part of pdf.js's annotation data that describes a filled-in form field. */
interface FieldAnnotation {
  subtype?: string;
  fieldType?: string;
  fieldValue?: unknown;
  rect?: number[];
  hidden?: boolean;
  noView?: boolean;
  multiLine?: boolean;
  defaultAppearanceData?: { fontSize?: number };
}

/** Fields with "auto" font size: what viewers typically pick, capped for tall boxes. */
const AUTO_FIELD_FONT_RATIO = 0.7;
const MAX_AUTO_FIELD_FONT = 12;
/** Typical Helvetica-like advance per character, as a fraction of the font size. */
const FIELD_CHAR_WIDTH_RATIO = 0.5;
const FIELD_PADDING = 2;

function fieldText(annotation: FieldAnnotation): string | undefined {
  if (annotation.subtype !== 'Widget' || annotation.hidden || annotation.noView) return undefined;
  if (annotation.fieldType !== 'Tx' && annotation.fieldType !== 'Ch') return undefined;
  const value = Array.isArray(annotation.fieldValue) ? annotation.fieldValue.join(' ') : annotation.fieldValue;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * Values typed into form fields live in annotations, not in the page's text
 * layer, yet they are usually the data a caller wants. Their glyph positions
 * are not known (the viewer lays them out), so words are placed from the
 * field's box, left-aligned, with an estimated character width.
 */
function wordsFromFields(annotations: FieldAnnotation[], viewport: PageViewport): Word[] {
  const words: Word[] = [];
  for (const annotation of annotations) {
    const text = fieldText(annotation);
    if (text === undefined || annotation.rect?.length !== 4) continue;
    const [ax, ay, bx, by] = viewport.convertToViewportRectangle(annotation.rect);
    const box = { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
    const boxHeight = box.y1 - box.y0;
    const fontSize = annotation.defaultAppearanceData?.fontSize || Math.min(boxHeight * AUTO_FIELD_FONT_RATIO, MAX_AUTO_FIELD_FONT);
    const lines = annotation.multiLine ? text.split(/\r\n|\r|\n/) : [text.replace(/\s+/g, ' ')];
    const firstTop = annotation.multiLine ? box.y0 + FIELD_PADDING : box.y0 + (boxHeight - fontSize) / 2;
    lines.forEach((line, lineIndex) => {
      const top = firstTop + lineIndex * fontSize * 1.2;
      for (const match of line.matchAll(/\S+/g)) {
        const x0 = box.x0 + FIELD_PADDING + match.index * fontSize * FIELD_CHAR_WIDTH_RATIO;
        const x1 = x0 + match[0].length * fontSize * FIELD_CHAR_WIDTH_RATIO;
        const bbox = roundBox({ x0, y0: top, x1: Math.min(x1, box.x1), y1: top + fontSize });
        words.push({ text: match[0], bbox, confidence: 1, source: 'text-layer' });
      }
    });
  }
  return words;
}

export async function readFieldWords(page: PDFPageProxy, viewport: PageViewport): Promise<Word[]> {
  try {
    return wordsFromFields((await page.getAnnotations({ intent: 'display' })) as FieldAnnotation[], viewport);
  } catch {
    // A broken annotation must not cost the page its text layer; field values are a bonus.
    return [];
  }
}

export function needsOcr(words: Word[]): boolean {
  let alphanumeric = 0;
  let unreadable = 0;
  let total = 0;
  for (const word of words) {
    for (const char of word.text) {
      total++;
      if (/[\p{L}\p{N}]/u.test(char)) alphanumeric++;
      else if (/[\uFFFD\p{Co}\p{Cc}]/u.test(char)) unreadable++;
    }
  }
  return alphanumeric < MIN_ALPHANUMERIC_CHARS || unreadable > MAX_UNREADABLE_SHARE * total;
}
