/**
 * Runs the corpus against the real service (dist/src/main.js as a child
 * process on loopback): sends every case, judges every answer, probes
 * /healthz throughout, restarts the service if it ever dies (that is a
 * violation), and scans every log line for keys and document values.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startServiceProcess, type ServiceProcess } from '../../test/helpers/service-process.js';
import { DOCUMENT_MARKERS, SCHEMA_MARKER, type CaseContext } from './case.js';
import { ClientClock } from './client-clock.js';
import { caseAt, FAMILIES, familyNamed, type IndexedCase } from './corpus.js';
import { HealthProbe, type ProbeSummary } from './health-probe.js';
import { LogScanner, type LogHit } from './log-scan.js';
import { judge } from './oracle.js';
import { loadSeeds } from './seeds.js';

export interface FuzzOptions {
  seed: number;
  cases: number;
  /** Only these families (by name); default all. */
  families?: string[];
  /** Run only these case indexes (reproduction). */
  only?: number[];
  /** Requests in flight at once. */
  concurrency?: number;
  /** REQUEST_TIMEOUT_MS of the service; a case must be answered within it plus a grace. */
  requestTimeoutMs?: number;
  /** More environment for the service. */
  env?: Record<string, string>;
  onProgress?: (done: number, total: number) => void;
  /** Keeps each answer's body (for --show). */
  keepBodies?: boolean;
}

export interface CaseResult {
  index: number;
  family: string;
  variant: string;
  /** The HTTP status, or 'none' without an answer. */
  status: number | string;
  ms: number;
  problems: string[];
  body?: string;
}

export interface Violation {
  index: number;
  family: string;
  variant: string;
  problems: string[];
}

export interface FuzzReport {
  seed: number;
  cases: number;
  results: CaseResult[];
  violations: Violation[];
  health: ProbeSummary;
  logLines: number;
  logHits: LogHit[];
  logErrors: string[];
  serviceDeaths: number;
  peakRssMb: number;
  /** The cases in flight when RSS reached its peak. */
  peakRssDuring: string[];
  /** RSS every 10 s: [seconds since start, MB, cases answered]. */
  rssTimeline: Array<[number, number, number]>;
  wallMs: number;
}

/** Answers may come this much later than REQUEST_TIMEOUT_MS (the 504 itself, a busy machine). */
const GRACE_MS = 10_000;

function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const apiKey = `fuzz-${randomBytes(12).toString('hex')}`;
  const requestTimeoutMs = options.requestTimeoutMs ?? 20_000;
  const scanner = new LogScanner([
    { what: 'API key', text: apiKey },
    ...DOCUMENT_MARKERS.map((marker) => ({ what: `document value "${marker}"`, text: marker })),
    { what: 'schema content', text: SCHEMA_MARKER },
  ]);
  const env = { API_KEYS: apiKey, LOG_LEVEL: 'debug', REQUEST_TIMEOUT_MS: String(requestTimeoutMs), ...options.env };
  const start = () => startServiceProcess(env, { onLine: (line) => scanner.scan(line) });
  let service: ServiceProcess = await start();
  const clock = new ClientClock();
  const inFlight = new Map<number, IndexedCase>();
  const violations: Violation[] = [];
  const results: CaseResult[] = [];
  let deaths = 0;
  let stopping = false;
  let restarting: Promise<void> | undefined;
  let peakRssMb = 0;
  let peakRssDuring: string[] = [];
  const label = (c: IndexedCase) => `#${c.index} ${c.family}: ${c.variant}`;
  const rssTimeline: Array<[number, number, number]> = [];
  let lastTimelineAt = -Infinity;
  const sampleRss = () => {
    const rss = rssMb(service.pid);
    const seconds = (performance.now() - started) / 1000;
    if (seconds - lastTimelineAt >= 10) {
      lastTimelineAt = seconds;
      rssTimeline.push([Math.round(seconds), Math.round(rss), results.length]);
    }
    if (rss <= peakRssMb) return;
    peakRssMb = rss;
    peakRssDuring = [...inFlight.values()].map(label);
  };

  const watch = (current: ServiceProcess) => {
    void current.exited.then((code) => {
      if (stopping || current !== service) return;
      deaths++;
      const during = [...inFlight.values()];
      violations.push({ index: during[0]?.index ?? -1, family: during[0]?.family ?? 'service', variant: `service exited with ${code} while cases ${during.map((c) => c.index).join(', ')} were in flight`, problems: ['service died'] });
      restarting = start().then((fresh) => {
        service = fresh;
        watch(fresh);
      });
    });
  };
  watch(service);
  const rssTimer = setInterval(sampleRss, 250);

  const probe = new HealthProbe(() => service.url, () => [...inFlight.values()].map(label), undefined, undefined, () => clock.now());
  probe.start();
  const context: CaseContext = { seeds: await loadSeeds() };
  const indexes = options.only ?? Array.from({ length: options.cases }, (_, i) => i);
  let next = 0;

  const runOne = async (index: number) => {
    let fuzzCase: IndexedCase;
    try {
      fuzzCase = await caseAt(options.seed, index, context, options.families ? options.families.map(familyNamed) : FAMILIES);
    } catch (error) {
      // a bug of the corpus itself: reported, never mistaken for an answer of the service
      violations.push({ index, family: 'corpus', variant: 'generator failed', problems: [(error as Error).stack ?? String(error)] });
      return;
    }
    await restarting;
    inFlight.set(index, fuzzCase);
    const caseStarted = performance.now();
    const clientStarted = clock.now();
    let result: CaseResult;
    try {
      const answer = await send(service.url, fuzzCase, apiKey, clock.timeout(requestTimeoutMs + GRACE_MS));
      const problems = judge(fuzzCase, answer, { apiKey, documentMarkers: DOCUMENT_MARKERS });
      result = { index, family: fuzzCase.family, variant: fuzzCase.variant, status: answer.status, ms: performance.now() - caseStarted, problems, ...(options.keepBodies ? { body: answer.text } : {}) };
    } catch (error) {
      const ms = performance.now() - caseStarted;
      const reason = (error as Error).name === 'TimeoutError'
        ? `no answer within ${Math.round(clock.now() - clientStarted)} ms (${Math.round(ms)} ms of wall time)`
        : `no answer: ${(error as Error).message} ${((error as Error).cause as Error | undefined)?.message ?? ''}`;
      result = { index, family: fuzzCase.family, variant: fuzzCase.variant, status: 'none', ms, problems: [reason] };
    } finally {
      inFlight.delete(index);
    }
    results.push(result);
    if (result.problems.length > 0) violations.push({ index, family: result.family, variant: result.variant, problems: result.problems });
    options.onProgress?.(results.length, indexes.length);
  };

  const lanes = Array.from({ length: Math.min(options.concurrency ?? 4, indexes.length) }, async () => {
    while (next < indexes.length) await runOne(indexes[next++]!);
  });
  await Promise.all(lanes);
  await restarting;
  const health = await probe.stop();
  clearInterval(rssTimer);
  clock.stop();
  sampleRss();
  // The process must still be there and answer after everything.
  const alive = await fetch(`${service.url}/healthz`).then((r) => r.status === 200, () => false);
  if (!alive) violations.push({ index: -1, family: 'service', variant: 'after the run', problems: ['/healthz does not answer after the corpus'] });
  stopping = true;
  await service.stop('SIGTERM');
  return {
    seed: options.seed,
    cases: indexes.length,
    results: results.sort((a, b) => a.index - b.index),
    violations,
    health,
    logLines: scanner.lines,
    logHits: scanner.hits,
    logErrors: scanner.errors,
    serviceDeaths: deaths,
    peakRssMb: Math.round(peakRssMb),
    peakRssDuring,
    rssTimeline,
    wallMs: performance.now() - started,
  };
}

async function send(url: string, fuzzCase: IndexedCase, apiKey: string, deadline: { signal: AbortSignal; clear: () => void }) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': apiKey };
  for (const [name, value] of Object.entries(fuzzCase.headers ?? {})) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  try {
    const response = await fetch(`${url}${fuzzCase.path ?? '/v1/'}`, {
      method: fuzzCase.method ?? 'POST',
      headers,
      ...(fuzzCase.body !== undefined ? { body: typeof fuzzCase.body === 'string' ? fuzzCase.body : new Uint8Array(fuzzCase.body) } : {}),
      signal: deadline.signal,
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } finally {
    deadline.clear();
  }
}

export { FAMILIES };
