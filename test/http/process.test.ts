import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { makeReceiptImage } from '../fixtures/images.js';
import { content, postJson } from '../helpers/test-server.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

interface Started {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts the real service (dist/src/main.js) on an ephemeral port and waits for its "listening" log line. */
async function startService(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', OCR_WORKERS: '1', PDF_WORKERS: '1', EXTRACTOR: 'rules', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const line of stdout.split('\n')) {
        if (!line.includes('docshape listening')) continue;
        const { address } = JSON.parse(line) as { address: { port: number } };
        resolve(`http://127.0.0.1:${address.port}`);
      }
    });
    void exited.then((code) => reject(new Error(`service exited with ${code}: ${stderr}`)));
  });
  return { child, url, stdout: () => stdout, stderr: () => stderr, exited };
}

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
      service.child.kill('SIGKILL');
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
      const child = spawn(process.execPath, [MAIN], {
        env: { PATH: process.env.PATH ?? '', PORT: port, HOST: '127.0.0.1', OCR_WORKERS: '1', PDF_WORKERS: '1', EXTRACTOR: 'rules', API_KEYS: 'k' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).to.equal(1);
      expect(stderr).to.contain(`cannot listen on 127.0.0.1:${port}: port ${port} is already in use`);
      expect(stdout).not.to.contain('docshape listening');
      // the first instance is untouched
      expect((await fetch(`${first.url}/healthz`)).status).to.equal(200);
    } finally {
      first.child.kill('SIGKILL');
    }
  });

  it('finishes a request in flight on SIGTERM, then exits 0', async () => {
    const service = await startService({ API_KEYS: 'k' });
    const schema = { type: 'object', properties: { total: { type: 'number', description: 'Total amount' } } };
    const image = await makeReceiptImage('png');
    const inFlight = postJson(`${service.url}/v1/`, { schema, contents: [content(image, 'image/png'), content(image, 'image/png')] }, { 'x-api-key': 'k' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    service.child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).to.equal(200);
    expect(response.body.total).to.equal(6.25);
    expect(await service.exited).to.equal(0);
    expect(service.stdout()).to.contain('shutdown complete');
  });
});
