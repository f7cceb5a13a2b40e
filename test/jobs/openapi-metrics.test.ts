/**
 * The job routes in /openapi.json (valid OpenAPI 3.1, the very schema
 * submits are checked with, a real job fitting its schema) and in /metrics
 * (jobs by outcome and state, queue wait, route labels without ids).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { buildOpenApiDocument } from '../../src/http/openapi.js';
import { jobRequestSchema, parseJobRequest } from '../../src/http/request-schema.js';
import { startJobs, type JobsRuntime } from '../../src/jobs/create-jobs.js';
import { silentLogger } from '../../src/logger.js';
import { makeInvoicePdf } from '../fixtures/pdfs.js';
import { withoutDescriptions } from '../helpers/without-descriptions.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, testConfig, TEST_API_KEY, type RunningServer } from '../helpers/test-server.js';

type Json = Record<string, any>;

async function getJson(url: string): Promise<Json> {
  return (await (await fetch(url, { headers: { 'x-api-key': TEST_API_KEY } })).json()) as Json;
}

describe('jobs in /openapi.json and /metrics', function () {
  this.timeout(60_000);
  let runtime: JobsRuntime;
  let server: RunningServer;

  before(async () => {
    runtime = await startJobs(testConfig(), silentLogger());
    server = await startTestServer(await sharedServices(), {}, { jobs: runtime });
  });

  after(async () => {
    await server?.close();
    await runtime?.close(0);
    await closeSharedServices();
  });

  it('the document with jobs validates as OpenAPI 3.1 and names every job route and status', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    const validator = new Validator();
    const result = await validator.validate(document as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).to.deep.equal([]);
    validator.resolveRefs();
    expect(Object.keys(document.paths)).to.include.members(['/v1/jobs', '/v1/jobs/{id}', '/v1/jobs/{id}/result']);
    expect(Object.keys(document.paths['/v1/jobs'].post.responses)).to.deep.equal(['202', '400', '401', '413', '422', '503']);
    expect(Object.keys(document.paths['/v1/jobs/{id}/result'].get.responses)).to.deep.equal(['200', '401', '404', '409', '410', '503']);
    expect(document.paths['/v1/jobs/{id}'].delete.operationId).to.equal('cancelJob');
    expect(Object.keys((buildOpenApiDocument({ metrics: true }) as Json).paths)).to.not.include('/v1/jobs');
  });

  it('publishes the schema submits are checked with, and a real job fits the Job schema', async () => {
    const document = buildOpenApiDocument({ metrics: true, jobs: true }) as Json;
    expect(withoutDescriptions(document.components.schemas.JobRequest)).to.deep.equal(withoutDescriptions(jobRequestSchema));
    const validate = new Ajv2020({ strict: false }).compile(document.components.schemas.JobRequest);
    for (const body of [
      { schema: {}, contents: [{ mimeType: 'image/png', data: 'x' }], webhook: { url: 'http://a' }, metadata: {} },
      { schema: {}, contents: [{ mimeType: 'image/png', data: 'x' }], webhook: {} },
      { schema: {}, contents: [{ mimeType: 'image/png', data: 'x' }], webhook: { url: 'http://a', extra: 1 } },
      { schema: {}, contents: [{ mimeType: 'image/png', data: 'x' }], metadata: [] },
    ]) {
      let accepted = true;
      try {
        parseJobRequest(body);
      } catch {
        accepted = false;
      }
      expect(validate(body), JSON.stringify(body)).to.equal(accepted);
    }
    const submitted = await postJson(`${server.url}/v1/jobs`, { schema: { type: 'object', properties: { total: { type: 'number' } } }, contents: [content(await makeInvoicePdf(), 'application/pdf')] });
    const job = await getJson(`${server.url}/v1/jobs/${submitted.body.id}?wait=10`);
    const ajv = new Ajv2020({ strict: false, formats: { 'date-time': true } });
    ajv.addSchema({ $id: 'doc', components: document.components });
    const fits = ajv.compile({ $ref: 'doc#/components/schemas/Job' });
    expect(fits(job), JSON.stringify(fits.errors)).to.equal(true);
    expect(fits(submitted.body)).to.equal(false); // the 202 body is JobAccepted, not a Job
  });

  it('counts jobs by outcome, the queue wait and the queue by state, with route labels that hold no id', async () => {
    const body = { schema: { type: 'object', properties: { total: { type: 'number' } } }, contents: [content(await makeInvoicePdf(), 'application/pdf')] };
    const done = await postJson(`${server.url}/v1/jobs`, body);
    await getJson(`${server.url}/v1/jobs/${done.body.id}?wait=10`);
    await getJson(`${server.url}/v1/jobs/${done.body.id}?wait=10`);
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } })).text();
    expect(text).to.match(/^docshape_jobs_total\{outcome="succeeded"\} [1-9]/m);
    expect(text).to.match(/^docshape_job_queue_wait_seconds_count [1-9]/m);
    expect(text).to.match(/^docshape_job_run_seconds_count\{outcome="succeeded"\} [1-9]/m);
    expect(text).to.match(/^docshape_jobs\{state="queued"\} \d+/m);
    expect(text).to.match(/^docshape_jobs\{state="running"\} \d+/m);
    expect(text).to.match(/route="\/v1\/jobs\/\{id\}"/);
    expect(text).to.match(/route="\/v1\/jobs"/);
    expect(text).to.not.contain(done.body.id);
  });
});
