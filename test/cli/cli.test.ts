/**
 * The built command (dist/src/cli.js) run as a user runs it, on documents
 * generated into a temporary folder: batch outputs, --jsonl, a bad file,
 * exit codes, progress lines, remote mode against a test server, Ctrl-C.
 * The rules engine and one OCR worker keep each run to a few seconds.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { makeCorruptPng, makeReceiptImage } from '../fixtures/images.js';
import { INVOICE_EXPECTED, makeInvoicePdf, makeTextPdf } from '../fixtures/pdfs.js';
import type { Engine } from '../../src/schema/engine.js';
import { startJobs, type JobsRuntime } from '../../src/jobs/create-jobs.js';
import { silentLogger } from '../../src/logger.js';
import { closeSharedServices, sharedServices, startTestServer, testConfig, TEST_API_KEY, type RunningServer } from '../helpers/test-server.js';
import { readCliConfig } from '../../src/cli/extract-command.js';

const CLI = fileURLToPath(new URL('../../src/cli.js', import.meta.url));
const ENV = { PATH: process.env.PATH ?? '', EXTRACTOR: 'rules', OCR_WORKERS: '1', PDF_WORKERS: '1' };

const SCHEMA = {
  type: 'object',
  properties: { invoice_number: { type: 'string' }, invoice_date: { type: 'string', format: 'date' }, total: { type: 'number' } },
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Running {
  /** Resolves once stderr contains `text`. */
  stderrShows(text: string): Promise<void>;
  kill(signal: NodeJS.Signals): void;
  done: Promise<Run>;
}

function start(args: string[], cwd: string, extraEnv: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...ENV, ...extraEnv } });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of waiters.filter((w) => stderr.includes(w.text))) waiter.resolve();
  });
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return {
    stderrShows: (text) =>
      new Promise<void>((resolve, reject) => {
        if (stderr.includes(text)) return resolve();
        waiters.push({ text, resolve });
        void done.then(() => reject(new Error(`exited before stderr showed ${JSON.stringify(text)}:\n${stderr}`)));
      }),
    kill: (signal) => child.kill(signal),
    done,
  };
}

function run(args: string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<Run> {
  return start(args, cwd, extraEnv).done;
}

type Line = { file: string; status: 'ok' | 'error'; result?: Record<string, unknown>; error?: string; httpStatus?: number; output?: string };

function jsonLines(stdout: string): Line[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line)
    .sort((a, b) => a.file.localeCompare(b.file));
}

function readJson(path: string): Record<string, any> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
}

interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A stand-in service that records every request and answers each path as `answer` says (200 {} otherwise). */
async function recordingService(answer: (request: Recorded) => { status: number; body: unknown } | undefined = () => undefined): Promise<{ url: string; seen: Recorded[]; close(): Promise<void> }> {
  const seen: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
      const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(recorded);
      const { status, body } = answer(recorded) ?? { status: 200, body: {} };
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A recorded multipart body as the parts a server reads (the platform's own multipart parser). */
function formOf(recorded: Recorded): Promise<FormData> {
  return new Response(new Uint8Array(recorded.body), { headers: { 'content-type': String(recorded.headers['content-type']) } }).formData();
}

describe('docshape extract (the command line)', function () {
  this.timeout(120_000);
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'docshape-cli-'));
    // Two inputs with the same name in different folders, an image, and a PNG whose pixel data is garbage.
    mkdirSync(join(dir, 'docs/2024'), { recursive: true });
    mkdirSync(join(dir, 'docs/2025'), { recursive: true });
    const invoice = await makeInvoicePdf();
    writeFileSync(join(dir, 'docs/2024/invoice.pdf'), invoice);
    writeFileSync(join(dir, 'docs/2025/invoice.pdf'), invoice);
    writeFileSync(join(dir, 'docs/receipt.png'), await makeReceiptImage('png'));
    writeFileSync(join(dir, 'docs/broken.png'), makeCorruptPng());
    writeFileSync(join(dir, 'schema.json'), JSON.stringify(SCHEMA));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('a batch in this process (--out and --jsonl on a folder with a bad file)', () => {
    let result: Run;
    before(async () => {
      result = await run(['extract', '--schema', 'schema.json', '--out', 'results', '--jsonl', 'docs'], dir);
    });

    it('exits 1 because one file failed, after extracting the others', () => {
      expect(result.code, result.stderr).to.equal(1);
    });

    it('writes one JSON per input, named by its path below the common folder, with the right values', () => {
      for (const year of ['2024', '2025']) {
        const answer = readJson(join(dir, `results/${year}/invoice.pdf.json`));
        expect(answer).to.deep.equal({ invoice_number: INVOICE_EXPECTED.invoiceNumber, invoice_date: INVOICE_EXPECTED.invoiceDateIso, total: INVOICE_EXPECTED.total });
      }
      expect(readJson(join(dir, 'results/receipt.png.json')).total).to.equal(6.25);
    });

    it('records the bad file with the message the API gives, and no answer for it', () => {
      const failure = readJson(join(dir, 'results/broken.png.error.json'));
      expect(failure.file).to.equal('docs/broken.png');
      expect(failure.error).to.match(/^contents\[0\]\.data: image cannot be decoded/);
      expect(failure.httpStatus).to.equal(400);
      expect(existsSync(join(dir, 'results/broken.png.json'))).to.equal(false);
    });

    it('prints one JSON line per input on stdout and nothing else', () => {
      const lines = jsonLines(result.stdout);
      expect(lines.map((line) => [line.file, line.status])).to.deep.equal([
        ['docs/2024/invoice.pdf', 'ok'],
        ['docs/2025/invoice.pdf', 'ok'],
        ['docs/broken.png', 'error'],
        ['docs/receipt.png', 'ok'],
      ]);
      expect(lines[0]?.result?.invoice_number).to.equal(INVOICE_EXPECTED.invoiceNumber);
      expect(lines[0]?.output).to.equal(join('results', '2024', 'invoice.pdf.json'));
      expect(lines[2]).to.include({ httpStatus: 400, output: join('results', 'broken.png.error.json') });
    });

    it('shows progress on stderr as plain lines when stderr is not a terminal', () => {
      const perFile = result.stderr.split('\n').filter((line) => /^\[\d\/4\] (ok|failed) /.test(line));
      expect(perFile).to.have.length(4);
      expect(perFile.find((line) => line.includes('docs/broken.png'))).to.match(/^\[\d\/4\] failed docs\/broken\.png: contents\[0\]\.data/);
      expect(result.stderr).to.match(/^done: 3 ok, 1 failed of 4 files, 3 pages in /m);
      expect(result.stderr).not.to.match(/[\r\x1b]/);
    });

    it('replaces an earlier outcome of the same file when run again', async () => {
      writeFileSync(join(dir, 'results/receipt.png.error.json'), '{"error":"from an earlier run"}');
      const again = await run(['extract', '--schema', 'schema.json', '--out', 'results', '--quiet', 'docs/receipt.png'], dir);
      expect(again.code, again.stderr).to.equal(0);
      expect(again.stderr).to.equal('');
      expect(existsSync(join(dir, 'results/receipt.png.error.json'))).to.equal(false);
      expect(readJson(join(dir, 'results/receipt.png.json')).total).to.equal(6.25);
    });
  });

  describe('combined mode (no --out or --jsonl): all files are one request', () => {
    it('prints one answer for an invoice and a receipt together, as POST /v1/ does with two files', async () => {
      const result = await run(['extract', '--schema', 'schema.json', '--compact', 'docs/2024/invoice.pdf', 'docs/receipt.png'], dir);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout.trim().split('\n')).to.have.length(1);
      const answer = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(Object.keys(answer)).to.deep.equal(['invoice_number', 'invoice_date', 'total']);
      expect(answer.invoice_number).to.equal(INVOICE_EXPECTED.invoiceNumber);
    });

    it('--layout prints the text the engine reads, of both files', async () => {
      const result = await run(['extract', '--schema', 'schema.json', '--layout', 'docs/2024/invoice.pdf', 'docs/receipt.png'], dir);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout).to.include(INVOICE_EXPECTED.invoiceNumber).and.to.include('CORNER CAFE');
    });
  });

  describe('usage and configuration errors: exit 2 before any work', () => {
    const cases: Array<[string, string[], RegExp]> = [
      ['no schema', ['extract', 'docs'], /--schema <schema.json> is required/],
      ['a file that does not exist', ['extract', '-s', 'schema.json', '--jsonl', 'docs/nope.pdf'], /docs\/nope\.pdf: no such file or folder/],
      ['a request option with a wrong value', ['extract', '-s', 'schema.json', '--date-order', 'ymd', 'docs'], /--date-order must be one of auto, dmy, mdy/],
      ['--layout in a batch', ['extract', '-s', 'schema.json', '--layout', '--jsonl', 'docs'], /--layout/],
      ['an unknown flag', ['extract', '-s', 'schema.json', '--each', 'docs'], /Unknown option '--each'/],
      ['a service that does not answer', ['extract', '-s', 'schema.json', '--jsonl', '--url', 'http://127.0.0.1:9', 'docs'], /cannot reach the service at http:\/\/127\.0\.0\.1:9/],
    ];
    for (const [what, args, message] of cases) {
      it(what, async () => {
        const result = await run(args, dir);
        expect(result.code).to.equal(2);
        expect(result.stderr).to.match(message);
        expect(result.stdout).to.equal('');
      });
    }

    it('a schema that is not a usable JSON Schema, named as the API names it', async () => {
      writeFileSync(join(dir, 'bad-schema.json'), JSON.stringify({ type: 'array' }));
      const result = await run(['extract', '-s', 'bad-schema.json', '--jsonl', 'docs'], dir);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.match(/^docshape: --schema bad-schema\.json: .*object/m);
    });
  });

  describe('remote mode (--url, --api-key) against a running service', () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer(await sharedServices());
    });
    after(async () => {
      await server.close();
      await closeSharedServices();
    });

    it('gives the same lines as the in-process run, failures included', async () => {
      const [remote, local] = await Promise.all([
        run(['extract', '-s', 'schema.json', '--jsonl', '--url', server.url, '--api-key', TEST_API_KEY, 'docs'], dir),
        run(['extract', '-s', 'schema.json', '--jsonl', 'docs'], dir),
      ]);
      expect(remote.code, remote.stderr).to.equal(1);
      expect(jsonLines(remote.stdout)).to.deep.equal(jsonLines(local.stdout));
      expect(remote.stderr).to.include(`sent to ${server.url}/v1/`);
    });

    it('sends the request options given as flags', async () => {
      writeFileSync(join(dir, 'ambiguous.pdf'), await makeTextPdf([['Invoice date: 03/04/2024']]));
      const answers = await Promise.all(
        ['dmy', 'mdy'].map(async (order) => {
          const result = await run(['extract', '-s', 'schema.json', '--date-order', order, '--url', server.url, '--api-key', TEST_API_KEY, 'ambiguous.pdf'], dir);
          expect(result.code, result.stderr).to.equal(0);
          return (JSON.parse(result.stdout) as { invoice_date: string }).invoice_date;
        }),
      );
      expect(answers).to.deep.equal(['2024-04-03', '2024-03-04']);
    });

    it('records a file of a type the service does not read, and goes on', async () => {
      writeFileSync(join(dir, 'notes.doc'), 'not a document');
      const result = await run(['extract', '-s', 'schema.json', '--jsonl', '--url', server.url, '--api-key', TEST_API_KEY, 'notes.doc', 'docs/receipt.png'], dir);
      expect(result.code, result.stderr).to.equal(1);
      const [receipt, notes] = jsonLines(result.stdout);
      expect(notes).to.include({ file: 'notes.doc', status: 'error' });
      expect(notes?.error).to.match(/^unsupported file type "\.doc": use \.jpg, \.jpeg, \.png/);
      expect(receipt?.result?.total).to.equal(6.25);
    });

    it('takes the key from DOCSHAPE_API_KEY when --api-key is not given', async () => {
      const accepted = await run(['extract', '-s', 'schema.json', '--jsonl', '--url', server.url, 'docs/receipt.png'], dir, { DOCSHAPE_API_KEY: TEST_API_KEY });
      expect(accepted.code).to.equal(0);
      expect(jsonLines(accepted.stdout)[0]?.result?.total).to.equal(6.25);
      const refused = await run(['extract', '-s', 'schema.json', '--jsonl', '--url', server.url, 'docs/receipt.png'], dir, { DOCSHAPE_API_KEY: 'wrong' });
      expect(refused.code).to.equal(2);
    });

    it('sends each request as multipart/form-data: the schema and options as JSON parts, each file as it is', async () => {
      const service = await recordingService((request) => (request.path === '/v1/' ? { status: 200, body: { total: 1 } } : undefined));
      try {
        const result = await run(['extract', '-s', 'schema.json', '--date-order', 'mdy', '--url', service.url, '--api-key', TEST_API_KEY, 'docs/receipt.png', 'docs/2024/invoice.pdf'], dir);
        expect(result.code, result.stderr).to.equal(0);
        const [sent] = service.seen.filter((request) => request.method === 'POST');
        expect(sent!.path).to.equal('/v1/');
        expect(sent!.headers['content-type']).to.match(/^multipart\/form-data; boundary=/);
        expect(sent!.headers['x-api-key']).to.equal(TEST_API_KEY);
        const form = await formOf(sent!);
        expect([...form.keys()]).to.deep.equal(['schema', 'options', 'file', 'file']);
        expect(JSON.parse(String(form.get('schema')))).to.deep.equal(SCHEMA);
        expect(JSON.parse(String(form.get('options')))).to.deep.equal({ dateOrder: 'mdy' });
        const files = form.getAll('file') as File[];
        expect(files.map((file) => [file.name, file.type])).to.deep.equal([['receipt.png', 'image/png'], ['invoice.pdf', 'application/pdf']]);
        expect(Buffer.from(await files[1]!.arrayBuffer()).equals(readFileSync(join(dir, 'docs/2024/invoice.pdf')))).to.equal(true);
      } finally {
        await service.close();
      }
    });

    it('stops with exit 2 when the service refuses the key, instead of failing every file', async () => {
      const result = await run(['extract', '-s', 'schema.json', '--jsonl', '--url', server.url, '--api-key', 'wrong', 'docs'], dir);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.match(/refused the API key \(401/);
      expect(result.stdout).to.equal('');
    });
  });

  describe('--async: every file a job of the service, resumable', () => {
    let server: RunningServer;
    let jobs: JobsRuntime;
    let openGate: () => void = () => undefined;
    before(async () => {
      const shared = await sharedServices();
      const gate = new Promise<void>((resolve) => (openGate = resolve));
      // the engine waits for the test: the jobs stay unfinished while the first run is interrupted
      const engine: Engine = Object.assign(Object.create(shared.engine) as Engine, { extract: async (input: Parameters<Engine['extract']>[0]) => (await gate, shared.engine.extract(input)) });
      jobs = await startJobs(testConfig(), silentLogger());
      // and no job starts before the gate opens: the corrupt PNG's job fails before the engine, and four concurrent
      // submits reach the queue in any order, so a worker could otherwise end it before the first run is interrupted
      const gatedWorkers: JobsRuntime = { ...jobs, startWorkers: (pipeline, observer) => void gate.then(() => jobs.startWorkers(pipeline, observer)) };
      server = await startTestServer({ ...shared, engine }, {}, { jobs: gatedWorkers });
    });
    after(async () => {
      openGate();
      await server.close();
      await jobs.close(0);
      await closeSharedServices();
    });

    it('submits every file, leaves the jobs running on Ctrl-C, and a second run collects them without submitting again', async () => {
      const args = ['extract', '-s', 'schema.json', '--async', '--out', 'async-out', '--jsonl', '--url', server.url, '--api-key', TEST_API_KEY, 'docs'];
      const journal = join(dir, 'async-out/.docshape-jobs.jsonl');
      const submitted = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter((line) => line.includes('"id"')).length : 0);
      const first = start(args, dir);
      await first.stderrShows('as jobs of');
      for (let i = 0; i < 400 && submitted() < 4; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      first.kill('SIGINT');
      const interrupted = await first.done;
      expect(interrupted.code, interrupted.stderr).to.equal(130);
      expect(interrupted.stderr).to.match(/the jobs go on on the service: run the same command again/);
      expect(submitted()).to.equal(4);
      // docs/2024/invoice.pdf and docs/2025/invoice.pdf are the same request (name, bytes, schema): one Idempotency-Key, one job
      const counts = await jobs.jobs.counts();
      expect(counts.queued + counts.running).to.equal(3);

      openGate();
      const second = await run(args, dir);
      expect(second.code, second.stderr).to.equal(1);
      expect(submitted()).to.equal(4); // the same four jobs, collected
      const local = await run(['extract', '-s', 'schema.json', '--jsonl', 'docs'], dir);
      expect(jsonLines(second.stdout).map(({ file, status, result, error }) => ({ file, status, result, error }))).to.deep.equal(
        jsonLines(local.stdout).map(({ file, status, result, error }) => ({ file, status, result, error })),
      );
      expect(readJson(join(dir, 'async-out/2024/invoice.pdf.json')).invoice_number).to.equal(INVOICE_EXPECTED.invoiceNumber);

      // a third run writes nothing again, and submits the one that failed anew (it fails again: its pixels are garbage)
      const third = await run(args, dir);
      expect(third.code).to.equal(1);
      expect(submitted()).to.equal(5);
      expect(jsonLines(third.stdout).map((line) => [line.file, line.httpStatus])).to.deep.equal([['docs/broken.png', 400]]);
    });

    it('submits each file as a multipart job with an Idempotency-Key made from its request', async () => {
      const service = await recordingService((request) => {
        if (request.method === 'POST') return { status: 202, body: { id: 'job-1', status: 'queued' } };
        if (request.path.startsWith('/v1/jobs/job-1?')) return { status: 200, body: { id: 'job-1', status: 'succeeded', progress: { pagesDone: 1 }, error: null, errorStatus: null } };
        return request.path === '/v1/jobs/job-1/result' ? { status: 200, body: { total: 76.2 } } : undefined;
      });
      try {
        const args = ['extract', '-s', 'schema.json', '--async', '--out', 'recorded-out', '--url', service.url, '--api-key', TEST_API_KEY, 'docs/2024/invoice.pdf'];
        const result = await run(args, dir);
        expect(result.code, result.stderr).to.equal(0);
        const submits = service.seen.filter((request) => request.method === 'POST');
        expect(submits.map((request) => request.path)).to.deep.equal(['/v1/jobs']);
        expect(submits[0]!.headers['content-type']).to.match(/^multipart\/form-data; boundary=/);
        expect(submits[0]!.headers['idempotency-key']).to.match(/^[0-9a-f]{64}$/);
        const form = await formOf(submits[0]!);
        expect([...form.keys()]).to.deep.equal(['schema', 'file']);
        expect((form.get('file') as File).type).to.equal('application/pdf');
        expect(readJson(join(dir, 'recorded-out/invoice.pdf.json'))).to.deep.equal({ total: 76.2 });
      } finally {
        await service.close();
      }
    });

    it('--async needs --url and --out', async () => {
      const result = await run(['extract', '-s', 'schema.json', '--async', '--jsonl', '--url', server.url, 'docs'], dir);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.match(/--async needs --url .* and --out/);
    });
  });

  describe('Ctrl-C', () => {
    it('starts no new file, lets the one in flight finish, writes what is done and exits 130', async () => {
      mkdirSync(join(dir, 'many'));
      const png = await makeReceiptImage('png');
      for (let i = 0; i < 6; i++) writeFileSync(join(dir, `many/r${i}.png`), png);
      const running = start(['extract', '-s', 'schema.json', '--out', 'many-out', '--jsonl', '--concurrency', '1', 'many'], dir);
      await running.stderrShows('[1/6] ok');
      running.kill('SIGINT');
      const result = await running.done;
      expect(result.code, result.stderr).to.equal(130);
      const lines = jsonLines(result.stdout);
      // The file in flight when Ctrl-C came finished too.
      expect(lines.length).to.be.within(2, 5);
      for (const line of lines) {
        expect(line.status).to.equal('ok');
        expect(readJson(join(dir, line.output as string)).total).to.equal(6.25);
      }
      expect(result.stderr).to.match(/^interrupted: \d ok, 0 failed of 6 files.*; \d not done$/m);
    });
  });
});

describe('the configuration of a run', () => {
  it('is the service\'s, except that pdf.js threads do not warm up unless PDF_THREAD_WARM_UP asks them to', () => {
    expect(readCliConfig({}).pdf.threadWarmUpReadings).to.equal(0);
    expect(readCliConfig({ PDF_THREAD_WARM_UP: '12' }).pdf.threadWarmUpReadings).to.equal(12);
    expect(readCliConfig({ PDF_WORKERS: '3' }).pdf.workers).to.equal(3);
  });
});
