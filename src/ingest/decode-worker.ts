/**
 * A decoding thread of decode-off-thread.ts: one request's contents decoded
 * (base64, checks, file signatures), the file bytes moved back without a copy.
 * Failures go back as data: AppError's class does not cross threads.
 */
import { isAppError } from '../errors.js';
import { serveTasks, transferred, type Transferred } from '../threads/serve-tasks.js';
import { decodeContents, type DecodedFile } from './decode.js';
import type { DecodeJob, DecodeOutcome } from './decode-protocol.js';

/** Bytes in an ArrayBuffer of their own: a small Buffer shares Node's pool slab, which must not be moved away. */
function ownBuffer(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  return Buffer.from(new Uint8Array(bytes));
}

function decodeJob({ contents, maxFiles, maxXmlBytes }: DecodeJob): Transferred<DecodeOutcome> | DecodeOutcome {
  try {
    const files: DecodedFile[] = decodeContents(contents, { maxFiles, ...(maxXmlBytes === undefined ? {} : { maxXmlBytes }) }).map((file) => ({ ...file, bytes: ownBuffer(file.bytes) }));
    return transferred({ ok: true, files }, files.map((file) => file.bytes.buffer));
  } catch (error) {
    // decodeContents throws only the caller's mistakes (400); anything else is a fault for the main thread to report as 500
    return isAppError(error) && error.status === 400 ? { ok: false, badRequest: error.message } : { ok: false, fault: error instanceof Error ? error.message : String(error) };
  }
}

serveTasks<DecodeJob>({ run: decodeJob });
