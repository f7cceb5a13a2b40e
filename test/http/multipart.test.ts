/**
 * POST /v1/ with a multipart/form-data body (curl -F): the same answer,
 * headers and 400s as the JSON form, each malformed body answered at once
 * with what is wrong, 413 at MAX_BODY_BYTES, and /healthz answering while
 * a 50 MB body streams in.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { PassThrough } from 'node:stream';
import type { Request } from 'express';
import { gzipSync } from 'node:zlib';
import { filePartType, jsonPartLimit, readMultipart } from '../../src/http/multipart-body.js';
import type { PipelineDeps } from '../../src/pipeline.js';
import { makeReceiptImage } from '../fixtures/images.js';
import { INVOICE_EXPECTED, makeInvoicePdf } from '../fixtures/pdfs.js';
import { leastStallDuring } from '../helpers/healthz.js';
import { formBody, postBytes, postForm as postFormTo, type FormPart, type RawAnswer } from '../helpers/multipart.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, TEST_API_KEY, type RunningServer } from '../helpers/test-server.js';

const schema = {
  type: 'object',
  properties: { invoice_number: { type: 'string' }, total: { type: 'number' }, store_name: { type: 'string' } },
};

/** Stage names of a server-timing header: the same stages whichever form the request came in. */
function stages(header: string | null | undefined): string[] {
  return (header ?? '').split(',').map((entry) => entry.trim().split(';')[0]!);
}

describe('POST /v1/ with multipart/form-data', function () {
  this.timeout(120_000);
  let services: PipelineDeps;
  let server: RunningServer;
  let pdf: Buffer;
  let png: Buffer;

  before(async () => {
    services = await sharedServices();
    server = await startTestServer(services);
    [pdf, png] = await Promise.all([makeInvoicePdf(), makeReceiptImage('png')]);
  });

  after(async () => {
    await server?.close();
    await closeSharedServices();
  });

  const postForm = (parts: FormPart[], headers: Record<string, string> = {}): Promise<RawAnswer> => postFormTo(`${server.url}/v1/`, parts, { 'x-api-key': TEST_API_KEY, ...headers });

  const schemaPart = (value: unknown = schema): FormPart => ({ name: 'schema', body: JSON.stringify(value) });

  it('reads a PDF and an image part with the schema as a field: the answer, headers and stages of the JSON form', async () => {
    const form = new FormData();
    form.append('schema', JSON.stringify(schema));
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'invoice.pdf');
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'receipt.png');
    const multipart = await fetch(`${server.url}/v1/`, { method: 'POST', headers: { 'x-api-key': TEST_API_KEY }, body: form });
    const json = await postJson(`${server.url}/v1/`, { schema, contents: [content(pdf, 'application/pdf', 'invoice.pdf'), content(png, 'image/png', 'receipt.png')] });
    expect(json.status).to.equal(200);
    expect(multipart.status).to.equal(200);
    const answer = await multipart.json();
    expect(answer).to.deep.equal(json.body);
    expect(answer.invoice_number).to.equal(INVOICE_EXPECTED.invoiceNumber);
    for (const header of ['x-docshape-engine', 'x-docshape-ocr', 'content-type']) expect(multipart.headers.get(header), header).to.equal(json.headers.get(header));
    expect(json.headers.get('x-docshape-ocr')).to.not.equal('none'); // the image part was read by OCR
    expect(stages(multipart.headers.get('server-timing'))).to.deep.equal(['decode', 'ocr', 'extract', 'validate', 'total']);
    expect(multipart.headers.get('x-request-id')).to.be.a('string');
  });

  it('takes the schema as a JSON file part and options as a field, and a file\'s type from its filename when the part states none', async () => {
    const options = { evidence: true, dateOrder: 'dmy' };
    const json = await postJson(`${server.url}/v1/`, { schema, contents: [content(pdf, 'application/pdf', 'invoice.pdf')], options });
    expect(json.status).to.equal(200);
    for (const type of ['application/octet-stream', undefined]) {
      const answer = await postForm([
        { name: 'schema', filename: 'schema.json', type: 'application/json', body: JSON.stringify(schema, null, 2) },
        { name: 'options', body: JSON.stringify(options) },
        { name: 'file', filename: 'invoice.pdf', ...(type ? { type } : {}), body: pdf },
      ]);
      expect(answer.status, String(type)).to.equal(200);
      expect(answer.body).to.deep.equal(json.body);
      expect(answer.body.evidence['/invoice_number'].confidence).to.be.a('number');
    }
  });

  it('reads a file part that says nothing of its type by its bytes, and a text one by its filename, as the JSON form\'s application/octet-stream', async () => {
    const csv = Buffer.from('Invoice number,Total\nINV-7,12.50\n');
    for (const [body, filename] of [[png, 'scan'], [csv, 'export.csv']] as const) {
      const multipart = await postForm([schemaPart(), { name: 'file', filename, body }]);
      const json = await postJson(`${server.url}/v1/`, { schema, contents: [content(body, 'application/octet-stream', filename)] });
      expect(json.status, filename).to.equal(200);
      expect(multipart.status, filename).to.equal(200);
      expect(multipart.body, filename).to.deep.equal(json.body);
    }
  });

  it('reads a body sent in chunks (no Content-Length) and a gzip one as the plain one', async () => {
    const { body, contentType } = formBody([schemaPart(), { name: 'file', filename: 'invoice.pdf', type: 'application/pdf', body: pdf }]);
    const headers = { 'content-type': contentType, 'x-api-key': TEST_API_KEY };
    const plain = await postBytes(`${server.url}/v1/`, body, headers);
    expect(plain.status).to.equal(200);
    expect(plain.body.invoice_number).to.equal(INVOICE_EXPECTED.invoiceNumber);
    expect((await postBytes(`${server.url}/v1/`, body, headers, { chunked: true })).body).to.deep.equal(plain.body);
    expect((await postBytes(`${server.url}/v1/`, gzipSync(body), { ...headers, 'content-encoding': 'gzip' })).body).to.deep.equal(plain.body);
  });

  it('names a file\'s problem as the JSON form does: the n-th file part is contents[n]', async () => {
    const parts: FormPart[] = [schemaPart(), { name: 'file', filename: 'invoice.pdf', type: 'application/pdf', body: pdf }, { name: 'file', filename: 'receipt.png', type: 'application/pdf', body: png }];
    const multipart = await postForm(parts);
    const json = await postJson(`${server.url}/v1/`, { schema, contents: [content(pdf, 'application/pdf'), content(png, 'application/pdf')] });
    expect(multipart.status).to.equal(400);
    expect(multipart.body).to.deep.equal(json.body);
    expect(multipart.body.error).to.match(/^contents\[1\]\.data is a PNG image but contents\[1\]\.mimeType is application\/pdf/);
    const unknownOption = await postForm([schemaPart(), { name: 'options', body: '{"language":"de"}' }, { name: 'file', filename: 'a.pdf', body: pdf }]);
    expect(unknownOption.body.error).to.match(/^options\.language is not a known option; the options are /);
  });

  describe('a malformed body gets a clear 400 or 413 at once', () => {
    const file = (): FormPart => ({ name: 'file', filename: 'invoice.pdf', type: 'application/pdf', body: pdf });
    const cases: Array<[string, () => { body: Buffer; contentType: string }, number, RegExp]> = [
      ['no boundary in Content-Type', () => ({ ...formBody([schemaPart(), file()]), contentType: 'multipart/form-data' }), 400, /^Content-Type multipart\/form-data needs its boundary/],
      ['a body cut short (no closing boundary)', () => {
        const form = formBody([schemaPart(), file()]);
        return { ...form, body: form.body.subarray(0, form.body.length - 200) };
      }, 400, /^the multipart body ends before its closing boundary/],
      ['another boundary than Content-Type names', () => ({ ...formBody([schemaPart(), file()]), contentType: 'multipart/form-data; boundary=not-this-one' }), 400, /^the multipart body ends before its closing boundary/],
      ['a schema part past its limit', () => formBody([{ name: 'schema', body: `{"description":"${'x'.repeat(jsonPartLimit('schema'))}"}` }, file()]), 413, /^the "schema" part is larger than \d+ bytes \(a schema may be 524288 bytes as JSON\)$/],
      ['more file parts than MAX_FILES', () => formBody([schemaPart(), ...Array.from({ length: 21 }, file)]), 400, /^contents has more than 20 files \("file" parts\); the limit is 20 files per request \(MAX_FILES\)$/],
      ['a schema that is not JSON', () => formBody([{ name: 'schema', body: '{"type": "object",' }, file()]), 400, /^the "schema" part is not valid JSON: /],
      ['options that are not JSON', () => formBody([schemaPart(), { name: 'options', body: 'evidence=true' }, file()]), 400, /^the "options" part is not valid JSON: /],
      ['no file part', () => formBody([schemaPart()]), 400, /^the multipart body has no "file" part: send each document as a part named "file"/],
      ['no schema part', () => formBody([file()]), 400, /^the multipart body has no "schema" part/],
      ['two schema parts', () => formBody([schemaPart(), schemaPart(), file()]), 400, /^the multipart body has two "schema" parts; send one$/],
      ['a part of another name', () => formBody([schemaPart(), { ...file(), name: 'files' }]), 400, /^the multipart body has a part named "files"; its parts are "schema", "options" \(JSON\) and "file"/],
      ['a file part whose type nothing says, of bytes of no type', () => formBody([schemaPart(), { name: 'file', filename: 'scan', body: Buffer.from([0, 1, 2, 3, 250, 251, 252, 253]) }]), 400, /^contents\[0\]\.data is of no type docshape reads \(contents\[0\]\.mimeType says nothing of it\)/],
      ['a file part in base64 transfer encoding', () => {
        const form = formBody([schemaPart(), file()]);
        return { ...form, body: Buffer.from(form.body.toString('latin1').replace('Content-Type: application/pdf', 'Content-Type: application/pdf\r\nContent-Transfer-Encoding: base64'), 'latin1') };
      }, 400, /^contents\[0\]\.data has Content-Transfer-Encoding "base64"; send the file's bytes as they are$/],
      ['no parts at all', () => ({ ...formBody([]), body: Buffer.from('just some text, no boundary anywhere') }), 400, /^the multipart body ends before its closing boundary/],
      ['a part of 20 KB that is not form-data (busboy skips it, and stalls)', () => {
        const form = formBody([schemaPart(), { name: 'skipped', body: Buffer.alloc(20_000, 0x41) }, file()]);
        return { ...form, body: Buffer.from(form.body.toString('latin1').replace('Content-Disposition: form-data; name="skipped"', 'Content-Type: text/plain'), 'latin1') };
      }, 400, /^the multipart body cannot be read to its end: a part is not form-data/],
    ];
    for (const [what, make, status, error] of cases) {
      it(what, async () => {
        const { body, contentType } = make();
        const answer = await postBytes(`${server.url}/v1/`, body, { 'content-type': contentType, 'x-api-key': TEST_API_KEY });
        expect(answer.status, JSON.stringify(answer.body)).to.equal(status);
        expect(answer.body.error).to.match(error);
        expect(Object.keys(answer.body)).to.deep.equal(['error']);
      });
    }

    it('checks the key before the body: 401 for a multipart body with a wrong key', async () => {
      const answer = await postForm([schemaPart(), file()], { 'x-api-key': 'wrong' });
      expect(answer).to.include({ status: 401 });
      expect(answer.body).to.deep.equal({ error: 'Unauthorized' });
    });
  });

  it('answers 413 one byte past MAX_BODY_BYTES, with or without Content-Length, and reads a body of exactly the limit', async () => {
    const limit = 300_000;
    const small = await startTestServer(services, { MAX_BODY_BYTES: String(limit) });
    try {
      const padded = (length: number) => {
        const overhead = formBody([schemaPart(), { name: 'file', filename: 'scan.png', type: 'image/png', body: Buffer.alloc(0) }], 'b0undary').body.length;
        return formBody([schemaPart(), { name: 'file', filename: 'scan.png', type: 'image/png', body: randomBytes(length - overhead) }], 'b0undary');
      };
      const headers = { 'content-type': 'multipart/form-data; boundary=b0undary', 'x-api-key': TEST_API_KEY };
      const atLimit = padded(limit);
      expect(atLimit.body.length).to.equal(limit);
      const read = await postBytes(`${small.url}/v1/`, atLimit.body, headers);
      expect(read.status).to.equal(400);
      expect(read.body.error).to.match(/^contents\[0\]\.data is not a PNG image as contents\[0\]\.mimeType says/);
      const over = padded(limit + 1).body;
      for (const chunked of [false, true]) {
        const answer = await postBytes(`${small.url}/v1/`, over, headers, { chunked });
        expect(answer.status, `chunked: ${chunked}`).to.equal(413);
        expect(answer.body.error).to.equal(`request body exceeds the limit of ${limit} bytes (MAX_BODY_BYTES)`);
      }
    } finally {
      await small.close();
    }
  });

  it('answers a 50 MB body with /healthz answering throughout, as it streams in with or without Content-Length', async () => {
    const { body, contentType } = formBody([schemaPart(), { name: 'file', filename: 'scan.png', type: 'image/png', body: randomBytes(50_000_000) }]);
    const headers = { 'content-type': contentType, 'x-api-key': TEST_API_KEY };
    const answered = (answer: RawAnswer) => {
      expect(answer.status).to.equal(400);
      expect(answer.body.error).to.match(/^contents\[0\]\.data is not a PNG image as contents\[0\]\.mimeType says/);
    };
    for (const chunked of [false, true]) {
      answered(await postBytes(`${server.url}/v1/`, body, headers, { chunked })); // the first request compiles the code: not what is measured
      const longestStallMs = await leastStallDuring(server.url, 2, () => postBytes(`${server.url}/v1/`, body, headers, { chunked }), answered);
      expect(longestStallMs, `chunked: ${chunked}: longest event-loop stall, CPU ms (least of 2 tries)`).to.be.below(100);
    }
  });

  it('answers a body the client stops sending without stalling, and goes on serving', async () => {
    const { body, contentType } = formBody([schemaPart(), { name: 'file', filename: 'invoice.pdf', type: 'application/pdf', body: pdf }]);
    await new Promise<void>((resolve) => {
      const request = httpRequest(`${server.url}/v1/`, { method: 'POST', headers: { 'content-type': contentType, 'x-api-key': TEST_API_KEY, 'content-length': String(body.length) } });
      request.on('error', () => resolve());
      request.write(body.subarray(0, body.length / 2));
      setTimeout(() => {
        request.destroy();
        resolve();
      }, 100);
    });
    expect((await fetch(`${server.url}/healthz`)).status).to.equal(200);
    const after = await postBytes(`${server.url}/v1/`, body, { 'content-type': contentType, 'x-api-key': TEST_API_KEY });
    expect(after.status).to.equal(200);
  });
});

describe('the type of a multipart file part', () => {
  it('is its Content-Type, or, when it says application/octet-stream or nothing (text/plain to busboy), the bytes\' and filename\'s to tell', () => {
    expect(filePartType('application/pdf')).to.equal('application/pdf');
    expect(filePartType('image/jpg')).to.equal('image/jpg'); // decode.ts reads the alias
    for (const unstated of ['application/octet-stream', 'text/plain']) expect(filePartType(unstated)).to.equal('application/octet-stream');
  });
});

describe('the digest of a multipart body (Idempotency-Key of a job)', () => {
  /** A request whose body arrives in pieces of `size` bytes, each on a turn of its own. */
  function arriving(body: Buffer, contentType: string, size: number): Request {
    const stream = new PassThrough();
    Object.assign(stream, { headers: { 'content-type': contentType, 'content-length': String(body.length) }, complete: true });
    void (async () => {
      for (let at = 0; at < body.length; at += size) {
        stream.write(body.subarray(at, at + size));
        await new Promise((resolve) => setImmediate(resolve));
      }
      stream.end();
    })();
    return stream as unknown as Request;
  }

  const options = { limitBytes: 1_000_000, maxFiles: 5, jsonParts: ['schema', 'options'], digest: true };
  const digestOf = async (parts: FormPart[], size: number, boundary?: string) => {
    const { body, contentType } = formBody(parts, boundary);
    return (await readMultipart(arriving(body, contentType, size), options)).digest;
  };

  it('is the same for the same parts in the same order, whatever the boundary and however the body arrives in pieces', async () => {
    const parts: FormPart[] = [
      { name: 'schema', body: JSON.stringify(schema) },
      { name: 'file', filename: 'a.pdf', type: 'application/pdf', body: randomBytes(5000) },
      { name: 'file', filename: 'b.png', type: 'image/png', body: randomBytes(300) },
    ];
    const digests = new Set<string | undefined>();
    for (const [size, boundary] of [[1_000_000, 'one'], [7, 'two'], [64, 'three'], [1, 'four']] as const) digests.add(await digestOf(parts, size, boundary));
    expect([...digests]).to.have.length(1);
    const [digest] = digests;
    expect(digest).to.match(/^[0-9a-f]{64}$/);
    // another file's byte, another name, another order: another digest
    const changed = structuredClone(parts);
    const bytes = changed[2]!.body as Uint8Array;
    bytes[0] = bytes[0]! ^ 1;
    expect(await digestOf(changed, 64)).to.not.equal(digest);
    expect(await digestOf([parts[0]!, { ...parts[1]!, filename: 'c.pdf' }, parts[2]!], 64)).to.not.equal(digest);
    expect(await digestOf([parts[0]!, parts[2]!, parts[1]!], 64)).to.not.equal(digest);
  });
});
