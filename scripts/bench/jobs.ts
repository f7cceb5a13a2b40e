/**
 * `npm run bench -- jobs [folder] [files]`: extractions per minute for the
 * same batch of receipts through POST /v1/ (the CLI at --concurrency 4),
 * through jobs with one worker process and with two (the CLI's --async at
 * the same concurrency), and the queue's own cost per job: from the submit
 * being accepted to a worker starting it, with the worker idle (p50, p99).
 * The batch is the first `files` (40) images of `folder` (default: the dev
 * receipts in ../shared/data/dev/sroie with their schema.json, when present;
 * otherwise generated receipts). Each configuration runs in processes of its
 * own, started and warmed before the clock starts, and the three take turns
 * for `BENCH_ROUNDS` rounds (2), so drift in the machine's load falls on
 * all of them; the medians are reported. Engine: EXTRACTOR (rules unless set).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeReceiptImage, makeReceiptPhoto } from '../../test/fixtures/images.js';
import { makeTextPdf } from '../../test/fixtures/pdfs.js';
import { redisInstalled, startRedis, type RedisServer } from '../../test/helpers/redis-server.js';
import { startServiceProcess, type ServiceProcess } from '../../test/helpers/service-process.js';
import { percentile } from '../eval/report.js';

type Report = (label: string, value: string) => void;

const CLI = fileURLToPath(new URL('../../src/cli.js', import.meta.url));
const KEY = 'bench-jobs-key';
const CONCURRENCY = 4;
const DEFAULT_FOLDER = resolve('../shared/data/dev/sroie');

interface Batch {
  files: string[];
  schemaPath: string;
  described: string;
}

async function batchOf(folder: string | undefined, count: number): Promise<Batch> {
  const dir = folder ?? (existsSync(DEFAULT_FOLDER) ? DEFAULT_FOLDER : undefined);
  if (dir) {
    const docs = existsSync(join(dir, 'docs')) ? join(dir, 'docs') : dir;
    const files = readdirSync(docs).filter((name) => /\.(jpe?g|png|pdf|webp)$/i.test(name)).sort().slice(0, count).map((name) => join(docs, name));
    const schemaPath = join(dir, 'schema.json');
    if (files.length > 0 && existsSync(schemaPath)) return { files, schemaPath, described: `${files.length} files of ${dir}` };
  }
  const made = mkdtempSync(join(tmpdir(), 'docshape-bench-jobs-'));
  const kinds = [await makeReceiptImage('png'), await makeReceiptPhoto(), await makeReceiptImage('jpeg')];
  const files = Array.from({ length: count }, (_, i) => {
    const path = join(made, `receipt-${i}.${i % 3 === 0 ? 'png' : 'jpg'}`);
    writeFileSync(path, kinds[i % 3]!);
    return path;
  });
  const schemaPath = join(made, 'schema.json');
  writeFileSync(schemaPath, JSON.stringify({ type: 'object', properties: { store_name: { type: 'string' }, date: { type: 'string', format: 'date' }, total: { type: 'number' } } }));
  return { files, schemaPath, described: `${count} generated receipts (no ${DEFAULT_FOLDER})` };
}

/** Runs the CLI to the end; its wall time in seconds. */
function timedCli(args: string[]): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', DOCSHAPE_API_KEY: KEY }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => (code === 0 ? resolvePromise((performance.now() - started) / 1000) : reject(new Error(`docshape extract exited ${code}: ${stderr.slice(-2000)}`))));
  });
}

interface Setup {
  label: string;
  url: string;
  async: boolean;
  processes: ServiceProcess[];
  redis?: RedisServer;
}

export async function benchJobs(report: Report, args: string[]): Promise<void> {
  if (!redisInstalled()) {
    report('jobs', 'skipped: redis-server is not installed (apt-get install redis-server)');
    return;
  }
  const batch = await batchOf(args[0], Number(args[1] ?? 40));
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const env: Record<string, string> = { API_KEYS: KEY, EXTRACTOR: process.env.EXTRACTOR ?? 'rules', MALLOC_ARENA_MAX: '2' };
  for (const name of ['OCR_ENGINE', 'OCR_WORKERS', 'OCR_THREADS', 'PDF_WORKERS', 'MAX_ACTIVE_REQUESTS', 'JOB_CONCURRENCY', 'OLLAMA_HOST', 'OLLAMA_MODEL']) {
    if (process.env[name]) env[name] = process.env[name]!;
  }
  process.stdout.write(`\nJobs: ${batch.described}, engine ${env.EXTRACTOR}, ${rounds} rounds, CLI at --concurrency ${CONCURRENCY}\n`);

  const setups: Setup[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'docshape-bench-out-'));
  try {
    const sync = await startServiceProcess({ ...env, PORT: '0' });
    setups.push({ label: 'POST /v1/ (the CLI, no jobs)', url: sync.url, async: false, processes: [sync] });
    for (const workers of [1, 2]) {
      const redis = await startRedis();
      const api = await startServiceProcess({ ...env, ROLE: 'api', REDIS_URL: redis.url });
      const started = [api];
      for (let i = 0; i < workers; i++) started.push(await startServiceProcess({ ...env, ROLE: 'worker', REDIS_URL: redis.url }));
      setups.push({ label: `jobs, ${workers} worker process${workers > 1 ? 'es' : ''} (the CLI's --async)`, url: api.url, async: true, processes: started, redis });
    }
    // warm every configuration (JIT, OCR sessions) on a few files before any clock starts
    let run = 0;
    const once = (setup: Setup, files: string[]) =>
      timedCli(['extract', '-s', batch.schemaPath, '--url', setup.url, '--out', join(scratch, `run-${run++}`), '--concurrency', String(CONCURRENCY), '-q', ...(setup.async ? ['--async'] : []), ...files]);
    for (const setup of setups) await once(setup, batch.files.slice(0, 4));

    const seconds = new Map<Setup, number[]>(setups.map((setup) => [setup, []]));
    for (let round = 0; round < rounds; round++) {
      for (const setup of round % 2 === 0 ? setups : [...setups].reverse()) seconds.get(setup)!.push(await once(setup, batch.files));
    }
    const perMinute = (setup: Setup) => (batch.files.length * 60) / (percentile(seconds.get(setup)!, 0.5) ?? NaN);
    const base = perMinute(setups[0]!);
    for (const setup of setups) {
      const rate = perMinute(setup);
      report(`  ${setup.label}`, `${rate.toFixed(1)} extractions/min (${(rate / base).toFixed(2)}x; runs ${seconds.get(setup)!.map((s) => `${s.toFixed(1)} s`).join(', ')})`);
    }
    await queueCost(report, setups[1]!);
  } finally {
    for (const setup of setups) {
      await Promise.all(setup.processes.map((service) => service.stop('SIGKILL')));
      await setup.redis?.close();
    }
    rmSync(scratch, { recursive: true, force: true });
  }
  process.stdout.write(`(load average while measuring: ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${availableParallelism()} cores)\n`);
}

/**
 * The queue's own cost per job: a small born-digital PDF submitted while the
 * worker is idle, one at a time, so that nothing but the queue stands
 * between the submit and the start: startedAt - createdAt of each job
 * (both stamped by docshape), and the submit's round trip as the client sees it.
 */
async function queueCost(report: Report, setup: Setup, jobs = 200): Promise<void> {
  const body = JSON.stringify({ schema: { type: 'object', properties: { total: { type: 'number' } } }, contents: [{ mimeType: 'application/pdf', data: (await makeTextPdf([['Total 12.50']])).toString('base64') }] });
  const headers = { 'content-type': 'application/json', 'x-api-key': KEY };
  const waits: number[] = [];
  const submits: number[] = [];
  for (let i = 0; i < jobs; i++) {
    const started = performance.now();
    const response = await fetch(`${setup.url}/v1/jobs`, { method: 'POST', headers, body });
    const { id } = (await response.json()) as { id: string };
    submits.push(performance.now() - started);
    let view: { status: string; createdAt: string; startedAt: string | null };
    do view = (await (await fetch(`${setup.url}/v1/jobs/${id}?wait=10`, { headers })).json()) as typeof view;
    while (view.status === 'queued' || view.status === 'running');
    if (i >= 10) waits.push(Date.parse(view.startedAt!) - Date.parse(view.createdAt)); // the first ten warm up
  }
  const ms = (values: number[], p: number) => `${(percentile(values, p) ?? NaN).toFixed(1)} ms`;
  report('  queue cost per job: submit accepted -> worker starts', `p50 ${ms(waits, 0.5)}, p99 ${ms(waits, 0.99)} (${waits.length} jobs, worker idle)`);
  report('  submit round trip (POST /v1/jobs, checks included)', `p50 ${ms(submits, 0.5)}, p99 ${ms(submits, 0.99)}`);
}

