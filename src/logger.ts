import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs on stdout. Never log document content, schemas or
 * keys: callers log ids, sizes, counts and timings only; the redact list is
 * a second line of defence for headers.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'docshape' },
    redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'apiKey', 'apiKeys'], censor: '[redacted]' },
  });
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
