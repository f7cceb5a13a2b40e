import { Router } from 'express';
import type { Engine } from '../schema/engine.js';
import type { OcrEngine } from '../ingest/ocr-choice.js';
import type { JobsStatus } from '../jobs/create-jobs.js';
import type { Admission } from './admission.js';

export interface HealthDeps {
  ocr: OcrEngine;
  engine: Engine;
  admission: Admission;
  isShuttingDown: () => boolean;
  /** The job queue: reported, but never a reason for not ready (POST /v1/ works without it). */
  jobs?: () => JobsStatus;
}

/** /healthz: the process answers. /readyz: it can take work (OCR engine up, extraction engine ready, not draining). */
export function healthRoutes(deps: HealthDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const ocr = deps.ocr.status();
    const engine = await deps.engine.status();
    const shuttingDown = deps.isShuttingDown();
    const ready = ocr.ready && engine.ready && !shuttingDown;
    res.status(ready ? 200 : 503).json({
      ready,
      shuttingDown,
      ocr,
      engine: { name: deps.engine.name, ...engine },
      requests: deps.admission.snapshot(),
      ...(deps.jobs ? { jobs: deps.jobs() } : {}),
    });
  });
  return router;
}
