import type { Limits } from './config.js';
import type { Engine } from './extract/engine.js';
import { pageImageSource } from './engines/page-images.js';
import { finalize } from './extract/finalize.js';
import { compileCallerSchema } from './extract/schema.js';
import { decodeContents, type ContentItem } from './ingest/decode.js';
import type { Document } from './ingest/document.js';
import { ingestFiles, type IngestStats } from './ingest/ingest.js';
import { renderLayoutText } from './ingest/layout.js';
import type { OcrEngine } from './ingest/ocr/index.js';
import type { PdfProcessor } from './ingest/pdf.js';

/** Long-lived resources one extraction needs; built once by services.ts. */
export interface PipelineDeps {
  pdf: PdfProcessor;
  ocr: OcrEngine;
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
  result: unknown;
  engine: string;
  timings: StageTimings;
  stats: IngestStats;
  document: Document;
  layoutText: string;
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
  const layoutText = renderLayoutText(document);

  signal.throwIfAborted();
  const extractStarted = performance.now();
  const pageImages = pageImageSource(files, deps.pdf, signal);
  const candidate = await deps.engine.extract({ document, layoutText, schema: compiled.schema, signal, pageImages });
  const validateStarted = performance.now();
  const result = finalize(candidate, compiled);
  const finished = performance.now();

  return {
    result,
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
    layoutText,
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
