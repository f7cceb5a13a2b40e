/**
 * What every answer must be: on time, JSON, a valid 200 (the object fits the
 * request's schema with null allowed, every property present) or an error
 * body {"error": ...} from the documented set, never a 5xx other than
 * 503 (with Retry-After) and 504, never a document value, key or internals
 * in an error message.
 */
import { compileCallerSchema } from '../../src/schema/schema.js';
import type { FuzzCase } from './case.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Statuses the service documents (README "Errors"). */
export const DOCUMENTED_STATUSES = new Set([200, 400, 401, 404, 405, 413, 422, 503, 504]);
/** Always acceptable: the service may be saturated or a request may run out of time under load. */
const SATURATION = [503, 504];

export interface Secrets {
  apiKey: string;
  documentMarkers: readonly string[];
}

const INTERNALS = [/\n\s+at \S/, /node_modules/, /\/work\//, /dist\/src\//, /\bTypeError\b/, /\bRangeError\b/, /ECONNREFUSED/];

export function judge(fuzzCase: FuzzCase, answer: Answer, secrets: Secrets): string[] {
  const problems: string[] = [];
  const { status } = answer;
  if (!DOCUMENTED_STATUSES.has(status)) problems.push(`status ${status} is not one the service documents`);
  if (status >= 500 && !SATURATION.includes(status)) problems.push(`server error ${status}: ${answer.text.slice(0, 200)}`);
  if (fuzzCase.allowed && !fuzzCase.allowed.includes(status) && !SATURATION.includes(status)) {
    problems.push(`status ${status}, expected ${fuzzCase.allowed.join(' or ')}`);
  }
  if (status === 503 && !/^\d+$/.test(answer.headers.get('retry-after') ?? '')) problems.push('503 without a Retry-After in seconds');
  if (answer.text.includes(secrets.apiKey)) problems.push('the answer contains the API key');
  if (fuzzCase.method === 'HEAD') return problems;
  if (!(answer.headers.get('content-type') ?? '').startsWith('application/json')) problems.push(`content-type ${answer.headers.get('content-type')}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [...problems, `body is not JSON: ${answer.text.slice(0, 80)}`];
  }
  if (status === 200) return [...problems, ...judgeSuccess(fuzzCase, body)];
  return [...problems, ...judgeError(status, body, answer.text, secrets)];
}

function judgeSuccess(fuzzCase: FuzzCase, body: unknown): string[] {
  const path = fuzzCase.path ?? '/v1/';
  if (/^\/(healthz|readyz)/.test(path)) return [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return ['200 whose body is not an object'];
  if (fuzzCase.schema === undefined) return [];
  let compiled: ReturnType<typeof compileCallerSchema>;
  try {
    compiled = compileCallerSchema(fuzzCase.schema);
  } catch (error) {
    return [`200 for a schema the service's own check refuses: ${(error as Error).message.slice(0, 120)}`];
  }
  const problems: string[] = [];
  if (!compiled.validateNullable(body)) {
    problems.push(`200 body does not validate (null allowed): ${JSON.stringify(compiled.validateNullable.errors?.slice(0, 3)).slice(0, 300)}`);
  }
  const properties = (fuzzCase.schema as { properties?: unknown }).properties;
  if (properties && typeof properties === 'object') {
    const missing = Object.keys(properties).filter((key) => !Object.prototype.hasOwnProperty.call(body, key));
    if (missing.length > 0) problems.push(`200 body lacks properties ${missing.slice(0, 5).map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}`);
  }
  return problems;
}

function judgeError(status: number, body: unknown, text: string, secrets: Secrets): string[] {
  const problems: string[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [`${status} body is not an object`];
  const record = body as Record<string, unknown>;
  if (typeof record.error !== 'string' || record.error === '') problems.push(`${status} body without an "error" message`);
  const extra = Object.keys(record).filter((key) => key !== 'error' && key !== 'details');
  if (extra.length > 0) problems.push(`${status} body has keys ${extra.join(', ')}`);
  if (record.details !== undefined && !(Array.isArray(record.details) && record.details.every((d) => typeof d === 'string'))) {
    problems.push(`${status} details is not a list of strings`);
  }
  if (status === 401 && record.error !== 'Unauthorized') problems.push(`401 says ${JSON.stringify(record.error)}`);
  for (const marker of secrets.documentMarkers) if (text.includes(marker)) problems.push(`${status} message echoes document content ("${marker}")`);
  for (const pattern of INTERNALS) if (pattern.test(text)) problems.push(`${status} message shows internals (${pattern})`);
  return problems;
}
