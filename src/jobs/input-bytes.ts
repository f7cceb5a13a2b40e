/**
 * A job's input as the Redis store keeps it: a JSON body as it came, or,
 * for a request whose files are bytes (a multipart submit), a frame: a
 * header line, the request as JSON with each such file's bytes left out
 * (their lengths in their place), then those bytes one after another. No
 * base64 round trip (a 50 MB scan would be 67 MB of text to write and
 * decode again), and the worker's request views the stored bytes.
 */
import type { ContentItem } from '../ingest/decode.js';
import type { ExtractionRequest } from '../pipeline.js';
import { copyingInto, Pacer, runPaced } from '../util/paced.js';
import type { JobInput } from './store.js';

/** Starts a framed input; a JSON body cannot (its first character is not "d"). */
const FRAME_MAGIC = 'docshape-job-input 1\n';

/** A file left out of the header: how many of the bytes after it are its own. */
interface FramedFile {
  filename?: string;
  mimeType: string;
  byteLength: number;
}

function bytesOf(item: ContentItem): Uint8Array | undefined {
  return item.data instanceof Uint8Array ? item.data : undefined;
}

/** The bytes to store: the JSON body as it came, or the request framed (its file bytes copied in turns). */
export async function inputBytes(input: JobInput): Promise<Buffer> {
  if (input.raw) return input.raw;
  const { contents, ...rest } = input.request;
  const files = contents.map(bytesOf);
  const header = JSON.stringify({
    ...rest,
    contents: contents.map((item, i): ContentItem | FramedFile => {
      const bytes = files[i];
      return bytes ? { ...(item.filename === undefined ? {} : { filename: item.filename }), mimeType: item.mimeType, byteLength: bytes.byteLength } : item;
    }),
  });
  const head = Buffer.from(`${FRAME_MAGIC}${Buffer.byteLength(header)}\n${header}`);
  const total = head.length + files.reduce((sum, bytes) => sum + (bytes?.byteLength ?? 0), 0);
  const framed = Buffer.allocUnsafeSlow(total);
  head.copy(framed);
  let at = head.length;
  for (const bytes of files) {
    if (!bytes) continue;
    await runPaced(copyingInto(framed, at, bytes), new Pacer(undefined, 1));
    at += bytes.byteLength;
  }
  return framed;
}

/** The request back from stored bytes; a framed one's files are views of `stored`. */
export function requestFromInputBytes(stored: Buffer): ExtractionRequest {
  if (!stored.subarray(0, FRAME_MAGIC.length).equals(Buffer.from(FRAME_MAGIC))) return JSON.parse(stored.toString('utf8')) as ExtractionRequest;
  const lengthEnd = stored.indexOf('\n', FRAME_MAGIC.length);
  const headerStart = lengthEnd + 1;
  const headerEnd = headerStart + Number(stored.toString('latin1', FRAME_MAGIC.length, lengthEnd));
  const request = JSON.parse(stored.toString('utf8', headerStart, headerEnd)) as Omit<ExtractionRequest, 'contents'> & { contents: Array<ContentItem | FramedFile> };
  let at = headerEnd;
  const contents = request.contents.map((item): ContentItem => {
    if (!('byteLength' in item)) return item;
    const { byteLength, ...named } = item;
    const data = stored.subarray(at, at + byteLength);
    at += byteLength;
    return { ...named, data };
  });
  return { ...request, contents };
}
