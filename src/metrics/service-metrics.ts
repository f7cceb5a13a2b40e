/**
 * src/metrics owns what the service counts for Prometheus (prom-client): the
 * metric definitions, their bounded label values, and small recorders the
 * HTTP layer and the engine call. Labels only ever hold values from fixed sets
 * or from configuration (route, status, stage, engine name, OCR engine, pool):
 * never a document value, a schema or a key.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EngineUsage, ModelCallReport } from '../schema/engine.js';
import { isAppError } from '../errors.js';
import type { ExtractionOutcome, StageTimings } from '../pipeline.js';

/** Seconds; from a cached text-layer page (~5 ms) to the request time limit (120 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const STAGES: readonly (keyof StageTimings)[] = ['decode', 'ocr', 'extract', 'validate', 'total'];

/** What the gauges read at scrape time; structural, so this folder imports nothing from http or ingest. */
export interface MetricsSources {
  admission: { snapshot(): { active: number; queued: number; maxActive: number; maxQueued: number } };
  /** Worker pools by name ("ocr", "pdf"). */
  pools: Record<string, { status(): { workers: number; busy: number; queued: number } }>;
  /** The job queue (all replicas), when jobs are served. */
  jobs?: { counts(): Promise<{ queued: number; running: number }> };
}

export interface ServiceMetricsOptions {
  /** The OCR engine label of OCR-read pages when the outcome does not name one. */
  ocrEngine: string;
}

/** A failure's label: the AppError code (a fixed set, see errors.ts), else "error". */
export function outcomeLabel(error: unknown): string {
  return isAppError(error) ? error.code : 'error';
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  private readonly httpDuration: Histogram<'route' | 'method'>;
  private readonly stageSeconds: Histogram<'stage'>;
  private readonly pages: Counter<'source' | 'ocr_engine'>;
  private readonly files: Counter<'mime_type'>;
  private readonly engineCalls: Counter<'engine' | 'outcome'>;
  private readonly engineSeconds: Histogram<'engine'>;
  private readonly modelCalls: Counter<'engine' | 'outcome'>;
  private readonly modelRetries: Counter<'engine'>;
  private readonly promptTokens: Counter<'engine'>;
  private readonly outputTokens: Counter<'engine'>;
  private readonly queueWait: Histogram<'outcome'>;
  private readonly jobsTotal: Counter<'outcome'>;
  private readonly jobWait: Histogram;
  private readonly jobRun: Histogram<'outcome'>;

  constructor(private readonly options: ServiceMetricsOptions) {
    const registers = [this.registry];
    // Process metrics: CPU, resident memory, heap, event loop lag, GC, handles.
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'docshape_http_requests_total',
      help: 'HTTP requests answered, by route, method and status ("aborted" when the client left first)',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'docshape_http_request_duration_seconds',
      help: 'Time from request to response, by route and method',
      labelNames: ['route', 'method'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.stageSeconds = new Histogram({
      name: 'docshape_extraction_stage_seconds',
      help: 'Time per pipeline stage of successful extractions: decode, ocr (summed over pages), extract, validate, total',
      labelNames: ['stage'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.pages = new Counter({
      name: 'docshape_pages_total',
      help: 'Pages read by successful extractions, by source (text-layer, ocr) and OCR engine ("none" for text-layer pages)',
      labelNames: ['source', 'ocr_engine'],
      registers,
    });
    this.files = new Counter({
      name: 'docshape_files_total',
      help: 'Files read by successful extractions, by MIME type',
      labelNames: ['mime_type'],
      registers,
    });
    this.engineCalls = new Counter({
      name: 'docshape_engine_calls_total',
      help: 'Extractions handed to the engine, by engine and outcome ("ok" or the error code: engine_failed, backend_unavailable, timeout, ...)',
      labelNames: ['engine', 'outcome'],
      registers,
    });
    this.engineSeconds = new Histogram({
      name: 'docshape_engine_duration_seconds',
      help: 'Time the engine took per extraction, failures included',
      labelNames: ['engine'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.modelCalls = new Counter({
      name: 'docshape_model_calls_total',
      help: 'Language-model calls, by engine and outcome (ok, failed)',
      labelNames: ['engine', 'outcome'],
      registers,
    });
    this.modelRetries = new Counter({
      name: 'docshape_model_retries_total',
      help: 'Language-model calls that asked again after an answer that did not fit the schema',
      labelNames: ['engine'],
      registers,
    });
    this.promptTokens = new Counter({
      name: 'docshape_model_prompt_tokens_total',
      help: 'Prompt tokens as the model server counted them',
      labelNames: ['engine'],
      registers,
    });
    this.outputTokens = new Counter({
      name: 'docshape_model_output_tokens_total',
      help: 'Output tokens as the model server counted them',
      labelNames: ['engine'],
      registers,
    });
    this.queueWait = new Histogram({
      name: 'docshape_queue_wait_seconds',
      help: 'Time extraction requests waited for a slot, by outcome (admitted, rejected)',
      labelNames: ['outcome'],
      buckets: [0, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.jobsTotal = new Counter({
      name: 'docshape_jobs_total',
      help: 'Jobs that ended, by outcome (succeeded, failed, canceled), counted by the process that ended them',
      labelNames: ['outcome'],
      registers,
    });
    this.jobWait = new Histogram({
      name: 'docshape_job_queue_wait_seconds',
      help: 'Time from a job\'s submit to the start of its run (queue wait), per run started in this process',
      buckets: [0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1, 5, 30, 60, 300, 1800, 3600],
      registers,
    });
    this.jobRun = new Histogram({
      name: 'docshape_job_run_seconds',
      help: 'Time a job ran in this process, by outcome (succeeded, failed)',
      labelNames: ['outcome'],
      buckets: LATENCY_BUCKETS.concat([300, 900, 1800]),
      registers,
    });
  }

  /** Gauges read from the live objects at scrape time. */
  watch(sources: MetricsSources): void {
    const registers = [this.registry];
    new Gauge({
      name: 'docshape_requests_active',
      help: 'Extraction requests running now',
      registers,
      collect() {
        this.set(sources.admission.snapshot().active);
      },
    });
    new Gauge({
      name: 'docshape_requests_queued',
      help: 'Extraction requests waiting for a slot now (queue depth)',
      registers,
      collect() {
        this.set(sources.admission.snapshot().queued);
      },
    });
    new Gauge({
      name: 'docshape_requests_limit',
      help: 'Admission limits: kind="active" (MAX_ACTIVE_REQUESTS), kind="queued" (MAX_QUEUED_REQUESTS)',
      labelNames: ['kind'],
      registers,
      collect() {
        const snapshot = sources.admission.snapshot();
        this.set({ kind: 'active' }, snapshot.maxActive);
        this.set({ kind: 'queued' }, snapshot.maxQueued);
      },
    });
    const jobs = sources.jobs;
    if (jobs) {
      new Gauge({
        name: 'docshape_jobs',
        help: 'Jobs in the queue now, by state (queued, running): the whole queue, the same from every replica (use max, not sum)',
        labelNames: ['state'],
        registers,
        async collect() {
          try {
            const { queued, running } = await jobs.counts();
            this.set({ state: 'queued' }, queued);
            this.set({ state: 'running' }, running);
          } catch {
            // the queue is unreachable: no value rather than a wrong one
            this.reset();
          }
        },
      });
    }
    const readPools = () => Object.entries(sources.pools).map(([pool, source]) => ({ pool, ...source.status() }));
    new Gauge({
      name: 'docshape_workers',
      help: 'Live worker threads, by pool (ocr, pdf)',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const { pool, workers } of readPools()) this.set({ pool }, workers);
      },
    });
    new Gauge({
      name: 'docshape_workers_busy',
      help: 'Worker threads running a task now, by pool',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const { pool, busy } of readPools()) this.set({ pool }, busy);
      },
    });
    new Gauge({
      name: 'docshape_worker_utilisation',
      help: 'Share of a pool\'s workers busy now (busy / workers, 0 with no workers)',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const { pool, busy, workers } of readPools()) this.set({ pool }, workers > 0 ? busy / workers : 0);
      },
    });
    new Gauge({
      name: 'docshape_worker_queue_length',
      help: 'Tasks waiting for a worker, by pool',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const { pool, queued } of readPools()) this.set({ pool }, queued);
      },
    });
  }

  observeRequest(route: string, method: string, status: string, seconds: number): void {
    this.httpRequests.inc({ route, method, status });
    this.httpDuration.observe({ route, method }, seconds);
  }

  /** A successful extraction: its stage timings, pages and files. */
  observeExtraction(outcome: Pick<ExtractionOutcome, 'timings' | 'stats' | 'document'> & { ocrEngine?: string }): void {
    for (const stage of STAGES) this.stageSeconds.observe({ stage }, outcome.timings[stage] / 1000);
    if (outcome.stats.textLayerPages > 0) this.pages.inc({ source: 'text-layer', ocr_engine: 'none' }, outcome.stats.textLayerPages);
    if (outcome.stats.ocrPages > 0) this.pages.inc({ source: 'ocr', ocr_engine: outcome.ocrEngine ?? this.options.ocrEngine }, outcome.stats.ocrPages);
    for (const file of outcome.document.files) this.files.inc({ mime_type: file.mimeType });
  }

  observeQueueWait(ms: number, admitted: boolean): void {
    this.queueWait.observe({ outcome: admitted ? 'admitted' : 'rejected' }, ms / 1000);
  }

  /** A job run started after `queuedMs` in the queue. */
  observeJobStart(queuedMs: number): void {
    this.jobWait.observe(queuedMs / 1000);
  }

  /** A job ended; `runMs` is null for one canceled before it ran here. */
  observeJobEnd(outcome: 'succeeded' | 'failed' | 'canceled', runMs: number | null): void {
    this.jobsTotal.inc({ outcome });
    if (runMs !== null && outcome !== 'canceled') this.jobRun.observe({ outcome }, runMs / 1000);
  }

  observeEngineCall(engine: string, outcome: string, seconds: number): void {
    this.engineCalls.inc({ engine, outcome });
    this.engineSeconds.observe({ engine }, seconds);
  }

  /** The sink an engine reports its model calls to, labelled with its name. */
  usageFor(engine: string): EngineUsage {
    return {
      modelCall: (report: ModelCallReport) => {
        this.modelCalls.inc({ engine, outcome: report.outcome });
        if (report.retry) this.modelRetries.inc({ engine });
        if (report.promptTokens !== undefined && report.promptTokens > 0) this.promptTokens.inc({ engine }, report.promptTokens);
        if (report.outputTokens !== undefined && report.outputTokens > 0) this.outputTokens.inc({ engine }, report.outputTokens);
      },
    };
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
