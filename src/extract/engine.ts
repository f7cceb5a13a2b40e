import type { Document } from '../ingest/document.js';
import type { JsonSchema } from './schema.js';

/** What every engine is given: the ingested document, its layout text and the caller's schema. */
export interface ExtractionInput {
  document: Document;
  layoutText: string;
  schema: JsonSchema;
  signal: AbortSignal;
  /** Renders the given pages as images, for engines whose model can see; absent where no files are at hand (tests, CLI --layout). */
  pageImages?: PageImageSource;
  /** Where the engine reports its model calls (metrics); absent where nobody counts (tests, CLI). */
  usage?: EngineUsage;
}

/** One call to a language model, as counted for metrics: numbers only, never content. */
export interface ModelCallReport {
  /** 'failed' when the call threw (server down, time limit, refused); 'ok' whatever the answer was. */
  outcome: 'ok' | 'failed';
  /** A further call for the same part of the document, after an answer that did not fit the schema. */
  retry: boolean;
  /** Tokens as the model server counted them, when it says. */
  promptTokens?: number;
  outputTokens?: number;
}

export interface EngineUsage {
  modelCall(report: ModelCallReport): void;
}

/** Identifies a page: `file` is its position in `contents`, `page` its 0-based index in the file. */
export interface PageRef {
  file: number;
  page: number;
}

/** Base64 PNGs of the pages, downscaled, in the order asked. */
export type PageImageSource = (pages: PageRef[]) => Promise<string[]>;

export interface EngineStatus {
  ready: boolean;
  detail?: string;
  /** Why this engine serves requests (EXTRACTOR and what auto found). */
  chosenBecause?: string;
}

/** An extractor. It returns a candidate object; finalize() coerces and validates it. */
export interface Engine {
  readonly name: string;
  extract(input: ExtractionInput): Promise<unknown>;
  status(): Promise<EngineStatus>;
  close(): Promise<void>;
}
