import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { makeReceiptImage } from '../fixtures/images.js';
import { MAIN, SERVICE_DEFAULTS, startServiceProcess as startService, type ServiceProcess } from '../helpers/service-process.js';
import { startFakeOllama } from '../helpers/model-servers.js';
import { makeScannedPdf, makeTextPdf } from '../fixtures/pdfs.js';
import { content, postJson, untilActive } from '../helpers/test-server.js';

describe('the service process', function () {
  this.timeout(120_000);

  it('generates a one-run API key when none is configured, prints it on stderr only, and accepts it', async () => {
    const service = await startService({});
    try {
      const key = /x-api-key: (\S+)/.exec(service.stderr())?.[1];
      expect(key).to.be.a('string');
      const schema = { type: 'object', properties: { total: { type: 'number' } } };
      const body = { schema, contents: [content(await makeReceiptImage('png'), 'image/png')] };
      expect((await postJson(`${service.url}/v1/`, body, { 'x-api-key': 'wrong' })).status).to.equal(401);
      const accepted = await postJson(`${service.url}/v1/`, body, { 'x-api-key': key as string });
      expect(accepted.status).to.equal(200);
      expect(service.stdout()).not.to.contain(key as string);
    } finally {
      await service.stop();
    }
  });

  it('refuses to start with a clear message when the configuration is wrong', async () => {
    const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH ?? '', PORT: 'eighty' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).to.equal(2);
    expect(stderr).to.match(/PORT/);
  });

  it('exits non-zero with a clear message when the port is already in use', async () => {
    const first = await startService({ API_KEYS: 'k' });
    try {
      const port = new URL(first.url).port;
      const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH ?? '', ...SERVICE_DEFAULTS, PORT: port, API_KEYS: 'k' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).to.equal(1);
      expect(stderr).to.contain(`cannot listen on 127.0.0.1:${port}: port ${port} is already in use`);
      expect(stdout).not.to.contain('docshape listening');
      // the first instance is untouched, and keeps idle connections longer than a load balancer's 60 s
      const health = await fetch(`${first.url}/healthz`);
      expect(health.status).to.equal(200);
      expect(health.headers.get('keep-alive')).to.equal('timeout=65');
    } finally {
      await first.stop();
    }
  });

  it('finishes a request in flight on SIGTERM, then exits 0', async () => {
    const service = await startService({ API_KEYS: 'k' });
    const schema = { type: 'object', properties: { total: { type: 'number', description: 'Total amount' } } };
    const image = await makeReceiptImage('png');
    const inFlight = postJson(`${service.url}/v1/`, { schema, contents: [content(image, 'image/png'), content(image, 'image/png')] }, { 'x-api-key': 'k' });
    await untilActive(service.url);
    service.child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).to.equal(200);
    expect(response.body.total).to.equal(6.25);
    expect(await service.exited).to.equal(0);
    expect(service.stdout()).to.contain('shutdown complete');
    // the answered connection was closed once idle, not kept alive until SHUTDOWN_TIMEOUT_MS (30 s) cut it
    expect(service.stdout()).not.to.contain('shutdown timeout reached');
  });

  describe('SIGTERM while a request is still working ends the process within SHUTDOWN_TIMEOUT_MS', () => {
    // far shorter than the work in flight (four scanned pages; a model that never answers), so that it is the grace
    // period that ends the process: its log line says so, and the process never outlives it by more than its own exit
    const GRACE_MS = 200;

    /** SIGTERM, then the ms until the process was gone. */
    async function sigtermAndTime(service: ServiceProcess): Promise<number> {
      const sent = performance.now();
      service.child.kill('SIGTERM');
      await service.exited;
      return performance.now() - sent;
    }

    async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
      const deadline = performance.now() + timeoutMs;
      while (!(await check())) {
        if (performance.now() > deadline) throw new Error('condition not reached');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    it('during a long OCR job', async () => {
      const service = await startService({ API_KEYS: 'k', SHUTDOWN_TIMEOUT_MS: String(GRACE_MS) });
      try {
        const page = await makeScannedPdf(['A long scanned page', 'with several lines of text', 'to keep the OCR worker busy']);
        const schema = { type: 'object', properties: { total: { type: 'number' } } };
        const inFlight = postJson(`${service.url}/v1/`, { schema, contents: [0, 1, 2, 3].map(() => content(page, 'application/pdf')) }, { 'x-api-key': 'k' }).catch((error: unknown) => error);
        await until(async () => ((await (await fetch(`${service.url}/readyz`)).json()) as { ocr: { busy: number } }).ocr.busy > 0);
        const ms = await sigtermAndTime(service);
        expect(service.stdout()).to.contain('shutdown timeout reached');
        expect(ms).to.be.at.least(GRACE_MS);
        expect(await inFlight).to.not.have.property('status', 200);
      } finally {
        await service.stop();
      }
    });

    it('during a model call that never answers', async () => {
      const ollama = await startFakeOllama({ respond: () => ({ stall: true }) });
      const service = await startService({ API_KEYS: 'k', SHUTDOWN_TIMEOUT_MS: String(GRACE_MS), EXTRACTOR: 'ollama', OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'tiny', LLM_TIMEOUT_MS: '60000' });
      try {
        const pdf = await makeTextPdf([['Invoice INV-1', 'Total 9.50']]);
        const inFlight = postJson(`${service.url}/v1/`, { schema: { type: 'object', properties: { total: { type: 'number' } } }, contents: [content(pdf, 'application/pdf')] }, { 'x-api-key': 'k' }).catch((error: unknown) => error);
        await until(async () => ollama.calls.length > 0);
        const ms = await sigtermAndTime(service);
        expect(service.stdout()).to.contain('shutdown timeout reached');
        expect(ms).to.be.at.least(GRACE_MS);
        await inFlight;
      } finally {
        await service.stop();
        await ollama.close();
      }
    });
  });

  describe('event-loop watchdog (EVENT_LOOP_STALL_LIMIT_MS)', () => {
    const WATCHDOG = pathToFileURL(fileURLToPath(new URL('../../src/util/loop-watchdog.js', import.meta.url))).href;

    function runScript(script: string): Promise<{ signal: NodeJS.Signals | null; code: number | null; stdout: string }> {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout })));
    }

    it('ends a process whose event loop stays blocked past the limit, with a fatal log line', async () => {
      // the loop never comes back: only the watchdog can end this process (else the test times out)
      const result = await runScript(`import { startLoopWatchdog } from '${WATCHDOG}'; startLoopWatchdog(500); setTimeout(() => { for (;;) {} }, 100);`);
      expect(result.signal).to.equal('SIGKILL');
      const line = JSON.parse(result.stdout.trim().split('\n').pop() as string) as { level: number; msg: string };
      expect(line.level).to.equal(60);
      expect(line.msg).to.match(/event loop blocked for \d+ ms/);
    });

    it('leaves a process alone whose loop is busy only in short bursts', async () => {
      const script = `import { startLoopWatchdog } from '${WATCHDOG}'; const dog = startLoopWatchdog(1000);
        const spin = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} };
        let n = 0; const timer = setInterval(() => { spin(150); if (++n === 10) { clearInterval(timer); dog.stop().then(() => process.exit(0)); } }, 50);`;
      const result = await runScript(script);
      expect(result.code).to.equal(0);
      expect(result.stdout).not.to.contain('event loop blocked');
    });
  });
});

