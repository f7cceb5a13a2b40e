/**
 * What an OCR engine is to the rest of the service: it reads one grey page
 * into words (text, box, confidence, source "ocr") on a page frame it
 * reports, says whether it is ready, and releases its threads on close.
 * Both engines (paddle/, tesseract/) implement it; ingest and the HTTP
 * layer see only this.
 */
import type { Affine, OcrEngineName, Word } from '../../document/document.js';
import type { GreyRaster } from '../../document/raster.js';
import type { PoolStatus } from '../../threads/pool.js';

export { OCR_ENGINE_NAMES, type OcrEngineName } from '../../document/document.js';

/** One page's OCR result. */
export interface OcrResult {
  words: Word[];
  /** Size of the raster the word boxes refer to: the input's, or width and height swapped when a quarter turn won. */
  width: number;
  height: number;
  /** Clockwise turn applied to the input page for the reading that was kept. */
  rotation: 0 | 90 | 180 | 270;
  /** Whether the kept reading was straightened (its boxes refer to the page turned back by its slope). */
  deskewed: boolean;
  /** Median slope of the page's text lines, in degrees. */
  skewDegrees: number;
  /** Recognition passes run for this page (Tesseract may read a page several times; PP-OCR reads it once). */
  passes: number;
  /** Maps the word boxes onto the raster that was given: undoes the straightening and the turn (evidence boxes use it). */
  toInput: Affine;
}

export interface OcrStatus {
  engine: OcrEngineName;
  ready: boolean;
  workers: number;
  busy: number;
  queued: number;
  jobsDone: number;
  /** Why this engine reads the scans (OCR_ENGINE and OCR_LANGS), set by the factory. */
  chosenBecause?: string;
}

/** An engine's status from its thread pool's. */
export function ocrStatus(engine: OcrEngineName, pool: PoolStatus): OcrStatus {
  return { engine, ready: pool.ready, workers: pool.workers, busy: pool.busy, queued: pool.queued, jobsDone: pool.tasksDone };
}

export interface OcrEngine {
  readonly name: OcrEngineName;
  /** Reads one page; rejects at once with the signal's reason when it aborts. */
  recognize(raster: GreyRaster, signal?: AbortSignal): Promise<OcrResult>;
  status(): OcrStatus;
  close(): Promise<void>;
}

export interface OcrLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export const noopOcrLogger: OcrLogger = { info() {}, warn() {} };

/** Rejects a raster whose buffer does not match its size before it reaches an engine's threads. */
export function rasterProblem(raster: GreyRaster): Error | undefined {
  if (raster.width < 1 || raster.height < 1 || raster.data.length !== raster.width * raster.height) {
    return new Error(`OCR raster ${raster.width}x${raster.height} has ${raster.data.length} bytes`);
  }
  return undefined;
}

export function errorFrom(value: unknown, fallback: string): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === 'string' && value.length > 0 ? value : fallback);
}
