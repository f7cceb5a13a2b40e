/**
 * Piscina worker: every pdf.js call happens here, because pdf.js parses and
 * renders on the calling thread in Node and would block the event loop.
 * Failures are returned as data (PdfFailure), not thrown: AppError's class
 * identity does not survive the thread boundary, so pdf.ts maps them.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageViewport, PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem, TextStyle } from 'pdfjs-dist/types/src/display/api.js';
import type { BBox, Word } from './document.js';
import type { GreyRaster } from './raster.js';
import type { PdfTextPage } from './pdf.js';

export type PdfTask =
  | { kind: 'inspect'; bytes: Uint8Array; maxPages: number }
  | { kind: 'render'; bytes: Uint8Array; pageIndex: number; dpi: number; maxPixels: number };

export type PdfFailure =
  | { kind: 'encrypted' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'too_many_pages'; pageCount: number; maxPages: number }
  | { kind: 'no_such_page'; pageIndex: number; pageCount: number };

export type PdfOutcome<T> = { ok: true; value: T } | { ok: false; failure: PdfFailure };

/**
 * A page's words as one space-separated string plus a flat [x0, y0, x1, y1, ...]
 * array: tens of thousands of small objects take the main thread ~70 ms to
 * deserialise, this takes a few.
 */
export interface PackedTextPage extends Omit<PdfTextPage, 'words'> {
  texts: string;
  boxes: Float64Array;
}

export interface PackedInspection {
  pageCount: number;
  pages: PackedTextPage[];
}

const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

// Registering the worker module up front makes pdf.js use it in-thread (its
// "fake worker") at once instead of importing it lazily on the first document.
const workerModulePath = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(workerModulePath);

/** Larger embedded images are skipped rather than decoded: a guard against decompression bombs (a 600 dpi A3 scan is ~70 Mpx). */
const MAX_EMBEDDED_IMAGE_PIXELS = 100_000_000;

const DOCUMENT_OPTIONS = {
  standardFontDataUrl: `${pdfjsDir}/standard_fonts/`,
  cMapUrl: `${pdfjsDir}/cmaps/`,
  cMapPacked: true,
  wasmUrl: `${pdfjsDir}/wasm/`,
  isEvalSupported: false,
  useSystemFonts: false,
  // Node has no FontFace API; glyphs are drawn as paths instead.
  disableFontFace: true,
  maxImageSize: MAX_EMBEDDED_IMAGE_PIXELS,
  verbosity: 0,
};

/** A page needs OCR when its text layer holds fewer letters/digits than this. */
const MIN_ALPHANUMERIC_CHARS = 3;
/** ...or when more than this share of its characters are unmappable glyphs. */
const MAX_UNREADABLE_SHARE = 0.3;
/** Fonts without metrics: typical Latin ascent/descent as a fraction of the font size. */
const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;
/** Two text items are one word when the gap between them is under this fraction of the font size. */
const JOIN_GAP_RATIO = 0.15;

async function withDocument<T>(bytes: Uint8Array, use: (doc: PDFDocumentProxy) => Promise<T>): Promise<T> {
  const loadingTask = pdfjs.getDocument({ ...DOCUMENT_OPTIONS, data: bytes });
  try {
    return await use(await loadingTask.promise);
  } finally {
    // Destroying the loading task also destroys the document, and works when loading failed.
    await loadingTask.destroy();
  }
}

async function withPage<T>(doc: PDFDocumentProxy, pageIndex: number, use: (page: PDFPageProxy) => Promise<T>): Promise<T> {
  const page = await doc.getPage(pageIndex + 1);
  try {
    return await use(page);
  } finally {
    page.cleanup();
  }
}

// ---------------------------------------------------------------------------
// Text layer -> words

type Point = [number, number];

interface WordInProgress {
  word: Word;
  /** Where the word's item ended, when the word ran to that end: the next item may continue it. */
  openEnd: Point | undefined;
  fontSize: number;
}

function isTextItem(item: object): item is TextItem {
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

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function roundBox(box: BBox): BBox {
  return { x0: round2(box.x0), y0: round2(box.y0), x1: round2(box.x1), y1: round2(box.y1) };
}

/**
 * Splits each text item into words. Items carry one position and width for a
 * whole run of text, so each word gets a share of the width proportional to
 * its character count. Coordinates go through the viewport (scale 1), giving
 * top-left-origin points on the page as displayed (rotation applied).
 */
function wordsFromItems(items: TextItem[], styles: Record<string, TextStyle>, viewport: PageViewport): Word[] {
  const done: WordInProgress[] = [];
  let previous: WordInProgress | undefined;

  for (const item of items) {
    if (item.str.trim() === '') {
      if (previous) previous.openEnd = undefined;
      continue;
    }
    const m = pdfjs.Util.transform(viewport.transform, item.transform) as number[];
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
    const fontSize = Math.hypot(c, d);
    const along = unitVector(a, b);
    const up = unitVector(c, d);
    const style = styles[item.fontName];
    const ascent = style?.ascent || DEFAULT_ASCENT;
    const descent = style?.descent || DEFAULT_DESCENT;
    const advance = style?.vertical ? item.height : item.width;
    const charAdvance = advance / item.str.length;
    const pointAt = (offset: number, rise: number): Point => [
      e + along[0] * offset + up[0] * rise * fontSize,
      f + along[1] * offset + up[1] * rise * fontSize,
    ];

    for (const match of item.str.matchAll(/\S+/g)) {
      const start = match.index * charAdvance;
      const end = (match.index + match[0].length) * charAdvance;
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

async function readFieldWords(page: PDFPageProxy, viewport: PageViewport): Promise<Word[]> {
  try {
    return wordsFromFields((await page.getAnnotations({ intent: 'display' })) as FieldAnnotation[], viewport);
  } catch {
    // A broken annotation must not cost the page its text layer; field values are a bonus.
    return [];
  }
}

function needsOcr(words: Word[]): boolean {
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

async function readTextPage(doc: PDFDocumentProxy, pageIndex: number): Promise<PdfTextPage> {
  return withPage(doc, pageIndex, async (page) => {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items = content.items.filter((item): item is TextItem => isTextItem(item));
    const words = [...wordsFromItems(items, content.styles, viewport), ...(await readFieldWords(page, viewport))];
    return { index: pageIndex, width: round2(viewport.width), height: round2(viewport.height), words, needsOcr: needsOcr(words) };
  });
}

function packPage({ words, ...page }: PdfTextPage): PackedTextPage {
  const boxes = new Float64Array(words.length * 4);
  words.forEach(({ bbox }, i) => boxes.set([bbox.x0, bbox.y0, bbox.x1, bbox.y1], i * 4));
  return { ...page, texts: words.map((word) => word.text).join(' '), boxes };
}

async function inspect(doc: PDFDocumentProxy, maxPages: number): Promise<PdfOutcome<PackedInspection>> {
  const pageCount = doc.numPages;
  if (pageCount === 0) return { ok: false, failure: { kind: 'unreadable', reason: 'it has no pages' } };
  if (pageCount > maxPages) return { ok: false, failure: { kind: 'too_many_pages', pageCount, maxPages } };
  const pages: PackedTextPage[] = [];
  for (let index = 0; index < pageCount; index++) pages.push(packPage(await readTextPage(doc, index)));
  return { ok: true, value: { pageCount, pages } };
}

// ---------------------------------------------------------------------------
// Rendering

/** The canvas pair from pdf.js's NodeCanvasFactory. @napi-rs/canvas's data() is the raw RGBA surface, without getImageData's ~140 ms copy. */
interface CanvasAndContext {
  canvas: { data(): Uint8Array };
}

interface CanvasFactory {
  create(width: number, height: number): CanvasAndContext;
  destroy(canvasAndContext: CanvasAndContext): void;
}

function pixelSize(points: number, dpi: number): number {
  return Math.max(1, Math.round((points * dpi) / 72));
}

/** The highest whole DPI, at most `dpi`, at which the page fits in `maxPixels`. */
function fitDpi(widthPt: number, heightPt: number, dpi: number, maxPixels: number): number {
  const pixelsAt = (candidate: number) => pixelSize(widthPt, candidate) * pixelSize(heightPt, candidate);
  let fitted = dpi;
  if (pixelsAt(fitted) > maxPixels) fitted = Math.floor(72 * Math.sqrt(maxPixels / (widthPt * heightPt)));
  while (fitted > 1 && pixelsAt(fitted) > maxPixels) fitted--;
  return Math.max(1, fitted);
}

/** Rec. 601 luma with integer weights; the canvas is opaque (white background), so alpha is ignored. */
function rgbaToGrey(rgba: Uint8Array, pixelCount: number): Uint8Array {
  const grey = new Uint8Array(pixelCount);
  for (let i = 0, p = 0; i < pixelCount; i++, p += 4) {
    grey[i] = (rgba[p]! * 77 + rgba[p + 1]! * 150 + rgba[p + 2]! * 29) >> 8;
  }
  return grey;
}

async function render(doc: PDFDocumentProxy, pageIndex: number, dpi: number, maxPixels: number): Promise<PdfOutcome<GreyRaster>> {
  if (!Number.isInteger(pageIndex) || pageIndex < 0 || pageIndex >= doc.numPages) {
    return { ok: false, failure: { kind: 'no_such_page', pageIndex, pageCount: doc.numPages } };
  }
  return withPage(doc, pageIndex, async (page) => {
    const natural = page.getViewport({ scale: 1 });
    if (natural.width < 1 || natural.height < 1) return { ok: false, failure: { kind: 'unreadable', reason: `page ${pageIndex + 1} has no size` } };
    const usedDpi = fitDpi(natural.width, natural.height, dpi, maxPixels);
    const viewport = page.getViewport({ scale: usedDpi / 72 });
    const width = pixelSize(natural.width, usedDpi);
    const height = pixelSize(natural.height, usedDpi);
    const factory = doc.canvasFactory as CanvasFactory;
    const target = factory.create(width, height);
    try {
      await page.render({ canvas: target.canvas as unknown as HTMLCanvasElement, viewport, background: 'white' }).promise;
      const data = rgbaToGrey(target.canvas.data(), width * height);
      return { ok: true, value: { width, height, data, dpi: usedDpi } };
    } finally {
      factory.destroy(target);
    }
  });
}

// ---------------------------------------------------------------------------
// Task entry

function shortReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = (message.split('\n')[0] ?? '').trim().replace(/\.$/, '');
  const reason = firstLine || (error instanceof Error ? error.name : 'unknown error');
  return reason.length > 120 ? `${reason.slice(0, 117)}...` : reason;
}

function failureFrom(error: unknown): PdfFailure {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'PasswordException') return { kind: 'encrypted' };
  // pdf.js says only "Invalid PDF structure" when it finds no usable document catalog, typically a cut-off upload.
  if (name === 'InvalidPDFException') return { kind: 'unreadable', reason: 'invalid PDF structure; the file may be truncated or damaged' };
  return { kind: 'unreadable', reason: shortReason(error) };
}

/** Hands typed-array results to the main thread without copying them. */
class Transferred<T extends object> {
  constructor(
    private readonly value: T,
    private readonly buffers: ArrayBufferLike[],
  ) {}
  get [transferableSymbol](): ArrayBufferLike[] {
    return this.buffers;
  }
  get [valueSymbol](): T {
    return this.value;
  }
}

function transferred<T extends object>(value: T, buffers: ArrayBufferLike[]): T {
  // Piscina unwraps the marker on its side of the thread boundary; the main thread receives `value`.
  return move(new Transferred(value, buffers)) as unknown as T;
}

async function runTask(task: PdfTask): Promise<PdfOutcome<PackedInspection> | PdfOutcome<GreyRaster>> {
  if (task.kind === 'inspect') {
    const outcome = await withDocument(task.bytes, (doc) => inspect(doc, task.maxPages));
    return transferred(outcome, outcome.ok ? outcome.value.pages.map((page) => page.boxes.buffer) : []);
  }
  const outcome = await withDocument(task.bytes, (doc) => render(doc, task.pageIndex, task.dpi, task.maxPixels));
  return transferred(outcome, outcome.ok ? [outcome.value.data.buffer] : []);
}

export default async function runPdfTask(task: PdfTask): Promise<PdfOutcome<PackedInspection> | PdfOutcome<GreyRaster>> {
  try {
    return await runTask(task);
  } catch (error) {
    return { ok: false, failure: failureFrom(error) };
  }
}
