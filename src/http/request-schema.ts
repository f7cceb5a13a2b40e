import { Ajv, type ErrorObject } from 'ajv';
import { DATE_ORDERS, E_INVOICE_SETTINGS } from '../config.js';
import { badRequest } from '../errors.js';
import type { ContentItem } from '../ingest/decode.js';
import type { RequestOptions } from '../pipeline.js';
import { splitPointer } from '../util/json-pointer.js';

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

const validateRequest = new Ajv({ allErrors: true }).compile<ExtractionRequestBody>(requestSchema);

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
      return `${fieldPath(error.instancePath, String(error.params.additionalProperty))} is not a known option; the options are ${Object.keys(OPTION_SCHEMAS).join(', ')}`;
    case 'enum':
      return `${fieldPath(error.instancePath)} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${fieldPath(error.instancePath) || 'request body'} ${error.message ?? 'is invalid'}`;
  }
}

export function parseExtractionRequest(body: unknown): ExtractionRequestBody {
  if (body === undefined || body === null) throw badRequest('request body is required: a JSON object with "schema" and "contents" (Content-Type: application/json)');
  if (validateRequest(body)) return body;
  const messages = [...new Set((validateRequest.errors ?? []).map(describe))];
  throw badRequest(messages[0] ?? 'request body is invalid', messages.length > 1 ? messages : undefined);
}
