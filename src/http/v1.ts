import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '../errors.js';
import { countPages } from '../document/document.js';
import type { Logger } from '../logger.js';
import { formatServerTiming, prepareRequest, responseBody, runPrepared, type ExtractionOutcome, type PipelineDeps } from '../pipeline.js';
import type { Admission } from './admission.js';
import { parseExtractionRequest } from './request-schema.js';
import { untilAborted } from '../util/until-aborted.js';
import { jsonText, Pacer, runPaced } from '../util/paced.js';

export const ENGINE_HEADER = 'x-docshape-engine';
/** The OCR engine that read this request's scans and photos, or "none" when no page needed OCR. */
export const OCR_HEADER = 'x-docshape-ocr';

function timeLimit(ms: number): AppError {
  return new AppError('timeout', `request exceeded the time limit of ${ms} ms (REQUEST_TIMEOUT_MS)`);
}

function abortOnDeadlineOrDisconnect(res: Response, timeoutMs: number): AbortController {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(timeLimit(timeoutMs)), timeoutMs);
  res.on('close', () => {
    clearTimeout(timer);
    if (!res.writableFinished) controller.abort(new AppError('timeout', 'client closed the connection'));
  });
  return controller;
}

/** `onExtracted` sees each successful outcome (metrics: stage timings, pages). */
export function extractHandler(deps: PipelineDeps, admission: Admission, logger: Logger, onExtracted?: (outcome: ExtractionOutcome) => void): RequestHandler {
  return async (req: Request, res: Response) => {
    const body = parseExtractionRequest(req.body);
    // The caller's mistakes (schema, base64, file types) get their 400 at once, not after a wait for a slot:
    // in the corpus a self-referencing schema waited 20 s in the queue for it.
    // The time limit runs from here: a request waiting for a decoding thread behind large ones gets its 504 on time.
    const controller = abortOnDeadlineOrDisconnect(res, deps.limits.requestTimeoutMs);
    const prepared = await untilAborted(prepareRequest(body, deps.limits, controller.signal), controller.signal);
    const release = await admission.acquire(controller.signal);
    // The slot is held until the work really stops, even after a 504, so CPU use stays bounded.
    const work = runPrepared(deps, prepared, controller.signal).finally(release);
    work.catch(() => undefined);
    const outcome = await untilAborted(work, controller.signal);

    res.setHeader(ENGINE_HEADER, outcome.engine);
    res.setHeader(OCR_HEADER, outcome.stats.ocrPages > 0 ? deps.ocr.name : 'none');
    res.setHeader('server-timing', formatServerTiming(outcome.timings, outcome.engine));
    logger.info(
      {
        requestId: res.locals.requestId,
        files: body.contents.length,
        pages: countPages(outcome.document),
        ocrPages: outcome.stats.ocrPages,
        ocrEngine: deps.ocr.name,
        engine: outcome.engine,
        ms: Math.round(outcome.timings.total),
      },
      'extraction done',
    );
    onExtracted?.(outcome);
    // Without options.evidence the answer is the object itself, as it always was.
    // written in turns (util/paced.ts): one JSON.stringify of thousands of rows with their evidence held the loop
    const text = await runPaced(jsonText(responseBody(outcome, body.options)), new Pacer(controller.signal));
    res.status(200).type('json').send(text);
  };
}
