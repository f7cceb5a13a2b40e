import type { Limits } from './config.js';
import type { Engine } from './extract/engine.js';
import { pageImageSource } from './engines/page-images.js';
import { finalize } from './extract/finalize.js';
import type { Provenance } from './extract/provenance.js';
import { compileCallerSchema } from './extract/schema.js';
import { decodeContents, type ContentItem } from './ingest/decode.js';
import type { Document } from './ingest/document.js';
import { ingestFiles, type IngestStats } from './ingest/ingest.js';
import { renderLayoutText, type LayoutText } from './ingest/layout.js';
import type { OcrPool } from './ingest/ocr-pool.js';
import type { PdfProcessor } from './ingest/pdf.js';

/** Long-lived resources one extraction needs; built once by services.ts. */
export interface PipelineDeps {
  pdf: PdfProcessor;
  ocr: OcrPool;
  engine: Engine;
  limits: Limits;
  ocrConcurrency: number;
}

export interface ExtractionRequest {
  schema: unknown;
  contents: ContentItem[];
}

/** Milliseconds per stage, reported as server-timing. */
export interface StageTimings {
  decode: number;
  ocr: number;
  extract: number;
  validate: number;
  total: number;
}

export interface ExtractionOutcome {
  result: Record<string, unknown>;
  /** Where each value of the result was read (JSON Pointer -> Document words). */
  provenance: Provenance;
  engine: string;
  timings: StageTimings;
  stats: IngestStats;
  document: Document;
  layout: LayoutText;
}

/**
 * The whole extraction, shared by the HTTP route and the CLI: check the
 * schema, decode, ingest (text layer / OCR), lay out, run the engine,
 * finalize against the caller's schema.
 */
export async function runExtraction(deps: PipelineDeps, request: ExtractionRequest, signal: AbortSignal): Promise<ExtractionOutcome> {
  const started = performance.now();
  // Schema problems are the caller's and cost nothing to find: check before any heavy work.
  const compiled = compileCallerSchema(request.schema);
  const files = decodeContents(request.contents, deps.limits);
  const { document, stats } = await ingestFiles(files, deps, signal);
  const layout = renderLayoutText(document);
  const options = { dateOrder: 'dmy' as const };

  signal.throwIfAborted();
  const extractStarted = performance.now();
  const pageImages = pageImageSource(files, deps.pdf, signal);
  const extraction = await deps.engine.extract({ compiled, document, layout, options, signal, pageImages });
  const validateStarted = performance.now();
  const final = finalize(extraction, compiled, options);
  const finished = performance.now();

  return {
    result: final.value,
    provenance: final.provenance,
    engine: deps.engine.name,
    timings: {
      decode: stats.decodeMs,
      ocr: stats.ocrMs,
      extract: validateStarted - extractStarted,
      validate: finished - validateStarted,
      total: finished - started,
    },
    stats,
    document,
    layout,
  };
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
