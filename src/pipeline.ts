import type { DateConfig, DateOrderSetting, EInvoiceSetting, Limits } from './config.js';
import { pageImageSource, type PageRenderer } from './engines/page-images.js';
import { resolvingDateOrder } from './schema/date-order.js';
import { buildEvidencePaced, type EvidenceReport } from './evidence/evidence.js';
import { withInput, type Engine, type Extraction, type ExtractionInput, type ExtractionOptions } from './schema/engine.js';
import { finalizePaced, type FinalAnswer } from './schema/finalize.js';
import type { Provenance } from './schema/provenance.js';
import { compileCallerSchemaOffThread, type CompiledSchema } from './schema/schema.js';
import type { ContentItem, DecodedFile } from './ingest/decode.js';
import { decodeContentsOffThread } from './ingest/decode-off-thread.js';
import { splitEInvoicePages, type Document } from './document/document.js';
import type { FormatReader } from './ingest/formats-thread.js';
import { ingestFiles, type IngestDeps, type IngestResult, type IngestStats, type PagesRead } from './ingest/ingest.js';
import { renderLayoutText, type LayoutText } from './ingest/layout.js';
import type { OcrEngine } from './ingest/ocr-choice.js';
import type { PdfProcessor } from './ingest/pdf.js';
import { Pacer, runPaced, type PacedWork } from './util/paced.js';

/**
 * The path of one extraction, shared by the HTTP route, the CLI and the
 * eval. It has two halves: from the request to a Document (check, decode,
 * text layer / OCR: readDocument) and from the Document and the schema to
 * the answer (layout, engine, finalize: answerFromDocument). runExtraction
 * runs both; the eval's --reuse-ingest keeps the Document between them.
 */

/** Long-lived resources one extraction needs; built once by services.ts. */
export interface PipelineDeps {
  pdf: PdfProcessor;
  /** Reads Office files, spreadsheets, CSV, HTML, text, e-mails, other XML and JSON (ingest/formats-thread.ts). */
  formats?: FormatReader;
  ocr: OcrEngine;
  engine: Engine;
  crossCheck?: Engine;
  limits: Limits;
  ocrConcurrency: number;
  /** DATE_ORDER and its fallback. */
  dates: DateConfig;
  /** E_INVOICE: for requests that do not set options.eInvoice (default 'auto'). */
  eInvoice?: EInvoiceSetting;
}

/** The request's `options` (validated by http/request-schema.ts; a new option is one line there and one here). */
export interface RequestOptions {
  /** How to read 03/04/2024; overrides DATE_ORDER for this request. */
  dateOrder?: DateOrderSetting;
  /** Answer {data, evidence}: where each value was read and how sure docshape is of it (evidence/). */
  evidence?: boolean;
  /** 'auto': read the e-invoice XML a PDF carries (ZUGFeRD, Factur-X) as a source of its own; 'ignore': the visible pages only. Overrides E_INVOICE. */
  eInvoice?: EInvoiceSetting;
}

export interface ExtractionRequest {
  schema: unknown;
  contents: ContentItem[];
  options?: RequestOptions;
}

/** A request checked and decoded: what both halves work from. */
export interface PreparedRequest {
  compiled: CompiledSchema;
  files: DecodedFile[];
  options: RequestOptions;
}

/** What the second half needs: the engine, the date settings, and page rendering for engines that look at pages. */
export interface AnswerDeps {
  engine: Engine;
  /** Reads the engine's answer again for evidence (engines/cross-check.ts); absent: evidence without a second reading. */
  crossCheck?: Engine;
  dates: DateConfig;
  pdf: PageRenderer;
  limits: Pick<Limits, 'maxPixelsPerImage' | 'maxGifFrames'>;
}

/** Milliseconds per stage, reported as server-timing. */
export interface StageTimings {
  decode: number;
  ocr: number;
  extract: number;
  validate: number;
  total: number;
}

/** The second half's result. */
export interface Answer {
  result: Record<string, unknown>;
  /** Where each value of the result was read (JSON Pointer -> Document words). */
  provenance: Provenance;
  engine: string;
  /** The layout text the engines read, rendered when first asked for (see answerFromDocument). */
  layout(): LayoutText;
  /** The options the engine was given (the date order settled). */
  options: ExtractionOptions;
  /** Per-value evidence, when the request asked for it. */
  evidence?: EvidenceReport;
  timings: Pick<StageTimings, 'extract' | 'validate'>;
}

export interface ExtractionOutcome extends Answer {
  timings: StageTimings;
  stats: IngestStats;
  document: Document;
}

/**
 * Checks the schema and decodes the files: cheap, and every problem is the
 * caller's (400), so it runs before any heavy work. Large files decode in a
 * worker thread (decode-off-thread.ts).
 */
export async function prepareRequest(request: ExtractionRequest, limits: Limits, signal?: AbortSignal): Promise<PreparedRequest> {
  const compiled = await compileCallerSchemaOffThread(request.schema, 'schema', signal);
  const files = await decodeContentsOffThread(request.contents, limits, signal);
  return { compiled, files, options: request.options ?? {} };
}

/** First half: the files read into one Document (pdf.js text layer, OCR, e-invoice XML). */
export function readDocument(deps: IngestDeps & { eInvoice?: EInvoiceSetting }, prepared: PreparedRequest, signal: AbortSignal, onPages?: PagesRead): Promise<IngestResult> {
  return ingestFiles(prepared.files, deps, signal, { eInvoice: prepared.options.eInvoice ?? deps.eInvoice ?? 'auto', ...(onPages ? { onPages } : {}) });
}

/**
 * The document's layout text, rendered the first time it is read: the rules
 * engine never reads it, and on the event loop a page of 200,000 lines took
 * 0.4 s to render.
 */
function lazyLayout(document: Document): () => LayoutText {
  let rendered: LayoutText | undefined;
  return () => (rendered ??= renderLayoutText(document));
}

/** Second half: the Document laid out as text, read by the engine, finalized against the caller's schema. */
export async function answerFromDocument(deps: AnswerDeps, prepared: PreparedRequest, document: Document, signal: AbortSignal): Promise<Answer> {
  const { compiled, files } = prepared;
  const layout = lazyLayout(document);
  // the dates of a long document are read in turns (tens of milliseconds in all)
  const options = await runPaced(settlingOptions(prepared.options, deps.dates, document), new Pacer(signal));
  signal.throwIfAborted();
  const extractStarted = performance.now();
  // (objects with a getter, never spread: a spread would render it)
  const pageImages = pageImageSource(files, deps.pdf, deps.limits, signal);
  const extraction = await deps.engine.extract({ compiled, document, options, signal, pageImages, get layout() { return layout(); } });
  const validateStarted = performance.now();
  // an answer can hold thousands of rows: finalize and evidence give the event loop back in turns
  const pacer = new Pacer(signal);
  const final = await finalizePaced(extraction, compiled, options, pacer, signal);
  // the printed pages' reading, for an e-invoice's evidence, by the rules engine: the cross-check, or the engine itself
  const rulesReader = deps.crossCheck ?? (deps.engine.name === 'rules' ? deps.engine : undefined);
  const evidence = prepared.options.evidence ? await explain(final, deps.crossCheck, rulesReader, { compiled, document, options, signal, get layout() { return layout(); } }, pacer) : undefined;
  const finished = performance.now();
  return {
    result: final.value,
    provenance: final.provenance,
    engine: deps.engine.name,
    layout,
    options,
    ...(evidence ? { evidence } : {}),
    timings: { extract: validateStarted - extractStarted, validate: finished - validateStarted },
  };
}

/**
 * Evidence for a finalized answer. An answer from a language model is read
 * again by the rules engine (milliseconds, no model call): where the two
 * agree the value is far more likely right, and where they differ a
 * reviewer should look.
 */
async function explain(final: FinalAnswer, checker: Engine | undefined, rulesReader: Engine | undefined, input: Omit<ExtractionInput, 'pageImages' | 'usage'>, pacer: Pacer): Promise<EvidenceReport> {
  const read = async (engine: Engine | undefined, document: Document): Promise<Extraction | undefined> => {
    if (!engine) return undefined;
    try {
      // another document (the printed pages alone) has a layout of its own, rendered only if the engine reads it
      const layout = lazyLayout(document);
      const changes = document === input.document ? {} : { document, get layout() { return layout(); } };
      return await finalizePaced(await engine.extract(withInput(input, changes)), input.compiled, input.options, pacer, input.signal);
    } catch {
      // a second reading only adds to the evidence; without it the values stand alone
      input.signal.throwIfAborted();
      return undefined;
    }
  };
  const crossCheck = await read(checker, input.document);
  // an e-invoice's values are compared with what the printed pages alone say
  const { eInvoice, printed: printedPages } = splitEInvoicePages(input.document);
  const printed = eInvoice && printedPages ? await read(rulesReader, printedPages) : undefined;
  return buildEvidencePaced({ answer: final, document: input.document, schema: input.compiled.schema, dateOrder: input.options.dateOrder, ...(crossCheck ? { crossCheck } : {}), ...(printed ? { printed } : {}) }, pacer);
}

/** The request's options as the engine and finalize see them: nothing left to decide (the only place DATE_ORDER is read). */
function* settlingOptions(requested: RequestOptions, dates: DateConfig, document: Document): PacedWork<ExtractionOptions> {
  return { dateOrder: yield* resolvingDateOrder(requested.dateOrder ?? dates.order, dates.fallback, document) };
}

/** Where an extraction is, for a caller that shows progress (a job): reading pages, then the engine at work. */
export interface ExtractionProgress {
  pages?: PagesRead;
  extracting?: () => void;
}

/** The whole extraction: both halves. */
export async function runExtraction(deps: PipelineDeps, request: ExtractionRequest, signal: AbortSignal, progress?: ExtractionProgress): Promise<ExtractionOutcome> {
  return runPrepared(deps, await prepareRequest(request, deps.limits, signal), signal, progress);
}

/** Both halves of a request already checked and decoded (POST /v1/ does that before it waits for a slot). */
export async function runPrepared(deps: PipelineDeps, prepared: PreparedRequest, signal: AbortSignal, progress?: ExtractionProgress): Promise<ExtractionOutcome> {
  const started = performance.now();
  const { document, stats } = await readDocument(deps, prepared, signal, progress?.pages);
  progress?.extracting?.();
  const answer = await answerFromDocument(deps, prepared, document, signal);
  return {
    ...answer,
    timings: { decode: stats.decodeMs, ocr: stats.ocrMs, ...answer.timings, total: performance.now() - started },
    stats,
    document,
  };
}

/** The body POST /v1/ answers (and the CLI prints): the object itself, or with options.evidence {data, evidence}. */
export function responseBody(answer: Pick<Answer, 'result' | 'evidence'>, options: RequestOptions | undefined): unknown {
  return options?.evidence ? { data: answer.result, evidence: answer.evidence?.evidence ?? {} } : answer.result;
}

export function formatServerTiming(timings: StageTimings, engine: string): string {
  const entry = (name: string, ms: number, description?: string) =>
    `${name};dur=${ms.toFixed(1)}${description ? `;desc="${description}"` : ''}`;
  return [
    entry('decode', timings.decode),
    entry('ocr', timings.ocr),
    entry('extract', timings.extract, engine),
    entry('validate', timings.validate),
    entry('total', timings.total),
  ].join(', ');
}
