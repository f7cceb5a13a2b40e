import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../errors.js';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Checks `x-api-key` before the body is read. Keys are compared as SHA-256
 * digests with timingSafeEqual, so neither the content nor the length of a
 * configured key leaks through response timing. Every key is compared, hit
 * or miss, for the same reason.
 */
export function requireApiKey(apiKeys: string[]): RequestHandler {
  const expected = apiKeys.map(digest);
  return (req, _res, next) => {
    const header = req.headers['x-api-key'];
    const presented = typeof header === 'string' ? digest(header) : undefined;
    let matched = false;
    for (const key of expected) {
      if (presented && timingSafeEqual(presented, key)) matched = true;
    }
    next(matched ? undefined : new AppError('unauthorized', 'Unauthorized'));
  };
}
