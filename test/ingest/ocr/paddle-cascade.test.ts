/**
 * The default set's two-recogniser reading (read-page.ts recogniseLines):
 * the quick recogniser reads every line, the full one only the lines the
 * quick one is unsure of. Both recognisers are stand-ins that read a strip
 * from its pixels, so the test says which lines each one was given.
 */
import { expect } from 'chai';
import type { GreyRaster } from '../../../src/document/raster.js';
import { alphabetFor, type Alphabet, type ColumnClasses } from '../../../src/ingest/ocr/paddle/ctc.js';
import type { Quad } from '../../../src/ingest/ocr/paddle/geometry.js';
import { recogniseLines, REREAD_BELOW, type PaddleModels, type RunRecogniser } from '../../../src/ingest/ocr/paddle/read-page.js';

const HEIGHT = 48;
/** Output columns per input column, as PP-OCR's recognisers (a column per 8 pixels). */
const STRIDE = 8;

/**
 * A page 400 x 200 in three bands: light grey, mid grey and black (the
 * stand-in quick reader is sure of the light lines and unsure of the grey and black).
 */
function page(): GreyRaster {
  const width = 400;
  const height = 200;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) data.fill(y < 60 ? 230 : y < 120 ? 128 : 0, y * width, (y + 1) * width);
  return { width, height, data, dpi: 300 };
}

const box = (x: number, y: number, w: number, h: number): Quad => [
  { x, y },
  { x: x + w, y },
  { x: x + w, y: y + h },
  { x, y: y + h },
];

/**
 * A recogniser that reads each strip as `letter` (class 1) in every other
 * column, with the probability `probabilityOf` gives for the strip's first
 * pixel (-1 black .. 1 white); it counts the strips it is given.
 */
function standIn(probabilityOf: (pixel: number) => number): { recognise: RunRecogniser; strips: number[] } {
  const strips: number[] = [];
  const recognise: RunRecogniser = async (input, dims) => {
    const [items, , height, width] = dims as [number, number, number, number];
    const columns = Math.ceil(width / STRIDE);
    const out: ColumnClasses = { items, columns, best: new Int32Array(items * columns), bestProbability: new Float32Array(items * columns), lastProbability: new Float32Array(items * columns) };
    for (let item = 0; item < items; item++) {
      const pixel = input[item * 3 * height * width] as number;
      strips.push(pixel);
      for (let t = 0; t < columns; t++) {
        out.best[item * columns + t] = t % 2 === 0 ? 1 : 0;
        out.bestProbability[item * columns + t] = probabilityOf(pixel);
      }
    }
    return out;
  };
  return { recognise, strips };
}

function models(quick: RunRecogniser | undefined, full: RunRecogniser): PaddleModels {
  // The quick reader writes 'q', the full one 'F': which one read a line shows in its text.
  const quickAlphabet = alphabetFor(['q'], 3) as Alphabet;
  const fullAlphabet = alphabetFor(['F'], 3) as Alphabet;
  return {
    detect: async () => ({ data: new Float32Array(0), dims: [1, 1, 0, 0] }),
    detection: { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5, maxCandidates: 1000, dilate: false },
    recognise: full,
    ...(quick ? { quickReader: { recognise: quick, alphabet: quickAlphabet } } : {}),
    classify: undefined,
    alphabet: fullAlphabet,
    recogniserHeight: HEIGHT,
    classifierSize: { height: 48, width: 192 },
  };
}

const options = { allowTurn: false, maxDetectorPixels: 700_000, checkpoint() {} };
const light = box(10, 10, 300, 40);
const grey = box(10, 70, 200, 40);
const dark = box(10, 140, 250, 40);

describe('paddle OCR: quick recogniser first, full recogniser for unsure lines', () => {
  it('keeps the lines the quick recogniser is sure of, with its words and probabilities, and re-reads only the others', async () => {
    // Sure (0.99) of the light band, unsure (REREAD_BELOW - 0.05) of the grey one, 0.2 of the black one.
    const quick = standIn((pixel) => (pixel > 0.5 ? 0.99 : pixel > -0.5 ? REREAD_BELOW - 0.05 : 0.2));
    const full = standIn(() => 0.8);
    const readings = await recogniseLines(models(quick.recognise, full.recognise), page(), [light, grey, dark], options);

    expect(quick.strips).to.have.length(3);
    // The full recogniser was given the grey and the black line, not the light one.
    expect(full.strips).to.have.length(2);
    expect(full.strips.every((pixel) => pixel < 0.5)).to.equal(true);

    const [kept, greyLine, darkLine] = readings as [(typeof readings)[0], (typeof readings)[0], (typeof readings)[0]];
    expect(kept.words.map((word) => word.text).join('')).to.match(/^q+$/);
    expect(kept.confidence).to.be.closeTo(0.99, 1e-6);
    for (const word of kept.words) expect(word.confidence).to.be.closeTo(0.99, 1e-6);
    // A re-read line is wholly the full recogniser's: its text, its word boxes and its probabilities.
    for (const line of [greyLine, darkLine]) {
      expect(line.words.map((word) => word.text).join('')).to.match(/^F+$/);
      expect(line.confidence).to.be.closeTo(0.8, 1e-6);
      for (const word of line.words) expect(word.weakest).to.be.closeTo(0.8, 1e-6);
    }
  });

  it('re-reads a line in which the quick recogniser found no letter at all', async () => {
    const quick: RunRecogniser = async (_input, dims) => {
      const [items, , , width] = dims as [number, number, number, number];
      const columns = Math.ceil(width / STRIDE);
      // All blank, with full confidence in the blank.
      return { items, columns, best: new Int32Array(items * columns), bestProbability: new Float32Array(items * columns).fill(1), lastProbability: new Float32Array(items * columns) };
    };
    const full = standIn(() => 0.95);
    const readings = await recogniseLines(models(quick, full.recognise), page(), [light], options);
    expect(full.strips).to.have.length(1);
    expect(readings[0]?.words.map((word) => word.text).join('')).to.match(/^F+$/);
  });

  it('reads every line with the full recogniser when the set has no quick one', async () => {
    const full = standIn(() => 0.99);
    const readings = await recogniseLines(models(undefined, full.recognise), page(), [light, grey, dark], options);
    expect(full.strips).to.have.length(3);
    expect(readings.map((line) => line.words.map((word) => word.text).join(''))).to.satisfy((texts: string[]) => texts.every((text) => /^F+$/.test(text)));
  });
});
