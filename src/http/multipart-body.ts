/**
 * The multipart/form-data body of POST /v1/ and POST /v1/jobs (`curl -F`),
 * read as it streams in by @fastify/busboy, into the very object the JSON
 * form parses to: `schema` (and `options`; for a job also `webhook` and
 * `metadata`) from parts holding JSON, as a field or as a file, and one
 * `contents` item per part named `file`, in order, whose `data` is the file's
 * own bytes (a Uint8Array: decode.ts takes it as the file, no base64). A file
 * part's type is its Content-Type; one that says application/octet-stream,
 * text/plain or nothing (busboy reports no Content-Type as text/plain) is
 * sent on as application/octet-stream: its bytes and filename tell.
 *
 * A body of known length is copied into one buffer of that length as it
 * arrives, each part a view of it: one copy of each byte and no join at the
 * end; a body of unknown length (chunked, compressed) keeps each part's
 * chunks and joins them in turns. Errors name what is wrong as the JSON form
 * does: the n-th file part (from 0) is `contents[n]`, its bytes
 * `contents[n].data`, its Content-Type `contents[n].mimeType`.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Readable, Transform } from 'node:stream';
import { Busboy, type BusboyFileStream, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { Request, RequestHandler } from 'express';
import { AppError, badRequest } from '../errors.js';
import { MAX_SCHEMA_BYTES } from '../schema/schema-guards.js';
import type { ContentItem } from '../ingest/decode.js';
import { Pacer, runPaced } from '../util/paced.js';
import { bodyCutShort, bodyTooLarge, bodyUnreadable } from './body-errors.js';
import { DECODERS, joiningChunks, jsonTextValue } from './json-body.js';

/** The name of each document's part. */
export const FILE_PART = 'file';

/**
 * Bytes a JSON part may hold: a schema is at most MAX_SCHEMA_BYTES as
 * compact JSON, more when sent indented; the others are small objects
 * (options, a webhook, metadata of at most 16 KB as JSON).
 */
export function jsonPartLimit(name: string): number {
  return name === 'schema' ? 4 * MAX_SCHEMA_BYTES : 64 * 1024;
}

/** Content-Types that say nothing of a file: a part without one is reported as text/plain (busboy cannot tell the two apart). */
const UNSTATED_TYPES = new Set(['application/octet-stream', 'text/plain']);
/** Transfer encodings that leave a part's bytes as they are (RFC 7578 deprecates the others). */
const IDENTITY_TRANSFER = new Set(['7bit', '8bit', 'binary']);

/**
 * The type of a file part as `contents[i].mimeType`: the one its
 * Content-Type states, or, when it states application/octet-stream, text/plain
 * or nothing, application/octet-stream, which has decode.ts read the type
 * from the bytes and the filename (whatever types the registry holds).
 */
export function filePartType(declared: string): string {
  return UNSTATED_TYPES.has(declared) ? 'application/octet-stream' : declared;
}

export interface MultipartOptions {
  /** MAX_BODY_BYTES: 413 past it (counted inflated for a compressed body). */
  limitBytes: number;
  /** MAX_FILES: file parts past it are a 400. */
  maxFiles: number;
  /** The JSON parts this route takes, `schema` first; every other name but `file` is a 400. */
  jsonParts: readonly string[];
  /** A digest of the parts as they arrive (POST /v1/jobs: an Idempotency-Key compares requests, whatever their boundary). */
  digest?: boolean;
}

/** A request whose multipart body was read; `partsDigest` when asked for. */
export type MultipartRequest = Request & { partsDigest?: string };

/** Where the bytes of a part go as they arrive. */
interface PartBytes {
  add(chunk: Buffer): void;
  /** The part's bytes, once it has ended. */
  done(): Promise<Buffer>;
}

/**
 * The parts of a body of known length in one buffer of that length, one
 * after another, each starting where its first chunk lands. Busboy pushes
 * the chunks in body order and a part's stream flows before the next one's
 * does; should a part ever write after another one began, the request fails
 * rather than mixing two files.
 */
class BodyBuffer {
  private readonly buffer: Buffer;
  private at = 0;
  private writing: object | undefined;

  constructor(length: number) {
    // a buffer of its own, never Node's pool slab
    this.buffer = Buffer.allocUnsafeSlow(length);
  }

  part(): PartBytes {
    const self = {};
    let start: number | undefined;
    let end = 0;
    return {
      add: (chunk) => {
        if (start === undefined) start = this.at;
        else if (this.writing !== self) throw new AppError('internal', 'multipart parts arrived out of order');
        this.writing = self;
        if (this.at + chunk.length > this.buffer.length) throw bodyUnreadable('request size did not match content length');
        chunk.copy(this.buffer, this.at);
        this.at += chunk.length;
        end = this.at;
      },
      done: async () => this.buffer.subarray(start ?? 0, start === undefined ? 0 : end),
    };
  }
}

/** A part of a body of unknown length: its chunks, joined in turns at its end (a 50 MB join in one go held the loop 40-190 ms). */
function chunkedPart(): PartBytes {
  const chunks: Buffer[] = [];
  let length = 0;
  return {
    add: (chunk) => {
      chunks.push(chunk);
      length += chunk.length;
    },
    done: () => runPaced(joiningChunks(chunks, length), new Pacer(undefined, 1)),
  };
}

function listOf(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(', ');
}

/** One multipart body read into the request object. */
class FormReader {
  private readonly fields: Record<string, unknown> = {};
  private readonly contents: ContentItem[] = [];
  private readonly seen = new Set<string>();
  private readonly parts: Promise<void>[] = [];
  /** Each part's digest, in body order: a part's 'end' may come after the next part has begun, so one running hash would depend on timing. */
  private readonly partDigests: Hash[] = [];
  private readonly bodyBuffer: BodyBuffer | undefined;
  private settled = false;

  constructor(
    private readonly options: MultipartOptions,
    knownLength: number | undefined,
    private readonly resolve: (body: Record<string, unknown>, digest?: string) => void,
    private readonly reject: (error: unknown) => void,
    private readonly stop: () => void,
  ) {
    this.bodyBuffer = knownLength === undefined ? undefined : new BodyBuffer(knownLength);
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.stop();
    this.reject(error);
  }

  /** Every part has ended: the request, once each part's bytes are in and its JSON parsed. */
  finish(): void {
    if (this.settled) return;
    Promise.all(this.parts).then(() => {
      if (this.settled) return;
      const [schemaPart] = this.options.jsonParts;
      if (!this.seen.has(schemaPart!)) throw badRequest(`the multipart body has no "${schemaPart}" part: send the JSON Schema as a part named "${schemaPart}" (curl -F 'schema={...}' or -F schema=@schema.json)`);
      if (this.contents.length === 0) throw badRequest(`the multipart body has no "${FILE_PART}" part: send each document as a part named "${FILE_PART}" (curl -F ${FILE_PART}=@invoice.pdf)`);
      this.settled = true;
      this.resolve({ ...this.fields, contents: this.contents }, this.options.digest ? this.requestDigest() : undefined);
    }).catch((error: unknown) => this.fail(error));
  }

  /** The parts' digests in order, digested: the same parts in the same order, the same digest, whatever the boundary. */
  private requestDigest(): string {
    const hash = createHash('sha256');
    for (const part of this.partDigests) hash.update(part.digest());
    return hash.digest('hex');
  }

  onPart(name: string | undefined, stream: BusboyFileStream, filename: string | undefined, transferEncoding: string, declaredType: string): void {
    // a part cut short errs on its stream; busboy says why on itself too
    stream.on('error', () => undefined);
    if (this.settled) return void stream.resume();
    try {
      const consume = name === FILE_PART ? this.filePart(filename, transferEncoding, declaredType) : this.jsonPart(name);
      const bytes = this.bodyBuffer?.part() ?? chunkedPart();
      const limit = name === FILE_PART ? Infinity : jsonPartLimit(name!);
      let length = 0;
      const digest = this.options.digest ? createHash('sha256').update(`${name}\0${filename ?? ''}\0${declaredType}\0`) : undefined;
      if (digest) this.partDigests.push(digest);
      const ended = new Promise<Buffer>((resolve, reject) => {
        stream.on('data', (chunk: Buffer) => {
          if (this.settled) return;
          length += chunk.length;
          if (length > limit) return this.fail(new AppError('payload_too_large', `the "${name}" part is larger than ${limit} bytes${name === 'schema' ? ` (a schema may be ${MAX_SCHEMA_BYTES} bytes as JSON)` : ''}`));
          digest?.update(chunk);
          try {
            bytes.add(chunk);
          } catch (error) {
            this.fail(error);
          }
        });
        stream.on('end', () => {
          bytes.done().then(resolve, reject);
        });
      });
      this.parts.push(ended.then(consume).catch((error: unknown) => this.fail(error)));
    } catch (error) {
      stream.resume();
      this.fail(error);
    }
  }

  /** A document: the next `contents` item, its bytes set when the part ends. */
  private filePart(filename: string | undefined, transferEncoding: string, declaredType: string): (bytes: Buffer) => void {
    const index = this.contents.length;
    const { maxFiles } = this.options;
    if (index >= maxFiles) throw badRequest(`contents has more than ${maxFiles} files ("${FILE_PART}" parts); the limit is ${maxFiles} files per request (MAX_FILES)`);
    if (!IDENTITY_TRANSFER.has(transferEncoding.toLowerCase())) {
      throw badRequest(`contents[${index}].data has Content-Transfer-Encoding ${JSON.stringify(transferEncoding.slice(0, 40))}; send the file's bytes as they are`);
    }
    const mimeType = filePartType(declaredType);
    const item: ContentItem = { ...(filename ? { filename } : {}), mimeType, data: new Uint8Array(0) };
    this.contents.push(item);
    return (bytes) => {
      item.data = bytes;
    };
  }

  /** schema, options, ...: JSON, parsed (in slices when long) as soon as the part ends. */
  private jsonPart(name: string | undefined): (bytes: Buffer) => Promise<void> {
    const { jsonParts } = this.options;
    if (name === undefined || !jsonParts.includes(name)) {
      throw badRequest(`the multipart body has ${name === undefined ? 'a part without a name' : `a part named ${JSON.stringify(name.slice(0, 100))}`}; its parts are ${listOf(jsonParts)} (JSON) and "${FILE_PART}" (one per document)`);
    }
    if (this.seen.has(name)) throw badRequest(`the multipart body has two "${name}" parts; send one`);
    this.seen.add(name);
    return async (bytes) => {
      this.fields[name] = await runPaced(jsonTextValue(bytes.toString('utf8'), `the "${name}" part`), new Pacer(undefined, 1));
    };
  }
}

/**
 * How long the parser may take to settle once the whole body is in: it holds
 * every byte by then and settles within a few turns of the loop. Busboy
 * skips a part that is not form-data (no Content-Disposition: form-data),
 * and one of more than 16 KB stalls it for good (no finish, no error, no
 * more writes taken; seen in 3.2.6): without this (and without writing the
 * body to it regardless), such a request would wait forever.
 */
export const SETTLE_AFTER_BODY_MS = 2000;

/** The declared length of a body this reader may copy into one buffer: plain, and within the limit. */
function knownLength(req: Request): number | undefined {
  const header = req.headers['content-length'];
  const length = header === undefined ? NaN : Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/** The body read into `{schema, contents, ...}`; the digest of its parts when asked for. */
export function readMultipart(req: Request, options: MultipartOptions): Promise<{ body: Record<string, unknown>; digest?: string }> {
  return new Promise((resolve, reject) => {
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    const declared = knownLength(req);
    const refuse = (error: AppError) => {
      req.resume(); // read off, so that the answer can be sent
      reject(error);
    };
    if (encoding !== 'identity' && !DECODERS[encoding]) return refuse(badRequest(`request body encoding is not supported: unsupported content encoding "${encoding.slice(0, 40)}"`));
    if (encoding === 'identity' && declared !== undefined && declared > options.limitBytes) return refuse(bodyTooLarge(options.limitBytes));
    let parser: BusboyInstance;
    try {
      parser = Busboy({ headers: req.headers as BusboyHeaders, isPartAFile: () => true, limits: { parts: options.maxFiles + options.jsonParts.length + 1 } });
    } catch {
      return refuse(badRequest('Content-Type multipart/form-data needs its boundary, e.g. multipart/form-data; boundary=XYZ'));
    }
    const decoder: Transform | undefined = encoding === 'identity' ? undefined : DECODERS[encoding]!();
    const source: Readable = decoder ? req.pipe(decoder) : req;
    let received = 0;
    let settling: NodeJS.Timeout | undefined;
    // written, not piped: a parser that stalls must not hold the body back (pipe would pause it, and 'end' never come)
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > options.limitBytes) return reader.fail(bodyTooLarge(options.limitBytes));
      parser.write(chunk);
    };
    const onEnd = () => {
      parser.end();
      settling = setTimeout(() => reader.fail(badRequest('the multipart body cannot be read to its end: a part is not form-data (each part needs Content-Disposition: form-data; name="...")')), SETTLE_AFTER_BODY_MS);
    };
    const onClose = () => {
      if (!req.complete) reader.fail(bodyCutShort());
    };
    const stop = () => {
      clearTimeout(settling);
      source.off('data', onData).off('end', onEnd);
      req.off('close', onClose);
      if (decoder) {
        req.unpipe(decoder);
        decoder.on('error', () => undefined).destroy();
      }
      req.resume();
    };
    const reader = new FormReader(
      options,
      encoding === 'identity' ? declared : undefined,
      (body, digest) => {
        stop();
        resolve({ body, ...(digest === undefined ? {} : { digest }) });
      },
      reject,
      stop,
    );
    parser.on('file', (name, stream, filename, transferEncoding, mimeType) => reader.onPart(name, stream, filename, transferEncoding, mimeType));
    parser.on('partsLimit', () => reader.fail(badRequest(`the multipart body has more parts than a request takes: ${listOf(options.jsonParts)} once each and at most ${options.maxFiles} "${FILE_PART}" parts (MAX_FILES)`)));
    parser.on('error', (error: Error) => {
      const cut = /unexpected end/i.test(error.message);
      reader.fail(cut ? badRequest('the multipart body ends before its closing boundary: it was cut short, or its boundary is not the one Content-Type names') : bodyUnreadable(`malformed multipart body (${error.message})`));
    });
    parser.on('finish', () => reader.finish());
    decoder?.on('error', (error: Error) => reader.fail(bodyUnreadable(error.message)));
    source.on('data', onData).on('end', onEnd);
    req.on('close', onClose);
  });
}

/** The middleware: `req.body` as the JSON form would have it (and `partsDigest`). */
export function multipartBody(options: MultipartOptions): RequestHandler {
  return (req, _res, next) => {
    readMultipart(req, options).then(({ body, digest }) => {
      req.body = body;
      if (digest !== undefined) (req as MultipartRequest).partsDigest = digest;
      next();
    }, next);
  };
}
