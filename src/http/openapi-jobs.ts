/**
 * The job routes' part of /openapi.json (http/jobs-routes.ts): their paths and
 * the schemas of a job. openapi.ts puts them in the document when the
 * service serves jobs, with its own error responses.
 */
import { JOB_STATUSES } from '../jobs/job.js';
import { MAX_METADATA_BYTES } from './request-schema.js';
import { MAX_WAIT_SECONDS } from './jobs-routes.js';

type JsonObject = Record<string, unknown>;
type ErrorResponse = (description: string, extraHeaders?: JsonObject) => JsonObject;

const retryAfter = { 'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer', minimum: 0 } } };
const jobIdParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The id POST /v1/jobs answered.' };
const jobBody = { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } };

export const JOB_DESCRIPTIONS: Record<string, string> = {
  '/properties/webhook': 'Called when the job ends: a POST of {type, id, status, resultUrl, metadata} signed the Standard Webhooks way with WEBHOOK_SECRET. The host must be in WEBHOOK_ALLOWED_HOSTS.',
  '/properties/metadata': `Your own small object (at most ${MAX_METADATA_BYTES} bytes of JSON), echoed in GET /v1/jobs/{id} and in the webhook.`,
};

export const JOB_SCHEMAS: JsonObject = {
  Job: {
    type: 'object',
    required: ['id', 'status', 'progress', 'attempts', 'createdAt', 'startedAt', 'finishedAt', 'expiresAt', 'error', 'metadata'],
    properties: {
      id: { type: 'string' },
      status: { enum: [...JOB_STATUSES] },
      progress: {
        type: 'object',
        required: ['stage', 'pagesDone', 'pagesTotal'],
        properties: {
          stage: { enum: ['queued', 'reading', 'extracting', 'done'] },
          pagesDone: { type: 'integer', minimum: 0 },
          pagesTotal: { type: ['integer', 'null'], minimum: 0, description: 'Null until the files are open.' },
        },
      },
      attempts: { type: 'integer', minimum: 0, description: 'Runs started; a worker that died mid-job makes a second.' },
      createdAt: { type: 'string', format: 'date-time' },
      startedAt: { type: ['string', 'null'], format: 'date-time', description: 'When the latest run started.' },
      finishedAt: { type: ['string', 'null'], format: 'date-time' },
      expiresAt: { type: 'string', format: 'date-time', description: 'When the result is deleted: JOB_RESULT_TTL after the job ends (before that, the earliest it can be).' },
      error: { anyOf: [{ $ref: '#/components/schemas/Error' }, { type: 'null' }], description: 'For a failed job, the body POST /v1/ would have answered.' },
      errorStatus: { type: ['integer', 'null'], description: 'The HTTP status POST /v1/ would have answered with that error.' },
      metadata: { type: ['object', 'null'] },
    },
  },
  JobAccepted: {
    type: 'object',
    required: ['id', 'status', 'createdAt', 'expiresAt'],
    properties: {
      id: { type: 'string' },
      status: { enum: [...JOB_STATUSES] },
      createdAt: { type: 'string', format: 'date-time' },
      expiresAt: { type: 'string', format: 'date-time' },
    },
  },
};

/** `requestBody`: both forms of the body (openapi.ts's requestBodyContent for JobRequest and JobForm). */
export function jobPaths(errorResponse: ErrorResponse, result: JsonObject, requestBody: JsonObject): JsonObject {
  const notFound = errorResponse('No such job for this API key (another key\'s jobs do not exist for you).');
  const unavailable = errorResponse('The job queue (Redis) is unreachable or full; retry after Retry-After seconds. POST /v1/ works meanwhile.', retryAfter);
  return {
    '/v1/jobs': {
      post: {
        summary: 'Submit an extraction to run in the background',
        description: 'The same body as POST /v1/ (JSON or multipart/form-data), plus optional webhook and metadata. Every 400 of POST /v1/ is answered here, before anything is queued. With Idempotency-Key, a repeat with the same body returns the same job (for multipart, the same parts in the same order, whatever the boundary).',
        operationId: 'submitJob',
        tags: ['jobs'],
        security: [{ ApiKey: [] }],
        parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 }, description: 'Your key for this request: a repeat with the same key and body returns the same job; another body is a 422.' }],
        requestBody: { required: true, content: requestBody },
        responses: {
          '202': {
            description: 'Queued.',
            headers: { Location: { description: '/v1/jobs/{id}', schema: { type: 'string' } }, ...retryAfter },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/JobAccepted' } } },
            // Links say where the answer's id goes: clients and generators (schemathesis' stateful phase) follow them.
            links: {
              GetJob: { operationId: 'getJob', parameters: { id: '$response.body#/id' }, description: 'Poll the job.' },
              GetJobResult: { operationId: 'getJobResult', parameters: { id: '$response.body#/id' }, description: 'Fetch its result once it succeeded.' },
              CancelJob: { operationId: 'cancelJob', parameters: { id: '$response.body#/id' }, description: 'Cancel it.' },
            },
          },
          '400': errorResponse('The request is wrong, as POST /v1/ would say; or webhook.url is not allowed; or metadata is too large.'),
          '401': errorResponse('No x-api-key header, or not a configured key.'),
          '413': errorResponse('The body is larger than MAX_BODY_BYTES.'),
          '422': errorResponse('Idempotency-Key was used before with a different body.'),
          '503': unavailable,
        },
      },
    },
    '/v1/jobs/{id}': {
      get: {
        summary: 'A job\'s status and progress',
        operationId: 'getJob',
        tags: ['jobs'],
        security: [{ ApiKey: [] }],
        parameters: [
          jobIdParameter,
          { name: 'wait', in: 'query', required: false, schema: { type: 'integer', minimum: 0, maximum: MAX_WAIT_SECONDS }, description: `Long poll: answer when the job changes (status or progress) or after this many seconds (at most ${MAX_WAIT_SECONDS}); at once for a job that ended.` },
        ],
        responses: {
          '200': { description: 'The job. Retry-After while it is queued or running.', headers: retryAfter, content: jobBody },
          '400': errorResponse('wait is not a whole number of seconds from 0 to 30.'),
          '401': errorResponse('No x-api-key header, or not a configured key.'),
          '404': notFound,
          '503': unavailable,
        },
      },
      delete: {
        summary: 'Cancel a job and delete its input and result',
        description: 'A queued job never runs; a running one stops at its next page or model call. For a job that ended, its result is deleted. Answers the job as it is now.',
        operationId: 'cancelJob',
        tags: ['jobs'],
        security: [{ ApiKey: [] }],
        parameters: [jobIdParameter],
        responses: {
          '200': { description: 'Canceled (or, for a job that had ended, its result deleted).', content: jobBody },
          '401': errorResponse('No x-api-key header, or not a configured key.'),
          '404': notFound,
          '503': unavailable,
        },
      },
    },
    '/v1/jobs/{id}/result': {
      get: {
        summary: 'A succeeded job\'s result: what POST /v1/ would have answered',
        description: 'Can be fetched any number of times until expiresAt (JOB_RESULT_TTL after the job ended).',
        operationId: 'getJobResult',
        tags: ['jobs'],
        security: [{ ApiKey: [] }],
        parameters: [jobIdParameter],
        responses: {
          '200': result,
          '401': errorResponse('No x-api-key header, or not a configured key.'),
          '404': notFound,
          '409': errorResponse('The job is queued or running (Retry-After), or it failed (the message says why; GET /v1/jobs/{id} has the error).', retryAfter),
          '410': errorResponse('The result expired, was deleted, or the job was canceled.'),
          '503': unavailable,
        },
      },
    },
  };
}
