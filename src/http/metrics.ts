import { Router, type RequestHandler } from 'express';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { requireApiKey } from './auth.js';

/** Route labels: the service's own paths; anything else (404s, probes of random URLs) is "other", so the label set stays bounded. */
const ROUTES = new Map<string, string>([
  ['/', '/'],
  ['/v1', '/v1/'],
  ['/v1/', '/v1/'],
  ['/healthz', '/healthz'],
  ['/readyz', '/readyz'],
  ['/metrics', '/metrics'],
  ['/openapi.json', '/openapi.json'],
]);
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const JOB_ROUTES: [RegExp, string][] = [
  [/^\/v1\/jobs\/?$/, '/v1/jobs'],
  [/^\/v1\/jobs\/[^/]+\/?$/, '/v1/jobs/{id}'],
  [/^\/v1\/jobs\/[^/]+\/result\/?$/, '/v1/jobs/{id}/result'],
];

export function routeLabel(path: string): string {
  const known = ROUTES.get(path) ?? JOB_ROUTES.find(([pattern]) => pattern.test(path))?.[1];
  return known ?? (path.startsWith('/playground/') ? '/playground/*' : 'other');
}

/** Counts every request once its response is done (or the client left), by route, method and status. */
export function recordRequests(metrics: ServiceMetrics): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const route = routeLabel(req.path);
    const method = METHODS.has(req.method) ? req.method : 'other';
    res.once('close', () => {
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      metrics.observeRequest(route, method, status, (performance.now() - started) / 1000);
    });
    next();
  };
}

/** GET /metrics in Prometheus text format; the key as x-api-key or `Authorization: Bearer <key>`. */
export function metricsRoute(metrics: ServiceMetrics, apiKeys: string[]): Router {
  const router = Router();
  router.get('/metrics', requireApiKey(apiKeys, { bearer: true }), async (_req, res) => {
    const text = await metrics.text();
    res.setHeader('Cache-Control', 'no-store');
    res.type(metrics.contentType).send(text);
  });
  return router;
}
