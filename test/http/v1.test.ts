import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import type { Engine } from '../../src/schema/engine.js';
import type { OcrEngine } from '../../src/ingest/ocr-choice.js';
import type { PipelineDeps } from '../../src/pipeline.js';
import { makeAnimatedGif, makeCorruptPng, makeHugePngHeader, makeReceiptImage } from '../fixtures/images.js';
import { INVOICE_EXPECTED, makeEncryptedPdf, makeInvoicePdf, makeManyPagesPdf, makeMixedPdf, makeScannedPdf, makeTextPdf, truncate } from '../fixtures/pdfs.js';
import { healthzDuring } from '../helpers/healthz.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, TEST_API_KEY, untilActive, type RunningServer } from '../helpers/test-server.js';

const invoiceSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string', description: 'Invoice number' },
    invoice_date: { type: 'string', description: 'Invoice date as YYYY-MM-DD' },
    total: { type: 'number', description: 'Total amount due' },
    line_items: {
      type: 'array',
      items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, amount: { type: 'number' } } },
    },
  },
  required: ['invoice_number', 'invoice_date', 'total', 'line_items'],
};

const receiptSchema = {
  type: 'object',
  properties: {
    store_name: { type: 'string', description: 'Name of the store as printed in the header' },
    date: { type: 'string', format: 'date' },
    total: { type: 'number', description: 'Total amount paid' },
  },
};

/** Counts OCR jobs so tests can assert which pages went through OCR. */
function countingOcr(ocr: OcrEngine): { ocr: OcrEngine; calls: () => number } {
  let calls = 0;
  const counting = Object.create(ocr) as OcrEngine;
  counting.recognize = (...args: Parameters<OcrEngine['recognize']>) => {
    calls++;
    return ocr.recognize(...args);
  };
  return { ocr: counting, calls: () => calls };
}

describe('POST /v1/', function () {
  this.timeout(120_000);
  let services: PipelineDeps;
  let server: RunningServer;
  let ocrCalls: () => number;
  let endpoint: string;

  before(async () => {
    const shared = await sharedServices();
    const counter = countingOcr(shared.ocr);
    ocrCalls = counter.calls;
    services = { ...shared, ocr: counter.ocr };
    server = await startTestServer(services, { MAX_BODY_BYTES: '8mb' });
    endpoint = `${server.url}/v1/`;
  });

  after(async () => {
    await server?.close();
    await closeSharedServices();
  });

  describe('authentication', () => {
    it('answers 401 {"error":"Unauthorized"} without a key', async () => {
      const response = await postJson(endpoint, { schema: invoiceSchema, contents: [] }, {});
      expect(response.status).to.equal(401);
      expect(response.body).to.deep.equal({ error: 'Unauthorized' });
    });

    it('answers 401 for a wrong key, also on /v1 without the slash', async () => {
      const response = await postJson(`${server.url}/v1`, { schema: invoiceSchema, contents: [] }, { 'x-api-key': `${TEST_API_KEY}x` });
      expect(response.status).to.equal(401);
      expect(response.body).to.deep.equal({ error: 'Unauthorized' });
    });

    it('checks the key before reading the body (malformed JSON and oversize bodies still get 401)', async () => {
      expect((await postJson(endpoint, '{not json', {})).status).to.equal(401);
      expect((await postJson(endpoint, `{"x":"${'a'.repeat(9 * 1024 * 1024)}"}`, {})).status).to.equal(401);
    });
  });

  describe('malformed requests', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['malformed JSON', '{"schema": {', /not valid JSON/],
      ['a missing schema', { contents: [{ mimeType: 'image/png', data: 'AAAA' }] }, /^schema is required/],
      ['missing contents', { schema: invoiceSchema }, /^contents is required/],
      ['empty contents', { schema: invoiceSchema, contents: [] }, /^contents must not be empty/],
      ['a missing mimeType', { schema: invoiceSchema, contents: [{ data: 'AAAA' }] }, /^contents\[0\]\.mimeType is required/],
      ['missing data', { schema: invoiceSchema, contents: [{ mimeType: 'image/png' }, { mimeType: 'image/png' }] }, /contents\[0\]\.data is required/],
      ['an unsupported mimeType', { schema: invoiceSchema, contents: [{ mimeType: 'application/msword', data: 'aGVsbG8=' }] }, /contents\[0\]\.mimeType/],
      ['bad base64', { schema: invoiceSchema, contents: [{ mimeType: 'image/png', data: 'not base64!!' }] }, /contents\[0\]\.data is not valid base64/],
      ['a schema with a non-object root', { schema: { type: 'array' }, contents: [{ mimeType: 'image/png', data: 'AAAA' }] }, /^schema/],
      ['a schema that does not compile', { schema: { type: 'object', properties: { a: { type: 'nonsense' } } }, contents: [{ mimeType: 'image/png', data: 'AAAA' }] }, /^schema/],
      ['a remote $ref', { schema: { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } }, contents: [{ mimeType: 'image/png', data: 'AAAA' }] }, /remote/],
      ['an unknown option', { schema: invoiceSchema, contents: [{ mimeType: 'image/png', data: 'AAAA' }], options: { evidnce: true } }, /^options\.evidnce is not a known option; the options are dateOrder, evidence, eInvoice$/],
      ['an unknown date order', { schema: invoiceSchema, contents: [{ mimeType: 'image/png', data: 'AAAA' }], options: { dateOrder: 'ymd' } }, /^options\.dateOrder must be one of "auto", "dmy", "mdy"$/],
      ['options that are not an object', { schema: invoiceSchema, contents: [{ mimeType: 'image/png', data: 'AAAA' }], options: ['mdy'] }, /^options must be an object$/],
    ];
    for (const [name, body, message] of cases) {
      it(`answers 400 naming the field for ${name}`, async () => {
        const response = await postJson(endpoint, body);
        expect(response.status, JSON.stringify(response.body)).to.equal(400);
        expect(response.body.error).to.match(message);
      });
    }

    for (const encoding of ['br', 'gzip', 'deflate']) {
      it(`answers 400 for a body that does not decode as its Content-Encoding (${encoding})`, async () => {
        const response = await postJson(endpoint, JSON.stringify({ schema: invoiceSchema, contents: [] }), { 'x-api-key': TEST_API_KEY, 'content-encoding': encoding });
        expect(response.status, JSON.stringify(response.body)).to.equal(400);
        expect(response.body.error).to.match(/^request body cannot be read/);
      });
    }

    it('answers 400 for a PNG sent as a PDF, naming both fields', async () => {
      const png = await makeReceiptImage('png');
      const response = await postJson(endpoint, { schema: invoiceSchema, contents: [content(png, 'image/png'), content(png, 'application/pdf')] });
      expect(response.status).to.equal(400);
      expect(response.body.error).to.match(/contents\[1\]/).and.match(/PNG/);
    });

    it('answers 400 for an encrypted PDF', async () => {
      const response = await postJson(endpoint, { schema: invoiceSchema, contents: [content(await makeEncryptedPdf(), 'application/pdf')] });
      expect(response.status).to.equal(400);
      expect(response.body.error).to.match(/contents\[0\]/).and.match(/encrypted/);
    });

    it('answers 400 for a truncated PDF', async () => {
      const response = await postJson(endpoint, { schema: invoiceSchema, contents: [content(truncate(await makeInvoicePdf(), 0.4), 'application/pdf')] });
      expect(response.status).to.equal(400);
      expect(response.body.error).to.match(/contents\[0\]/);
    });

    it('answers 400 for a corrupt image', async () => {
      const response = await postJson(endpoint, { schema: invoiceSchema, contents: [content(makeCorruptPng(), 'image/png')] });
      expect(response.status).to.equal(400);
      expect(response.body.error).to.match(/contents\[0\]/);
    });

    it('refuses a 50,000 x 50,000 pixel PNG from its header', async () => {
      const before = ocrCalls();
      const response = await postJson(endpoint, { schema: invoiceSchema, contents: [content(makeHugePngHeader(50_000, 50_000), 'image/png')] });
      expect(response.status).to.equal(400);
      // the size the header declares: no pixel was decoded (the file holds none) and nothing reached OCR
      expect(response.body.error).to.match(/contents\[0\]/).and.match(/MAX_PIXELS/).and.include('50000 x 50000');
      expect(ocrCalls()).to.equal(before);
    });

    it('refuses a 2,000-page PDF without parsing every page', async () => {
      const response = await postJson(endpoint, { schema: invoiceSchema, contents: [content(await makeManyPagesPdf(2000), 'application/pdf')] });
      expect(response.status).to.equal(400);
      expect(response.body.error).to.match(/contents\[0\]/).and.match(/MAX_PAGES/);
    });

    it('answers 413 for a body over MAX_BODY_BYTES', async () => {
      const response = await postJson(endpoint, { schema: invoiceSchema, contents: [{ mimeType: 'image/png', data: 'A'.repeat(9 * 1024 * 1024) }] });
      expect(response.status).to.equal(413);
      expect(response.body.error).to.match(/MAX_BODY_BYTES/);
    });

    it('answers 404 and 405 with the same error shape', async () => {
      const notFound = await fetch(`${server.url}/nope`);
      expect(notFound.status).to.equal(404);
      expect(await notFound.json()).to.have.property('error');
      const wrongMethod = await fetch(endpoint);
      expect(wrongMethod.status).to.equal(405);
      expect(wrongMethod.headers.get('allow')).to.equal('POST');
    });

    it('answers 405 with Allow for a method the other routes do not take (schemathesis: TRACE /healthz was a 404)', async () => {
      for (const path of ['/', '/healthz', '/readyz', '/openapi.json', '/metrics']) {
        for (const method of ['TRACE', 'DELETE', 'POST']) {
          // fetch refuses to send TRACE
          const response = await new Promise<{ status: number; allow: string | undefined; body: string }>((resolve, reject) => {
            const request = httpRequest(`${server.url}${path}`, { method }, (res) => {
              let body = '';
              res.on('data', (chunk: Buffer) => (body += chunk.toString()));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
            });
            request.on('error', reject);
            request.end();
          });
          expect(response.status, `${method} ${path}`).to.equal(405);
          expect(response.allow).to.equal('GET, HEAD');
          expect(JSON.parse(response.body)).to.deep.equal({ error: `use GET ${path}` });
        }
      }
      expect((await fetch(`${server.url}/healthz`, { method: 'HEAD' })).status).to.equal(200);
    });

    it('is still healthy after all of the above', async () => {
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).to.equal(200);
    });
  });

  describe('extraction', () => {
    it('reads a born-digital invoice PDF from its text layer, without OCR', async () => {
      const before = ocrCalls();
      const response = await postJson(endpoint, { schema: invoiceSchema, contents: [content(await makeInvoicePdf(), 'application/pdf', 'invoice.pdf')] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(ocrCalls()).to.equal(before);
      const e = INVOICE_EXPECTED;
      expect(response.body).to.deep.equal({
        invoice_number: e.invoiceNumber,
        invoice_date: e.invoiceDateIso,
        total: e.total,
        line_items: e.lineItems.map(({ description, quantity, amount }) => ({ description, quantity, amount })),
      });
      expect(response.headers.get('x-docshape-engine')).to.equal('rules');
      expect(response.headers.get('x-docshape-ocr')).to.equal('none');
      expect(response.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      expect(response.headers.get('server-timing')).to.match(/decode;dur=[\d.]+.*ocr;dur=0\.0.*extract;dur=.*validate;dur=/);
    });

    it('reads an ambiguous date the way the request, the document or DATE_ORDER_FALLBACK says', async () => {
      const schema = { type: 'object', properties: { invoice_date: { type: 'string', format: 'date' }, due_date: { type: 'string', format: 'date' } } };
      const post = async (lines: string[], options?: object) => {
        const response = await postJson(endpoint, { schema, contents: [content(await makeTextPdf([lines]), 'application/pdf')], ...(options ? { options } : {}) });
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        return response.body;
      };
      // nothing in the document settles it: the fallback (day first)
      expect(await post(['Invoice date: 03/04/2024'])).to.deep.include({ invoice_date: '2024-04-03' });
      expect(await post(['Invoice date: 03/04/2024'], { dateOrder: 'mdy' })).to.deep.include({ invoice_date: '2024-03-04' });
      // a due date of 03/25/2024 can only be month first, so the invoice date is too
      expect(await post(['Invoice date: 03/04/2024', 'Due date: 03/25/2024'])).to.deep.equal({ invoice_date: '2024-03-04', due_date: '2024-03-25' });
      expect(await post(['Invoice date: 03/04/2024', 'Due date: 25/03/2024'], { dateOrder: 'auto' })).to.deep.equal({ invoice_date: '2024-04-03', due_date: '2024-03-25' });
      // an explicit order wins over the document
      expect(await post(['Invoice date: 03/04/2024', 'Due date: 03/25/2024'], { dateOrder: 'dmy' })).to.deep.include({ invoice_date: '2024-04-03' });
    });

    it('OCRs a scanned PDF and reads its values', async () => {
      const before = ocrCalls();
      const pdf = await makeScannedPdf(['CORNER CAFE', 'Date: 2024-05-17', 'TOTAL 6.25']);
      const response = await postJson(endpoint, { schema: receiptSchema, contents: [content(pdf, 'application/pdf')] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(ocrCalls()).to.equal(before + 1);
      expect(response.body).to.include({ date: '2024-05-17', total: 6.25 });
      // PP-OCR reads scans by default (OCR_ENGINE=auto with OCR_LANGS=eng).
      expect(response.headers.get('x-docshape-ocr')).to.equal('paddle');
    });

    it('OCRs only the scanned page of a mixed PDF', async () => {
      const before = ocrCalls();
      const response = await postJson(endpoint, { schema: receiptSchema, contents: [content(await makeMixedPdf(), 'application/pdf')] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(ocrCalls()).to.equal(before + 1);
    });

    for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) {
      it(`reads a ${format.toUpperCase()} receipt`, async () => {
        const image = await makeReceiptImage(format);
        const response = await postJson(endpoint, { schema: receiptSchema, contents: [content(image, `image/${format}`)] });
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        expect(response.body).to.deep.equal({ store_name: 'CORNER CAFE', date: '2024-05-17', total: 6.25 });
      });
    }

    it('accepts a data: URL prefix', async () => {
      const image = await makeReceiptImage('png');
      const response = await postJson(endpoint, { schema: receiptSchema, contents: [{ mimeType: 'image/png', data: `data:image/png;base64,${image.toString('base64')}` }] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.total).to.equal(6.25);
    });

    it('combines several files into one answer', async () => {
      const schema = {
        type: 'object',
        properties: { invoice_number: { type: 'string' }, total: { type: 'number', description: 'Total amount' }, store_name: { type: 'string', description: 'Name of the store' }, customer_email: { type: 'string', format: 'email' } },
      };
      const response = await postJson(endpoint, {
        schema,
        contents: [content(await makeInvoicePdf(), 'application/pdf', 'invoice.pdf'), content(await makeReceiptImage('png'), 'image/png', 'receipt.png')],
      });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.invoice_number).to.equal('INV-2024-0042');
      expect(response.body.customer_email).to.equal(null);
      expect(Object.keys(response.body).sort()).to.deep.equal(['customer_email', 'invoice_number', 'store_name', 'total']);
    });

    it('reads every distinct frame of an animated GIF', async () => {
      const gif = await makeAnimatedGif([['INVOICE NUMBER A-1001'], ['TOTAL 42.00']]);
      const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' } } };
      const response = await postJson(endpoint, { schema, contents: [content(gif, 'image/gif')] });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body).to.deep.equal({ invoice_number: 'A-1001', total: 42 });
    });

    it('answers null for what the document does not contain', async () => {
      const schema = { type: 'object', properties: { iban: { type: 'string', description: 'Bank account IBAN' }, items: { type: 'array', items: { type: 'string' } } }, required: ['iban', 'items'] };
      const response = await postJson(endpoint, { schema, contents: [content(await makeInvoicePdf(), 'application/pdf')] });
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.equal({ iban: null, items: [] });
    });

    it('keeps /healthz answering while OCR runs: the event loop is never held 100 ms', async () => {
      const image = await makeReceiptImage('png');
      const work = postJson(endpoint, { schema: receiptSchema, contents: [content(image, 'image/png'), content(image, 'image/png'), content(image, 'image/png')] });
      const { longestStallMs, probes } = await healthzDuring(server.url, work);
      const answer = await work;
      expect(answer.status).to.equal(200);
      expect(answer.headers.get('x-docshape-ocr')).to.equal('paddle');
      expect(probes).to.be.greaterThan(2);
      expect(longestStallMs, 'longest event-loop stall, CPU ms').to.be.below(100);
    });
  });

  describe('operations', () => {
    it('reports readiness with OCR and engine status', async () => {
      const response = await fetch(`${server.url}/readyz`);
      expect(response.status).to.equal(200);
      const body = (await response.json()) as { ready: boolean; engine: { name: string }; ocr: { ready: boolean; engine: string; chosenBecause: string } };
      expect(body.ready).to.equal(true);
      expect(body.engine.name).to.equal('rules');
      expect(body.ocr).to.include({ ready: true, engine: 'paddle' });
      expect(body.ocr.chosenBecause).to.match(/OCR_ENGINE=auto: the PP-OCR recogniser \(ppocrv6\) writes every letter of OCR_LANGS=eng/);
    });

    it('echoes a caller-supplied x-request-id', async () => {
      const response = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
      expect(response.headers.get('x-request-id')).to.equal('abc-123');
    });

    it('answers 503 with Retry-After when saturated, and 504 past the time limit', async () => {
      // An engine that only stops when the request's signal aborts: the 504 then never depends on how fast OCR is.
      const stalling: Engine = {
        name: 'stalling',
        extract: ({ signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
        status: async () => ({ ready: true }),
        close: async () => undefined,
      };
      const busy = await startTestServer({ ...services, engine: stalling }, { MAX_ACTIVE_REQUESTS: '1', MAX_QUEUED_REQUESTS: '0', REQUEST_TIMEOUT_MS: '2000' });
      try {
        const body = { schema: receiptSchema, contents: [content(await makeInvoicePdf(), 'application/pdf')] };
        const first = postJson(`${busy.url}/v1/`, body);
        await untilActive(busy.url);
        const second = await postJson(`${busy.url}/v1/`, body);
        expect(second.status).to.equal(503);
        expect(second.headers.get('retry-after')).to.match(/^\d+$/);
        expect(second.body.error).to.match(/busy/);
        const timedOut = await first;
        expect(timedOut.status).to.equal(504);
        expect(timedOut.body.error).to.match(/REQUEST_TIMEOUT_MS/);
      } finally {
        await busy.close();
      }
    });

    it('answers a bad schema or bad base64 with 400 at once, without waiting in the queue for a slot (the corpus: 20 s for a 400)', async () => {
      const stalling: Engine = {
        name: 'stalling',
        extract: ({ signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
        status: async () => ({ ready: true }),
        close: async () => undefined,
      };
      // the slot is taken until the first request's time limit, a minute: far longer than two 400s take on any machine
      const busy = await startTestServer({ ...services, engine: stalling }, { MAX_ACTIVE_REQUESTS: '1', MAX_QUEUED_REQUESTS: '4', REQUEST_TIMEOUT_MS: '60000' });
      try {
        const pdf = content(await makeInvoicePdf(), 'application/pdf');
        let occupied = true;
        const occupying = postJson(`${busy.url}/v1/`, { schema: receiptSchema, contents: [pdf] }).finally(() => (occupied = false));
        occupying.catch(() => undefined);
        await untilActive(busy.url);
        const badSchema = await postJson(`${busy.url}/v1/`, { schema: { type: 'object', properties: { a: { type: 'nonsense' } } }, contents: [pdf] });
        const badBase64 = await postJson(`${busy.url}/v1/`, { schema: receiptSchema, contents: [{ mimeType: 'application/pdf', data: '%%%' }] });
        expect([badSchema.status, badBase64.status]).to.deep.equal([400, 400]);
        expect(badSchema.body.error).to.match(/^schema/);
        expect(badBase64.body.error).to.match(/contents\[0\]\.data/);
        // answered while the slot is still taken by the first request, which runs until its time limit
        expect(occupied).to.equal(true);
      } finally {
        await busy.close();
      }
    });

    it('refuses a request before reading its body when saturated (no megabytes parsed only to answer 503)', async () => {
      const stalling: Engine = {
        name: 'stalling',
        extract: ({ signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
        status: async () => ({ ready: true }),
        close: async () => undefined,
      };
      const busy = await startTestServer({ ...services, engine: stalling }, { MAX_ACTIVE_REQUESTS: '1', MAX_QUEUED_REQUESTS: '0', REQUEST_TIMEOUT_MS: '60000' });
      try {
        const first = postJson(`${busy.url}/v1/`, { schema: receiptSchema, contents: [content(await makeInvoicePdf(), 'application/pdf')] });
        await untilActive(busy.url);
        // saturated, a request is refused before its body is read: this one never sends the rest of its body, so any
        // answer it gets before the first request's minute is up was given without reading it
        const refusedEarly = await new Promise<number | undefined>((resolve, reject) => {
          const request = httpRequest(`${busy.url}/v1/`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '1000000', 'x-api-key': TEST_API_KEY } }, (response) => {
            response.resume();
            resolve(response.statusCode);
            request.destroy();
          });
          request.on('error', reject);
          request.write('{"schema":');
        });
        expect(refusedEarly).to.equal(503);
        void first.catch(() => undefined);
      } finally {
        await busy.close();
      }
    });

    it('answers 500 without internals when the engine fails', async () => {
      const failing: Engine = {
        name: 'failing',
        extract: async () => {
          throw new Error('secret internal detail at /srv/app.js:12');
        },
        status: async () => ({ ready: true }),
        close: async () => undefined,
      };
      const broken = await startTestServer({ ...services, engine: failing });
      try {
        const response = await postJson(`${broken.url}/v1/`, { schema: invoiceSchema, contents: [content(await makeInvoicePdf(), 'application/pdf')] });
        expect(response.status).to.equal(500);
        expect(response.body).to.deep.equal({ error: 'Internal server error' });
      } finally {
        await broken.close();
      }
    });
  });
});
