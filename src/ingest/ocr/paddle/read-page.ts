/**
 * One page through PP-OCR: detect text lines (DB), turn each line the way
 * it reads (tall boxes a quarter, lines the classifier finds upside down a
 * half), recognise the lines in batches of similar width (CTC), and place
 * every word on the upright page. Runs inside a worker thread: every loop
 * here is over pixels or model outputs.
 */
import type { Affine, Word } from '../../../document/document.js';
import { compose, undoQuarterTurn } from '../../../document/page-frame.js';
import type { GreyRaster } from '../../../document/raster.js';
import { decodeColumns, words, type Alphabet, type ColumnClasses, type DecodedWord } from './ctc.js';
import { detectBoxes, type DetectOptions } from './detect-boxes.js';
import { quadHeight, quadWidth, readingAngle, turnHalf, turnQuarter, type Point, type Quad } from './geometry.js';
import { rotateRaster } from '../rotate-raster.js';
import { minOf } from '../../../util/extremes.js';
import { dominantDirection, frameToInput, pageFrame, placeWords, quarterOf, turnFor, type PageTurn, type RecognisedLine } from './upright-words.js';
import { detectorInput, sampleQuad, writeStrip } from './tensors.js';

/** A model call: input planes and dims in, output values and dims out (an ONNX session in the worker, anything in tests). */
export type RunModel = (input: Float32Array, dims: number[]) => Promise<{ data: Float32Array; dims: readonly number[] }>;
/** A recogniser call: a batch of strips in, what greedy CTC decoding reads of each output column out. */
export type RunRecogniser = (input: Float32Array, dims: number[]) => Promise<ColumnClasses>;

export interface PaddleModels {
  detect: RunModel;
  /** The detector's post-processing settings. */
  detection: DetectOptions;
  recognise: RunRecogniser;
  /**
   * A smaller recogniser that reads every line first (the default set's
   * PP-OCRv6 tiny); `recognise` re-reads only the lines it is unsure of
   * (recogniseLines). Its strips are the same (recogniserHeight tall).
   */
  quickReader?: LineReader;
  classify: RunModel | undefined;
  /** The alphabet of `recognise`. */
  alphabet: Alphabet;
  /** Input height of the recogniser (48 for PP-OCRv3 to v6). */
  recogniserHeight: number;
  /** Input height and width of the classifier. */
  classifierSize: { height: number; width: number };
}

export interface ReadOptions {
  /** Turn the page upright when most of its text runs another way (OCR_ROTATION is not "off"). */
  allowTurn: boolean;
  /** The detector sees the page shrunk to at most this many pixels (see detectorSize). */
  maxDetectorPixels: number;
  /** Called between stages; throws to abandon the page (its request was aborted). */
  checkpoint: () => void;
}

export interface PaddleReading {
  words: Word[];
  width: number;
  height: number;
  turn: PageTurn;
  skewDegrees: number;
  deskewed: boolean;
  /** From the word boxes back onto the raster as given (undoes the re-detection's quarter turn, the page turn and the straightening). */
  toInput: Affine;
  /** Text lines found by the detector. */
  lines: number;
  /** Size of the detector's input: the work a page costs grows with it, not with the raster. */
  detectorWidth: number;
  detectorHeight: number;
}

/**
 * Lines recognised per model call, sorted by width so a batch wastes little
 * padding (PaddleOCR's rec_batch_num). Batches of 12 cost 30% more CPU on the
 * dev receipts than 6: more padding.
 */
const RECOGNISER_BATCH = 6;
/**
 * A batch holds at most this many input columns (lines x width) times
 * output classes: the recogniser's working memory grows with both, its
 * last layers writing a probability per class for every eighth column
 * (PP-OCRv4's 6,625 classes: 6 lines of 800 columns took ~75 MB, 2400
 * columns ~45 MB; PP-OCRv6 small's 18,710 took ~70 MB more than v4 at 2400
 * columns), while the time per column is the same from 1 line of 300
 * columns up (and grows past ~3000 columns). About 2400 columns for v4, 850
 * for v6 small.
 */
const MAX_BATCH_CELLS = 2400 * 6625;
/** A line this much wider than the narrowest of its batch starts the next batch: the rest of the batch would be padded to its width. */
const MAX_BATCH_WIDTH_RATIO = 1.25;
/**
 * A line wider than this many columns (200 times as wide as tall: some 300
 * characters) is read squeezed to it: the recogniser's memory grows with the
 * columns, and one line 1,000,000 pixels wide would need gigabytes.
 */
const MAX_STRIP_COLUMNS = 9600;
const CLASSIFIER_BATCH = 16;
/** A line the classifier calls upside down with less confidence than this is read as it is (PaddleOCR's cls_thresh). */
const UPSIDE_DOWN_CONFIDENCE = 0.9;
/** A detected box this much taller than wide is a line of text running down or up the page. */
const SIDEWAYS_ASPECT = 1.5;
/** Boxes thinner than this (raster pixels) carry no readable text. */
const MIN_BOX_SIDE = 4;

/**
 * The detector's input size: the page scaled down (never up) to at most
 * `maxPixels` pixels, each side a multiple of 32 as the network needs. This
 * is what keeps a 5000 px scan as cheap as a 1500 px one.
 */
export function detectorSize(width: number, height: number, maxPixels: number): { width: number; height: number } {
  const scale = Math.min(1, Math.sqrt(maxPixels / (width * height)));
  const round32 = (value: number) => Math.max(32, Math.round((value * scale) / 32) * 32);
  const size = { width: round32(width), height: round32(height) };
  // A side held at 32 (a strip a few pixels thin) leaves the other at its full share: a 4,000,000 x 1 PNG
  // made the detector read 53 MP (3 GB, half a minute). The long side then gives way to the budget.
  if (size.width * size.height > maxPixels * BUDGET_SLACK) {
    if (size.width >= size.height) size.width = Math.max(32, Math.floor(maxPixels / size.height / 32) * 32);
    else size.height = Math.max(32, Math.floor(maxPixels / size.width / 32) * 32);
  }
  return size;
}

/** Rounding both sides to 32 may pass the detector's pixel budget by this much. */
const BUDGET_SLACK = 1.25;

/** Detected text lines in raster pixels (tall ones already turned to read down the page), and the detector's input size. */
async function detectLines(models: PaddleModels, raster: GreyRaster, options: ReadOptions): Promise<{ quads: Quad[]; width: number; height: number }> {
  const size = detectorSize(raster.width, raster.height, options.maxDetectorPixels);
  const input = detectorInput(raster, size.width, size.height);
  options.checkpoint();
  const output = await models.detect(input.data, [1, 3, size.height, size.width]);
  options.checkpoint();
  const mapHeight = output.dims[2] ?? size.height;
  const mapWidth = output.dims[3] ?? size.width;
  const scaleX = raster.width / mapWidth;
  const scaleY = raster.height / mapHeight;
  // Map pixel centres (integers in the map) to raster coordinates, clipped to the page.
  const toRaster = (p: Point): Point => ({
    x: Math.max(0, Math.min(raster.width, (p.x + 0.5) * scaleX)),
    y: Math.max(0, Math.min(raster.height, (p.y + 0.5) * scaleY)),
  });
  const quads = detectBoxes(output.data, mapWidth, mapHeight, models.detection)
    .map((box) => box.quad.map(toRaster) as Quad)
    .filter((quad) => quadWidth(quad) >= MIN_BOX_SIDE && quadHeight(quad) >= MIN_BOX_SIDE)
    .map((quad) => (quadHeight(quad) >= SIDEWAYS_ASPECT * quadWidth(quad) ? turnQuarter(quad) : quad));
  return { quads, width: size.width, height: size.height };
}

/** Width of a line's strip at `height` pixels tall, its proportions kept up to MAX_STRIP_COLUMNS. */
export function stripWidth(quad: Quad, height: number): number {
  return Math.min(MAX_STRIP_COLUMNS, Math.max(1, Math.ceil((height * quadWidth(quad)) / Math.max(1, quadHeight(quad)))));
}

/** Turns the lines the classifier finds upside down (with enough confidence). */
async function orientLines(models: PaddleModels, raster: GreyRaster, quads: Quad[], options: ReadOptions): Promise<Quad[]> {
  const classify = models.classify;
  if (!classify || quads.length === 0) return quads;
  const { height, width } = models.classifierSize;
  const oriented = [...quads];
  for (let start = 0; start < quads.length; start += CLASSIFIER_BATCH) {
    const batch = quads.slice(start, start + CLASSIFIER_BATCH);
    const tensor = new Float32Array(batch.length * 3 * height * width);
    batch.forEach((quad, item) => {
      const w = Math.min(width, stripWidth(quad, height));
      writeStrip(tensor, item, sampleQuad(raster, quad, w, height), w, height, width);
    });
    const output = await classify(tensor, [batch.length, 3, height, width]);
    options.checkpoint();
    batch.forEach((quad, item) => {
      const upsideDown = output.data[item * 2 + 1] as number;
      if (upsideDown > UPSIDE_DOWN_CONFIDENCE) oriented[start + item] = turnHalf(quad);
    });
  }
  return oriented;
}

export interface LineReading {
  words: DecodedWord[];
  /** Mean probability of the line's letters (0 without any). */
  confidence: number;
  /** Lowest probability among the line's letters (0 without any). */
  weakest: number;
}

/**
 * Lines recognised in batches of up to RECOGNISER_BATCH lines
 * and maxColumns columns, of widths within MAX_BATCH_WIDTH_RATIO; a
 * wider line goes alone.
 */
function batchesOf(order: number[], widths: number[], maxColumns: number): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  for (const line of order) {
    // Sorted by width, so the line joining a batch is its widest and the first its narrowest.
    const width = widths[line] as number;
    const columns = (current.length + 1) * width;
    const narrowest = current.length > 0 ? (widths[current[0] as number] as number) : width;
    if (current.length > 0 && (current.length === RECOGNISER_BATCH || columns > maxColumns || width > MAX_BATCH_WIDTH_RATIO * narrowest)) {
      batches.push(current);
      current = [];
    }
    current.push(line);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * A line the quick recogniser read with a letter less likely than this (or
 * with no letter at all) is read again by the full recogniser. Chosen on the
 * dev sets (docs/ocr.md, scripts/cascade-study.ts): at 0.97
 * PP-OCRv6 tiny kept lines it had read wrong yet sure ("Susht" for "Sushi",
 * "250" for "2.50") and WildReceipt lost 0.6 points; the line's lowest letter
 * tells such lines apart far better than its mean.
 */
export const REREAD_BELOW = 0.99;

/** A recogniser and the alphabet its output columns are letters of. */
export interface LineReader {
  recognise: RunRecogniser;
  alphabet: Alphabet;
}

/** A page's text lines as the recognisers take them: each quad sampled into a strip `height` tall and its `widths` entry wide. */
interface LineStrips {
  raster: GreyRaster;
  quads: Quad[];
  widths: number[];
  height: number;
}

/** Reads the lines `which` (indices into strips.quads) with one recogniser, in batches of similar width, into `readings`. */
async function readLines(reader: LineReader, strips: LineStrips, which: number[], readings: LineReading[], options: ReadOptions): Promise<void> {
  const { recognise, alphabet } = reader;
  const { raster, quads, widths, height } = strips;
  const order = [...which].sort((a, b) => (widths[a] as number) - (widths[b] as number));
  const maxColumns = Math.floor(MAX_BATCH_CELLS / alphabet.characters.length);
  for (const batch of batchesOf(order, widths, maxColumns)) {
    // PaddleOCR pads every batch to at least 320 columns; the batch's own widest line does as well
    // on the dev receipts (0.5% fewer labelled values found, 24% less CPU).
    const batchWidth = Math.max(...batch.map((i) => widths[i] as number));
    const tensor = new Float32Array(batch.length * 3 * height * batchWidth);
    batch.forEach((lineIndex, item) => {
      const w = widths[lineIndex] as number;
      writeStrip(tensor, item, sampleQuad(raster, quads[lineIndex] as Quad, w, height), w, height, batchWidth);
    });
    const output = await recognise(tensor, [batch.length, 3, height, batchWidth]);
    options.checkpoint();
    const columns = output.columns;
    batch.forEach((lineIndex, item) => {
      const chars = decodeColumns(output, item, alphabet);
      const usedColumns = ((widths[lineIndex] as number) * columns) / batchWidth;
      const letters = chars.filter((c) => c.text.trim() !== '');
      const confidence = letters.length === 0 ? 0 : letters.reduce((sum, c) => sum + c.probability, 0) / letters.length;
      const weakest = letters.length === 0 ? 0 : minOf(letters, (c) => c.probability);
      readings[lineIndex] = { words: words(chars, usedColumns), confidence, weakest };
    });
  }
}

/**
 * Recognises every quad; readings come back in the quads' order. With a
 * quick reader, it reads every line and the full recogniser re-reads those
 * with a letter below REREAD_BELOW: a kept line is the quick reader's
 * reading, words, boxes and probabilities alike, a re-read one wholly the
 * full recogniser's.
 */
export async function recogniseLines(models: PaddleModels, raster: GreyRaster, quads: Quad[], options: ReadOptions): Promise<LineReading[]> {
  const height = models.recogniserHeight;
  const strips: LineStrips = { raster, quads, height, widths: quads.map((quad) => stripWidth(quad, height)) };
  const readings = new Array<LineReading>(quads.length);
  const every = quads.map((_, i) => i);
  const full: LineReader = { recognise: models.recognise, alphabet: models.alphabet };
  const quick = models.quickReader;
  if (!quick) {
    await readLines(full, strips, every, readings, options);
    return readings;
  }
  await readLines(quick, strips, every, readings, options);
  const unsure = every.filter((i) => (readings[i] as LineReading).weakest < REREAD_BELOW);
  await readLines(full, strips, unsure, readings, options);
  return readings;
}

/** The quad's corners re-listed so that it reads in `direction`; undefined when it already does. */
function readIn(quad: Quad, direction: PageTurn): Quad | undefined {
  let turned = quad;
  for (let step = 0; step < 4; step++) {
    if (quarterOf(readingAngle(turned)) === direction) return step === 0 ? undefined : turned;
    turned = turnQuarter(turned);
  }
  return undefined;
}

/**
 * Text lines of the page, each turned the way it reads. A page whose text
 * mostly runs down or up (photographed sideways) is turned upright and
 * detected again: the detector, trained on upright text, splits sideways
 * numbers ("2.75" into "2." and ".75"). Returns the raster the lines refer to
 * and the quarter turn applied to get it.
 */
export async function orientedLines(models: PaddleModels, raster: GreyRaster, options: ReadOptions): Promise<{ raster: GreyRaster; quarter: 0 | 90 | 270; quads: Quad[]; detector: { width: number; height: number } }> {
  const detected = await detectLines(models, raster, options);
  const quads = await orientLines(models, raster, detected.quads, options);
  const direction = quads.length > 0 && options.allowTurn ? dominantDirection(quads) : 0;
  if (direction !== 90 && direction !== 270) return { raster, quarter: 0, quads, detector: detected };
  const quarter = turnFor(direction) as 90 | 270;
  const upright = rotateRaster(raster, quarter);
  options.checkpoint();
  const again = await detectLines(models, upright, options);
  return { raster: upright, quarter, quads: await orientLines(models, upright, again.quads, options), detector: again };
}

/**
 * Reads one page. With `allowTurn`, the page is turned upright (see
 * orientedLines, and pageFrame for upside-down pages), and lines that run
 * against the page's main direction (short words whose box did not say
 * which way they run, lines the classifier was unsure of) are read a second
 * time turned with the page; the more confident reading is kept.
 */
export async function readPage(models: PaddleModels, input: GreyRaster, options: ReadOptions): Promise<PaddleReading> {
  const { raster, quarter, quads: found, detector } = await orientedLines(models, input, options);
  let quads = found;
  const alternatives: { line: number; quad: Quad }[] = [];
  if (options.allowTurn && quads.length > 0) {
    const direction = dominantDirection(quads);
    quads.forEach((quad, line) => {
      const turned = readIn(quad, direction);
      if (turned) alternatives.push({ line, quad: turned });
    });
  }
  const readings = await recogniseLines(models, raster, [...quads, ...alternatives.map((a) => a.quad)], options);
  const lineReadings = readings.slice(0, quads.length);
  quads = [...quads];
  alternatives.forEach((alternative, i) => {
    const reading = readings[quads.length + i] as LineReading;
    if (reading.confidence > (lineReadings[alternative.line] as LineReading).confidence) {
      lineReadings[alternative.line] = reading;
      quads[alternative.line] = alternative.quad;
    }
  });
  const lines: RecognisedLine[] = quads.map((quad, i) => ({ quad, words: (lineReadings[i] as LineReading).words }));
  const frame = pageFrame(
    lines.filter((line) => line.words.length > 0).map((line) => line.quad),
    raster.width,
    raster.height,
    options.allowTurn,
  );
  return {
    words: placeWords(lines, frame, raster.width, raster.height),
    width: frame.width,
    height: frame.height,
    turn: ((quarter + frame.turn) % 360) as PageTurn,
    skewDegrees: frame.skewDegrees,
    deskewed: frame.deskewed,
    toInput: compose(undoQuarterTurn(quarter, input.width, input.height), frameToInput(frame, raster.width, raster.height)),
    lines: quads.length,
    detectorWidth: detector.width,
    detectorHeight: detector.height,
  };
}
