import { createHash } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Limits, WebhookConfig } from '../config.js';
import { AppError, badRequest } from '../errors.js';
import type { JobsRuntime } from '../jobs/create-jobs.js';
import { jobView, type JobRecord } from '../jobs/job.js';
import { POLL_AFTER_SECONDS } from '../jobs/jobs.js';
import { webhookProblem } from '../jobs/webhooks.js';
import { prepareRequest } from '../pipeline.js';
import { requireApiKey } from './auth.js';
import type { RawBodyRequest } from './json-body.js';
import type { MultipartRequest } from './multipart-body.js';
import { requestBody } from './request-body.js';
import { parseJobRequest } from './request-schema.js';

export interface JobRoutesDeps {
  runtime: JobsRuntime;
  apiKeys: string[];
  limits: Limits;
  webhooks: WebhookConfig;
}

/** The longest long poll (GET /v1/jobs/{id}?wait=N), in seconds: under the 60 s idle timeout of the usual proxies. */
export const MAX_WAIT_SECONDS = 30;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** Bytes of the body hashed between two turns of the event loop (a 50 MB body would block it ~100 ms in one go). */
const HASH_SLICE = 1024 * 1024;

async function digestInSlices(bytes: Buffer): Promise<string> {
  const hash = createHash('sha256');
  for (let offset = 0; offset < bytes.length; offset += HASH_SLICE) {
    hash.update(bytes.subarray(offset, offset + HASH_SLICE));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return hash.digest('hex');
}

function caller(res: Response): string {
  return res.locals.caller as string;
}

/** The job's id from the path: what the service issues (a UUID); anything else cannot be a job. */
function jobId(req: Request): string {
  const id = String(req.params.id);
  if (!/^[0-9a-f-]{36}$/.test(id)) throw new AppError('not_found', `no job ${id.slice(0, 64)} for this API key`);
  return id;
}

function sendRecord(res: Response, record: JobRecord): void {
  if (record.status === 'queued' || record.status === 'running') res.setHeader('Retry-After', String(POLL_AFTER_SECONDS));
  res.setHeader('Cache-Control', 'no-store');
  res.json(jobView(record));
}

/**
 * POST /v1/jobs, GET /v1/jobs/{id}[?wait=N], GET /v1/jobs/{id}/result,
 * DELETE /v1/jobs/{id}: the same key as /v1/, and every 400 of /v1/ at
 * submit time, before anything is queued (src/jobs/ does the rest).
 */
export function jobRoutes(deps: JobRoutesDeps): Router {
  const { runtime, limits } = deps;
  const router = Router();
  const auth = requireApiKey(deps.apiKeys);
  // Refused before the body is read while the queue cannot take it (Redis away or unusable).
  const available: RequestHandler = (_req, _res, next) => {
    const status = runtime.status();
    next(status.available ? undefined : new AppError('queue_unavailable', `jobs cannot be submitted now: ${status.problem ?? 'the queue is unavailable'}; retry later`, { retryAfterSeconds: 5 }));
  };
  // a JSON body's bytes are what a job store keeps, so every string is a string here (none left as body bytes)
  const readBody = requestBody(limits, { job: true });

  router.post(['/v1/jobs', '/v1/jobs/'], auth, available, readBody, async (req: RawBodyRequest & MultipartRequest, res) => {
    const body = parseJobRequest(req.body);
    if (body.webhook) {
      const problem = webhookProblem(body.webhook.url, deps.webhooks);
      if (problem) throw badRequest(problem);
    }
    const key = req.get('idempotency-key');
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters');
    // the same checks as POST /v1/ (schema, base64, file types, limits): a bad request is never queued
    await prepareRequest(body, limits);
    // a JSON body is kept as it came (rawBody); a multipart one as its request (jobs/input-bytes.ts), its parts digested as they came
    const raw = req.rawBody;
    const bodyHash = async () => (raw ? await digestInSlices(raw) : req.partsDigest!);
    const { record, created } = await runtime.jobs.submit({
      owner: caller(res),
      input: { ...(raw ? { raw } : {}), request: { schema: body.schema, contents: body.contents, ...(body.options ? { options: body.options } : {}) } },
      metadata: body.metadata ?? null,
      webhook: body.webhook ? { url: body.webhook.url } : null,
      baseUrl: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
      ...(key !== undefined ? { idempotency: { key: createHash('sha256').update(key).digest('hex'), bodyHash: await bodyHash() } } : {}),
    });
    res.setHeader('Location', `/v1/jobs/${record.id}`);
    res.setHeader('Retry-After', String(POLL_AFTER_SECONDS));
    if (!created) res.setHeader('Idempotent-Replayed', 'true');
    res.status(202).json({ id: record.id, status: record.status, createdAt: new Date(record.createdAt).toISOString(), expiresAt: new Date(record.expiresAt).toISOString() });
  });

  router.get('/v1/jobs/:id', auth, async (req, res) => {
    const id = jobId(req);
    const raw = req.query.wait;
    if (raw === undefined) return sendRecord(res, await runtime.jobs.status(caller(res), id));
    const wait = Number(raw);
    if (typeof raw !== 'string' || !Number.isInteger(wait) || wait < 0 || wait > MAX_WAIT_SECONDS) {
      throw badRequest(`wait must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}`);
    }
    const left = new AbortController();
    res.on('close', () => left.abort());
    sendRecord(res, await runtime.jobs.wait(caller(res), id, wait * 1000, left.signal));
  });

  router.get('/v1/jobs/:id/result', auth, async (req, res) => {
    const result = await runtime.jobs.result(caller(res), jobId(req));
    res.setHeader('Cache-Control', 'no-store');
    res.type('application/json').send(result);
  });

  router.delete('/v1/jobs/:id', auth, async (req, res) => {
    sendRecord(res, await runtime.jobs.cancel(caller(res), jobId(req)));
  });

  const methods = (allow: string): RequestHandler => (req, res, next) => {
    res.setHeader('Allow', allow);
    next(new AppError('method_not_allowed', `use ${allow.split(', ').join(' or ')} ${req.path}`));
  };
  router.all(['/v1/jobs', '/v1/jobs/'], methods('POST'));
  router.all('/v1/jobs/:id', methods('GET, DELETE'));
  router.all('/v1/jobs/:id/result', methods('GET'));
  return router;
}
