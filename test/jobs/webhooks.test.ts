/**
 * Webhooks: signed as Standard Webhooks says (checked with the spec's own
 * reference library), retried with backoff on their own queue in Redis,
 * sent only to allowed hosts, never through a redirect.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../src/config.js';
import { startJobs, type JobsRuntime } from '../../src/jobs/create-jobs.js';
import { hostAllowed, signatureHeaders, webhookProblem } from '../../src/jobs/webhooks.js';
import { silentLogger } from '../../src/logger.js';
import { makeInvoicePdf } from '../fixtures/pdfs.js';
import { NO_REDIS, redisInstalled, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, testConfig, type RunningServer } from '../helpers/test-server.js';

const SECRET = `whsec_${Buffer.from('docshape-test-webhook-secret-32b').toString('base64')}`;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 that answers each request on a path with the next status of that path's script. */
async function startReceiver(script: Record<string, number[]>): Promise<{ url: string; port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const served: Record<string, number> = {};
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const statuses = script[path] ?? [404];
      const status = statuses[Math.min(served[path] ?? 0, statuses.length - 1)]!;
      served[path] = (served[path] ?? 0) + 1;
      res.writeHead(status, status >= 300 && status < 400 ? { location: '/trap' } : {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('webhooks: signatures and allowed hosts', () => {
  it('signs as the Standard Webhooks reference library verifies, and the signature breaks when the body changes', () => {
    const config = loadConfig({ WEBHOOK_SECRET: SECRET });
    const body = JSON.stringify({ type: 'job.succeeded', id: 'j-1' });
    const headers = signatureHeaders(config.webhooks.secret!, 'msg_j-1_succeeded', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(SECRET).verify(body, headers)).to.deep.equal(JSON.parse(body));
    expect(() => new Webhook(SECRET).verify(body.replace('j-1', 'j-2'), headers)).to.throw(/signature/i);
  });

  it('WEBHOOK_SECRET must be whsec_ and the base64 of 24 to 64 bytes', () => {
    expect(() => loadConfig({ WEBHOOK_SECRET: 'whsec_c2hvcnQ=' })).to.throw(/24 to 64/);
    expect(() => loadConfig({ WEBHOOK_SECRET: 'not base64 at all!' })).to.throw(/WEBHOOK_SECRET/);
    expect(loadConfig({ WEBHOOK_SECRET: SECRET }).webhooks.secret?.length).to.equal(32);
  });

  it('allows only the hosts listed: a name with any port or one port, subdomains of *.domain; none when the list is empty', () => {
    const allowed = ['hooks.corp.example', '10.0.0.7:8443', '*.dms.example', '[::1]:9000'];
    expect(hostAllowed(new URL('https://hooks.corp.example/a'), allowed)).to.equal(true);
    expect(hostAllowed(new URL('http://hooks.corp.example:8080/a'), allowed)).to.equal(true);
    expect(hostAllowed(new URL('https://10.0.0.7:8443/a'), allowed)).to.equal(true);
    expect(hostAllowed(new URL('https://10.0.0.7/a'), allowed)).to.equal(false);
    expect(hostAllowed(new URL('https://erp.dms.example/a'), allowed)).to.equal(true);
    expect(hostAllowed(new URL('https://dms.example.evil.test/a'), allowed)).to.equal(false);
    expect(hostAllowed(new URL('https://evilhooks.corp.example/a'), allowed)).to.equal(false);
    expect(hostAllowed(new URL('http://[::1]:9000/a'), allowed)).to.equal(true);
    expect(hostAllowed(new URL('https://hooks.corp.example/a'), [])).to.equal(false);
    const config = loadConfig({ WEBHOOK_SECRET: SECRET });
    expect(webhookProblem('http://127.0.0.1:1/x', config.webhooks)).to.match(/WEBHOOK_ALLOWED_HOSTS \(which allows none\)/);
    expect(webhookProblem('ftp://127.0.0.1/x', { ...config.webhooks, allowedHosts: ['127.0.0.1'] })).to.match(/http/);
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'http://x.example/' })).to.throw(/WEBHOOK_ALLOWED_HOSTS/);
  });
});

describe('webhooks through Redis: retries, backoff, no redirects, allowlist', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let runtime: JobsRuntime;
  let server: RunningServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async function () {
    if (!redisInstalled()) {
      console.log(`      ${NO_REDIS}`);
      this.skip();
    }
    redis = await startRedis();
    receiver = await startReceiver({ '/hook': [500, 500, 200], '/moved': [307] });
    const env = { REDIS_URL: redis.url, WEBHOOK_SECRET: SECRET, WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`, WEBHOOK_RETRY_DELAY: '200ms', WEBHOOK_MAX_ATTEMPTS: '4' };
    runtime = await startJobs(testConfig(env), silentLogger());
    server = await startTestServer(await sharedServices(), env, { jobs: runtime });
  });

  after(async () => {
    await server?.close();
    await runtime?.close(0);
    await receiver?.close();
    await redis?.close();
    await closeSharedServices();
  });

  it('a receiver on 127.0.0.1 gets a signed event without the values, again after answering 500 twice, with the same webhook-id', async () => {
    const submitted = await postJson(`${server.url}/v1/jobs`, {
      schema: { type: 'object', properties: { total: { type: 'number' } } },
      contents: [content(await makeInvoicePdf(), 'application/pdf')],
      webhook: { url: `${receiver.url}/hook` },
      metadata: { erpDocument: 4711 },
    });
    expect(submitted.status).to.equal(202);
    const id = submitted.body.id as string;
    for (let i = 0; i < 200 && receiver.received.filter((r) => r.path === '/hook').length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const tries = receiver.received.filter((r) => r.path === '/hook');
    expect(tries).to.have.length(3);
    const verifier = new Webhook(SECRET);
    for (const attempt of tries) {
      expect(verifier.verify(attempt.body, attempt.headers as Record<string, string>)).to.deep.equal({
        type: 'job.succeeded', id, status: 'succeeded', resultUrl: `${server.url}/v1/jobs/${id}/result`, metadata: { erpDocument: 4711 },
      });
      expect(attempt.body).to.not.contain('76.2');
    }
    expect(new Set(tries.map((t) => t.headers['webhook-id'])).size).to.equal(1);
    // and nothing more once it was taken
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.received.filter((r) => r.path === '/hook')).to.have.length(3);
  });

  it('follows no redirect, and a host outside WEBHOOK_ALLOWED_HOSTS is refused at submit and never called', async () => {
    const body = { schema: { type: 'object', properties: { total: { type: 'number' } } }, contents: [content(await makeInvoicePdf(), 'application/pdf')] };
    const refused = await postJson(`${server.url}/v1/jobs`, { ...body, webhook: { url: `http://localhost:${receiver.port}/hook` } });
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.match(/localhost:\d+ is not in WEBHOOK_ALLOWED_HOSTS/);
    const moved = await postJson(`${server.url}/v1/jobs`, { ...body, webhook: { url: `${receiver.url}/moved` } });
    expect(moved.status).to.equal(202);
    for (let i = 0; i < 200 && receiver.received.filter((r) => r.path === '/moved').length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.received.filter((r) => r.path === '/moved')).to.have.length(4); // WEBHOOK_MAX_ATTEMPTS, each a failure
    expect(receiver.received.filter((r) => r.path === '/trap')).to.have.length(0);
    expect(receiver.received.every((r) => r.headers.host === `127.0.0.1:${receiver.port}`)).to.equal(true);
  });
});
