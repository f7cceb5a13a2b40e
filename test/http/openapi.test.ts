import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { buildOpenApiDocument, supportsEvidence } from '../../src/http/openapi.js';
import { parseExtractionRequest, requestSchema } from '../../src/http/request-schema.js';
import type { PipelineDeps } from '../../src/pipeline.js';
import { makeTextPdf } from '../fixtures/pdfs.js';
import { withoutDescriptions } from '../helpers/without-descriptions.js';
import { closeSharedServices, postJson, sharedServices, startTestServer, type RunningServer } from '../helpers/test-server.js';

type Json = Record<string, any>;

async function validateOpenApi(document: unknown): Promise<{ valid: boolean; errors?: unknown }> {
  const validator = new Validator();
  const result = await validator.validate(document as Parameters<Validator["validate"]>[0]);
  if (result.valid) validator.resolveRefs(); // throws on a $ref that points nowhere
  return { valid: result.valid, errors: result.errors };
}

describe('OpenAPI document', function () {
  this.timeout(60_000);
  let services: PipelineDeps;
  let server: RunningServer;

  before(async () => {
    services = await sharedServices();
    server = await startTestServer(services);
  });

  after(async () => {
    await server?.close();
    await closeSharedServices();
  });

  it('is served at /openapi.json without a key and validates as OpenAPI 3.1', async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    const document = (await response.json()) as Json;
    expect(document.openapi).to.equal('3.1.0');
    const result = await validateOpenApi(document);
    expect(result.errors ?? []).to.deep.equal([]);
    expect(result.valid).to.equal(true);
  });

  it('rejects a broken document (the validator is not a rubber stamp)', async () => {
    const broken = buildOpenApiDocument({ metrics: true }) as Json;
    broken.paths['/v1/'].post.responses['200'].headers['server-timing'] = { schema: 5 };
    expect((await validateOpenApi(broken)).valid).to.equal(false);
  });

  it('publishes the very schema requests are validated with, so the two cannot drift', () => {
    const published = (buildOpenApiDocument({ metrics: true }) as Json).components.schemas.ExtractionRequest;
    expect(withoutDescriptions(published)).to.deep.equal(withoutDescriptions(requestSchema));
    // And it judges bodies as the service does.
    const validate = new Ajv2020({ strict: false }).compile(published);
    const bodies: unknown[] = [
      { schema: { type: 'object' }, contents: [{ mimeType: 'application/pdf', data: 'JVBERi0=' }] },
      { schema: { type: 'object' }, contents: [] },
      { schema: { type: 'object' } },
      { schema: 'x', contents: [{ mimeType: 'image/png', data: '' }] },
      { schema: {}, contents: [{ mimeType: 'image/png' }] },
      { schema: {}, contents: [{ mimeType: 'image/png', data: 'x', filename: 'f'.repeat(2000) }] },
    ];
    for (const body of bodies) {
      let accepted = true;
      try {
        parseExtractionRequest(body);
      } catch {
        accepted = false;
      }
      expect(validate(body), JSON.stringify(body).slice(0, 80)).to.equal(accepted);
    }
  });

  it('offers both forms of a request body, the multipart one with the JSON one\'s members as its JSON parts', () => {
    const document = buildOpenApiDocument({ metrics: false, jobs: true }) as Json;
    for (const [path, json, form, parts] of [['/v1/', 'ExtractionRequest', 'ExtractionForm', ['schema', 'options']], ['/v1/jobs', 'JobRequest', 'JobForm', ['schema', 'options', 'webhook', 'metadata']]] as const) {
      const content = document.paths[path].post.requestBody.content;
      expect(Object.keys(content), path).to.deep.equal(['application/json', 'multipart/form-data']);
      expect(content['multipart/form-data'].schema.$ref).to.equal(`#/components/schemas/${form}`);
      const published = document.components.schemas[form];
      expect(published.required).to.deep.equal(['schema', 'file']);
      expect(Object.keys(published.properties)).to.deep.equal([...parts, 'file']);
      for (const part of parts) {
        expect(published.properties[part], part).to.deep.equal(document.components.schemas[json].properties[part]);
        expect(content['multipart/form-data'].encoding[part]).to.deep.equal({ contentType: 'application/json' });
      }
    }
  });

  it('describes every status of POST /v1/ with its body and headers, and the other routes', () => {
    const document = buildOpenApiDocument({ metrics: true }) as Json;
    const responses = document.paths['/v1/'].post.responses;
    expect(Object.keys(responses)).to.deep.equal(['200', '400', '401', '413', '422', '500', '503', '504']);
    expect(Object.keys(responses['200'].headers)).to.have.members(['x-request-id', 'x-docshape-engine', 'x-docshape-ocr', 'server-timing']);
    expect(responses['503'].headers).to.have.property('Retry-After');
    for (const status of ['400', '401', '413', '422', '500', '503', '504']) {
      expect(responses[status].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/Error' });
    }
    expect(Object.keys(document.paths)).to.include.members(['/v1/', '/healthz', '/readyz', '/metrics', '/openapi.json', '/']);
    expect(document.components.securitySchemes.ApiKey).to.deep.include({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(document.paths['/metrics'].get.security).to.deep.equal([{ ApiKey: [] }, { BearerKey: [] }]);
    expect(document.paths['/healthz'].get.security).to.deep.equal([]);
    expect(Object.keys((buildOpenApiDocument({ metrics: false }) as Json).paths)).to.not.include('/metrics');
  });

  it('publishes the shape of an answer with evidence, and a real one fits it', async () => {
    const document = buildOpenApiDocument({ metrics: true }) as Json;
    expect(supportsEvidence()).to.equal(true);
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'openapi.json', components: document.components });
    const validate = ajv.compile({ $ref: 'openapi.json#/components/schemas/ExtractionWithEvidence' });
    const pdf = await makeTextPdf([['Invoice number: INV-7', 'Total: 12.50']]);
    const body = {
      schema: { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' }, po: { type: ['string', 'null'] } } },
      contents: [{ mimeType: 'application/pdf', data: pdf.toString('base64') }],
      options: { evidence: true },
    };
    const response = await postJson(`${server.url}/v1/`, body);
    expect(response.status).to.equal(200);
    expect(validate(response.body), JSON.stringify(validate.errors)).to.equal(true);
    expect(Object.keys(response.body.evidence)).to.deep.equal(['/invoice_number', '/total']);
    // and the published shape is not a rubber stamp either
    expect(validate({ data: {}, evidence: { '/x': { bbox: [0, 0, 2, 1], confidence: 0.5 } } })).to.equal(false);
    expect(validate({ data: {}, evidence: { '/x': { page: 0 } } })).to.equal(false);
  });

  it('offers evidence exactly when the request schema accepts options.evidence', () => {
    const withOptions = { ...requestSchema, properties: { ...requestSchema.properties, options: { type: 'object', properties: { evidence: { type: 'boolean' } } } } };
    expect(supportsEvidence(withOptions as unknown as Record<string, unknown>)).to.equal(true);
    expect(supportsEvidence({ type: 'object', properties: { options: { type: 'object', properties: { dateOrder: { enum: ['dmy'] } } } } })).to.equal(false);
    const live = supportsEvidence();
    const document = buildOpenApiDocument({ metrics: true }) as Json;
    expect(Object.keys(document.components.schemas).includes('Evidence')).to.equal(live);
  });
});
