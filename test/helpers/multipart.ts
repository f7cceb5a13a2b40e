/**
 * multipart/form-data bodies written byte by byte, so that a test can send
 * exactly what a client would (or a broken one), and a POST that writes its
 * body as it is: fetch copies a body twice on the loop the test server
 * shares, which a stall measurement would count as the server's.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';

export interface FormPart {
  name: string;
  filename?: string;
  /** The part's Content-Type; none when absent. */
  type?: string;
  body: string | Buffer;
}

export interface FormBody {
  body: Buffer;
  contentType: string;
  boundary: string;
}

export function formBody(parts: FormPart[], boundary = `docshape-test-${randomBytes(8).toString('hex')}`): FormBody {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const headers = [`Content-Disposition: ${disposition}`, ...(part.type ? [`Content-Type: ${part.type}`] : [])];
    pieces.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`), Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}`, boundary };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** POST `body` as it is, with Content-Length unless `chunked`; the answer parsed as JSON when it is JSON. */
export function postBytes(url: string, body: Buffer, headers: Record<string, string>, options: { chunked?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { ...(options.chunked ? {} : { 'content-length': String(body.length) }), ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk)).on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // left as text: the test says what it got
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
      });
    });
    request.on('error', reject);
    if (options.chunked) {
      // in pieces, so that no Content-Length can be known
      for (let at = 0; at < body.length; at += 64 * 1024) request.write(body.subarray(at, at + 64 * 1024));
      request.end();
    } else request.end(body);
  });
}

/** POST `parts` as curl -F sends them, with `headers` (the API key among them). */
export function postForm(url: string, parts: FormPart[], headers: Record<string, string>): Promise<RawAnswer> {
  const { body, contentType } = formBody(parts);
  return postBytes(url, body, { 'content-type': contentType, ...headers });
}
