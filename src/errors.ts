/**
 * The one error type of the service. Every HTTP status the service sends for
 * a failure is chosen here, by `code`; the error handler only maps AppError
 * to a response and turns anything else into a generic 500.
 */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'payload_too_large'
  | 'not_found'
  | 'method_not_allowed'
  | 'internal'
  | 'unsatisfiable_schema'
  | 'engine_failed'
  | 'saturated'
  | 'backend_unavailable'
  | 'timeout'
  | 'not_finished'
  | 'gone'
  | 'idempotency_conflict'
  | 'queue_unavailable';

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  internal: 500,
  unsatisfiable_schema: 422,
  engine_failed: 500,
  saturated: 503,
  backend_unavailable: 503,
  timeout: 504,
  not_finished: 409,
  gone: 410,
  idempotency_conflict: 422,
  queue_unavailable: 503,
};

export interface AppErrorOptions {
  cause?: unknown;
  details?: string[];
  /** Seconds, sent as Retry-After (503 only). */
  retryAfterSeconds?: number;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: string[];
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = STATUS_BY_CODE[code];
    if (options.details) this.details = options.details;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function badRequest(message: string, details?: string[]): AppError {
  return new AppError('bad_request', message, details ? { details } : {});
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** The status and body an error is answered with: an AppError's own, anything else a generic 500 without internals. */
export function errorAnswer(error: unknown): { status: number; body: { error: string; details?: string[] } } {
  if (!isAppError(error)) return { status: 500, body: { error: 'Internal server error' } };
  return { status: error.status, body: { error: error.message, ...(error.details ? { details: error.details } : {}) } };
}
