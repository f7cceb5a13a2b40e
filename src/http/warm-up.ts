/**
 * Warm-up at start: a few POST /v1/ requests of a generated one-page invoice
 * (ingest/warm-up-pdf.ts) through the app, on a loopback port of its own,
 * before the service listens. V8 compiles and optimises the code of a
 * request (Express, the body, pdf.js on its thread, the rules engine,
 * finalize, the JSON out) while it runs, and the first PDF starts the pdf.js
 * thread: the first PDF after a start took 1.1-2.3 s and each of the first 25
 * about twice the CPU of later ones. What stays of it is compiled code, the
 * pdf.js thread (until it idles out), pdf.js's canvas library (loaded for
 * good) and its two schemas among the compiled ones (schema/schema.ts); no
 * document or answer. Off unless WARM_UP is set: the thread and the library
 * raise a photo-only service's peak memory (docs/deployment.md, memory).
 */
import { createServer, request as httpRequest, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WARM_UP_PDF_STYLES, warmUpInvoicePdf } from '../ingest/warm-up-pdf.js';

/**
 * What the warm-up asks for, in turn: a few fields, which the rules engine
 * reads on the event loop for a one-page document (engines/rules/threaded.ts),
 * and more with a list of rows, which it reads on its thread (kept ready, so
 * its warm-up lasts).
 */
const FEW_FIELDS = {
  invoice_number: { type: 'string' },
  invoice_date: { type: 'string', format: 'date' },
  total: { type: 'number' },
};
export const WARM_UP_SCHEMAS = [
  { type: 'object', properties: FEW_FIELDS },
  {
    type: 'object',
    properties: {
      ...FEW_FIELDS,
      seller: { type: 'string' },
      due_date: { type: 'string', format: 'date' },
      line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, amount: { type: 'number' } } } },
    },
  },
];

/** No request of the warm-up may take longer than this; a host that slow starts without the rest. */
const REQUEST_TIMEOUT_MS = 10_000;

export interface WarmUpOptions {
  /** Requests to send, one after another (WARM_UP). */
  requests: number;
  /** A key the app accepts. */
  apiKey: string;
  /**
   * No request starts later than this many milliseconds after the first answer, so that a busy host does not hold
   * the start for long. (The first request is always answered: it starts the pdf.js thread and loads its modules,
   * which the first caller's PDF would pay otherwise.)
   */
  budgetMs: number;
}

export interface WarmUpReport {
  /** Requests answered 200. */
  answered: number;
  ms: number;
}

/** Sends the requests to `app` on 127.0.0.1 and closes the port again; rejects on the first answer that is not 200. */
export async function warmUp(app: RequestListener, options: WarmUpOptions): Promise<WarmUpReport> {
  const started = performance.now();
  // every PDF style with every schema, in turn
  const bodies = WARM_UP_SCHEMAS.flatMap((schema) =>
    WARM_UP_PDF_STYLES.map((style) => JSON.stringify({ schema, contents: [{ mimeType: 'application/pdf', data: Buffer.from(warmUpInvoicePdf(style)).toString('base64') }] })),
  );
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  let answered = 0;
  try {
    const { port } = server.address() as AddressInfo;
    let sent = 0;
    answered = await repeatWithin(options.requests, options.budgetMs, () => post(port, options.apiKey, bodies[sent++ % bodies.length]!));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return { answered, ms: performance.now() - started };
}

/**
 * Runs `once` up to `times` times, one after another, starting none later than
 * `budgetMs` after the first one ended (the first always runs: it pays the
 * one-off costs a warm-up is for); resolves with how many ran.
 */
export async function repeatWithin(times: number, budgetMs: number, once: () => Promise<unknown>): Promise<number> {
  let done = 0;
  let firstEnded = Infinity;
  while (done < times && performance.now() - firstEnded < budgetMs) {
    await once();
    done++;
    firstEnded = Math.min(firstEnded, performance.now());
  }
  return done;
}

function post(port: number, apiKey: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': apiKey }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`warm-up request answered ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
