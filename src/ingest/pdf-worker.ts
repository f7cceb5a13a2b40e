/**
 * A pdf.js thread (pdf.ts's pool): every pdf.js call happens here, because pdf.js parses and
 * renders on the calling thread in Node and would block the event loop; so
 * does reading e-invoice XML (a PDF's attachment or a file of its own,
 * einvoice/), whose parsing grows with the bytes.
 * Failures are returned as data (PdfFailure), not thrown: AppError's class
 * identity does not survive the thread boundary, so pdf.ts maps them.
 */
// first: it keeps the thread's builtins before pdf.js's core-js replaces them (pdfjs-builtins.ts)
import { restoreNativeBuiltins } from './pdfjs-builtins.js';
import { BroadcastChannel } from 'node:worker_threads';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { measuredRunOffsets, sameSharePerCharacter } from './glyph-widths.js';
import { groupWordsIntoLines } from './line-grouping.js';
import { pdfDocumentOptions } from './pdf-options.js';
import { findOversizedStream } from './pdf-streams.js';
import { isTextItem, needsOcr, readFieldWords, round2, wordsFromItems } from './pdf-text.js';
import type { GreyRaster } from '../document/raster.js';
import type { PackedEInvoice, PackedInspection, PackedTextPage, PdfFailure, PdfOutcome, PdfTask, PdfTextPage, PdfThreadData, PdfThreadWarmUp } from './pdf-protocol.js';
import { packPage as packDocumentPage, type PackedPage } from './document-pack.js';
import { findEInvoice, scanEmbeddedFiles, type ScannedEmbeddedFiles } from './pdf-attachments.js';
import { eInvoicePage } from './einvoice/page.js';
import { readEInvoiceXml } from './einvoice/read.js';
import { XmlProblem } from './einvoice/xml.js';
import { WARM_UP_PDF_STYLES, warmUpInvoicePdf } from './warm-up-pdf.js';
import { poolThreadData, serveTasks, transferred, type Transferred } from '../threads/serve-tasks.js';

// Registering the worker module up front makes pdf.js use it in-thread (its
// "fake worker") at once instead of importing it lazily on the first document.
const workerModulePath = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(workerModulePath);
restoreNativeBuiltins();

// pdf.js can reject a promise of a document already destroyed that nobody awaits (a damaged page parsed
// lazily after the task failed on another one). Node ends a thread on an unhandled rejection, which failed
// whatever task the thread ran next: a 500 for the next caller. Every task's own failures are awaited and
// returned as data (runPdfTask), so a stray rejection belongs to no task and is dropped.
process.on('unhandledRejection', () => undefined);

/** Glyph advances that cut text runs into words (glyph-widths.ts), loaded once per worker. */
const runOffsets = measuredRunOffsets() ?? sameSharePerCharacter;

async function withDocument<T>(bytes: Uint8Array, purpose: 'text' | 'render', use: (doc: PDFDocumentProxy) => Promise<T>): Promise<T> {
  const loadingTask = pdfjs.getDocument({ ...pdfDocumentOptions(purpose), data: bytes });
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

async function readTextPage(doc: PDFDocumentProxy, pageIndex: number): Promise<Omit<PdfTextPage, 'words'>> {
  return withPage(doc, pageIndex, async (page) => {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items = content.items.filter((item): item is TextItem => isTextItem(item));
    const words = [...wordsFromItems(items, content.styles, viewport, runOffsets), ...(await readFieldWords(page, viewport))];
    const ocr = needsOcr(words);
    // grouped here, not on the event loop; a page OCR reads again sends none
    const lines = ocr ? [] : groupWordsIntoLines(words);
    return { index: pageIndex, width: round2(viewport.width), height: round2(viewport.height), lines, needsOcr: ocr };
  });
}

function packPage({ lines, ...page }: Omit<PdfTextPage, 'words'>): PackedTextPage {
  const words = lines.flatMap((line) => line.words);
  const boxes = new Float64Array(words.length * 4);
  words.forEach(({ bbox }, i) => boxes.set([bbox.x0, bbox.y0, bbox.x1, bbox.y1], i * 4));
  return { ...page, texts: words.map((word) => word.text).join(' '), boxes, lineLengths: Uint32Array.from(lines, (line) => line.words.length) };
}

async function inspect(doc: PDFDocumentProxy, maxPages: number, maxWords: number, embedded?: { scanned: ScannedEmbeddedFiles; maxXmlBytes: number }): Promise<PdfOutcome<PackedInspection>> {
  const pageCount = doc.numPages;
  if (pageCount === 0) return { ok: false, failure: { kind: 'unreadable', reason: 'it has no pages' } };
  if (pageCount > maxPages) return { ok: false, failure: { kind: 'too_many_pages', pageCount, maxPages } };
  const pages: PackedTextPage[] = [];
  let words = 0;
  for (let index = 0; index < pageCount; index++) {
    const page = await readTextPage(doc, index);
    for (const line of page.lines) words += line.words.length;
    if (words > maxWords) return { ok: false, failure: { kind: 'too_many_words', pageIndex: index, maxWords } };
    pages.push(packPage(page));
  }
  const found = embedded ? await findEInvoice(embedded.scanned, doc, embedded.maxXmlBytes) : undefined;
  const eInvoice = found ? eInvoicePage(found.invoice, pageCount, found.attachment) : undefined;
  return { ok: true, value: { pageCount, pages, ...(eInvoice ? { eInvoice: packDocumentPage(eInvoice) } : {}) } };
}

/** An XML file: its e-invoice as one page, or why it is none. */
function readXmlFile(bytes: Uint8Array): PdfOutcome<PackedEInvoice> {
  try {
    const reading = readEInvoiceXml(bytes);
    if (reading.kind === 'other') return { ok: false, failure: { kind: 'not_an_e_invoice', root: reading.root } };
    const page = eInvoicePage(reading.invoice, 0);
    if (!page) return { ok: false, failure: { kind: 'xml_unreadable', reason: 'it holds none of the business terms docshape reads (invoice number, dates, parties, totals, lines)' } };
    return { ok: true, value: { page: packDocumentPage(page) } };
  } catch (error) {
    if (error instanceof XmlProblem) return { ok: false, failure: { kind: 'xml_unreadable', reason: error.message } };
    throw error;
  }
}

/** The typed arrays of a packed page, handed over without a copy. */
function buffersOf(page: PackedPage): ArrayBufferLike[] {
  return [page.lengths.buffer, page.boxes.buffer, page.confidences.buffer, page.weakest.buffer, page.sources.buffer];
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

type TaskOutcome = PdfOutcome<PackedInspection> | PdfOutcome<GreyRaster> | PdfOutcome<PackedEInvoice>;

/** A task's outcome and the buffers in it that are handed over rather than copied. */
async function runTask(task: PdfTask): Promise<{ outcome: TaskOutcome; buffers: ArrayBufferLike[] }> {
  if (task.kind === 'e-invoice-xml') {
    const outcome = readXmlFile(task.bytes);
    return { outcome, buffers: outcome.ok ? buffersOf(outcome.value.page) : [] };
  }
  // before pdf.js sees the file: it would decode the whole stream and a few dozen bytes per character of it
  const oversized = await findOversizedStream(task.bytes, task.maxStreamBytes);
  if (oversized) return { outcome: { ok: false, failure: { kind: 'stream_too_large', objectNumber: oversized.objectNumber, limit: oversized.limit } }, buffers: [] };
  if (task.kind === 'inspect') {
    // attachments are scanned before pdf.js takes the bytes over
    const { eInvoice } = task;
    const embedded = eInvoice ? { scanned: await scanEmbeddedFiles(task.bytes, eInvoice.maxXmlBytes), maxXmlBytes: eInvoice.maxXmlBytes } : undefined;
    const outcome = await withDocument(task.bytes, 'text', (doc) => inspect(doc, task.maxPages, task.maxWords, embedded));
    const buffers = outcome.ok ? [...outcome.value.pages.map((page) => page.boxes.buffer), ...(outcome.value.eInvoice ? buffersOf(outcome.value.eInvoice) : [])] : [];
    return { outcome, buffers };
  }
  const outcome = await withDocument(task.bytes, 'render', (doc) => render(doc, task.pageIndex, task.dpi, task.maxPixels));
  return { outcome, buffers: outcome.ok ? [outcome.value.data.buffer] : [] };
}

/** A task's outcome as data, whatever happened: a thrown error becomes its PdfFailure. */
async function settledTask(task: PdfTask): Promise<{ outcome: TaskOutcome; buffers: ArrayBufferLike[] }> {
  try {
    return await runTask(task);
  } catch (error) {
    return { outcome: { ok: false, failure: failureFrom(error) }, buffers: [] };
  }
}

/** A task's outcome, its typed arrays handed to the main thread without a copy. */
async function runPdfTask(task: PdfTask): Promise<Transferred<TaskOutcome>> {
  const { outcome, buffers } = await settledTask(task);
  return transferred(outcome, buffers);
}

/**
 * Before its first task the thread reads the generated invoice a few times,
 * each style in turn, through the same path a caller's PDF takes. V8 runs
 * pdf.js's code cold at first and optimises it over some 30 readings (3-10 ms
 * each until then against 2.5-4 ms after, in one process): without this, the
 * first dozens of PDFs after a start, or after a minute idle, pay for that.
 * Here the thread's first task pays it once, on top of loading pdf.js, and
 * only where PDFs are read: a thread is started by the first PDF task (pdf.ts).
 */
async function warmUp({ warmUpReadings, maxStreamBytes }: PdfThreadData): Promise<PdfThreadWarmUp> {
  const started = performance.now();
  let readings = 0;
  let failure: string | undefined;
  while (readings < warmUpReadings && failure === undefined) {
    const bytes = warmUpInvoicePdf(WARM_UP_PDF_STYLES[readings % WARM_UP_PDF_STYLES.length]);
    const { outcome } = await settledTask({ kind: 'inspect', bytes, maxStreamBytes, maxPages: 1, maxWords: Infinity, eInvoice: { maxXmlBytes: 1024 ** 2 } });
    if (outcome.ok) readings++;
    else failure = outcome.failure.kind === 'unreadable' ? outcome.failure.reason : outcome.failure.kind;
  }
  return { readings, ms: Math.round(performance.now() - started), ...(failure === undefined ? {} : { failure }) };
}

/** The warm-up, reported on the pool's channel, before the thread says it is ready for its first task. */
async function startThread(data: PdfThreadData): Promise<void> {
  const report = await warmUp(data);
  const channel = new BroadcastChannel(data.reportChannel);
  channel.postMessage(report);
  channel.close();
}

const threadData = poolThreadData<PdfThreadData>();
serveTasks<PdfTask>({ start: () => (threadData ? startThread(threadData) : undefined), run: runPdfTask });
