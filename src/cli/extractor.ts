import { isAppError } from '../errors.js';
import type { ExtractionRequest } from '../pipeline.js';

/** What one request gave: the answer exactly as POST /v1/ sends it, and what the progress display counts. */
export interface ExtractorAnswer {
  result: unknown;
  engine: string;
  /** Pages read; unknown when a remote service did the work. */
  pages: number | undefined;
  /** The text the engine read (in-process only: the API does not send it). */
  layout: string | undefined;
}

/** The in-process pipeline or a running service, started once per run and closed at its end. */
export interface Extractor {
  /** Where the work happens, for the first progress line ("engine rules", "http://host:8080/v1/"). */
  readonly where: string;
  /** Files in flight when --concurrency is not given. */
  readonly defaultConcurrency: number;
  extract(request: ExtractionRequest, signal: AbortSignal): Promise<ExtractorAnswer>;
  close(): Promise<void>;
}

/** A non-2xx answer of a running service, with its body's message and details. */
export class ServiceError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly details?: string[],
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** Why one file failed, worded as the HTTP API words it (`error`, `details`) and with the status it answers. */
export interface FileFailure {
  error: string;
  details?: string[];
  /** The HTTP status the API answers (or answered) for this failure: 4xx the file or request, 5xx the service. */
  httpStatus?: number;
}

export function describeFailure(error: unknown): FileFailure {
  if (isAppError(error) || error instanceof ServiceError) {
    return { error: error.message, ...(error.details ? { details: error.details } : {}), httpStatus: error.status };
  }
  // Not one of the service's own errors: the API would hide it behind "Internal server error"; on the command line its words help more.
  return { error: error instanceof Error ? error.message : String(error) };
}
