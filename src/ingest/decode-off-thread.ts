/**
 * decodeContents (decode.ts) for a request's worth of base64, off the event
 * loop when it is large. Decoding, re-encoding to check it and, for a bad
 * file, finding what is wrong cost the loop 160-340 ms of CPU per 50 MB body
 * (a /healthz probe waited 2.4 s behind one with a bad last character on a busy
 * machine). Above OFF_THREAD_MIN_CHARS of base64 a worker thread, started for
 * the request and ended after it, does the work; the loop only copies the
 * strings to it (a memcpy) and gets the bytes back moved, not copied.
 * Base64 still in the request body's bytes (JsonStringBytes, from POST /v1/)
 * costs the loop nothing: the body's memory is moved to the thread, which makes
 * the text there (a copy of 50 MB took the loaded loop 130-290 ms).
 * Small requests decode in place: a thread costs more than they do.
 */
import type { Limits } from '../config.js';
import { AppError, badRequest } from '../errors.js';
import { JsonStringBytes } from '../util/json-string-bytes.js';
import { decodeContents, type ContentItem, type DecodedFile } from './decode.js';
import type { DecodeJob, DecodeOutcome } from './decode-protocol.js';
import { ThreadPool } from '../threads/pool.js';
import { taskThreads } from '../threads/task-thread.js';

/** 1 MB of base64 decodes in a few ms on the loop. */
export const OFF_THREAD_MIN_CHARS = 1024 * 1024;
/**
 * Requests decoding at once in threads; more wait. POST /v1/ decodes before
 * it waits for a slot (admission.ts), so this bounds the copies held at once.
 */
const MAX_THREADS = 2;

/** A thread per request, ended after it: an idle one would hold its memory between the rare large requests. */
const decodePool = new ThreadPool<DecodeJob, DecodeOutcome>({
  label: 'decode',
  start: taskThreads<DecodeJob, DecodeOutcome>(new URL('./decode-worker.js', import.meta.url), { prepare: (job) => ({ task: job, transfer: bodyMemoryToMove(job.contents) }) }),
  maxThreads: MAX_THREADS,
  recycleAfterTasks: 1,
  // decoding is plain JavaScript: a request that gives up ends its thread
  runningAbort: 'stop',
});

/** Characters of base64 to decode; a file sent as its own bytes (multipart) has none: it is only checked, in place. */
function base64Chars(contents: ContentItem[]): number {
  let chars = 0;
  for (const item of contents) {
    const data = (item as { data?: unknown } | null)?.data;
    if (typeof data === 'string') chars += data.length;
    else if (data instanceof JsonStringBytes) chars += data.byteLength;
  }
  return chars;
}

/**
 * The memory of the body bytes the job's strings view, to move to the thread
 * rather than copy: only a large one, which a body Buffer owns whole (a small
 * Buffer may share Node's 8 KiB pool slab, which must stay). The job is
 * the last reader of those bytes: the request's files are what comes back.
 */
function bodyMemoryToMove(contents: ContentItem[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const item of contents) {
    const data = (item as { data?: unknown } | null)?.data;
    if (!(data instanceof JsonStringBytes)) continue;
    const { buffer } = data.bytes;
    if (buffer instanceof ArrayBuffer && buffer.byteLength >= OFF_THREAD_MIN_CHARS) buffers.add(buffer);
  }
  return [...buffers];
}

async function decodeInThread(job: DecodeJob, signal: AbortSignal | undefined): Promise<DecodedFile[]> {
  let outcome: DecodeOutcome;
  try {
    outcome = await decodePool.run(job, signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new AppError('internal', 'decoding the files failed', { cause: error });
  }
  if (outcome.ok) return outcome.files.map((file) => ({ ...file, bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength) }));
  if ('badRequest' in outcome) throw badRequest(outcome.badRequest);
  throw new AppError('internal', 'decoding the files failed', { cause: new Error(outcome.fault) });
}

/** decodeContents, in a worker thread when the contents hold OFF_THREAD_MIN_CHARS or more of base64. Same results, same 400s. */
export async function decodeContentsOffThread(contents: ContentItem[], limits: Pick<Limits, 'maxFiles'> & Partial<Pick<Limits, 'maxXmlBytes'>>, signal?: AbortSignal): Promise<DecodedFile[]> {
  // the cheap refusals (not an array, too many files) and small requests stay on the loop
  if (!Array.isArray(contents) || contents.length === 0 || contents.length > limits.maxFiles || base64Chars(contents) < OFF_THREAD_MIN_CHARS) {
    return decodeContents(contents, limits);
  }
  return decodeInThread({ contents, maxFiles: limits.maxFiles, ...(limits.maxXmlBytes === undefined ? {} : { maxXmlBytes: limits.maxXmlBytes }) }, signal);
}
