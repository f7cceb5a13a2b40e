import { randomUUID } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import { DEFAULT_MAX_PDF_STREAM_MB } from '../config.js';
import { AppError, badRequest } from '../errors.js';
import { dataField, type DecodedFile } from './decode.js';
import type { Line, Word } from '../document/document.js';
import { unionBox } from './line-grouping.js';
import type { PackedEInvoice, PackedInspection, PackedTextPage, PdfFailure, PdfOutcome, PdfTask, PdfTextPage, PdfThreadData, PdfThreadWarmUp } from './pdf-protocol.js';
import { unpackingPage } from './document-pack.js';
import { Pacer, runPaced, type PacedWork } from '../util/paced.js';
import type { Page } from '../document/document.js';
import { E_INVOICE_ROOTS } from './einvoice/read.js';
import type { GreyRaster } from '../document/raster.js';
import { deadline } from '../util/deadline.js';
import { ThreadPool } from '../threads/pool.js';
import { taskThreads } from '../threads/task-thread.js';

export type { PdfTextPage } from './pdf-protocol.js';

export interface PdfInspection {
  pageCount: number;
  pages: PdfTextPage[];
  /** The e-invoice the PDF carries, as a page after its printed ones (when asked for and found). */
  eInvoice?: Page;
}

/** Reading a PDF's e-invoice attachment: asked for with the most bytes an attachment may decode to (MAX_XML_MB). */
export interface EInvoiceLookup {
  maxXmlBytes: number;
}

export interface PdfProcessorOptions {
  /** Worker threads running pdf.js. */
  workers: number;
  /** Renders are lowered below renderDpi until width * height fits this. */
  maxPixelsPerPage: number;
  renderDpi: number;
  /** A stream other than an image decoding to more bytes than this gets a 400 before pdf.js reads it (MAX_PDF_STREAM_MB). */
  maxStreamBytes?: number;
  /** A task still unfinished after this long is stopped (its worker is replaced); a net under the request timeout. */
  taskTimeoutMs?: number;
  /** Readings of a generated invoice each thread makes when it starts, before its first task (pdf-worker.ts; PDF_THREAD_WARM_UP). 0, the default: none. */
  warmUpReadings?: number;
  /** Told how each thread's warm-up went; e.g. log it. */
  onThreadWarmedUp?: (report: PdfThreadWarmUp) => void;
}

const DEFAULT_TASK_TIMEOUT_MS = 120_000;
/**
 * A pdf.js thread idle this long exits. Threads start with the first PDF
 * task, not with the service: each adds ~40-46 MB (pdf.js's code and heap;
 * its canvas library only 2-5 MB of it, and loaded for good), which a service
 * reading only photos never needs; starting one costs the first PDF ~0.6-2 s
 * on a busy machine (loading pdf.js is most of it), and its warm-up
 * (warmUpReadings) ~0.2-0.5 s more. None is kept for good (docs/deployment.md, memory).
 */
const IDLE_WORKER_EXIT_MS = 60_000;
/**
 * V8's young generation of a pdf.js thread, in MB. With a Worker's default
 * (48) its new space grew to 32 MB and the thread by ~45 MB over 200 one-page
 * invoices; capped here, new space 8 MB and ~24 MB, for the same CPU per PDF
 * (measured side by side; docs/deployment.md, memory).
 */
export const PDF_THREAD_YOUNG_GENERATION_MB = 8;

function megabytes(bytes: number): string {
  return String(Math.round((bytes / (1024 * 1024)) * 10) / 10);
}

function errorFromFailure(failure: PdfFailure, file: DecodedFile): AppError {
  switch (failure.kind) {
    case 'encrypted':
      return badRequest(`${dataField(file)}: PDF is encrypted (password-protected); send an unencrypted file`);
    case 'unreadable':
      return badRequest(`${dataField(file)}: PDF cannot be read (${failure.reason})`);
    case 'too_many_pages':
      return badRequest(
        `${dataField(file)}: PDF has ${failure.pageCount} pages, more than the ${failure.maxPages} left of the per-request page limit (MAX_PAGES)`,
      );
    case 'too_many_words':
      return badRequest(
        `${dataField(file)}: PDF has more words of text by page ${failure.pageIndex + 1} than the ${failure.maxWords} left of the per-request word limit (MAX_WORDS)`,
      );
    case 'stream_too_large':
      return badRequest(
        `${dataField(file)}: PDF has a stream${failure.objectNumber === undefined ? '' : ` (object ${failure.objectNumber})`} that decompresses to more than ${megabytes(failure.limit)} MB, the limit for one stream (MAX_PDF_STREAM_MB)`,
      );
    case 'xml_unreadable':
      return badRequest(`${dataField(file)}: XML cannot be read: ${failure.reason}`);
    case 'not_an_e_invoice':
      return badRequest(`${dataField(file)} is XML with the root element ${failure.root}, not an e-invoice; docshape reads ${E_INVOICE_ROOTS}`);
    case 'no_such_page':
      return new AppError('internal', `${dataField(file)}: page index ${failure.pageIndex} is outside the PDF's ${failure.pageCount} pages`);
  }
}

/** Words of a text page unpacked per unit of unpackingTextPage: tens of microseconds. */
const UNPACK_WORDS_PER_UNIT = 64;

/**
 * A text page as the thread packed it, made into words and lines a few words
 * per unit: one line of 50,000 words (a 100,000-character line) took the
 * event loop ~100 ms to unpack in one go. A line's text is its stretch of
 * `texts` (the words joined by spaces), its box the union of its words'.
 */
export function* unpackingTextPage({ texts, boxes, lineLengths, ...page }: PackedTextPage): PacedWork<PdfTextPage> {
  const words: Word[] = [];
  const lines: Line[] = [];
  // where the next word starts in `texts`; a word ends at the next space (none within a word)
  let at = 0;
  for (const length of lineLengths) {
    const lineStart = at;
    let lineEnd = at;
    const lineWords: Word[] = [];
    const bbox = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    for (let k = 0; k < length; k++) {
      const i = words.length;
      const space = texts.indexOf(' ', at);
      lineEnd = space === -1 ? texts.length : space;
      const word: Word = { text: texts.slice(at, lineEnd), bbox: { x0: boxes[i * 4]!, y0: boxes[i * 4 + 1]!, x1: boxes[i * 4 + 2]!, y1: boxes[i * 4 + 3]! }, confidence: 1, source: 'text-layer' };
      at = lineEnd + 1;
      words.push(word);
      lineWords.push(word);
      bbox.x0 = Math.min(bbox.x0, word.bbox.x0);
      bbox.y0 = Math.min(bbox.y0, word.bbox.y0);
      bbox.x1 = Math.max(bbox.x1, word.bbox.x1);
      bbox.y1 = Math.max(bbox.y1, word.bbox.y1);
      if (i % UNPACK_WORDS_PER_UNIT === UNPACK_WORDS_PER_UNIT - 1) yield;
    }
    lines.push(length === 0 ? { text: '', bbox: unionBox([]), words: lineWords } : { text: texts.slice(lineStart, lineEnd), bbox, words: lineWords });
  }
  return { ...page, lines, words };
}

/**
 * Reads PDFs with pdf.js in a pool of worker threads, so a large or hostile
 * PDF never blocks the event loop; e-invoice XML is parsed on the same threads. Every task gets its own copy of the file
 * and opens the document afresh; nothing is cached between tasks.
 */
export class PdfProcessor {
  private readonly pool: ThreadPool<PdfTask, PdfOutcome<unknown>>;
  private readonly options: PdfProcessorOptions & { taskTimeoutMs: number; maxStreamBytes: number };
  /** Where the threads report their warm-up (none without one). */
  private readonly warmUpReports?: BroadcastChannel;

  constructor(options: PdfProcessorOptions) {
    this.options = { taskTimeoutMs: DEFAULT_TASK_TIMEOUT_MS, maxStreamBytes: DEFAULT_MAX_PDF_STREAM_MB * 1024 ** 2, ...options };
    const threadData: PdfThreadData = { warmUpReadings: options.warmUpReadings ?? 0, maxStreamBytes: this.options.maxStreamBytes, reportChannel: `docshape-pdf-warm-up-${randomUUID()}` };
    if (threadData.warmUpReadings > 0) {
      const reports = new BroadcastChannel(threadData.reportChannel);
      reports.onmessage = (event) => options.onThreadWarmedUp?.((event as { data: PdfThreadWarmUp }).data);
      // it must not keep an otherwise finished process alive
      reports.unref();
      this.warmUpReports = reports;
    }
    this.pool = new ThreadPool({
      label: 'pdf.js',
      start: taskThreads<PdfTask, PdfOutcome<unknown>>(new URL('./pdf-worker.js', import.meta.url), {
        data: threadData,
        resourceLimits: { maxYoungGenerationSizeMb: PDF_THREAD_YOUNG_GENERATION_MB },
        // The bytes are a private copy (pdf.js takes ownership of its input), so they are moved, not cloned again.
        prepare: (task) => ({ task, transfer: [task.bytes.buffer] }),
      }),
      maxThreads: options.workers,
      idleMs: IDLE_WORKER_EXIT_MS,
      // pdf.js cannot be interrupted: an aborted or timed-out task ends its thread
      runningAbort: 'stop',
    });
  }

  /**
   * Page count, text-layer words per page and which pages need OCR. Rejects (400) PDFs over maxPages before
   * reading any page, and over maxWords words of text as soon as they pass it.
   */
  async inspect(file: DecodedFile, maxPages: number, signal?: AbortSignal, maxWords = Infinity, eInvoice?: EInvoiceLookup): Promise<PdfInspection> {
    const task: PdfTask = { kind: 'inspect', bytes: new Uint8Array(file.bytes), maxStreamBytes: this.options.maxStreamBytes, maxPages, maxWords, ...(eInvoice ? { eInvoice } : {}) };
    const packed = await this.run<PackedInspection>(file, task, signal);
    const pages: PdfTextPage[] = [];
    // in turns: unpacking a dense page, or one long line, takes the event loop tens of milliseconds
    const pacer = new Pacer(signal);
    for (const page of packed.pages) pages.push(await runPaced(unpackingTextPage(page), pacer));
    // an e-invoice page has a line per business term and invoice line: thousands, unpacked in turns
    return { pageCount: packed.pageCount, pages, ...(packed.eInvoice ? { eInvoice: await runPaced(unpackingPage(packed.eInvoice), new Pacer(signal)) } : {}) };
  }

  /** An e-invoice XML file (CII or UBL) as its one page; a 400 for XML that is broken, hostile (a DTD) or no e-invoice. */
  async readEInvoiceXml(file: DecodedFile, signal?: AbortSignal): Promise<Page> {
    return this.run<PackedEInvoice>(file, { kind: 'e-invoice-xml', bytes: new Uint8Array(file.bytes) }, signal).then((packed) => runPaced(unpackingPage(packed.page), new Pacer(signal)));
  }

  /** readEInvoiceXml, but undefined for well-formed XML that is no e-invoice (the caller reads it as plain XML). */
  async readEInvoiceXmlOrOther(file: DecodedFile, signal?: AbortSignal): Promise<Page | undefined> {
    const outcome = await this.outcomeOf<PackedEInvoice>(file, { kind: 'e-invoice-xml', bytes: new Uint8Array(file.bytes) }, signal);
    if (!outcome.ok) {
      if (outcome.failure.kind === 'not_an_e_invoice') return undefined;
      throw errorFromFailure(outcome.failure, file);
    }
    return runPaced(unpackingPage(outcome.value.page), new Pacer(signal));
  }

  /** One page as 8-bit grey at renderDpi, or lower if that would exceed maxPixelsPerPage. */
  async render(file: DecodedFile, pageIndex: number, signal?: AbortSignal): Promise<GreyRaster> {
    const { renderDpi: dpi, maxPixelsPerPage: maxPixels, maxStreamBytes } = this.options;
    return this.run<GreyRaster>(file, { kind: 'render', bytes: new Uint8Array(file.bytes), maxStreamBytes, pageIndex, dpi, maxPixels }, signal);
  }

  /** For metrics: worker threads, how many run a task now, how many tasks wait. */
  status(): { workers: number; busy: number; queued: number } {
    const { workers, busy, queued } = this.pool.status();
    return { workers, busy, queued };
  }

  async close(): Promise<void> {
    await this.pool.close();
    this.warmUpReports?.close();
  }

  private async run<T>(file: DecodedFile, task: PdfTask, signal: AbortSignal | undefined): Promise<T> {
    const outcome = await this.outcomeOf<T>(file, task, signal);
    if (!outcome.ok) throw errorFromFailure(outcome.failure, file);
    return outcome.value;
  }

  private async outcomeOf<T>(file: DecodedFile, task: PdfTask, signal: AbortSignal | undefined): Promise<PdfOutcome<T>> {
    const limit = deadline(this.options.taskTimeoutMs, signal ? [signal] : []);
    let outcome: PdfOutcome<T>;
    try {
      outcome = (await this.pool.run(task, limit.signal)) as PdfOutcome<T>;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (limit.expired()) {
        throw new AppError('timeout', `${dataField(file)}: PDF processing took longer than ${this.options.taskTimeoutMs / 1000} s`, {
          cause: error,
        });
      }
      throw new AppError('internal', `${dataField(file)}: ${file.mimeType === 'application/pdf' ? 'PDF' : 'XML'} processing failed`, { cause: error });
    } finally {
      limit.clear();
    }
    return outcome;
  }
}
