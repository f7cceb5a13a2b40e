/**
 * The OCR engine choice (OCR_ENGINE): paddle when its recogniser writes every
 * letter of every OCR_LANGS language, tesseract otherwise, with the reason for
 * the logs and /readyz. Only the chosen engine is started. It sits above ocr/
 * (the interface and both engines) so that ocr/ never imports back up.
 */
import { availableParallelism } from 'node:os';
import type { OcrConfig } from '../config.js';
import { noopOcrLogger, type OcrEngine, type OcrEngineName, type OcrLogger } from './ocr/engine.js';
import { coverageOf } from './ocr/languages.js';
import { DEFAULT_MAX_DETECTOR_PIXELS, PaddleEngine } from './ocr/paddle/engine.js';
import { bundledModelFiles, withShippedDetection } from './ocr/paddle/bundled-models.js';
import { modelFilesIn, readDictionary, type PaddleModelFiles } from './ocr/paddle/model-files.js';
import { TesseractPool } from './ocr/tesseract/pool.js';

export type { OcrEngine, OcrEngineName, OcrLogger, OcrResult, OcrStatus } from './ocr/engine.js';

export interface OcrChoice {
  name: OcrEngineName;
  /** Why, in a sentence for the logs and /readyz. */
  reason: string;
}

async function paddleModelFiles(config: OcrConfig): Promise<PaddleModelFiles> {
  return config.paddleModelDir ? withShippedDetection(await modelFilesIn(config.paddleModelDir)) : bundledModelFiles(config.paddleModels);
}

function describeGaps(coverage: ReturnType<typeof coverageOf>): string {
  const parts = coverage.lacking.map(({ lang, missing }) => `${lang} (lacks ${missing.slice(0, 8).join(' ')}${missing.length > 8 ? ' ...' : ''})`);
  if (coverage.unknown.length > 0) parts.push(`${coverage.unknown.join(', ')} (no alphabet known to check)`);
  return parts.join(', ');
}

/**
 * OCR_ENGINE=paddle or tesseract is an order. auto picks paddle when the
 * PP-OCR recogniser's dictionary (the OCR_PADDLE_MODELS set's, or
 * OCR_PADDLE_MODEL_DIR's) has every letter of every OCR_LANGS language, and
 * tesseract otherwise. The reason says when the set's quick recogniser is
 * left out for those languages (filesForLanguages).
 */
export async function chooseOcrEngine(config: OcrConfig): Promise<OcrChoice> {
  const { name, reason } = config.engine === 'tesseract' ? await choose(config, undefined) : await choose(config, await paddleModelFiles(config));
  return { name, reason };
}

const isComplete = (coverage: ReturnType<typeof coverageOf>) => coverage.lacking.length === 0 && coverage.unknown.length === 0;

/**
 * The set's files for OCR_LANGS: its quick recogniser (the default's PP-OCRv6
 * tiny, read-page.ts recogniseLines) only when its dictionary writes every
 * letter of those languages. A letter it lacks (Japanese, traditional
 * Chinese, Romanian's ș ț) could never come out of it, and a line it misreads
 * for want of one may still look sure: then the full recogniser reads every line.
 */
export async function filesForLanguages(config: Pick<OcrConfig, 'langs'>, files: PaddleModelFiles): Promise<{ files: PaddleModelFiles; note: string }> {
  if (!files.quickRecogniser || !files.quickDictionary) return { files, note: '' };
  const coverage = coverageOf(config.langs, await readDictionary(files.quickDictionary));
  if (isComplete(coverage)) return { files, note: '' };
  const { quickRecogniser: _recogniser, quickDictionary: _dictionary, jointRecognisers: _joint, ...full } = files;
  return { files: full, note: `; its quick recogniser cannot write ${describeGaps(coverage)}, so the full recogniser reads every line` };
}

async function choose(config: OcrConfig, given: PaddleModelFiles | undefined): Promise<OcrChoice & { files?: PaddleModelFiles }> {
  if (config.engine === 'tesseract' || !given) return { name: 'tesseract', reason: 'OCR_ENGINE=tesseract' };
  const coverage = coverageOf(config.langs, await readDictionary(given.dictionary));
  const complete = isComplete(coverage);
  const { files, note } = await filesForLanguages(config, given);
  const recogniser = `the PP-OCR recogniser (${files.name})`;
  if (config.engine === 'paddle') {
    return { name: 'paddle', files, reason: (complete ? `OCR_ENGINE=paddle (${files.name})` : `OCR_ENGINE=paddle, although ${recogniser} cannot write ${describeGaps(coverage)}`) + note };
  }
  if (complete) return { name: 'paddle', files, reason: `OCR_ENGINE=auto: ${recogniser} writes every letter of OCR_LANGS=${config.langs.join(',')}${note}` };
  return { name: 'tesseract', reason: `OCR_ENGINE=auto: ${recogniser} cannot write ${describeGaps(coverage)}, so Tesseract reads ${config.langs.join('+')}` };
}

/** The engine with why it was chosen added to its status, so /readyz answers "which OCR engine, and why". */
function explained(engine: OcrEngine, reason: string): OcrEngine {
  return {
    name: engine.name,
    recognize: (raster, signal) => engine.recognize(raster, signal),
    status: () => ({ ...engine.status(), chosenBecause: reason }),
    close: () => engine.close(),
  };
}

/**
 * Workers and threads when OCR_WORKERS / OCR_THREADS are not set. Tesseract
 * reads a page on one thread: one worker per core. A paddle worker holds its
 * own ONNX sessions and the detector's working memory, and ONNX Runtime
 * spreads one page over several cores itself: one worker per two cores,
 * each with the cores it has (on 2 cores 1 worker with 2 threads; 2 workers
 * read pages 1.5x as fast under load but took much more memory, see README).
 */
export function workersFor(name: OcrEngineName, config: Pick<OcrConfig, 'workers' | 'threads'>, cores = availableParallelism()): { workers: number; threads: number } {
  if (name === 'tesseract') return { workers: config.workers ?? Math.max(1, cores), threads: 1 };
  const workers = config.workers ?? Math.max(1, Math.round(cores / 2));
  return { workers, threads: config.threads ?? Math.max(1, Math.floor(cores / workers)) };
}

/** Chooses, starts and warms the OCR engine; the other one is never started. */
export async function createOcrEngine(config: OcrConfig, logger: OcrLogger = noopOcrLogger): Promise<{ engine: OcrEngine; reason: string }> {
  const choice = await choose(config, config.engine === 'tesseract' ? undefined : await paddleModelFiles(config));
  const files = choice.files;
  logger.info({ ocrEngine: choice.name, reason: choice.reason }, 'OCR engine chosen');
  const { workers, threads } = workersFor(choice.name, config);
  const engine: OcrEngine =
    choice.name === 'paddle' && files
      ? await PaddleEngine.create(
          {
            files,
            workers,
            threads,
            allowTurn: config.rotation !== 'off',
            maxDetectorPixels: config.paddleDetectorPixels ?? DEFAULT_MAX_DETECTOR_PIXELS,
          },
          logger,
        )
      : await TesseractPool.create({ ...config, workers }, logger);
  return { engine: explained(engine, choice.reason), reason: choice.reason };
}
