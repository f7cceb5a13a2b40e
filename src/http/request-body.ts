/**
 * The body of POST /v1/ and POST /v1/jobs, in either form a caller may send:
 * JSON with base64 files (json-body.ts) or multipart/form-data with the
 * files as they are (multipart-body.ts), chosen by Content-Type. Both give
 * the handlers the same object.
 */
import type { RequestHandler } from 'express';
import type { Limits } from '../config.js';
import { jsonBody } from './json-body.js';
import { multipartBody } from './multipart-body.js';

/** The JSON parts of each route's multipart form: the members of its JSON body other than `contents`. */
export const EXTRACT_JSON_PARTS = ['schema', 'options'] as const;
export const JOB_JSON_PARTS = [...EXTRACT_JSON_PARTS, 'webhook', 'metadata'] as const;

export interface RequestBodyOptions {
  /**
   * POST /v1/jobs: the JSON body's bytes kept (`rawBody`, its store keeps
   * them) and a multipart body's parts digested (`partsDigest`) for
   * Idempotency-Key; and its JSON parts.
   */
  job?: boolean;
}

export function requestBody(limits: Pick<Limits, 'maxBodyBytes' | 'maxFiles'>, options: RequestBodyOptions = {}): RequestHandler {
  const json = jsonBody(limits.maxBodyBytes, options.job ? { keepBytes: true } : {});
  const multipart = multipartBody({
    limitBytes: limits.maxBodyBytes,
    maxFiles: limits.maxFiles,
    jsonParts: options.job ? JOB_JSON_PARTS : EXTRACT_JSON_PARTS,
    digest: options.job === true,
  });
  return (req, res, next) => (req.is('multipart/form-data') === 'multipart/form-data' ? multipart : json)(req, res, next);
}
