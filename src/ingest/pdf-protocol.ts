/**
 * What pdf.ts and its worker thread (pdf-worker.ts) send each other. Kept
 * apart from both so that neither imports the other.
 */
import type { Line, Word } from '../document/document.js';
import type { PackedPage } from './document-pack.js';

export interface PdfTextPage {
  /** 0-based page index. */
  index: number;
  /** Page size in PDF points as displayed (crop box, rotation applied). */
  width: number;
  height: number;
  /** Text-layer words grouped into lines (in the worker: a page can hold hundreds of thousands); bbox in points, origin top-left, y down. */
  lines: Line[];
  /** The same words, line after line: confidence 1. */
  words: Word[];
  /** True when the text layer is missing or unusable and the page must be rendered and OCRed. */
  needsOcr: boolean;
}

/** Every task: the file and the most bytes a stream other than an image may decode to (pdf-streams.ts). */
interface PdfTaskBase {
  bytes: Uint8Array;
  maxStreamBytes: number;
}

export type PdfTask =
  | (PdfTaskBase & { kind: 'inspect'; maxPages: number; maxWords: number; eInvoice?: { maxXmlBytes: number } })
  | (PdfTaskBase & { kind: 'render'; pageIndex: number; dpi: number; maxPixels: number })
  | { kind: 'e-invoice-xml'; bytes: Uint8Array };

export type PdfFailure =
  | { kind: 'encrypted' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'too_many_pages'; pageCount: number; maxPages: number }
  | { kind: 'too_many_words'; pageIndex: number; maxWords: number }
  | { kind: 'no_such_page'; pageIndex: number; pageCount: number }
  | { kind: 'stream_too_large'; objectNumber?: number; limit: number }
  | { kind: 'xml_unreadable'; reason: string }
  | { kind: 'not_an_e_invoice'; root: string };

export type PdfOutcome<T> = { ok: true; value: T } | { ok: false; failure: PdfFailure };

/**
 * A page's words as one space-separated string plus a flat [x0, y0, x1, y1, ...]
 * array, line after line, and how many words each line has: tens of
 * thousands of small objects take the main thread ~70 ms to deserialise,
 * this takes a few.
 */
export interface PackedTextPage extends Omit<PdfTextPage, 'words' | 'lines'> {
  texts: string;
  boxes: Float64Array;
  lineLengths: Uint32Array;
}

export interface PackedInspection {
  pageCount: number;
  pages: PackedTextPage[];
  /** The e-invoice the PDF carries, as the page after its printed ones (ingest/einvoice/), when asked for and found. */
  eInvoice?: PackedPage;
}

/** An e-invoice XML file read: its one page. */
export interface PackedEInvoice {
  page: PackedPage;
}


/** What a pdf.js thread is started with (its pool thread data, serve-tasks.ts). */
export interface PdfThreadData {
  /** Readings of the generated invoice the thread makes before it takes its first task (PDF_THREAD_WARM_UP). */
  warmUpReadings: number;
  maxStreamBytes: number;
  /** The BroadcastChannel the thread reports its warm-up on: one per PdfProcessor, so that two in one process do not hear each other. */
  reportChannel: string;
}

/** How a thread's warm-up went, posted on PdfThreadData.reportChannel before it takes its first task. */
export interface PdfThreadWarmUp {
  readings: number;
  ms: number;
  /** Why a reading failed; the thread stops warming up and serves tasks all the same. */
  failure?: string;
}
