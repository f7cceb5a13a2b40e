/**
 * The engine contract. The pipeline compiles the caller's schema once,
 * ingests the files into a Document, renders its layout text and settles the
 * request's options; an engine reads all that and answers with a candidate
 * object and where it read each value. finalize() then shapes and validates
 * the candidate, once, for every engine.
 */
import type { Document } from '../document/document.js';
import type { LayoutText } from '../ingest/layout.js';
import type { DateOrder } from './date-order.js';
import type { Provenance } from './provenance.js';
import type { CompiledSchema } from './schema.js';

export type { Provenance, ValueSource } from './provenance.js';

/** A request's options as an engine sees them: settled, with no 'auto' left. */
export interface ExtractionOptions {
  /** How to read a numeric date whose day and month could be either way round (03/04/2024); see date-order.ts. */
  dateOrder: DateOrder;
}

/** What every engine is given. */
export interface ExtractionInput {
  /** The caller's schema, compiled once for the request, with its validators. */
  compiled: CompiledSchema;
  document: Document;
  /** The document as text, and where each of its words sits in that text. */
  layout: LayoutText;
  options: ExtractionOptions;
  signal: AbortSignal;
  /** Renders the given pages as images, for engines whose model can see; absent where no files are at hand (tests). */
  pageImages?: PageImageSource;
  /** Where the engine reports its model calls (metrics); absent where nobody counts (tests, CLI). */
  usage?: EngineUsage;
}

/**
 * `input` with some of its fields replaced or added. The pipeline renders the
 * layout text only when an engine reads `layout` (a getter): a spread would
 * call it and render it for every request (a page of 200,000 lines took the
 * event loop 0.4 s), so the fields are copied as they are defined.
 */
export function withInput<Input extends Partial<ExtractionInput>>(input: Input, changes: Partial<ExtractionInput>): Input {
  return Object.defineProperties(Object.defineProperties({}, Object.getOwnPropertyDescriptors(input)), Object.getOwnPropertyDescriptors(changes)) as Input;
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
  /** Prompt tokens the model did not evaluate again (the start of the previous prompt, still in its context). */
  reusedPromptTokens?: number;
  /** Milliseconds reading the prompt and writing the answer, where the engine measures them (in-process). */
  promptMs?: number;
  generationMs?: number;
  /** For an answered call: it fit the schema as given, it had problems (another try may follow), or nothing usable could be read from it. */
  answer?: 'valid' | 'invalid' | 'unusable';
}

/** A value an engine gave up because it is not in the document (LLM_UNGROUNDED): where, and what it was. */
export interface UngroundedValue {
  pointer: string;
  value: unknown;
}

export interface EngineUsage {
  modelCall(report: ModelCallReport): void;
  /**
   * The values of an answer the grounding check found nowhere in the
   * document, and whether they were replaced by null. Content, not numbers:
   * for the eval's count of false nulls; never logged or exported.
   */
  ungrounded?(values: UngroundedValue[], nulled: boolean): void;
}

/** What an engine answers. */
export interface Extraction {
  /** The candidate object, loosely typed as read (strings for numbers, dates as printed); finalize() shapes it. */
  value: unknown;
  /** For each value the engine filled, when it knows, the Document words it read it from. */
  provenance: Provenance;
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

/** An extractor: the rules engine, or the language-model engine over one of its backends. */
export interface Engine {
  readonly name: string;
  extract(input: ExtractionInput): Promise<Extraction>;
  status(): Promise<EngineStatus>;
  close(): Promise<void>;
}
