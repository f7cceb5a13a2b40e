import express, { type Express } from 'express';
import type { Config } from './config.js';
import { AppError } from './errors.js';
import { Admission } from './http/admission.js';
import { requireApiKey } from './http/auth.js';
import { errorHandler } from './http/error-handler.js';
import { healthRoutes } from './http/health.js';
import { jobRoutes } from './http/jobs-routes.js';
import { metricsRoute, recordRequests } from './http/metrics.js';
import { openApiHandler } from './http/openapi.js';
import { playgroundRoutes } from './http/playground.js';
import { assignRequestId } from './http/request-context.js';
import { requestBody } from './http/request-body.js';
import { extractHandler } from './http/v1.js';
import { warmUp } from './http/warm-up.js';
import { warmUpEngine } from './http/warm-up-engine.js';
import type { JobsRuntime } from './jobs/create-jobs.js';
import type { Logger } from './logger.js';
import { MeteredEngine } from './metrics/metered-engine.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import type { PipelineDeps } from './pipeline.js';

export interface AppDeps {
  config: Pick<Config, 'apiKeys' | 'limits' | 'concurrency' | 'metrics' | 'webhooks'>;
  pipeline: PipelineDeps;
  logger: Logger;
  isShuttingDown?: () => boolean;
  /** The metrics label of OCR-read pages when an outcome names no OCR engine; default the pipeline's OCR engine. */
  ocrEngine?: string;
  /** Jobs (src/jobs/): their routes, and this process's workers when it runs them. */
  jobs?: JobsRuntime;
  /** Serve POST /v1/ and the job routes (false for ROLE=worker: health, metrics and the workers only). */
  api?: boolean;
}

/** Builds the Express app without listening, so tests can start a fresh one on an ephemeral port. */
export function createApp(deps: AppDeps): Express {
  if (deps.config.apiKeys.length === 0) throw new Error('createApp needs at least one API key');
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const metrics = deps.config.metrics ? new ServiceMetrics({ ocrEngine: deps.ocrEngine ?? deps.pipeline.ocr.name }) : undefined;
  const admission = new Admission(deps.config.concurrency, metrics && ((ms, admitted) => metrics.observeQueueWait(ms, admitted)));
  const pipeline = metrics ? { ...deps.pipeline, engine: new MeteredEngine(deps.pipeline.engine, metrics) } : deps.pipeline;
  const jobs = deps.jobs;
  metrics?.watch({ admission, pools: { ocr: deps.pipeline.ocr, pdf: deps.pipeline.pdf }, ...(jobs ? { jobs: jobs.jobs } : {}) });
  // the workers run the metered pipeline, so jobs count in the extraction metrics as requests do
  jobs?.startWorkers(pipeline, metrics && { started: (ms) => metrics.observeJobStart(ms), finished: (status, ms) => metrics.observeJobEnd(status, ms) });
  const serveApi = deps.api ?? true;

  if (metrics) app.use(recordRequests(metrics));
  app.use(assignRequestId());
  const isShuttingDown = deps.isShuttingDown ?? (() => false);
  // While draining, each response closes its connection so keep-alive sockets do not hold shutdown open.
  app.use((_req, res, next) => {
    res.on('finish', () => {
      if (isShuttingDown()) res.socket?.end();
    });
    if (isShuttingDown()) res.setHeader('Connection', 'close');
    next();
  });
  app.use(healthRoutes({ ocr: deps.pipeline.ocr, engine: deps.pipeline.engine, admission, isShuttingDown, ...(jobs ? { jobs: () => jobs.status() } : {}) }));

  if (serveApi) {
    const v1Paths = ['/v1', '/v1/'];
    app.post(
      v1Paths,
      requireApiKey(deps.config.apiKeys),
      admission.rejectWhenFull(),
      requestBody(deps.config.limits),
      extractHandler(pipeline, admission, deps.logger, metrics && ((outcome) => metrics.observeExtraction(outcome))),
    );
    app.all(v1Paths, (_req, res, next) => {
      res.setHeader('Allow', 'POST');
      next(new AppError('method_not_allowed', 'use POST /v1/'));
    });
    if (jobs) app.use(jobRoutes({ runtime: jobs, apiKeys: deps.config.apiKeys, limits: deps.config.limits, webhooks: deps.config.webhooks }));
  }
  app.get('/openapi.json', openApiHandler({ metrics: metrics !== undefined, jobs: serveApi && jobs !== undefined }));
  if (metrics) app.use(metricsRoute(metrics, deps.config.apiKeys));
  app.use(playgroundRoutes());
  // a path that exists, asked with a method it does not take: 405 with what it takes, not 404 (RFC 9110)
  app.all(['/', '/healthz', '/readyz', '/openapi.json', ...(metrics ? ['/metrics'] : [])], (req, res, next) => {
    res.setHeader('Allow', 'GET, HEAD');
    next(new AppError('method_not_allowed', `use GET ${req.path}`));
  });
  app.use((req, _res, next) => next(new AppError('not_found', `no route for ${req.method} ${req.path}`)));
  app.use(errorHandler(deps.logger));
  return app;
}

/** However many requests WARM_UP asks for, the warm-up stops starting new ones after this long (a busy host). */
const WARM_UP_BUDGET_MS = 2_000;
/** However many readings WARM_UP_ENGINE asks for, none starts later than this after the first (a busy host). */
const ENGINE_WARM_UP_BUDGET_MS = 1_000;

/**
 * Before the service listens: WARM_UP_ENGINE readings of a generated
 * invoice by the rules engine, without pdf.js (http/warm-up-engine.ts;
 * only when the rules engine is the service's engine),
 * then WARM_UP requests of a generated invoice PDF through an app of their
 * own (no metrics, no jobs, only warnings logged). Both with the rules
 * engine, which a language-model service has as its cross-check (a model
 * call would cost seconds and is not the code to warm). A failure is logged
 * and the service starts all the same: the warm-up only saves the first
 * callers some milliseconds.
 */
export async function warmUpService(deps: Pick<AppDeps, 'config' | 'pipeline' | 'logger'> & { requests: number; engineRuns: number }): Promise<void> {
  const { config, pipeline, logger, requests, engineRuns } = deps;
  if (requests === 0 && engineRuns === 0) return;
  const rules = pipeline.engine.name === 'rules' ? pipeline.engine : pipeline.crossCheck;
  if (!rules) {
    logger.info('warm-up skipped: no rules engine to warm up with');
    return;
  }
  // only where the rules engine answers requests: a language-model service's cross-check starts its thread only when
  // evidence is asked for, and this warm-up would start (and keep) it
  if (engineRuns > 0 && pipeline.engine === rules) {
    const started = performance.now();
    try {
      const runs = await warmUpEngine({ ...pipeline, engine: rules }, { runs: engineRuns, budgetMs: ENGINE_WARM_UP_BUDGET_MS });
      logger.info({ runs, ms: Math.round(performance.now() - started) }, 'engine warmed up');
    } catch (error) {
      logger.warn({ err: error }, 'engine warm-up failed; starting all the same');
    }
  }
  if (requests === 0) return;
  try {
    const app = createApp({ config: { ...config, metrics: false }, pipeline: { ...pipeline, engine: rules }, logger: logger.child({ warmUp: true }, { level: 'warn' }) });
    const report = await warmUp(app, { requests, apiKey: config.apiKeys[0]!, budgetMs: WARM_UP_BUDGET_MS });
    logger.info({ requests: report.answered, ms: Math.round(report.ms) }, 'warmed up');
  } catch (error) {
    logger.warn({ err: error }, 'warm-up failed; starting all the same');
  }
}
