/**
 * The service's OpenAPI 3.1 document, served at GET /openapi.json without a
 * key. The request body is request-schema.ts's `requestSchema`, the very
 * object Ajv validates requests with, so a change to the request shape (a new
 * `options` member, say) changes the document too; only human descriptions
 * are laid over it here, and only on members that exist.
 */
import { readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';
import { ACCEPTED_MIME_TYPES, SUPPORTED_MIME_TYPES } from '../ingest/decode.js';
import { JOB_DESCRIPTIONS, JOB_SCHEMAS, jobPaths } from './openapi-jobs.js';
import { FILE_PART } from './multipart-body.js';
import { EXTRACT_JSON_PARTS, JOB_JSON_PARTS } from './request-body.js';
import { jobRequestSchema, requestSchema } from './request-schema.js';
import { ENGINE_HEADER, OCR_HEADER } from './v1.js';

type JsonObject = Record<string, unknown>;

export interface OpenApiOptions {
  /** Whether GET /metrics exists (METRICS=on). */
  metrics: boolean;
  /** Whether the job routes exist (the API with a job queue). */
  jobs?: boolean;
}

/** Descriptions for members of the request schema, by their JSON Pointer within it. */
const REQUEST_DESCRIPTIONS: Record<string, string> = {
  '': 'A JSON Schema to fill and the documents to read it from.',
  '/properties/schema':
    'JSON Schema (draft-07 or 2020-12) of the object to extract; its root must be an object. Only local $refs (#/...) are allowed. Descriptions guide the engine.',
  '/properties/contents': 'The documents, read together as one.',
  '/properties/contents/items/properties/filename': 'Optional name, used in error messages; with a generic mimeType its extension tells text types apart (.csv, .tsv, .md, .txt, .html, .json, .eml).',
  '/properties/contents/items/properties/mimeType': `One of ${SUPPORTED_MIME_TYPES.join(', ')} (or an alias: ${ACCEPTED_MIME_TYPES.filter((type) => !SUPPORTED_MIME_TYPES.includes(type)).join(', ')}); the bytes must match it. application/octet-stream or "" has the bytes tell the type (magic bytes, then the filename for text). application/xml is an e-invoice without a page: CII (ZUGFeRD 1.0 CrossIndustryDocument, CrossIndustryInvoice of ZUGFeRD 2.x / Factur-X / XRechnung) or UBL 2.1 Invoice or CreditNote, at most MAX_XML_MB, without a DTD; other XML is read as a line per value with its element path. Office files inflate to at most MAX_INFLATE_MB; an e-mail's attachments are read by their own types (docs/inputs.md).`,
  '/properties/contents/items/properties/data': 'The file, standard or URL-safe base64; a data:<mime>;base64, prefix is accepted.',
  '/properties/options': 'How to extract; every member is optional and an unknown one is a 400.',
  '/properties/options/properties/dateOrder': 'How to read a numeric date like 03/04/2024: dmy, mdy, or auto (from the document); overrides DATE_ORDER.',
  '/properties/options/properties/evidence':
    'Answer {"data": <the object>, "evidence": {...}}: for every non-null value, where it was read (file, page, boxes, text, source, OCR confidence) and how sure docshape is of it (confidence). A value read from an e-invoice has source "e-invoice" and eInvoice: {term, name, path, attachment, printed: same | differs | not printed | no page, printedText}; file, page and boxes are then where the printed page shows the field.',
  '/properties/options/properties/eInvoice':
    'auto: read the e-invoice XML a PDF carries (ZUGFeRD, Factur-X, XRechnung; /Names /EmbeddedFiles or /AF) as a source of its own, before the printed pages; ignore: read only the visible pages (an XML file is then a 400). Overrides E_INVOICE (default auto).',
};

/** Follows an unescaped JSON Pointer made only of object keys; undefined where the schema has no such member. */
function memberAt(root: JsonObject, pointer: string): JsonObject | undefined {
  let node: unknown = root;
  for (const key of pointer.split('/').slice(1)) {
    node = typeof node === 'object' && node !== null ? (node as JsonObject)[key] : undefined;
  }
  return typeof node === 'object' && node !== null ? (node as JsonObject) : undefined;
}

/** The request schema as published: a copy of the validator's, with descriptions where it has none. */
export function publishedRequestSchema(source: object = requestSchema, descriptions: Record<string, string> = REQUEST_DESCRIPTIONS): JsonObject {
  const schema = structuredClone(source) as JsonObject;
  for (const [pointer, description] of Object.entries(descriptions)) {
    const member = memberAt(schema, pointer);
    if (member && member.description === undefined) member.description = description;
  }
  return schema;
}

/**
 * The multipart/form-data form of a request: the JSON members but `contents`
 * as parts holding JSON, and a `file` part per document. Its members are
 * those of the JSON form's published schema, so the two cannot drift.
 */
export function multipartRequestSchema(published: JsonObject, jsonParts: readonly string[]): JsonObject {
  const properties = published.properties as Record<string, JsonObject>;
  return {
    type: 'object',
    description: `The same request as the JSON form, for curl -F and browsers' FormData: ${jsonParts.map((name) => `"${name}"`).join(', ')} as parts holding JSON (a field, or a file part such as -F schema=@schema.json), and each document as a part named "${FILE_PART}", its bytes as they are (no base64). Errors name the n-th "${FILE_PART}" part (from 0) as the JSON form names contents[n]: contents[n].data its bytes, contents[n].mimeType its type.`,
    required: ['schema', FILE_PART],
    properties: {
      ...Object.fromEntries(jsonParts.map((name) => [name, properties[name]])),
      [FILE_PART]: {
        type: 'array',
        minItems: 1,
        description: `The documents, read together as one, in order. A part's type is its Content-Type (one of ${SUPPORTED_MIME_TYPES.join(', ')}); a part that says application/octet-stream, text/plain or nothing has its bytes (and, for text, its filename's extension) tell, as application/octet-stream does in the JSON form. At most MAX_FILES parts; the body at most MAX_BODY_BYTES.`,
        items: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' },
      },
    },
  };
}

function multipartEncoding(jsonParts: readonly string[]): JsonObject {
  return {
    ...Object.fromEntries(jsonParts.map((name) => [name, { contentType: 'application/json' }])),
    [FILE_PART]: { contentType: [...SUPPORTED_MIME_TYPES, 'application/octet-stream'].join(', ') },
  };
}

/** A request body in both forms: JSON with base64 files, and multipart/form-data with the files as they are. */
export function requestBodyContent(jsonSchemaName: string, formSchemaName: string, jsonParts: readonly string[]): JsonObject {
  return {
    'application/json': { schema: { $ref: `#/components/schemas/${jsonSchemaName}` } },
    'multipart/form-data': { schema: { $ref: `#/components/schemas/${formSchemaName}` }, encoding: multipartEncoding(jsonParts) },
  };
}

/** Whether the request schema accepts `options.evidence` (issue 12); the playground asks for evidence only then. */
export function supportsEvidence(schema: JsonObject = publishedRequestSchema()): boolean {
  return memberAt(schema, '/properties/options/properties/evidence') !== undefined;
}

const errorBody = { $ref: '#/components/schemas/Error' };
const requestIdHeader = { $ref: '#/components/headers/RequestId' };

function errorResponse(description: string, extraHeaders: JsonObject = {}): JsonObject {
  return {
    description,
    headers: { 'x-request-id': requestIdHeader, ...extraHeaders },
    content: { 'application/json': { schema: errorBody } },
  };
}

function extractionResponses(evidence: boolean): JsonObject {
  const extracted = { $ref: '#/components/schemas/ExtractedObject' };
  return {
    '200': {
      description: evidence
        ? 'The extracted object itself; with options.evidence, {"data": <the object>, "evidence": {...}}.'
        : 'The extracted object itself, no wrapper: every property of the schema present, null where the documents do not hold it.',
      headers: {
        'x-request-id': requestIdHeader,
        [ENGINE_HEADER]: {
          description: 'The engine that produced the answer, e.g. rules, ollama:qwen2.5:7b-instruct.',
          schema: { type: 'string' },
        },
        [OCR_HEADER]: {
          description: 'The OCR engine that read the scanned pages and images of this request (paddle or tesseract), or none when every page had a text layer.',
          schema: { type: 'string', enum: ['paddle', 'tesseract', 'none'] },
        },
        'server-timing': {
          description: 'Milliseconds per stage: decode, ocr, extract (desc = engine), validate, total.',
          schema: { type: 'string' },
          example: 'decode;dur=4.1, ocr;dur=0.0, extract;dur=12.5;desc="rules", validate;dur=0.8, total;dur=18.2',
        },
      },
      content: {
        'application/json': { schema: evidence ? { anyOf: [extracted, { $ref: '#/components/schemas/ExtractionWithEvidence' }] } : extracted },
      },
    },
    '400': errorResponse(
      'The request is wrong, and the message names the field: body not JSON, an object in the body of more than 50,000 keys, schema or contents missing, a multipart body without its boundary, cut short, with a part that is not JSON where JSON belongs, two schema parts, a part of another name or no file part, unsupported mimeType, bad base64, bytes that do not match the type, an unusable schema, an undecodable or encrypted file, too many files, pages, words or pixels, a PDF stream that decompresses past its limit, XML over MAX_XML_MB, XML or an Office part that is malformed or declares a DTD, an Office file inflating past MAX_INFLATE_MB, a CSV record over 1 MiB, HTML nested over 1,000 deep, an e-mail over MAX_EMAIL_PARTS or MAX_EMAIL_DEPTH.',
    ),
    '401': errorResponse('No x-api-key header, or not a configured key. Sent before the body is read.'),
    '413': errorResponse('The body is larger than MAX_BODY_BYTES, or a JSON part of a multipart body larger than its limit (a schema part 2 MB).'),
    '422': errorResponse('No answer can fit the schema: it refuses the extracted object even with every value the documents lack left null, e.g. propertyNames that refuse the declared names (details lists why).'),
    '500': errorResponse('The engine gave no usable answer (a model that never wrote valid JSON; details lists why), or an internal error.'),
    '503': errorResponse('Busy (the request queue is full or the wait too long) or the model server is unavailable; retry after Retry-After seconds.', {
      'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
    }),
    '504': errorResponse('The request took longer than REQUEST_TIMEOUT_MS, or a model call longer than LLM_TIMEOUT_MS.'),
  };
}

/** Shape of an evidence answer as issue 12 specifies it; published only once the request schema accepts options.evidence. */
const EVIDENCE_SCHEMAS: JsonObject = {
  ExtractionWithEvidence: {
    type: 'object',
    required: ['data', 'evidence'],
    properties: {
      data: { $ref: '#/components/schemas/ExtractedObject' },
      evidence: {
        type: 'object',
        description: 'For the JSON Pointer of every non-null leaf of data, where it was read and how sure docshape is.',
        additionalProperties: { $ref: '#/components/schemas/Evidence' },
      },
    },
  },
  Evidence: {
    type: 'object',
    required: ['confidence'],
    properties: {
      file: { type: 'integer', minimum: 0, description: 'Index in contents.' },
      page: { type: 'integer', minimum: 0, description: '0-based page (frame) of that file.' },
      bbox: { $ref: '#/components/schemas/PageBox' },
      boxes: { type: 'array', items: { $ref: '#/components/schemas/PageBox' }, description: 'One box per line for values spanning lines.' },
      text: { type: 'string', description: 'The document text the value was read from (a computed value: what it was computed from), a line break between lines.' },
      source: { enum: ['text-layer', 'ocr'] },
      ocrConfidence: { type: 'number', minimum: 0, maximum: 1, description: 'The lowest OCR confidence among the words, when OCR read them.' },
      at: {
        type: 'object',
        description: 'Where in its file, for a page that is part of a file rather than a printed page (an e-mail attachment, a sheet, a slide, an Office, HTML, CSV or text file): follow these, the boxes of such a page are made up.',
        properties: {
          attachment: { type: 'string', description: 'The e-mail attachment, a path for nested ones ("forwarded.eml/invoice.pdf").' },
          attachmentPage: { type: 'integer', minimum: 1, description: 'The page within that attachment.' },
          sheet: { type: 'string' },
          slide: { type: 'integer', minimum: 1 },
          places: { type: 'array', items: { type: 'string' }, description: 'The places of the value\'s words: "Invoice!B7", "paragraph 4", "table 1, row 3, column 2", "line 12", "line 12, column 3", "/Order/Line[2]/Price", "$.items[0].price", "header subject".' },
        },
      },
      confidence: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        description: 'Probability that the value is right, calibrated on labelled documents (docs/evidence-and-confidence.md). A value no document word supports is listed with a low confidence and no box.',
      },
    },
  },
  PageBox: {
    type: 'array',
    description: '[x0, y0, x1, y1] as fractions of the width and height of the page as sent (a photo OCR read turned included), origin top-left.',
    items: { type: 'number', minimum: 0, maximum: 1 },
    minItems: 4,
    maxItems: 4,
  },
};

const readinessSchema = {
  type: 'object',
  required: ['ready'],
  properties: {
    ready: { type: 'boolean' },
    shuttingDown: { type: 'boolean' },
    ocr: { type: 'object', description: 'OCR workers: ready, workers, busy, queued, jobsDone.' },
    engine: { type: 'object', description: 'name, ready, detail, chosenBecause.' },
    requests: { type: 'object', description: 'Admission: active, queued and their limits.' },
    jobs: {
      type: 'object',
      description: 'The job queue: queue (in-process or redis), durable (survives a restart, shared by replicas), available (jobs can be submitted now), problem. Never makes the service unready: POST /v1/ works without it.',
    },
  },
};

function metricsPath(): JsonObject {
  return {
    get: {
      summary: 'Prometheus metrics',
      description: 'Prometheus text format. The key may be sent as x-api-key or Authorization: Bearer <key>. Absent with METRICS=off.',
      operationId: 'metrics',
      tags: ['operations'],
      security: [{ ApiKey: [] }, { BearerKey: [] }],
      responses: {
        '200': { description: 'Metrics', content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
        '401': errorResponse('No key, or not a configured key.'),
      },
    },
  };
}

function packageVersion(): string {
  try {
    // dist/src/http/openapi.js -> the package root, where package.json lives in a checkout and in the image.
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function jobSchemas(): JsonObject {
  const request = publishedRequestSchema(jobRequestSchema, { ...REQUEST_DESCRIPTIONS, '': 'The body of POST /v1/, and where to call back and what to echo.', ...JOB_DESCRIPTIONS });
  return { JobRequest: request, JobForm: multipartRequestSchema(request, JOB_JSON_PARTS), ...JOB_SCHEMAS };
}

export function buildOpenApiDocument(options: OpenApiOptions): JsonObject {
  const request = publishedRequestSchema();
  const evidence = supportsEvidence(request);
  const paths: JsonObject = {
    '/v1/': {
      post: {
        summary: 'Extract one JSON object following a JSON Schema from documents',
        description: 'Also served at /v1. Documents are read by pdf.js (text layer) and OCR, then an engine fills the schema. Nothing leaves the host. The body is JSON with the files in base64, or multipart/form-data with the files as they are (curl -F file=@invoice.pdf); both get the same answers.',
        operationId: 'extract',
        tags: ['extraction'],
        security: [{ ApiKey: [] }],
        requestBody: { required: true, content: requestBodyContent('ExtractionRequest', 'ExtractionForm', EXTRACT_JSON_PARTS) },
        responses: extractionResponses(evidence),
      },
    },
    '/healthz': {
      get: {
        summary: 'Liveness: the process answers',
        operationId: 'healthz',
        tags: ['operations'],
        security: [],
        responses: {
          '200': {
            description: 'Alive',
            content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } } } },
          },
        },
      },
    },
    '/readyz': {
      get: {
        summary: 'Readiness: OCR workers up, engine ready, not shutting down',
        operationId: 'readyz',
        tags: ['operations'],
        security: [],
        responses: {
          '200': { description: 'Ready', content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } } },
          '503': { description: 'Not ready (starting, engine unavailable, or draining)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } } },
        },
      },
    },
    ...(options.jobs ? jobPaths(errorResponse, (extractionResponses(evidence) as Record<string, JsonObject>)['200']!, requestBodyContent('JobRequest', 'JobForm', JOB_JSON_PARTS)) : {}),
    ...(options.metrics ? { '/metrics': metricsPath() } : {}),
    '/openapi.json': {
      get: {
        summary: 'This document',
        operationId: 'openapi',
        tags: ['operations'],
        security: [],
        responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
    '/': {
      get: {
        summary: 'The playground: try an extraction in a browser',
        operationId: 'playground',
        tags: ['operations'],
        security: [],
        responses: { '200': { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'docshape',
      version: packageVersion(),
      description: 'Self-hosted document extraction: a JSON Schema and images/PDFs in, one schema-shaped JSON object out.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    tags: [{ name: 'extraction' }, ...(options.jobs ? [{ name: 'jobs' }] : []), { name: 'operations' }],
    security: [{ ApiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'One of API_KEYS / API_KEYS_FILE.' },
        BearerKey: { type: 'http', scheme: 'bearer', description: 'The same key as Authorization: Bearer <key> (GET /metrics only).' },
      },
      headers: {
        RequestId: { description: 'The caller\'s x-request-id echoed when it is safe to log, otherwise a new one.', schema: { type: 'string' } },
      },
      schemas: {
        ExtractionRequest: request,
        ExtractionForm: multipartRequestSchema(request, EXTRACT_JSON_PARTS),
        ExtractedObject: { type: 'object', description: 'Follows the schema sent in the request.' },
        Error: {
          type: 'object',
          required: ['error'],
          properties: { error: { type: 'string', description: 'What went wrong, naming the field.' }, details: { type: 'array', items: { type: 'string' } } },
        },
        Readiness: readinessSchema,
        ...(options.jobs ? jobSchemas() : {}),
        ...(evidence ? EVIDENCE_SCHEMAS : {}),
      },
    },
  };
}

/** GET /openapi.json: built once, since every input is fixed at start. */
export function openApiHandler(options: OpenApiOptions): RequestHandler {
  const body = JSON.stringify(buildOpenApiDocument(options));
  return (_req, res) => {
    res.type('application/json').send(body);
  };
}
