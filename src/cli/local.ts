import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { deadline } from '../util/deadline.js';
import { untilAborted } from '../util/until-aborted.js';
import type { Extractor } from './extractor.js';

/**
 * The service's own pipeline in this process: OCR and pdf.js workers and the
 * engine start once for the run (as `npm start` starts them) and each file
 * is one runExtraction, with REQUEST_TIMEOUT_MS as its time limit. The
 * pipeline is imported here, on demand, so that remote runs load none of its
 * workers or native modules.
 */
export async function startLocalExtractor(config: Config): Promise<Extractor> {
  const [{ startServices }, { runExtraction, responseBody }, { countPages }, { silentLogger }] = await Promise.all([
    import('../services.js'),
    import('../pipeline.js'),
    import('../document/document.js'),
    import('../logger.js'),
  ]);
  const services = await startServices(config, silentLogger());
  const timeoutMs = config.limits.requestTimeoutMs;
  return {
    where: `in this process, engine ${services.engine.name}`,
    // One file more than the workers of the busier pool keeps it fed while another file is decoded or read by the engine.
    defaultConcurrency: Math.max(services.ocr.status().workers, config.pdf.workers) + 1,
    async extract(request, signal) {
      const limit = deadline(timeoutMs, [signal], () => new AppError('timeout', `request exceeded the time limit of ${timeoutMs} ms (REQUEST_TIMEOUT_MS)`));
      try {
        const outcome = await untilAborted(runExtraction(services, request, limit.signal), limit.signal);
        return { result: responseBody(outcome, request.options), engine: outcome.engine, pages: countPages(outcome.document), layout: outcome.layout().text };
      } finally {
        limit.clear();
      }
    },
    close: () => services.close(),
  };
}
