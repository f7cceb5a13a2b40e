/**
 * The JSON body parser of POST /v1/: express.json's behaviour (limit -> 413,
 * Content-Encoding, charset, the same errors), without parsing a file's base64
 * on the event loop. A 50 MB body cost the loop 250-400 ms as text decoding
 * plus JSON.parse, then a copy of the string to the decode thread; /healthz
 * waited that long. Here the body stays bytes: string literals of
 * LONG_STRING_BYTES or more are found with native indexOf and left out of
 * JSON.parse (a per-request random placeholder stands in for each), and each
 * `contents[i].data` among them goes on as a JsonStringBytes view of the body,
 * made into text and checked on the decode thread. A long string anywhere else
 * (a long schema description) is made into a string here. A literal holding a
 * backslash stays in JSON.parse: its text is not simply its bytes. A rest of
 * PACED_PARSE_CHARS or more (millions of small values: no legit request's) is
 * parsed in slices between turns of the loop (util/paced-json.ts), and an
 * object of more than MAX_OBJECT_KEYS keys in it is a 400.
 */
import { randomBytes } from 'node:crypto';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import express, { type NextFunction, type Request, type RequestHandler } from 'express';
import { badRequest } from '../errors.js';
import { JsonStringBytes } from '../util/json-string-bytes.js';
import { bodyCutShort, bodyTooLarge, bodyUnreadable } from './body-errors.js';
import { BACKSLASH, COLON, isJsonWhitespace, JsonWidthError, pacedJsonParse, QUOTE } from '../util/paced-json.js';
import { Pacer, runPaced, runSync, type PacedWork } from '../util/paced.js';

/** Shorter strings cost JSON.parse less than the bookkeeping of leaving them out. */
export const LONG_STRING_BYTES = 64 * 1024;
/**
 * A rest at least this long is parsed in slices: a schema and a few fields
 * are tens of KB, and JSON.parse of 256 KB of small values costs a few ms,
 * while 2.7 MB of them (100,000 schema properties) held the loop 150-250 ms.
 */
export const PACED_PARSE_CHARS = 256 * 1024;
/**
 * Most keys an object of a paced body may have. No part of a request comes
 * near (a schema has at most 500 properties in 512 KB, metadata 16 KB), and
 * whatever lists an object's keys does so in one piece: 100,000 keys held the
 * loop 45-165 ms in the schema checks. A text below PACED_PARSE_CHARS cannot
 * hold this many (a key and its value take at least 6 characters: 300,000), so
 * JSON.parse's bodies need no check.
 */
export const MAX_OBJECT_KEYS = 50_000;
/** Values visited between two turns while the long strings are put back. */
const NODES_PER_TURN = 4096;

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Whether the quote at `at` is escaped: an odd run of backslashes right before it (after the literal's opening quote). */
function isEscaped(body: Buffer, at: number, open: number): boolean {
  let backslashes = 0;
  for (let i = at - 1; i > open && body[i] === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 1;
}

interface LongString {
  /** The opening and the closing quote. */
  open: number;
  close: number;
}

/**
 * The string values (not keys) of `minBytes` or more without a backslash, by
 * their quotes. Quotes are walked with indexOf, so the loop runs once per
 * literal, not per byte. Outside a string every quote opens one in JSON; a body
 * that is not JSON fails JSON.parse of the rest all the same, at its first error.
 */
export function findLongStrings(body: Buffer, start: number, minBytes: number): LongString[] {
  const found: LongString[] = [];
  let at = start;
  for (;;) {
    const open = body.indexOf(QUOTE, at);
    if (open < 0) return found;
    let close = body.indexOf(QUOTE, open + 1);
    while (close >= 0 && isEscaped(body, close, open)) close = body.indexOf(QUOTE, close + 1);
    if (close < 0) return found; // unterminated: JSON.parse says so
    at = close + 1;
    if (close - open - 1 < minBytes || body.subarray(open + 1, close).indexOf(BACKSLASH) >= 0) continue;
    let next = close + 1;
    while (isJsonWhitespace(body[next])) next++;
    if (body[next] === COLON) continue; // a key
    found.push({ open, close });
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON.parse's SyntaxError as the 400 express.json's error gave (error-handler.ts); an object too wide as a 400 of its own.
 * `subject` names what was parsed: the request body, or a part of a multipart body.
 */
function notJson(error: unknown, message = error instanceof Error ? error.message : String(error), subject = 'request body'): Error {
  if (error instanceof JsonWidthError) return badRequest(`${subject}: ${message}; no part of a request has that many`);
  return badRequest(`${subject} is not valid JSON: ${message}`);
}

/** JSON.parse(text), or the same in slices for a long text: a unit of work per slice. */
function* parseText(text: string): PacedWork<unknown> {
  return text.length >= PACED_PARSE_CHARS ? yield* pacedJsonParse(text, MAX_OBJECT_KEYS) : JSON.parse(text);
}

/**
 * A whole text as JSON (a BOM skipped), in slices when long, as a request
 * body is parsed: a multipart body's JSON parts (http/multipart-body.ts).
 * Throws a 400 saying that `subject` is not valid JSON.
 */
export function* jsonTextValue(text: string, subject: string): PacedWork<unknown> {
  try {
    return yield* parseText(text.startsWith('\ufeff') ? text.slice(1) : text);
  } catch (error) {
    throw notJson(error, undefined, subject);
  }
}

/**
 * JSON.parse of a UTF-8 body (a BOM skipped, empty = {} as express.json does),
 * the same value but with `contents[i].data` strings of `minBytes` or more as
 * JsonStringBytes views of `body`. Throws a 400 AppError for a body that is not JSON.
 */
export function parseJsonBody(body: Buffer, minBytes = LONG_STRING_BYTES): unknown {
  return runSync(jsonBodyValue(body, minBytes));
}

/** parseJsonBody, giving the loop back between slices of a long body's parse (PACED_PARSE_CHARS). */
export function parseJsonBodyPaced(body: Buffer, minBytes = LONG_STRING_BYTES): Promise<unknown> {
  return runPaced(jsonBodyValue(body, minBytes), new Pacer(undefined, 1));
}

/** parseJsonBody as paced work: a unit per slice of the parse or per NODES_PER_TURN values visited after it. */
export function* jsonBodyValue(body: Buffer, minBytes = LONG_STRING_BYTES): PacedWork<unknown> {
  const start = UTF8_BOM.every((byte, i) => body[i] === byte) ? UTF8_BOM.length : 0;
  if (body.length === start) return {};
  const long = body.length - start >= minBytes ? findLongStrings(body, start, minBytes) : [];
  if (long.length === 0) {
    try {
      return yield* parseText(body.toString('utf8', start));
    } catch (error) {
      throw notJson(error);
    }
  }
  // a placeholder no caller can write: random per request
  const token = `docshape-long-string-${randomBytes(16).toString('hex')}-`;
  const parts: string[] = [];
  let from = start;
  long.forEach(({ open, close }, i) => {
    parts.push(body.toString('utf8', from, open + 1), token, String(i));
    from = close;
  });
  parts.push(body.toString('utf8', from));
  let value: unknown;
  try {
    value = yield* parseText(parts.join(''));
  } catch (error) {
    throw notJson(error, inBodyTerms(error, long, token, start));
  }
  const strings = long.map(({ open, close }) => new JsonStringBytes(body.subarray(open + 1, close), open + 1));
  return yield* resolvePlaceholders(value, strings, token);
}

/** A parse error of the text with placeholders, its position moved back to the body's and no placeholder shown. */
function inBodyTerms(error: unknown, long: LongString[], token: string, start: number): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/position (\d+)(?: \(line \d+ column \d+\))?/, (_match, position: string) => {
      let at = Number(position) + start;
      for (const [i, { open, close }] of long.entries()) {
        const placeholderLength = token.length + String(i).length;
        if (open + 1 >= at) break;
        at += close - open - 1 - placeholderLength;
      }
      return `position ${at}`;
    })
    .replaceAll(new RegExp(`${token}\\d+`, 'g'), '…');
}

function placeholderIndex(value: unknown, token: string): number | undefined {
  return typeof value === 'string' && value.startsWith(token) ? Number(value.slice(token.length)) : undefined;
}

/** Each placeholder back: a file's `data` as bytes, any other string as the string (a SyntaxError there is a 400). */
function* resolvePlaceholders(value: unknown, strings: JsonStringBytes[], token: string): PacedWork<unknown> {
  let left = strings.length;
  if (isPlainObject(value) && Array.isArray(value.contents)) {
    for (const item of value.contents) {
      const index = isPlainObject(item) ? placeholderIndex(item.data, token) : undefined;
      if (index === undefined || !isPlainObject(item)) continue;
      item.data = strings[index];
      left--;
    }
  }
  // made in turns: a string of 8,000,000 characters took the loop 15-20 ms to decode and check
  const text = function* (index: number): PacedWork<string> {
    left--;
    try {
      return yield* strings[index]!.textWork();
    } catch (error) {
      throw notJson(error);
    }
  };
  const top = placeholderIndex(value, token);
  if (top !== undefined) return yield* text(top);
  // the rest: walked until every placeholder is found (JSON.parse drops a duplicate key's earlier value, so maybe never)
  const stack: unknown[] = [value];
  let visited = 0;
  while (left > 0 && stack.length > 0) {
    if (++visited % NODES_PER_TURN === 0) yield;
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      const index = placeholderIndex(child, token);
      if (index !== undefined) record[key] = yield* text(index);
      else if (typeof child === 'object' && child !== null && !(child instanceof JsonStringBytes)) stack.push(child);
    }
  }
  return value;
}

/** The charset of a JSON body this parser reads itself; any other is express.json's to read or refuse. */
function isUtf8(contentType: string | undefined): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/**
 * The body of a known length (and within the limit), copied chunk by chunk
 * into one buffer as it arrives: raw-body keeps the chunks and concatenates
 * them at the end, one copy of the whole body on the loop (50 MB: 40-190 ms on
 * a busy machine). The errors are those express.raw's would become.
 */
function readKnownLength(req: Request, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // a buffer of its own, never Node's pool slab: decode-off-thread may move it to a thread
    const body = Buffer.allocUnsafeSlow(length);
    let received = 0;
    const finish = (error?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) {
        req.resume(); // the rest, if any, is read off so that the answer can be sent
        reject(error);
      } else resolve(body);
    };
    const sizeMismatch = () => bodyUnreadable('request size did not match content length');
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > length) return finish(sizeMismatch());
      chunk.copy(body, received);
      received += chunk.length;
    };
    const onEnd = () => finish(received === length ? undefined : sizeMismatch());
    const onError = () => finish(bodyCutShort());
    const onClose = () => finish(bodyCutShort());
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** The Content-Encodings read by readStreamed (and the multipart reader), as express.raw reads them; any other is express.raw's to refuse (or read: zstd). */
export const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
};

/** Bytes joined into the body per turn of joiningChunks: a few ms of the loop. */
const JOIN_BYTES_PER_TURN = 4 * 1024 * 1024;

/**
 * A body of unknown length (compressed, or chunked), read as it comes and
 * joined into one buffer in turns: express.raw joins it in one copy at the
 * end, 65-160 ms of the loop for a gzip body inflating to 45 MB. Errors are
 * those express.raw's would become: 413 past the limit (counted as inflated,
 * so a compression bomb stops there), 400 for data that does not decompress
 * or a body cut short.
 */
function readStreamed(req: Request, decoder: Transform | undefined, limitBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const source: Readable = decoder ? req.pipe(decoder) : req;
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      source.off('data', onData).off('end', onEnd);
      req.off('error', onAborted).off('close', onClose);
      if (decoder) {
        req.unpipe(decoder);
        decoder.on('error', () => undefined).destroy();
      }
      if (error) {
        req.resume(); // the rest is read off so that the answer can be sent
        reject(error);
        return;
      }
      runPaced(joiningChunks(chunks, received), new Pacer(undefined, 1)).then(resolve, reject);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) return finish(bodyTooLarge(limitBytes));
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onAborted = () => finish(bodyCutShort());
    const onClose = () => {
      if (!req.complete) onAborted();
    };
    source.on('data', onData).on('end', onEnd);
    decoder?.on('error', (error: Error) => finish(bodyUnreadable(error.message)));
    req.on('error', onAborted).on('close', onClose);
  });
}

/** The chunks in one buffer of its own (a thread may take it whole), JOIN_BYTES_PER_TURN at a time. */
export function* joiningChunks(chunks: Buffer[], length: number): PacedWork<Buffer> {
  const body = Buffer.allocUnsafeSlow(length);
  let at = 0;
  let sinceTurn = 0;
  for (const chunk of chunks) {
    chunk.copy(body, at);
    at += chunk.length;
    sinceTurn += chunk.length;
    if (sinceTurn >= JOIN_BYTES_PER_TURN) {
      sinceTurn = 0;
      yield;
    }
  }
  return body;
}

/** A request whose body's bytes jsonBody kept (`keepBytes`). */
export type RawBodyRequest = Request & { rawBody?: Buffer };

export interface JsonBodyOptions {
  /**
   * Every string a string (none left as body bytes) and the body's bytes kept
   * as `req.rawBody`: POST /v1/jobs stores them, and the decode thread may not
   * take them. Its parse is still paced (PACED_PARSE_CHARS).
   */
  keepBytes?: boolean;
}

/**
 * The middleware. A plain body whose Content-Length is within the limit is read
 * by readKnownLength, a gzip, deflate or br one and a chunked one by
 * readStreamed; any other (declared too large, another encoding) by
 * express.raw (limit -> 413, Content-Encoding, abort: express.json's errors);
 * then parseJsonBodyPaced. A charset other than UTF-8 is express.json's to read or refuse.
 */
export function jsonBody(limitBytes: number, options: JsonBodyOptions = {}): RequestHandler {
  const keep = (req: Request, bytes: Buffer) => {
    if (options.keepBytes) (req as RawBodyRequest).rawBody = bytes;
  };
  const json = express.json({ limit: limitBytes, strict: false, verify: (req, _res, bytes) => keep(req as Request, bytes) });
  const raw = express.raw({ limit: limitBytes, type: () => true });
  const parse = (req: Request, body: unknown, next: NextFunction) => {
    if (!Buffer.isBuffer(body)) return next();
    keep(req, body);
    parseJsonBodyPaced(body, options.keepBytes ? Infinity : LONG_STRING_BYTES).then((value) => {
      req.body = value;
      next();
    }, next);
  };
  return (req, res, next) => {
    if (req.is('application/json') !== 'application/json' || !isUtf8(req.headers['content-type'])) {
      json(req, res, next);
      return;
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    const length = req.headers['content-length'] === undefined ? NaN : Number(req.headers['content-length']);
    const declared = Number.isSafeInteger(length) && length >= 0;
    if (encoding === 'identity' && declared && length <= limitBytes) {
      readKnownLength(req, length).then((body) => parse(req, body, next), next);
      return;
    }
    const decoder = DECODERS[encoding];
    if (decoder || (encoding === 'identity' && req.headers['content-length'] === undefined)) {
      readStreamed(req, decoder?.(), limitBytes).then((body) => parse(req, body, next), next);
      return;
    }
    raw(req, res, (error?: unknown) => (error ? next(error) : parse(req, req.body, next)));
  };
}
