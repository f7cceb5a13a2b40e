import { setTimeout as sleep } from 'node:timers/promises';
import type { ExtractionRequest } from '../pipeline.js';
import { deadline } from '../util/deadline.js';
import { ServiceError, type Extractor, type ExtractorAnswer } from './extractor.js';
import { requestForm } from './request-form.js';
import { UsageError } from './usage-error.js';

/** The header POST /v1/ names its engine in (http/v1.ts). */
const ENGINE_HEADER = 'x-docshape-engine';
/** A saturated service (503 with Retry-After) is asked again this often, waiting as it says but at most MAX_RETRY_WAIT_S each time. */
export const MAX_RETRIES = 5;
const MAX_RETRY_WAIT_S = 30;
/** Files in flight against a service by default: enough to keep a small one busy, few enough not to fill its queue. */
const DEFAULT_REMOTE_CONCURRENCY = 4;

/** `http://host:8080` and `http://host:8080/` mean the service's POST /v1/; any other path is used as given. */
export function endpointOf(url: string): URL {
  let endpoint: URL;
  try {
    endpoint = new URL(url);
  } catch {
    throw new UsageError(`--url must be an http(s) URL like http://localhost:8080, got ${JSON.stringify(url)}`);
  }
  if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') throw new UsageError(`--url must be http or https, got ${JSON.stringify(url)}`);
  if (endpoint.pathname === '/' || endpoint.pathname === '') endpoint.pathname = '/v1/';
  return endpoint;
}

export function reasonOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as NodeJS.ErrnoException).code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/**
 * Fails the run early (exit 2) when nothing answers at the address, rather
 * than failing every file with the same message. Any HTTP answer will do:
 * the service's /healthz, or whatever sits in front of a custom path.
 */
export async function checkReachable(endpoint: URL): Promise<void> {
  const health = new URL(endpoint.pathname.replace(/v1\/?$/, '') + 'healthz', endpoint);
  try {
    const response = await fetch(health, { signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
  } catch (error) {
    throw new UsageError(`cannot reach the service at ${endpoint.origin}: ${reasonOf(error)}`);
  }
}

export async function errorFrom(response: Response): Promise<ServiceError> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const fields = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; details?: unknown };
  const message = typeof fields.error === 'string' ? fields.error : `HTTP ${response.status} ${response.statusText}: ${text.slice(0, 200)}`;
  const details = Array.isArray(fields.details) ? fields.details.map(String) : undefined;
  return new ServiceError(message, response.status, details);
}

/** Seconds to wait before asking again, when the service says (503 Retry-After); undefined: do not retry. */
export function retryAfter(response: Response): number | undefined {
  if (response.status !== 503) return undefined;
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, MAX_RETRY_WAIT_S) : undefined;
}

/**
 * Each request goes to a running docshape service as POST /v1/ with the
 * x-api-key header, as multipart/form-data (request-form.ts: the files as
 * they are); the answer and errors are the service's own. A refused
 * key (401) would refuse every file alike, so it ends the run as a usage
 * error. `timeoutMs` is a backstop for a service that never answers; the
 * service's own REQUEST_TIMEOUT_MS normally answers first with 504.
 */
export async function connectRemote(url: string, apiKey: string | undefined, timeoutMs: number): Promise<Extractor> {
  const endpoint = endpointOf(url);
  await checkReachable(endpoint);
  // the Content-Type (multipart, with its boundary) is fetch's to set
  const headers: Record<string, string> = apiKey ? { 'x-api-key': apiKey } : {};

  async function post(body: FormData, signal: AbortSignal): Promise<Response> {
    try {
      return await fetch(endpoint, { method: 'POST', headers, body, signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new Error(`cannot reach the service at ${endpoint.origin}: ${reasonOf(error)}`);
    }
  }

  async function answer(body: FormData, signal: AbortSignal): Promise<ExtractorAnswer> {
    for (let attempt = 0; ; attempt++) {
      const response = await post(body, signal);
      if (response.status === 401) {
        await response.body?.cancel();
        throw new UsageError(`the service refused the API key (401 Unauthorized): pass the service's key with --api-key or DOCSHAPE_API_KEY`);
      }
      const wait = retryAfter(response);
      if (wait !== undefined && attempt < MAX_RETRIES) {
        await response.body?.cancel();
        await sleep(wait * 1000, undefined, { signal });
        continue;
      }
      if (!response.ok) throw await errorFrom(response);
      let result: unknown;
      try {
        result = await response.json();
      } catch {
        throw new ServiceError(`the service answered ${response.status} but not with JSON`, response.status);
      }
      return { result, engine: response.headers.get(ENGINE_HEADER) ?? 'unknown', pages: undefined, layout: undefined };
    }
  }

  return {
    where: `sent to ${endpoint.href}`,
    defaultConcurrency: DEFAULT_REMOTE_CONCURRENCY,
    async extract(request: ExtractionRequest, signal: AbortSignal) {
      const limit = deadline(timeoutMs, [signal]);
      try {
        return await answer(requestForm(request), limit.signal);
      } catch (error) {
        if (limit.expired() && !signal.aborted) throw new Error(`the service did not answer within ${Math.round(timeoutMs / 1000)} s`);
        throw error;
      } finally {
        limit.clear();
      }
    },
    close: async () => undefined,
  };
}
