import express, { type Express } from 'express';
import type { Config } from './config.js';
import { AppError } from './errors.js';
import { Admission } from './http/admission.js';
import { requireApiKey } from './http/auth.js';
import { errorHandler } from './http/error-handler.js';
import { healthRoutes } from './http/health.js';
import { assignRequestId } from './http/request-context.js';
import { extractHandler } from './http/v1.js';
import type { Logger } from './logger.js';
import type { PipelineDeps } from './pipeline.js';

export interface AppDeps {
  config: Pick<Config, 'apiKeys' | 'limits' | 'concurrency'>;
  pipeline: PipelineDeps;
  logger: Logger;
  isShuttingDown?: () => boolean;
}

/** Builds the Express app without listening, so tests can start a fresh one on an ephemeral port. */
export function createApp(deps: AppDeps): Express {
  if (deps.config.apiKeys.length === 0) throw new Error('createApp needs at least one API key');
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const admission = new Admission(deps.config.concurrency);

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
  app.use(healthRoutes({ ocr: deps.pipeline.ocr, engine: deps.pipeline.engine, admission, isShuttingDown }));

  const v1Paths = ['/v1', '/v1/'];
  app.post(
    v1Paths,
    requireApiKey(deps.config.apiKeys),
    admission.rejectWhenFull(),
    express.json({ limit: deps.config.limits.maxBodyBytes, strict: false }),
    extractHandler(deps.pipeline, admission, deps.logger),
  );
  app.all(v1Paths, (_req, res, next) => {
    res.setHeader('Allow', 'POST');
    next(new AppError('method_not_allowed', 'use POST /v1/'));
  });
  app.use((req, _res, next) => next(new AppError('not_found', `no route for ${req.method} ${req.path}`)));
  app.use(errorHandler(deps.logger));
  return app;
}
