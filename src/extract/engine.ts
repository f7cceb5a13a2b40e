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
