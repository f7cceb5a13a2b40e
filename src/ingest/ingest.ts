import { DEFAULT_MAX_EMAIL_DEPTH, DEFAULT_MAX_EMAIL_PARTS, DEFAULT_MAX_INFLATE_MB, DEFAULT_MAX_XML_MB, type EInvoiceSetting, type Limits } from '../config.js';
import { AppError, badRequest, isAppError } from '../errors.js';
import { mapConcurrent } from '../util/map-concurrent.js';
import type { DecodedFile } from './decode.js';
import type { Document, DocumentFile, Line, Page, PagePart, Word } from '../document/document.js';
import type { FormatReader } from './formats-thread.js';
import { detectFormat, formatOfMimeType, type InputFormat } from './formats/registry.js';
import { loadImagePages, tiffPages } from './image.js';
import { groupWordsIntoLines } from './line-grouping.js';
import { repairConfusables } from './ocr/confusables.js';
import type { OcrEngine } from './ocr-choice.js';
import { isIdentity } from '../document/page-frame.js';
import type { PdfProcessor } from './pdf.js';
import type { GreyRaster } from '../document/raster.js';

export interface IngestDeps {
  pdf: PdfProcessor;
  ocr: OcrEngine;
  /** Reads the files without printed pages (Office, CSV, HTML, text, e-mail, other XML, JSON) on its threads; needed only for those. */
  formats?: FormatReader;
  limits: Pick<Limits, 'maxPagesPerRequest' | 'maxWordsPerRequest' | 'maxPixelsPerImage' | 'maxGifFrames'> &
    Partial<Pick<Limits, 'maxXmlBytes' | 'maxInflateBytes' | 'maxEmailParts' | 'maxEmailDepth'>>;
  /** Pages rasterised and OCRed at once per request; bounds memory (one A4 raster is ~9 MB). */
  ocrConcurrency: number;
}

export interface IngestStats {
  textLayerPages: number;
  /** Pages that went through OCR, whether or not it found text. */
  ocrPages: number;
  /** Pages with no text at all (after OCR where it ran). */
  emptyPages: number;
  /** E-invoices read (a PDF's attachment or an XML file), each a page of its own. */
  eInvoicePages: number;
  /** Wall-clock ms spent in pdf.js and image decoding (parse, text layer, render). */
  decodeMs: number;
  /** Wall-clock ms spent waiting for OCR. */
  ocrMs: number;
}

/** What the request asks of ingestion. */
export interface IngestOptions {
  /** 'auto': a PDF's e-invoice attachment becomes a page of its own (ingest/einvoice/); 'ignore': only the visible pages are read. */
  eInvoice: EInvoiceSetting;
  /** Progress for asynchronous jobs (jobs/): pages read so far, out of the request's. */
  onPages?: PagesRead;
}

export interface IngestResult {
  document: Document;
  stats: IngestStats;
}

/** Work that one page still needs: either it already has words, or it must be rasterised and OCRed. */
type PendingPage =
  | { kind: 'ready'; page: Page }
  | { kind: 'raster'; index: number; load: () => Promise<GreyRaster>; part?: PagePart };

function pageFromWords(index: number, width: number, height: number, words: Word[], source: Page['source']): Page {
  const lines = groupWordsIntoLines(words);
  // the words of a raster: OCR read them
  return { index, width, height, units: 'raster-pixels', source: lines.length > 0 ? source : 'empty', lines };
}

class PageBudget {
  private used = 0;
  constructor(private readonly limit: number) {}
  remaining(): number {
    return this.limit - this.used;
  }
  take(count: number, file: DecodedFile): void {
    this.used += count;
    if (this.used > this.limit) {
      throw badRequest(
        `contents[${file.index}] brings the request to ${this.used} pages; the limit is ${this.limit} pages per request (MAX_PAGES)`,
      );
    }
  }
}

function maxXmlBytes(deps: IngestDeps): number {
  return deps.limits.maxXmlBytes ?? DEFAULT_MAX_XML_MB * 1024 ** 2;
}

async function pendingPdfPages(file: DecodedFile, deps: IngestDeps, budget: PageBudget, words: WordBudget, signal: AbortSignal, stats: IngestStats, options: IngestOptions): Promise<PendingPage[]> {
  const started = performance.now();
  const lookup = options.eInvoice === 'auto' ? { maxXmlBytes: maxXmlBytes(deps) } : undefined;
  const inspection = await deps.pdf.inspect(file, Math.max(1, budget.remaining()), signal, words.remaining(), lookup);
  stats.decodeMs += performance.now() - started;
  budget.take(inspection.pageCount, file);
  for (const page of inspection.pages) words.take(page.lines, file);
  // the e-invoice's page is no page of the PDF: it counts against the words, not the pages
  const eInvoice: PendingPage[] = inspection.eInvoice ? [{ kind: 'ready', page: inspection.eInvoice }] : [];
  for (const page of eInvoice) if (page.kind === 'ready') words.take(page.page.lines, file);
  return [...inspection.pages.map((page): PendingPage => {
    if (!page.needsOcr) return { kind: 'ready', page: { index: page.index, width: page.width, height: page.height, units: 'pdf-points', source: page.lines.length > 0 ? 'text-layer' : 'empty', lines: page.lines } };
    return {
      kind: 'raster',
      index: page.index,
      load: async () => {
        const renderStarted = performance.now();
        try {
          return await deps.pdf.render(file, page.index, signal);
        } finally {
          stats.decodeMs += performance.now() - renderStarted;
        }
      },
    };
  }), ...eInvoice];
}

/**
 * An XML file: with options.eInvoice "auto", an e-invoice (CII or UBL) is its
 * page of business terms (read on a pdf.js thread); XML that is no e-invoice,
 * or any XML with "ignore", is read as plain XML, a line per value with its
 * element path (formats/structured.ts).
 */
async function pendingXmlPages(file: DecodedFile, deps: IngestDeps, budget: PageBudget, words: WordBudget, signal: AbortSignal, stats: IngestStats, options: IngestOptions): Promise<PendingPage[]> {
  if (options.eInvoice === 'auto') {
    const started = performance.now();
    const page = await deps.pdf.readEInvoiceXmlOrOther(file, signal);
    stats.decodeMs += performance.now() - started;
    if (page) {
      words.take(page.lines, file);
      return [{ kind: 'ready', page }];
    }
  }
  return pendingFormatPages(file, deps, budget, words, signal, stats, options, 0);
}

/** What one request may still open of e-mails: attachments across every nested message (MAX_EMAIL_PARTS). */
interface EmailCount {
  parts: number;
}

/**
 * A file the formats threads read (ingest/formats/): its pages, and for an
 * e-mail, after its message page, the pages of each attachment read by its
 * own type, as pages of the e-mail's file (Page.part.attachment names it).
 */
async function pendingFormatPages(file: DecodedFile & { attachmentPath?: string }, deps: IngestDeps, budget: PageBudget, words: WordBudget, signal: AbortSignal, stats: IngestStats, options: IngestOptions, depth: number, emails: EmailCount = { parts: 0 }, label?: string): Promise<PendingPage[]> {
  if (!deps.formats) throw new AppError('internal', `${file.mimeType} files cannot be read here: no formats reader was started`);
  const started = performance.now();
  const limits = {
    maxWords: Math.max(0, words.remaining()),
    maxInflateBytes: deps.limits.maxInflateBytes ?? DEFAULT_MAX_INFLATE_MB * 1024 ** 2,
    email: { maxParts: deps.limits.maxEmailParts ?? DEFAULT_MAX_EMAIL_PARTS, maxDepth: deps.limits.maxEmailDepth ?? DEFAULT_MAX_EMAIL_DEPTH },
  };
  const reading = await deps.formats.read(file, limits, signal, label);
  stats.decodeMs += performance.now() - started;
  budget.take(reading.pages.length, file);
  for (const page of reading.pages) words.take(page.lines, file);
  const pending: PendingPage[] = reading.pages.map((page) => ({ kind: 'ready', page }));
  if (reading.attachments.length === 0) return pending;
  emails.parts += reading.attachments.length;
  if (emails.parts > limits.email.maxParts) throw badRequest(`contents[${file.index}] holds more than ${limits.email.maxParts} e-mail attachments; the limit is MAX_EMAIL_PARTS`);
  if (depth + 1 > limits.email.maxDepth) throw badRequest(`contents[${file.index}] nests e-mails more than ${limits.email.maxDepth} deep; the limit is MAX_EMAIL_DEPTH`);
  for (const attachment of reading.attachments) {
    const format = attachmentFormat(attachment);
    // a calendar invite, a signature, a vCard: named on the message page, not read
    if (!format) continue;
    const path = file.attachmentPath ? `${file.attachmentPath}/${attachment.filename}` : attachment.filename;
    const inner: DecodedFile & { attachmentPath: string } = { index: file.index, filename: attachment.filename, mimeType: format.mimeType, bytes: Buffer.from(attachment.bytes.buffer, attachment.bytes.byteOffset, attachment.bytes.byteLength), attachmentPath: path };
    const pages = await pendingFilePages(inner, deps, budget, words, signal, stats, options, depth + 1, emails);
    pending.push(...pages.map((page) => inAttachment(page, path)));
  }
  // an e-mail's pages are numbered through, message first, then each attachment's
  return pending.map((page, index) => (page.kind === 'ready' ? { ...page, page: { ...page.page, index } } : { ...page, index }));
}

/** The attachment's type: what its bytes say where the type it is sent as is generic or wrong, then its name. */
function attachmentFormat(attachment: { filename: string; mimeType: string; bytes: Uint8Array }): InputFormat | undefined {
  const declared = formatOfMimeType(attachment.mimeType);
  if (declared?.matches(attachment.bytes)) return declared;
  return detectFormat(attachment.bytes, attachment.filename);
}

/** A page of an attachment as a page of the e-mail: the attachment's name, and the page it is within it. */
function inAttachment(pending: PendingPage, path: string): PendingPage {
  if (pending.kind === 'raster') return { ...pending, part: { ...pending.part, attachment: pending.part?.attachment ? pending.part.attachment : path, attachmentPage: pending.part?.attachmentPage ?? pending.index } };
  const page = pending.page;
  // a nested e-mail's pages already name their attachment path
  if (page.part?.attachment) return pending;
  return { kind: 'ready', page: { ...page, part: { ...page.part, attachment: path, attachmentPage: page.index } } };
}

/**
 * Words of text across the request (MAX_WORDS). The Document and what is read
 * from it live on the event loop's heap: a PDF page of 200,000 lines held the
 * loop for a second (copies, garbage collection) even with the work on threads.
 */
class WordBudget {
  private used = 0;
  constructor(private readonly limit: number) {}
  remaining(): number {
    return Math.max(0, this.limit - this.used);
  }
  take(lines: readonly Line[], file: DecodedFile): void {
    for (const line of lines) this.used += line.words.length;
    if (this.used > this.limit) throw badRequest(`contents[${file.index}] brings the request to more than ${this.limit} words of text; the limit is ${this.limit} words per request (MAX_WORDS)`);
  }
}

async function pendingImagePages(file: DecodedFile, deps: IngestDeps, budget: PageBudget, stats: IngestStats): Promise<PendingPage[]> {
  if (file.mimeType === 'image/tiff') {
    // page by page: decoded when OCR reads it
    const started = performance.now();
    const pages = await tiffPages(file, deps.limits, Math.max(1, budget.remaining()));
    stats.decodeMs += performance.now() - started;
    budget.take(pages.length, file);
    return pages.map((page): PendingPage => ({ kind: 'raster', index: page.index, load: page.load }));
  }
  const started = performance.now();
  const rasters = await loadImagePages(file, deps.limits);
  stats.decodeMs += performance.now() - started;
  budget.take(rasters.length, file);
  return rasters.map((raster, index): PendingPage => ({ kind: 'raster', index, load: async () => raster }));
}

/** A file's pages by the reader of its type (ingest/formats/registry.ts); an attachment's 400 names it. */
async function pendingFilePages(file: DecodedFile & { attachmentPath?: string }, deps: IngestDeps, budget: PageBudget, words: WordBudget, signal: AbortSignal, stats: IngestStats, options: IngestOptions, depth = 0, emails: EmailCount = { parts: 0 }): Promise<PendingPage[]> {
  const reader = formatOfMimeType(file.mimeType)?.reader;
  try {
    switch (reader) {
      case 'pdf':
        return await pendingPdfPages(file, deps, budget, words, signal, stats, options);
      case 'xml':
        return await pendingXmlPages(file, deps, budget, words, signal, stats, options);
      case 'image':
        return await pendingImagePages(file, deps, budget, stats);
      case 'formats':
        return await pendingFormatPages(file, deps, budget, words, signal, stats, options, depth, emails, file.attachmentPath ? `contents[${file.index}] attachment ${JSON.stringify(file.attachmentPath)}` : undefined);
      default:
        throw new AppError('internal', `no reader for ${file.mimeType}`);
    }
  } catch (error) {
    // the 400 of a file inside an e-mail says which attachment it is about
    if (file.attachmentPath && isAppError(error) && error.status === 400 && !error.message.includes('attachment')) {
      throw badRequest(`${error.message} (in the e-mail's attachment ${JSON.stringify(file.attachmentPath)})`);
    }
    throw error;
  }
}

async function ocrPage(pending: Extract<PendingPage, { kind: 'raster' }>, deps: IngestDeps, signal: AbortSignal, stats: IngestStats): Promise<Page> {
  const raster = await pending.load();
  signal.throwIfAborted();
  const started = performance.now();
  // A page OCR found sideways comes back turned: its size is then the turned raster's, which the boxes refer to,
  // and the page keeps the way back to the raster as sent, for boxes shown to the caller.
  const { words, width, height, toInput } = await deps.ocr.recognize(raster, signal);
  stats.ocrMs += performance.now() - started;
  const page = pageFromWords(pending.index, width, height, words, 'ocr');
  // Repaired within their lines: a word's left neighbour can decide it ("2:21 PH" -> "PM").
  const lines = page.lines.map((line) => {
    const repaired = line.words.map((word, i) => ({ ...word, text: repairConfusables(word.text, line.words[i - 1]?.text) }));
    return { ...line, words: repaired, text: repaired.map((word) => word.text).join(' ') };
  });
  const repairedPage: Page = { ...page, lines, ...(page.source === 'ocr' ? { ocrEngine: deps.ocr.name } : {}), ...(pending.part ? { part: pending.part } : {}) };
  return isIdentity(toInput) ? repairedPage : { ...repairedPage, shown: { width: raster.width, height: raster.height, transform: toInput } };
}

/** Told the pages read so far and the pages of the request, once the files are open and as each OCR page is read. */
export type PagesRead = (done: number, total: number) => void;

/**
 * Turns decoded files into one Document. Text-layer PDF pages never touch
 * OCR; scanned PDF pages and image frames are rasterised and OCRed, at most
 * `ocrConcurrency` at a time across the whole request.
 */
export async function ingestFiles(files: DecodedFile[], deps: IngestDeps, signal: AbortSignal, options: IngestOptions = { eInvoice: 'auto' }): Promise<IngestResult> {
  const stats: IngestStats = { textLayerPages: 0, ocrPages: 0, emptyPages: 0, eInvoicePages: 0, decodeMs: 0, ocrMs: 0 };
  const { onPages } = options;
  const budget = new PageBudget(deps.limits.maxPagesPerRequest);
  const words = new WordBudget(deps.limits.maxWordsPerRequest);
  const pendingByFile: PendingPage[][] = [];
  for (const file of files) {
    signal.throwIfAborted();
    pendingByFile.push(await pendingFilePages(file, deps, budget, words, signal, stats, options));
  }

  const ocrJobs = pendingByFile.flat().filter((p): p is Extract<PendingPage, { kind: 'raster' }> => p.kind === 'raster');
  const pagesTotal = pendingByFile.reduce((sum, pages) => sum + pages.length, 0);
  let pagesDone = pagesTotal - ocrJobs.length;
  onPages?.(pagesDone, pagesTotal);
  const ocrResults = await mapConcurrent(ocrJobs, deps.ocrConcurrency, async (job) => {
    const page = await ocrPage(job, deps, signal, stats);
    onPages?.(++pagesDone, pagesTotal);
    return page;
  });
  const ocrPageByJob = new Map(ocrJobs.map((job, i) => [job, ocrResults[i] as Page]));
  files.forEach((file, fileIndex) => {
    for (const pending of pendingByFile[fileIndex] ?? []) if (pending.kind === 'raster') words.take(ocrPageByJob.get(pending)!.lines, file);
  });

  const documentFiles: DocumentFile[] = files.map((file, fileIndex) => {
    const pages = (pendingByFile[fileIndex] ?? []).map((pending) =>
      pending.kind === 'ready' ? pending.page : (ocrPageByJob.get(pending) as Page),
    );
    return { index: file.index, filename: file.filename, mimeType: file.mimeType, pages };
  });
  const allPages = documentFiles.flatMap((f) => f.pages);
  stats.textLayerPages = allPages.filter((page) => page.source === 'text-layer').length;
  stats.ocrPages = ocrJobs.length;
  stats.emptyPages = allPages.filter((page) => page.source === 'empty').length;
  stats.eInvoicePages = allPages.filter((page) => page.source === 'e-invoice').length;
  return { document: { files: documentFiles }, stats };
}
