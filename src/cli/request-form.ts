/**
 * A request as the multipart/form-data body a service's POST /v1/ and
 * POST /v1/jobs read (http/multipart-body.ts): `schema` and `options` as JSON
 * parts, each file as a `file` part of its own type, its bytes as they are.
 * No base64: a 50 MB scan would go as 67 MB of text. Also the key a job's
 * Idempotency-Key is made from, the same for the same request.
 */
import { createHash } from 'node:crypto';
import type { ContentItem } from '../ingest/decode.js';
import type { ExtractionRequest } from '../pipeline.js';

/** A file's bytes, whichever way the request holds them. */
function bytesOf(item: ContentItem): Uint8Array {
  if (item.data instanceof Uint8Array) return item.data;
  return Buffer.from(typeof item.data === 'string' ? item.data : item.data.text(), 'base64');
}

/** The same form whenever it is sent (fetch writes a FormData anew for each request, a retry too). */
export function requestForm(request: ExtractionRequest): FormData {
  const form = new FormData();
  form.append('schema', JSON.stringify(request.schema));
  if (request.options && Object.keys(request.options).length > 0) form.append('options', JSON.stringify(request.options));
  request.contents.forEach((item, i) => {
    form.append('file', new Blob([new Uint8Array(bytesOf(item))], { type: item.mimeType }), item.filename ?? `file-${i + 1}`);
  });
  return form;
}

/** A digest of the request (schema, options, each file's name, type and bytes): the same request, the same key. */
export function requestDigest(request: ExtractionRequest, salt = ''): string {
  const hash = createHash('sha256').update(JSON.stringify([request.schema, request.options ?? {}])).update(salt);
  for (const item of request.contents) hash.update(`\0${item.filename ?? ''}\0${item.mimeType}\0`).update(bytesOf(item));
  return hash.digest('hex');
}
