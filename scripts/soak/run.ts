/**
 * Sustained load against the real service (dist/src/main.js on loopback):
 * N clients, each in a closed loop, post a mix of born-digital PDFs, scanned pages and
 * photos; every 10 s the server's RSS, open file descriptors and event-loop
 * delay are sampled, and every answer is classified (200, 503 with and
 * without Retry-After, other statuses, connection errors and timeouts).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeReceiptImage } from '../../test/fixtures/images.js';
import { makeInvoicePdf, makeScannedPdf } from '../../test/fixtures/pdfs.js';
import { startServiceProcess } from '../../test/helpers/service-process.js';
import { LogScanner } from '../fuzz/log-scan.js';
import type { LoopDelaySample } from './loop-delay-probe.js';

export interface SoakOptions {
  durationSeconds: number;
  connections: number;
  sampleEverySeconds?: number;
  env?: Record<string, string>;
  onSample?: (sample: SoakSample) => void;
}

export interface SoakSample {
  atSeconds: number;
  rssMb: number;
  fds: number;
  loopDelay: LoopDelaySample | undefined;
  answers: number;
}

export interface SoakReport {
  durationSeconds: number;
  connections: number;
  requests: number;
  throughputPerSecond: number;
  /** Per kind of document: how many were sent. */
  mix: Record<string, number>;
  statuses: Record<string, number>;
  /** 503 answers without a Retry-After header. */
  missingRetryAfter: number;
  /** Connection errors and client timeouts: no HTTP answer at all. */
  errors: number;
  errorSamples: string[];
  timeouts: number;
  latencyMs: { all: Percentiles; ok: Percentiles };
  samples: SoakSample[];
  logLines: number;
  logHits: number;
  exitCode: number | null;
}

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

const SCHEMA = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string', description: 'Invoice number' },
    date: { type: 'string', format: 'date' },
    total: { type: 'number', description: 'Total amount' },
    items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } },
  },
};

/** A document value planted in every scanned page: it must never reach the logs. */
export const SOAK_MARKER = 'QZXSOAK4242';

async function documents(): Promise<Array<{ kind: string; weight: number; body: string }>> {
  const body = (bytes: Buffer, mimeType: string) => JSON.stringify({ schema: SCHEMA, contents: [{ mimeType, data: bytes.toString('base64') }] });
  return [
    { kind: 'born-digital PDF', weight: 2, body: body(await makeInvoicePdf(), 'application/pdf') },
    { kind: 'scanned page', weight: 1, body: body(await makeScannedPdf(['ACME Supplies Ltd', `Invoice ${SOAK_MARKER}`, 'Date 2024-03-14', 'Total 99.50']), 'application/pdf') },
    { kind: 'photo', weight: 1, body: body(await makeReceiptImage('jpeg'), 'image/jpeg') },
  ];
}

function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

function processStats(pid: number): { rssMb: number; fds: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  return { rssMb: Math.round(rss), fds: readdirSync(`/proc/${pid}/fd`).length };
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const apiKey = `soak-${randomBytes(12).toString('hex')}`;
  const scanner = new LogScanner([{ what: 'API key', text: apiKey }, { what: 'document value', text: SOAK_MARKER }]);
  const probe = fileURLToPath(new URL('./loop-delay-probe.js', import.meta.url));
  const service = await startServiceProcess(
    { API_KEYS: apiKey, ...options.env },
    { nodeArgs: ['--import', probe], ipc: true, onLine: (line) => scanner.scan(line) },
  );
  const docs = await documents();
  const schedule = docs.flatMap((doc) => Array.from({ length: doc.weight }, () => doc));
  const mix: Record<string, number> = {};
  let missingRetryAfter = 0;
  const latencies: number[] = [];
  const okLatencies: number[] = [];
  const statuses: Record<string, number> = {};
  let sent = 0;

  let pendingDelay: ((sample: LoopDelaySample | undefined) => void) | undefined;
  service.child.on('message', (message: { loopDelay?: LoopDelaySample }) => pendingDelay?.(message.loopDelay));
  const loopDelay = () =>
    new Promise<LoopDelaySample | undefined>((resolve) => {
      pendingDelay = resolve;
      service.child.send?.('sample');
      // a blocked loop does not answer: that shows as a missing sample, and the next one has the delay
      setTimeout(() => resolve(undefined), 2000);
    });

  const samples: SoakSample[] = [];
  const started = Date.now();
  const takeSample = async () => {
    const sample: SoakSample = { atSeconds: Math.round((Date.now() - started) / 1000), ...processStats(service.pid), loopDelay: await loopDelay(), answers: latencies.length };
    samples.push(sample);
    options.onSample?.(sample);
  };
  await takeSample();
  const sampler = setInterval(() => void takeSample(), (options.sampleEverySeconds ?? 10) * 1000);

  const errorsSeen: string[] = [];
  let errors = 0;
  let timeouts = 0;
  const deadline = Date.now() + options.durationSeconds * 1000;
  // One loop per client, each waiting for its answer before sending again (a closed loop, as autocannon runs it;
  // autocannon itself mismeasured latency across the connections the service closes after an early 503).
  const client = async () => {
    while (Date.now() < deadline) {
      const doc = schedule[sent++ % schedule.length]!;
      mix[doc.kind] = (mix[doc.kind] ?? 0) + 1;
      const requestStarted = performance.now();
      try {
        const response = await fetch(`${service.url}/v1/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
          body: doc.body,
          // longer than REQUEST_TIMEOUT_MS: a request the service keeps must get its 504, not a client timeout
          signal: AbortSignal.timeout(150_000),
        });
        await response.arrayBuffer();
        const ms = performance.now() - requestStarted;
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status === 503 && !/^\d+$/.test(response.headers.get('retry-after') ?? '')) missingRetryAfter++;
        latencies.push(ms);
        if (response.status === 200) okLatencies.push(ms);
      } catch (error) {
        if ((error as Error).name === 'TimeoutError') timeouts++;
        else errors++;
        if (errorsSeen.length < 5) errorsSeen.push(`${(error as Error).message} ${((error as Error).cause as Error | undefined)?.message ?? ''}`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, client));
  clearInterval(sampler);
  await takeSample();
  await service.stop('SIGTERM');
  const exitCode = await service.exited;
  return {
    durationSeconds: options.durationSeconds,
    connections: options.connections,
    requests: latencies.length,
    throughputPerSecond: latencies.length / options.durationSeconds,
    mix,
    statuses,
    missingRetryAfter,
    errors,
    errorSamples: errorsSeen,
    timeouts,
    latencyMs: { all: percentiles(latencies), ok: percentiles(okLatencies) },
    samples,
    logLines: scanner.lines,
    logHits: scanner.hits.length,
    exitCode,
  };
}

/** RSS growth after warm-up: the highest RSS of the last third of the run minus the RSS at `warmUpSeconds`. */
export function rssGrowthMb(report: SoakReport, warmUpSeconds: number): number {
  const warm = report.samples.find((s) => s.atSeconds >= warmUpSeconds) ?? report.samples[0];
  const lastThird = report.samples.filter((s) => s.atSeconds >= (report.durationSeconds * 2) / 3);
  return Math.max(...lastThird.map((s) => s.rssMb)) - (warm?.rssMb ?? 0);
}

export function formatSoak(report: SoakReport): string {
  const out: string[] = [];
  const l = report.latencyMs;
  const total = Object.values(report.statuses).reduce((a, b) => a + b, 0) || 1;
  out.push(`soak: ${report.connections} connections for ${report.durationSeconds} s; mix ${Object.entries(report.mix).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  out.push(`answers: ${report.requests} (${report.throughputPerSecond.toFixed(2)}/s); ${Object.entries(report.statuses).map(([s, n]) => `${s}: ${n} (${((100 * n) / total).toFixed(1)}%)`).join(', ')}; 503 without Retry-After: ${report.missingRetryAfter}; connection errors: ${report.errors}; client timeouts: ${report.timeouts}${report.errorSamples.length ? ` (${report.errorSamples.join(' | ')})` : ''}`);
  const ms = (p: Percentiles) => `p50 ${p.p50.toFixed(0)} p95 ${p.p95.toFixed(0)} p99 ${p.p99.toFixed(0)} max ${p.max.toFixed(0)}`;
  out.push(`latency, all answers (ms): ${ms(l.all)}`);
  out.push(`latency, 200 answers (ms): ${ms(l.ok)}`);
  out.push('   t(s)  RSS(MB)  fds  loop p50/p99/max (ms)  answers');
  for (const s of report.samples) {
    const d = s.loopDelay;
    out.push(`  ${String(s.atSeconds).padStart(5)} ${String(s.rssMb).padStart(8)} ${String(s.fds).padStart(4)}  ${d ? `${d.p50Ms.toFixed(1)}/${d.p99Ms.toFixed(1)}/${d.maxMs.toFixed(0)}` : 'no sample'}`.padEnd(48) + String(s.answers).padStart(8));
  }
  out.push(`logs: ${report.logLines} lines, ${report.logHits} with a key or a document value; service exit code ${report.exitCode}`);
  return out.join('\n');
}
