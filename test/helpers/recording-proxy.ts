/**
 * A loopback proxy in front of a test server that keeps every request body
 * it passes on: what a browser sent, whole. (Chromium does not report a
 * FormData body holding files to the test driver: its postData is null.)
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Passed {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RecordingProxy {
  url: string;
  passed: Passed[];
  close(): Promise<void>;
}

export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const passed: Passed[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
      const body = Buffer.concat(chunks);
      passed.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const onward = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, 'content-length': String(body.length) } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      onward.on('error', () => res.destroy());
      onward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    passed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A multipart body that passed, as the parts a server reads (the platform's own multipart parser). */
export function partsOf(passed: Passed): Promise<FormData> {
  return new Response(new Uint8Array(passed.body), { headers: { 'content-type': String(passed.headers['content-type'] ?? '') } }).formData();
}
