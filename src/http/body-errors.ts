/**
 * The answers a request body that cannot be read gets, the same whichever
 * reader found the problem: json-body.ts's own readers or express's
 * body-parser (its errors mapped in error-handler.ts).
 */
import { AppError, badRequest } from '../errors.js';

/** 413: more bytes than MAX_BODY_BYTES (counted inflated for a compressed body). */
export function bodyTooLarge(limitBytes: number): AppError {
  return new AppError('payload_too_large', `request body exceeds the limit of ${limitBytes} bytes (MAX_BODY_BYTES)`);
}

/** 400: the client stopped sending before the body ended. */
export function bodyCutShort(): AppError {
  return new AppError('bad_request', 'request body was not received completely');
}

/** 400: the bytes came but cannot be read as sent (a length that does not match, data that does not decompress). */
export function bodyUnreadable(reason: string): AppError {
  return badRequest(`request body cannot be read: ${reason}`);
}
