/**
 * Reading one page on one tesseract.js worker: the recognition pass itself
 * (PGM input, DPI, thresholding, word boxes and confidences out) and, under
 * OCR_ROTATION, the extra passes that straighten or turn a page that reads
 * poorly. The pool (pool.ts) decides which worker; this decides how.
 */
import type Tesseract from 'tesseract.js';
import type { OcrRotation } from '../../../config.js';
import { median } from '../../../util/median.js';
import { copyingInto, Pacer, runPaced, type PacedWork } from '../../../util/paced.js';
import type { Word } from '../../../document/document.js';
import { compose, undoQuarterTurn, undoTurnAboutCentre } from '../../../document/page-frame.js';
import type { OcrResult } from '../engine.js';
import { chooseThresholding, type Thresholding } from './thresholding.js';
import type { GreyRaster } from '../../../document/raster.js';
import { rotateRaster } from '../rotate-raster.js';

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

const THRESHOLDING_METHOD: Record<Thresholding, string> = { otsu: '0', sauvola: '2' };

/**
 * The raster as binary PGM, which Tesseract (via Leptonica) reads directly,
 * far cheaper than encoding PNG; in a SharedArrayBuffer, copied a slice
 * (COPY_BYTES_PER_UNIT) per unit. tesseract.js wraps the image it is given in
 * a Uint8Array and posts it to its thread: a Buffer is copied by both, which
 * with our own copy held the event loop 72-89 ms for a 600 dpi A4 page and
 * 175 ms for 80 megapixels. A SharedArrayBuffer is wrapped as a view and
 * shared with the thread, not copied.
 */
export function* sharedPgm(raster: GreyRaster): PacedWork<SharedArrayBuffer> {
  const header = Buffer.from(`P5\n${raster.width} ${raster.height}\n255\n`, 'ascii');
  const pgm = new Uint8Array(new SharedArrayBuffer(header.length + raster.data.length));
  pgm.set(header, 0);
  yield* copyingInto(pgm, header.length, raster.data);
  return pgm.buffer as SharedArrayBuffer;
}

interface Reading {
  words: Word[];
  /** Median slope of the text lines' baselines, in degrees (positive: falling to the right); 0 when no line is long enough. */
  skewDegrees: number;
  /** How far Tesseract turned the raster about its centre before reading it (clockwise, radians); the boxes are in that frame. */
  turnedRadians: number;
}

/** Lines shorter than this (in pixels) say too little about the page's slope. */
const MIN_BASELINE_LENGTH = 80;

function readingFromBlocks(blocks: Tesseract.Block[] | null, turnedRadians: number): Reading {
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
  const skewDegrees = median(slopes) ?? 0;
  return { words, skewDegrees, turnedRadians };
}

/**
 * How a pass straightens the page: not at all, by Tesseract's own estimate
 * (`rotateAuto`), or by a given angle (`rotateRadians`; the negated baseline
 * slope, in radians, straightens the page).
 */
type Deskew = 'none' | 'tesseract' | { radians: number };

/** One recognition pass. */
export async function recognizeWith(worker: Tesseract.Worker, raster: GreyRaster, deskew: Deskew): Promise<Reading> {
  const options = {
    rotateAuto: deskew === 'tesseract',
    ...(typeof deskew === 'object' ? { rotateRadians: deskew.radians } : {}),
    user_defined_dpi: String(Math.round(raster.dpi)),
    thresholding_method: THRESHOLDING_METHOD[chooseThresholding(raster)],
  };
  // Per-job Tesseract variables go in the options; tesseract.js restores them afterwards.
  const image = await runPaced(sharedPgm(raster), new Pacer(undefined, 1));
  const result = await worker.recognize(image as unknown as Tesseract.ImageLike, options as Partial<Tesseract.RecognizeOptions>, {
    text: false,
    blocks: true,
  });
  return readingFromBlocks(result.data.blocks, result.data.rotateRadians ?? 0);
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
export async function readPage(worker: Tesseract.Worker, raster: GreyRaster, mode: OcrRotation): Promise<OcrResult> {
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
    toInput: undoTurnAboutCentre(first.turnedRadians, raster.width, raster.height),
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
      const toInput = compose(undoQuarterTurn(rotation, raster.width, raster.height), undoTurnAboutCentre(reading.turnedRadians, input.width, input.height));
      best = { words: reading.words, width: input.width, height: input.height, rotation, deskewed: true, skewDegrees: reading.skewDegrees, passes, toInput };
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
