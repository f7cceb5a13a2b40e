import { AppError } from '../../../errors.js';
import { deadline } from '../../../util/deadline.js';

/** How long a caller is told to wait when the model backend is down or still loading. */
export const BACKEND_RETRY_AFTER_SECONDS = 10;

export function backendUnavailable(message: string, cause?: unknown): AppError {
  return new AppError('backend_unavailable', message, { cause, retryAfterSeconds: BACKEND_RETRY_AFTER_SECONDS });
}

export function backendTimeout(backend: string, ms: number): AppError {
  return new AppError('timeout', `${backend} did not answer within ${ms} ms (LLM_TIMEOUT_MS)`);
}

/** Connection refused, reset, DNS failure: the host is not there (as opposed to an HTTP error from it). */
export function isConnectionError(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/.test(code)) return true;
    if (current.name === 'TypeError' && /fetch failed|terminated/i.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

/**
 * One signal for a model call: the request's own (deadline, client gone) and
 * the per-call limit. `timedOut` tells which one fired; `clear` ends the
 * limit's timer once the call is over.
 */
export function callSignal(requestSignal: AbortSignal, timeoutMs: number): { signal: AbortSignal; timedOut: () => boolean; clear: () => void } {
  const limit = deadline(timeoutMs, [requestSignal]);
  return { signal: limit.signal, timedOut: () => limit.expired() && !requestSignal.aborted, clear: limit.clear };
}

/**
 * Maps what a model call threw onto the service's errors: the request's own
 * abort keeps its reason, the call limit is a 504, a missing host a 503.
 */
export function describeCallFailure(error: unknown, context: { backend: string; where: string; requestSignal: AbortSignal; timedOut: boolean; timeoutMs: number }): AppError {
  if (error instanceof AppError) return error;
  if (context.requestSignal.aborted && context.requestSignal.reason instanceof AppError) return context.requestSignal.reason;
  if (context.timedOut) return backendTimeout(context.backend, context.timeoutMs);
  if (isConnectionError(error)) {
    return backendUnavailable(`${context.backend} is not reachable at ${context.where}; start it or fix the address`, error);
  }
  return new AppError('engine_failed', `${context.backend} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
