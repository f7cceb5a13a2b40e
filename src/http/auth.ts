import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { AppError } from '../errors.js';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export interface ApiKeyOptions {
  /** Also accept `Authorization: Bearer <key>`: what a Prometheus scrape config sends (GET /metrics). */
  bearer?: boolean;
}

function presentedKey(headers: IncomingHttpHeaders, options: ApiKeyOptions): string | undefined {
  const header = headers['x-api-key'];
  if (typeof header === 'string') return header;
  if (!options.bearer) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

/**
 * Checks `x-api-key` before the body is read. Keys are compared as SHA-256
 * digests with timingSafeEqual, so neither the content nor the length of a
 * configured key leaks through response timing. Every key is compared, hit
 * or miss, for the same reason.
 */
export function requireApiKey(apiKeys: string[], options: ApiKeyOptions = {}): RequestHandler {
  const expected = apiKeys.map(digest);
  return (req, res, next) => {
    const key = presentedKey(req.headers, options);
    const presented = key === undefined ? undefined : digest(key);
    let matched = false;
    for (const candidate of expected) {
      if (presented && timingSafeEqual(presented, candidate)) matched = true;
    }
    // who is asking, as the digest of their key: jobs belong to it (http/jobs-routes.ts)
    if (matched) res.locals.caller = presented!.toString('hex');
    next(matched ? undefined : new AppError('unauthorized', 'Unauthorized'));
  };
}
