import type { Document } from '../ingest/document.js';
import type { JsonSchema } from './schema.js';

/** What every engine is given: the ingested document, its layout text and the caller's schema. */
export interface ExtractionInput {
  document: Document;
  layoutText: string;
  schema: JsonSchema;
  signal: AbortSignal;
}

export interface EngineStatus {
  ready: boolean;
  detail?: string;
}

/** An extractor. It returns a candidate object; finalize() coerces and validates it. */
export interface Engine {
  readonly name: string;
  extract(input: ExtractionInput): Promise<unknown>;
  status(): Promise<EngineStatus>;
  close(): Promise<void>;
}
