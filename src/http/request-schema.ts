import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { DATE_ORDERS, E_INVOICE_SETTINGS } from '../config.js';
import { badRequest } from '../errors.js';
import type { ContentItem } from '../ingest/decode.js';
import type { RequestOptions } from '../pipeline.js';
import { jsonFitsIn } from '../util/json-fits.js';
import { splitPointer } from '../util/json-pointer.js';
import { JsonStringBytes } from '../util/json-string-bytes.js';

export interface ExtractionRequestBody {
  schema: Record<string, unknown>;
  contents: ContentItem[];
  options?: RequestOptions;
}

/** The request's `options`, one line each (the type is RequestOptions in pipeline.ts); any other key is a 400 naming it. */
const OPTION_SCHEMAS: Record<keyof RequestOptions, object> = {
  dateOrder: { type: 'string', enum: DATE_ORDERS },
  evidence: { type: 'boolean' },
  eInvoice: { type: 'string', enum: E_INVOICE_SETTINGS },
};

/** The request body's shape: Ajv validates requests with it and /openapi.json publishes it (one source). */
export const requestSchema = {
  type: 'object',
  required: ['schema', 'contents'],
  properties: {
    schema: { type: 'object' },
    contents: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['mimeType', 'data'],
        properties: {
          filename: { type: 'string', maxLength: 1024 },
          mimeType: { type: 'string' },
          data: { type: 'string' },
        },
      },
    },
    options: { type: 'object', properties: OPTION_SCHEMAS, additionalProperties: false },
  },
} as const;

/** Largest `metadata` of a job, as JSON: it is echoed back and sent in webhooks, not a place for documents. */
export const MAX_METADATA_BYTES = 16 * 1024;

/** POST /v1/jobs: the same body as POST /v1/, and where to call back and what to echo. */
export const jobRequestSchema = {
  ...requestSchema,
  properties: {
    ...requestSchema.properties,
    webhook: {
      type: 'object',
      required: ['url'],
      properties: { url: { type: 'string', maxLength: 2048 } },
      additionalProperties: false,
    },
    metadata: { type: 'object' },
  },
} as const;

export interface JobRequestBody extends ExtractionRequestBody {
  webhook?: { url: string };
  metadata?: Record<string, unknown>;
}

const ajv = new Ajv({ allErrors: true });
const validateRequest = ajv.compile<ExtractionRequestBody>(requestSchema);
const validateJobRequest = ajv.compile<JobRequestBody>(jobRequestSchema);

/** "/contents/1/mimeType" -> "contents[1].mimeType" */
export function fieldPath(pointer: string, extra?: string): string {
  const segments = splitPointer(pointer);
  if (extra) segments.push(extra);
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return `${fieldPath(error.instancePath, String(error.params.missingProperty))} is required`;
    case 'type':
      return `${fieldPath(error.instancePath) || 'request body'} must be ${error.params.type === 'object' ? 'an object' : `a ${error.params.type}`}`;
    case 'minItems':
      return `${fieldPath(error.instancePath)} must not be empty`;
    case 'additionalProperties':
      return error.instancePath === '/options'
        ? `${fieldPath(error.instancePath, String(error.params.additionalProperty))} is not a known option; the options are ${Object.keys(OPTION_SCHEMAS).join(', ')}`
        : `${fieldPath(error.instancePath, String(error.params.additionalProperty))} is not allowed`;
    case 'enum':
      return `${fieldPath(error.instancePath)} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${fieldPath(error.instancePath) || 'request body'} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * A string Ajv need not read whole to refuse: more than twice its maxLength
 * in UTF-16 units is more than maxLength code points. Ajv counts code points
 * one character at a time, which held the loop 35 ms for a filename of
 * 8,000,000 characters; it sees one just past the limit instead, and says the
 * same.
 */
function withinReach(value: unknown, maxLength: number): unknown {
  return typeof value === 'string' && value.length > 2 * maxLength ? 'x'.repeat(maxLength + 1) : value;
}

const FILENAME_MAX_LENGTH = requestSchema.properties.contents.items.properties.filename.maxLength;
const WEBHOOK_URL_MAX_LENGTH = jobRequestSchema.properties.webhook.properties.url.maxLength;

/**
 * The body as Ajv should see it: a file's base64 still in the body's bytes
 * (http/json-body.ts) is a string, so it is one here (its text is checked where
 * it is decoded), as is a multipart file part's bytes, and a far too long filename or webhook URL is one just too
 * long (withinReach). The objects on the way to them are copied, the rest shared.
 */
function asValidated(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const { contents, webhook } = body as { contents?: unknown; webhook?: unknown };
  const asText = (item: unknown) => {
    if (!(item instanceof Object)) return item;
    const { data, filename } = item as { data?: unknown; filename?: unknown };
    // (a multipart file part's bytes: Uint8Array)
    const shown = { data: data instanceof JsonStringBytes || data instanceof Uint8Array ? '' : data, filename: withinReach(filename, FILENAME_MAX_LENGTH) };
    return shown.data === data && shown.filename === filename ? item : { ...item, ...shown };
  };
  const shownContents: unknown[] | undefined = Array.isArray(contents) ? contents.map(asText) : undefined;
  const url = webhook instanceof Object ? (webhook as { url?: unknown }).url : undefined;
  const shownUrl = withinReach(url, WEBHOOK_URL_MAX_LENGTH);
  const contentsChanged = shownContents !== undefined && shownContents.some((item, i) => item !== (contents as unknown[])[i]);
  if (!contentsChanged && shownUrl === url) return body;
  return { ...body, ...(contentsChanged ? { contents: shownContents } : {}), ...(shownUrl !== url ? { webhook: { ...(webhook as object), url: shownUrl } } : {}) };
}

function parseWith<T>(validate: ValidateFunction<T>, body: unknown): T {
  if (body === undefined || body === null) {
    throw badRequest('request body is required: a JSON object with "schema" and "contents" (Content-Type: application/json), or multipart/form-data with a "schema" part and a "file" part per document');
  }
  if (validate(asValidated(body))) return body as T;
  const messages = [...new Set((validate.errors ?? []).map(describe))];
  throw badRequest(messages[0] ?? 'request body is invalid', messages.length > 1 ? messages : undefined);
}

export function parseExtractionRequest(body: unknown): ExtractionRequestBody {
  return parseWith(validateRequest, body);
}

export function parseJobRequest(body: unknown): JobRequestBody {
  const request = parseWith(validateJobRequest, body);
  if (request.metadata !== undefined && !jsonFitsIn(request.metadata, MAX_METADATA_BYTES)) {
    throw badRequest(`metadata must be at most ${MAX_METADATA_BYTES} bytes of JSON; it is echoed back and sent in webhooks`);
  }
  return request;
}
