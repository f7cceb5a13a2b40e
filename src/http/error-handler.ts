import type { ErrorRequestHandler } from 'express';
import { AppError, errorAnswer, isAppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { closeGentlyAfterAnswer } from './close-gently.js';
import { bodyCutShort, bodyTooLarge, bodyUnreadable } from './body-errors.js';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  /** Set by http-errors on 4xx errors whose message is meant for the client. */
  expose?: boolean;
}

/** Maps body-parser's errors (which carry `type`) onto AppError. */
function fromBodyParser(error: BodyParserError & Error): AppError | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return bodyTooLarge(error.limit ?? 0);
    case 'entity.parse.failed':
      return new AppError('bad_request', `request body is not valid JSON: ${error.message}`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('bad_request', `request body encoding is not supported: ${error.message}`);
    case 'request.aborted':
      return bodyCutShort();
    default:
      // e.g. a body that does not decompress as its Content-Encoding says ("incorrect header check"): the client's error, not a 500
      if (error.expose && typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
        return bodyUnreadable(error.message);
      }
      return undefined;
  }
}

/** The only place where errors become HTTP responses. Unknown errors are a generic 500 without internals. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const appError = isAppError(error) ? error : fromBodyParser(error as BodyParserError & Error);
    const requestId = res.getHeader('x-request-id');
    if (!appError) {
      logger.error({ requestId, err: error }, 'unhandled error');
    } else if (appError.status >= 500) {
      logger.warn({ requestId, code: appError.code, status: appError.status, message: appError.message, cause: appError.cause }, 'request failed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    const { status, body } = errorAnswer(appError);
    if (appError?.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
    // Unread request bytes (e.g. a 401 before the body) must not be parsed as the next request.
    if (!req.complete) {
      res.setHeader('Connection', 'close');
      closeGentlyAfterAnswer(req.socket);
    }
    res.status(status).json(body);
  };
}
