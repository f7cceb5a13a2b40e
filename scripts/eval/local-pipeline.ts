/**
 * The eval's local backend: the service pipeline in-process, optionally with
 * ingested Documents reused from an IngestCache.
 *
 * A fresh document goes through runExtraction itself, exactly as a request to
 * the service would. A cached one runs the stages after ingestion the way
 * runExtraction composes them (compile schema, decode, layout text, engine,
 * finalize), so only decode-to-pixels and OCR are skipped. When every
 * document is cached, no OCR or PDF workers are started at all: a run then
 * takes seconds, which is the point of the cache.
 */
import type { ExtractionRequest } from '../../src/pipeline.js';
import type { PdfProcessor } from '../../src/ingest/pdf.js';
import type { Engine, PageImageSource } from '../../src/extract/engine.js';
import { contentsKey, ingestFingerprint, IngestCache } from './ingest-cache.js';

export interface LocalOutcome {
  result: unknown;
  engine: string;
  layoutText: string;
  /** 'cached' when the Document came from the ingest cache. */
  ingest: 'cached' | 'fresh';
  /** Fresh ingestion that OCRed a page: which engine and how long. */
  ocr?: { engine: string; seconds: number };
}

export interface LocalBackend {
  extract: (request: ExtractionRequest) => Promise<LocalOutcome>;
  close: () => Promise<void>;
  cache: IngestCache | undefined;
}

export interface ReuseOptions {
  dir: string;
  refresh: boolean;
}

/**
 * `requests` are the requests the run will make (read beforehand so that the
 * backend knows whether OCR workers are needed); their bytes are hashed only.
 */
export async function startLocalBackend(reuse: ReuseOptions | undefined, requests: () => AsyncIterable<ExtractionRequest>): Promise<LocalBackend> {
  const [{ loadConfig }, { silentLogger }, pipeline, { startServices }, { createEngine }, { compileCallerSchema }, { decodeContents }, { renderLayoutText }, { finalize }, pageImages, pdfModule] =
    await Promise.all([
      import('../../src/config.js'),
      import('../../src/logger.js'),
      import('../../src/pipeline.js'),
      import('../../src/services.js'),
      import('../../src/engines/create-engine.js'),
      import('../../src/extract/schema.js'),
      import('../../src/ingest/decode.js'),
      import('../../src/ingest/layout.js'),
      import('../../src/extract/finalize.js'),
      import('../../src/engines/page-images.js'),
      import('../../src/ingest/pdf.js'),
    ]);
  const config = loadConfig();
  const logger = silentLogger();

  let cache: IngestCache | undefined;
  let allCached = false;
  if (reuse) {
    // Everything that decides the Document besides the bytes and the ingest sources.
    const settings = { ocr: config.ocr, pdf: config.pdf, limits: { ...config.limits, requestTimeoutMs: undefined } };
    cache = new IngestCache(reuse.dir, await ingestFingerprint(settings), reuse.refresh);
    allCached = true;
    for await (const request of requests()) {
      if (!(await cache.has(contentsKey(request)))) {
        allCached = false;
        break;
      }
    }
  }

  // OCR and PDF workers only when some document must really be ingested.
  const services = allCached ? undefined : await startServices(config, logger);
  const engine: Engine = services ? services.engine : (await createEngine(config, logger)).engine;
  let lazyPdf: PdfProcessor | undefined;
  const pdf = () => services?.pdf ?? (lazyPdf ??= new pdfModule.PdfProcessor({ workers: 1, maxPixelsPerPage: config.limits.maxPixelsPerImage, renderDpi: config.pdf.renderDpi }));

  const extract = async (request: ExtractionRequest): Promise<LocalOutcome> => {
    const signal = AbortSignal.timeout(config.limits.requestTimeoutMs);
    const key = cache ? contentsKey(request) : '';
    const document = cache ? await cache.get(key) : undefined;
    if (!document) {
      if (!services) throw new Error('ingest cache entry vanished during the run');
      const outcome = await pipeline.runExtraction(services, request, signal);
      if (cache) {
        cache.misses += 1;
        await cache.put(key, outcome.document);
      }
      const ocr = outcome.stats.ocrPages > 0 ? { ocr: { engine: services.ocr.name, seconds: outcome.stats.ocrMs / 1000 } } : {};
      return { result: outcome.result, engine: outcome.engine, layoutText: outcome.layoutText, ingest: 'fresh', ...ocr };
    }
    cache!.hits += 1;
    const compiled = compileCallerSchema(request.schema);
    const files = decodeContents(request.contents, config.limits);
    const layoutText = renderLayoutText(document);
    // Page pictures are rendered only if the engine asks (vision models); PDF workers start then.
    const images: PageImageSource = (pages) => pageImages.pageImageSource(files, pdf(), signal)(pages);
    const candidate = await engine.extract({ document, layoutText, schema: compiled.schema, signal, pageImages: images });
    return { result: finalize(candidate, compiled), engine: engine.name, layoutText, ingest: 'cached' };
  };

  return {
    extract,
    cache,
    close: async () => {
      if (services) await services.close();
      else await engine.close();
      if (lazyPdf) await lazyPdf.close();
    },
  };
}
