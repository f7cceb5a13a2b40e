import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import Tesseract from 'tesseract.js';
import type { OcrConfig, OcrRotation } from '../config.js';
import type { Word } from './document.js';
import { chooseThresholding, type Thresholding } from './preprocess.js';
import type { GreyRaster } from './raster.js';

export interface OcrLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface OcrPoolStatus {
  ready: boolean;
  workers: number;
  busy: number;
  queued: number;
  jobsDone: number;
}

/**
 * Page segmentation mode 6 ("one uniform block of text"). On the dev
 * receipts (mean similarity of the labelled fields to the OCR text, final
 * preprocessing) it beat every alternative and was the fastest:
 * SROIE scans / WildReceipt photos 0.97 / 0.87 with 6, 0.91 / 0.74 with auto
 * (3), 0.91 / 0.79 with 4 (single column), 0.90 / 0.81 with 11 (sparse).
 * Auto splits receipts and tables into many small blocks and drops short
 * amounts at the right edge. Reading order does not suffer: lines are
 * rebuilt from word boxes downstream.
 */
export const PAGE_SEGMENTATION_MODE = '6';
/*
 * Skew and rotation (OCR_ROTATION). Tesseract's automatic deskew
 * (`rotateAuto`) is not run on every page by default: on the dev receipts it
 * made 11 of the 15 pages it changed worse (photos with perspective get
 * "straightened" wrongly and every rotation blurs the glyphs) and cost 15-20%
 * more time (+0.1-0.3 s per receipt, +0.7-0.9 s per A4 page). PSM 6 reads
 * pages skewed up to ~2 degrees as well without it; it pays off only beyond
 * ~4 degrees (synthetic A4 at 6 degrees: 5% character errors without, 0%
 * with). So 'auto' (the default) reads a page once as it is and retries only
 * a reading whose text lines slope by DESKEW_FROM_DEGREES or more, or that
 * looks poor (`looksPoor`); see `readPage`. On the 40 dev receipts (rules
 * engine) 'auto' retried 2 pages, left SROIE at 87.5% accuracy and raised
 * WildReceipt from 57.0% to 61.7% (the photo skewed by 10 degrees), with the
 * median time per document unchanged.
 */

/** One page's OCR result. */
export interface OcrResult {
  words: Word[];
  /** Size of the raster the word boxes refer to: the input's, or width and height swapped when a quarter turn won. */
  width: number;
  height: number;
  /** Clockwise turn applied to the input raster before the reading that was kept. */
  rotation: 0 | 90 | 270;
  /** Whether the kept reading was straightened (Tesseract's `rotateAuto`, or turned back by the measured slope). */
  deskewed: boolean;
  /** Median slope of the kept reading's text lines, in degrees (measured after any deskew). */
  skewDegrees: number;
  /** Recognition passes run for this page: 1 unless OCR_ROTATION=auto retried it (at most 4). */
  passes: number;
}

/** What a reading looks like, from the words Tesseract returned. */
export interface OcrQuality {
  /** Words with at least one letter or digit. */
  textWords: number;
  /** Mean confidence (0..1) of those words, weighted by their letters and digits. */
  meanConfidence: number;
  /**
   * Used to pick the best of several readings: the sum over letters and
   * digits of their word's confidence, with words below 0.5 not counted
   * (the garbage Tesseract reads from sideways text is mostly below).
   */
  score: number;
}

const ALNUM = /[\p{L}\p{N}]/gu;

export function ocrQuality(words: Word[]): OcrQuality {
  let textWords = 0;
  let chars = 0;
  let weighted = 0;
  let score = 0;
  for (const word of words) {
    const alnum = word.text.match(ALNUM)?.length ?? 0;
    if (alnum === 0) continue;
    textWords++;
    chars += alnum;
    weighted += alnum * word.confidence;
    if (word.confidence >= 0.5) score += alnum * word.confidence;
  }
  return { textWords, meanConfidence: chars > 0 ? weighted / chars : 0, score };
}

/**
 * A reading whose baselines slope by at least this much is read again with
 * Tesseract's deskew (OCR_ROTATION=auto). PSM 6 copes with up to ~2 degrees.
 */
export const DESKEW_FROM_DEGREES = 2.5;
/**
 * A reading is retried (first deskewed, then turned by 90 and 270 degrees)
 * when its `score` per text word is below this: Tesseract reading sideways
 * text returns many one- or two-character fragments at low confidence.
 * Measured (first pass, PSM 6): the 40 dev receipts upright 1.2-4.1, except
 * two poor photos at 0.59 and 0.73 (one skewed by 10 degrees); the same
 * receipts turned by 90 or 270 degrees 0.12-0.41; synthetic sideways pages
 * 0.38-0.56. Mean confidence separates worse: upright 0.35-0.88 against
 * sideways 0.16-0.51. A retry that does not win on `score` costs time, not
 * accuracy: the best reading is kept.
 */
export const POOR_SCORE_PER_WORD = 1.0;
/** A reading with fewer text words than this is retried too (a sideways page can yield only fragments). */
export const POOR_MIN_TEXT_WORDS = 3;

export function looksPoor(quality: OcrQuality): boolean {
  return quality.textWords < POOR_MIN_TEXT_WORDS || quality.score / quality.textWords < POOR_SCORE_PER_WORD;
}

/** The raster turned clockwise by 90 or 270 degrees (a plain index transform). */
export function rotateRaster(raster: GreyRaster, degrees: 90 | 270): GreyRaster {
  const { width: w, height: h, data } = raster;
  const out = new Uint8Array(w * h);
  // Output is h wide and w tall; output (x, y) comes from input (y, h-1-x) for 90, (w-1-y, x) for 270.
  if (degrees === 90) {
    for (let y = 0; y < w; y++) {
      const row = y * h;
      for (let x = 0; x < h; x++) out[row + x] = data[(h - 1 - x) * w + y] as number;
    }
  } else {
    for (let y = 0; y < w; y++) {
      const row = y * h;
      const sx = w - 1 - y;
      for (let x = 0; x < h; x++) out[row + x] = data[x * w + sx] as number;
    }
  }
  return { width: h, height: w, data: out, dpi: raster.dpi };
}

const THRESHOLDING_METHOD: Record<Thresholding, string> = { otsu: '0', sauvola: '2' };
/** A worker that cannot even start within this time is treated as failed, so create() never hangs. */
const WORKER_START_TIMEOUT_MS = 60_000;
/** How often a crashed or recycled worker is re-created before its slot is given up. */
const MAX_START_ATTEMPTS = 3;

const noopLogger: OcrLogger = { info() {}, warn() {} };

function defaultLangPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

async function assertLanguageDataPresent(langPath: string, langs: string[]): Promise<void> {
  const missing: string[] = [];
  for (const lang of langs) {
    try {
      await access(join(langPath, `${lang}.traineddata.gz`));
    } catch {
      missing.push(lang);
    }
  }
  if (missing.length > 0) {
    throw new Error(
      `OCR language data missing for ${missing.map((l) => `"${l}"`).join(', ')}: expected ${missing
        .map((l) => `${l}.traineddata.gz`)
        .join(', ')} in ${langPath} (set OCR_LANG_PATH or OCR_LANGS)`,
    );
  }
}

/** Tesseract (via Leptonica) reads binary PGM directly, which is far cheaper than encoding PNG. */
export function encodePgm(raster: GreyRaster): Buffer {
  const header = Buffer.from(`P5\n${raster.width} ${raster.height}\n255\n`, 'ascii');
  return Buffer.concat([header, raster.data], header.length + raster.data.length);
}

interface Reading {
  words: Word[];
  /** Median slope of the text lines' baselines, in degrees (positive: falling to the right); 0 when no line is long enough. */
  skewDegrees: number;
}

/** Lines shorter than this (in pixels) say too little about the page's slope. */
const MIN_BASELINE_LENGTH = 80;

function readingFromBlocks(blocks: Tesseract.Block[] | null): Reading {
  const words: Word[] = [];
  const slopes: number[] = [];
  for (const block of blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const { x0: bx0, y0: by0, x1: bx1, y1: by1 } = line.baseline;
        if (bx1 - bx0 >= MIN_BASELINE_LENGTH) slopes.push((Math.atan2(by1 - by0, bx1 - bx0) * 180) / Math.PI);
        for (const word of line.words) {
          const text = word.text.trim();
          if (text.length === 0) continue;
          const { x0, y0, x1, y1 } = word.bbox;
          const confidence = Math.min(1, Math.max(0, word.confidence / 100));
          words.push({ text, bbox: { x0, y0, x1, y1 }, confidence, source: 'ocr' });
        }
      }
    }
  }
  slopes.sort((a, b) => a - b);
  const skewDegrees = slopes.length === 0 ? 0 : (slopes[Math.floor(slopes.length / 2)] as number);
  return { words, skewDegrees };
}

function errorFrom(value: unknown, fallback: string): Error {
  if (value instanceof Error) return value;
  return new Error(typeof value === 'string' && value.length > 0 ? value : fallback);
}

interface Job {
  raster: GreyRaster;
  signal: AbortSignal | undefined;
  resolve(result: OcrResult): void;
  reject(error: unknown): void;
  detachAbort(): void;
}

/**
 * How a pass straightens the page: not at all, by Tesseract's own estimate
 * (`rotateAuto`), or by a given angle (`rotateRadians`; the negated baseline
 * slope, in radians, straightens the page).
 */
type Deskew = 'none' | 'tesseract' | { radians: number };

/** One recognition pass. */
async function recognizeWith(worker: Tesseract.Worker, raster: GreyRaster, deskew: Deskew): Promise<Reading> {
  const options = {
    rotateAuto: deskew === 'tesseract',
    ...(typeof deskew === 'object' ? { rotateRadians: deskew.radians } : {}),
    user_defined_dpi: String(Math.round(raster.dpi)),
    thresholding_method: THRESHOLDING_METHOD[chooseThresholding(raster)],
  };
  // Per-job Tesseract variables go in the options; tesseract.js restores them afterwards.
  const result = await worker.recognize(encodePgm(raster), options as Partial<Tesseract.RecognizeOptions>, {
    text: false,
    blocks: true,
  });
  return readingFromBlocks(result.data.blocks);
}

/**
 * All passes for one page under the given OCR_ROTATION. 'auto': the page is
 * read as it is. A reading whose lines slope by DESKEW_FROM_DEGREES or more is
 * read again turned back by that slope; one that looks poor without a clear
 * slope is read again with Tesseract's deskew. If the best reading still looks
 * poor, the raster turned by 90 and then 270 degrees is read (with
 * Tesseract's deskew). The reading with the highest `score` is kept. Deskew
 * keeps the raster's size (the page is turned within its frame), so only a
 * quarter turn changes the result's width and height.
 *
 * Turning back by the measured slope rather than always using `rotateAuto`:
 * Tesseract's estimate needs its auto layout analysis and found no angle at all
 * on the dev photo skewed by 10 degrees (mean confidence 0.51 with and
 * without); turned back by the baselines' 10 degrees it read at 0.70.
 */
async function readPage(worker: Tesseract.Worker, raster: GreyRaster, mode: OcrRotation): Promise<OcrResult> {
  const deskewFirst = mode === 'always';
  const first = await recognizeWith(worker, raster, deskewFirst ? 'tesseract' : 'none');
  let passes = 1;
  let best: OcrResult = {
    words: first.words,
    width: raster.width,
    height: raster.height,
    rotation: 0,
    deskewed: deskewFirst,
    skewDegrees: first.skewDegrees,
    passes,
  };
  let bestQuality = ocrQuality(first.words);
  // A page without a single text word is blank, not sideways: nothing to retry.
  if (mode !== 'auto' || bestQuality.textWords === 0) return best;
  const consider = async (rotation: 0 | 90 | 270, deskew: Deskew): Promise<void> => {
    const input = rotation === 0 ? raster : rotateRaster(raster, rotation);
    const reading = await recognizeWith(worker, input, deskew);
    passes++;
    const quality = ocrQuality(reading.words);
    if (quality.score > bestQuality.score) {
      best = { words: reading.words, width: input.width, height: input.height, rotation, deskewed: true, skewDegrees: reading.skewDegrees, passes };
      bestQuality = quality;
    }
  };
  if (Math.abs(first.skewDegrees) >= DESKEW_FROM_DEGREES) {
    await consider(0, { radians: (-first.skewDegrees * Math.PI) / 180 });
  } else if (looksPoor(bestQuality)) {
    await consider(0, 'tesseract');
  }
  if (looksPoor(bestQuality)) await consider(90, 'tesseract');
  if (looksPoor(bestQuality)) await consider(270, 'tesseract');
  return { ...best, passes };
}

type SlotState = 'starting' | 'idle' | 'busy' | 'dead';

/** One tesseract.js worker plus what the pool needs to know about it. */
interface Slot {
  id: number;
  state: SlotState;
  worker: Tesseract.Worker | undefined;
  jobsSinceStart: number;
  /** The job on this worker and how to fail it when the worker dies or the job is abandoned. */
  current: { job: Job; fail(error: Error): void } | undefined;
}

/**
 * A fixed number of tesseract.js workers with our own queue. We do not use
 * tesseract's scheduler because workers must be recycled: after
 * `recycleAfterJobs` jobs a worker is terminated and replaced (long-lived wasm
 * heaps only grow), and a worker that crashes or is abandoned mid-job is
 * replaced too.
 */
export class OcrPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private closed = false;
  private jobsDone = 0;

  private constructor(
    private readonly config: OcrConfig,
    private readonly langPath: string,
    private readonly logger: OcrLogger,
  ) {}

  static async create(config: OcrConfig, logger: OcrLogger = noopLogger): Promise<OcrPool> {
    const langPath = resolve(config.langPath ?? defaultLangPath());
    await assertLanguageDataPresent(langPath, config.langs);
    const pool = new OcrPool(config, langPath, logger);
    const started = performance.now();
    try {
      await Promise.all(
        Array.from({ length: config.workers }, (_, id) => {
          const slot: Slot = { id, state: 'starting', worker: undefined, jobsSinceStart: 0, current: undefined };
          pool.slots.push(slot);
          return pool.startWorker(slot);
        }),
      );
    } catch (error) {
      await pool.close();
      throw error;
    }
    logger.info(
      { workers: config.workers, langs: config.langs, ms: Math.round(performance.now() - started) },
      'OCR workers ready',
    );
    return pool;
  }

  /**
   * Reads one page. The result's boxes refer to the raster described by its
   * `width`/`height`/`rotation`: the input, or the input turned by a quarter
   * when OCR_ROTATION=auto found it sideways. All passes of one page run on one
   * worker as one job.
   */
  recognize(raster: GreyRaster, signal?: AbortSignal): Promise<OcrResult> {
    if (this.closed) return Promise.reject(new Error('OCR pool is closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (raster.width < 1 || raster.height < 1 || raster.data.length !== raster.width * raster.height) {
      return Promise.reject(new Error(`OCR raster ${raster.width}x${raster.height} has ${raster.data.length} bytes`));
    }
    if (!this.slots.some((slot) => slot.state !== 'dead')) {
      return Promise.reject(new Error('OCR pool has no working workers'));
    }
    return new Promise<OcrResult>((resolveJob, rejectJob) => {
      const onAbort = (): void => this.abortJob(job);
      const job: Job = {
        raster,
        signal,
        resolve: resolveJob,
        reject: rejectJob,
        detachAbort: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  status(): OcrPoolStatus {
    const live = this.slots.filter((slot) => slot.state !== 'dead');
    return {
      // A worker being recycled still counts: queued jobs run as soon as it is back.
      ready: !this.closed && live.length > 0,
      workers: live.length,
      busy: live.filter((slot) => slot.state === 'busy').length,
      queued: this.queue.length,
      jobsDone: this.jobsDone,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      job.detachAbort();
      job.reject(new Error('OCR pool is closed'));
    }
    const closing = new Error('OCR pool is closed');
    await Promise.all(
      this.slots.map(async (slot) => {
        slot.current?.fail(closing);
        slot.state = 'dead';
        await this.terminate(slot);
      }),
    );
  }

  private abortJob(job: Job): void {
    const queuedAt = this.queue.indexOf(job);
    if (queuedAt >= 0) {
      this.queue.splice(queuedAt, 1);
      job.reject(job.signal?.reason);
      return;
    }
    // Running: tesseract cannot cancel a recognition, so the worker is
    // replaced rather than left burning CPU on a page nobody waits for.
    const slot = this.slots.find((candidate) => candidate.current?.job === job);
    slot?.current?.fail(errorFrom(job.signal?.reason, 'OCR job aborted'));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.state !== 'idle') continue;
      const job = this.queue.shift() as Job;
      void this.run(slot, job);
    }
  }

  private async run(slot: Slot, job: Job): Promise<void> {
    slot.state = 'busy';
    slot.jobsSinceStart++;
    let workerBroken = false;
    try {
      job.resolve(await this.recognizeOn(slot, job));
    } catch (error) {
      // Any failure inside the wasm worker may leave it in a bad state; a fresh one is cheap.
      workerBroken = true;
      job.reject(error);
    } finally {
      job.detachAbort();
      slot.current = undefined;
      this.jobsDone++;
    }
    if (this.closed) return;
    if (workerBroken || slot.jobsSinceStart >= this.config.recycleAfterJobs) {
      await this.replaceWorker(slot, workerBroken ? 'failed' : 'recycled');
    } else {
      slot.state = 'idle';
    }
    this.dispatch();
  }

  private recognizeOn(slot: Slot, job: Job): Promise<OcrResult> {
    const worker = slot.worker;
    if (!worker) return Promise.reject(new Error('OCR worker is not running'));
    return new Promise<OcrResult>((resolveResult, rejectResult) => {
      slot.current = { job, fail: rejectResult };
      readPage(worker, job.raster, this.config.rotation).then(resolveResult, rejectResult);
    });
  }

  private async replaceWorker(slot: Slot, reason: 'failed' | 'recycled' | 'crashed'): Promise<void> {
    slot.state = 'starting';
    await this.terminate(slot);
    if (this.closed) return;
    try {
      await this.startWorker(slot);
      this.logger.info({ worker: slot.id, reason }, 'OCR worker replaced');
    } catch (error) {
      slot.state = 'dead';
      this.logger.warn({ worker: slot.id, err: errorFrom(error, 'unknown').message }, 'OCR worker could not be restarted');
      if (!this.slots.some((candidate) => candidate.state !== 'dead')) this.failQueue();
    }
  }

  private failQueue(): void {
    for (const job of this.queue.splice(0)) {
      job.detachAbort();
      job.reject(new Error('OCR pool has no working workers'));
    }
  }

  private async startWorker(slot: Slot): Promise<void> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= MAX_START_ATTEMPTS && !this.closed; attempt++) {
      try {
        slot.worker = await this.spawn(slot);
        slot.jobsSinceStart = 0;
        slot.state = this.closed ? 'dead' : 'idle';
        if (this.closed) await this.terminate(slot);
        return;
      } catch (error) {
        lastError = error;
      }
    }
    throw errorFrom(lastError, 'OCR worker failed to start');
  }

  /** Creates, configures and warms one worker; rejects (never hangs) when any step fails. */
  private async spawn(slot: Slot): Promise<Tesseract.Worker> {
    let failStartup: (error: Error) => void = () => {};
    const startupFailed = new Promise<never>((_, reject) => {
      failStartup = reject;
    });
    startupFailed.catch(() => {});
    const timeout = setTimeout(
      () => failStartup(new Error(`OCR worker did not start within ${WORKER_START_TIMEOUT_MS} ms`)),
      WORKER_START_TIMEOUT_MS,
    );
    let worker: Tesseract.Worker | undefined;
    try {
      worker = await Promise.race([
        Tesseract.createWorker(this.config.langs, Tesseract.OEM.LSTM_ONLY, {
          langPath: this.langPath,
          gzip: true,
          cacheMethod: 'none',
          // Without it a failed language load throws inside tesseract.js's message
          // handler; the failed load also never settles createWorker, hence the race.
          errorHandler: (error: unknown) => failStartup(errorFrom(error, 'OCR worker error')),
        }),
        startupFailed,
      ]);
      this.watchThread(slot, worker, failStartup);
      await Promise.race([
        worker.setParameters({
          tessedit_pageseg_mode: PAGE_SEGMENTATION_MODE as Tesseract.PSM,
          // Tesseract's diagnostics ("Estimating resolution as ...") would otherwise go to our stdout.
          debug_file: '/dev/null',
        }),
        startupFailed,
      ]);
      await Promise.race([recognizeWith(worker, WARM_UP_RASTER, 'none'), startupFailed]);
      return worker;
    } catch (error) {
      await worker?.terminate().catch(() => {});
      throw error;
    } finally {
      clearTimeout(timeout);
    }
  }

  /**
   * tesseract.js watches its thread only through `onerror`, which Node never
   * calls: an 'error' event would crash the process and the job on that
   * worker would never settle. We listen ourselves, fail the job and replace
   * the worker.
   */
  private watchThread(slot: Slot, worker: Tesseract.Worker, failStartup: (error: Error) => void): void {
    const thread = (worker as unknown as { worker?: ThreadWorker }).worker;
    if (!thread) return;
    const onDeath = (cause: unknown): void => {
      const error = errorFrom(cause, 'OCR worker thread exited');
      failStartup(error);
      if (slot.worker !== worker) return;
      this.logger.warn({ worker: slot.id, err: error.message }, 'OCR worker thread died');
      if (slot.current) {
        slot.current.fail(error);
      } else if (slot.state === 'idle' && !this.closed) {
        slot.worker = undefined;
        void this.replaceWorker(slot, 'crashed').then(() => this.dispatch());
      }
    };
    thread.on('error', onDeath);
    thread.on('exit', (code) => onDeath(new Error(`OCR worker thread exited with code ${code}`)));
  }

  private async terminate(slot: Slot): Promise<void> {
    const worker = slot.worker;
    slot.worker = undefined;
    if (!worker) return;
    try {
      await worker.terminate();
    } catch {
      // Already gone; nothing left to release.
    }
  }
}

/** 5x7 bitmaps of the glyphs in WARM_UP_TEXT. */
const WARM_UP_GLYPHS: Record<string, string> = {
  T: '11111 00100 00100 00100 00100 00100 00100',
  O: '01110 10001 10001 10001 10001 10001 01110',
  A: '01110 10001 10001 11111 10001 10001 10001',
  L: '10000 10000 10000 10000 10000 10000 11111',
  '1': '00100 01100 00100 00100 00100 00100 01110',
  '2': '01110 10001 00001 00010 00100 01000 11111',
  '5': '11111 10000 11110 00001 00001 10001 01110',
  '0': '01110 10001 10011 10101 11001 10001 01110',
  '.': '00000 00000 00000 00000 00000 01100 01100',
  ' ': '00000 00000 00000 00000 00000 00000 00000',
};
const WARM_UP_TEXT = 'TOTAL 12.50';

/**
 * A tiny page with a line of blocky text. A blank page would not do: Tesseract
 * skips recognition when it finds no text, and the first real recognition
 * pays the set-up (about a second) instead.
 */
function warmUpRaster(): GreyRaster {
  const pixel = 5;
  const margin = 20;
  const width = WARM_UP_TEXT.length * 6 * pixel + 2 * margin;
  const height = 7 * pixel + 2 * margin;
  const data = new Uint8Array(width * height).fill(255);
  [...WARM_UP_TEXT].forEach((char, index) => {
    const rows = (WARM_UP_GLYPHS[char] ?? '').split(' ');
    rows.forEach((bits, row) => {
      [...bits].forEach((bit, column) => {
        if (bit !== '1') return;
        const left = margin + (index * 6 + column) * pixel;
        const top = margin + row * pixel;
        for (let y = top; y < top + pixel; y++) data.fill(0, y * width + left, y * width + left + pixel);
      });
    });
  });
  return { width, height, data, dpi: 300 };
}

const WARM_UP_RASTER = warmUpRaster();
