import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import ort from 'onnxruntime-node';
import { bundledModelFiles } from '../../src/ingest/ocr/paddle/bundled-models.js';
import { alphabetFor, columnClasses, decodeColumns, type ColumnClasses } from '../../src/ingest/ocr/paddle/ctc.js';
import { readDictionary } from '../../src/ingest/ocr/paddle/model-files.js';
import { OnnxGraph } from '../../scripts/ocr-models/onnx-graph.js';
import { REWRITE_SOURCES } from '../../scripts/ocr-models/rewrite.js';
import { simplifyModel } from '../../scripts/ocr-models/simplify-model.js';
import { sampleQuad, writeStrip } from '../../src/ingest/ocr/paddle/tensors.js';
import { drawTextLines, makeTextRaster } from '../fixtures/images.js';

/** Printed lines, European letters and digits among them, so the columns read many classes and blanks. */
const LINES = [
  'Rechnungsnummer 2024-0815 Gesamtbetrag 1.234,56 €',
  'Müller & Söhne GmbH, Hauptstraße 12, München',
  'TOTAL TTC 76,20 EUR  TVA 20 % 12,70 £',
  'Lefèvre Façade Œuvre ñandú Ørsted Åland',
  'QTY 2 x 3.50  SUBTOTAL 7.00  CASH 10.00',
  'IBAN DE89 3704 0044 0532 0130 00',
];
const HEIGHT = 48;
const WIDTH = 800;

/** The lines rendered and sampled into one recogniser batch, each cut to its words as a detected line box is. */
function renderedBatch(): { data: Float32Array; dims: number[] } {
  const data = new Float32Array(LINES.length * 3 * HEIGHT * WIDTH);
  LINES.forEach((line, item) => {
    const raster = makeTextRaster([line], 2000);
    const { words } = drawTextLines([line], 2000);
    const pad = 8;
    const left = Math.min(...words.map((word) => word.x0)) - pad;
    const right = Math.max(...words.map((word) => word.x1)) + pad;
    const top = Math.min(...words.map((word) => word.y0)) - pad;
    const bottom = Math.max(...words.map((word) => word.y1)) + pad;
    const width = Math.min(WIDTH, Math.round((HEIGHT * (right - left)) / (bottom - top)));
    const quad = [{ x: left, y: top }, { x: right, y: top }, { x: right, y: bottom }, { x: left, y: bottom }];
    writeStrip(data, item, sampleQuad(raster, quad as Parameters<typeof sampleQuad>[1], width, HEIGHT), width, HEIGHT, WIDTH);
  });
  return { data, dims: [LINES.length, 3, HEIGHT, WIDTH] };
}

/** Columns whose best class differs, and the largest and mean change of the best class's probability. */
function compare(expected: ColumnClasses, actual: ColumnClasses): { differing: number; largest: number; mean: number } {
  let differing = 0;
  let largest = 0;
  let total = 0;
  for (let i = 0; i < expected.best.length; i++) {
    if (actual.best[i] !== expected.best[i]) differing++;
    const change = Math.abs((actual.bestProbability[i] as number) - (expected.bestProbability[i] as number));
    largest = Math.max(largest, change);
    total += change;
  }
  return { differing, largest, mean: total / expected.best.length };
}

async function classesOf(model: Uint8Array, input: { data: Float32Array; dims: number[] }): Promise<ColumnClasses> {
  const session = await ort.InferenceSession.create(model, { graphOptimizationLevel: 'all', intraOpNumThreads: 1 });
  try {
    const output = session.outputNames[0] as string;
    const probabilities = (await session.run({ [session.inputNames[0] as string]: new ort.Tensor('float32', input.data, input.dims) }, [output]))[output] as ort.Tensor;
    const [items, columns, classes] = probabilities.dims as [number, number, number];
    return columnClasses(probabilities.data as Float32Array, items, columns, classes);
  } finally {
    await session.release();
  }
}

describe('paddle OCR: the recogniser classifier in int8', function () {
  this.timeout(120_000);

  it('gives the bundled v6 recogniser int8 classifier weights that read the same classes with nearly the same probabilities', async () => {
    const original = await readFile(REWRITE_SOURCES.smallRecogniser);
    const float = simplifyModel(original, { recogniser: true, int8Classifier: false });
    const int8 = simplifyModel(original, { recogniser: true });
    expect(float.int8Classifier).to.equal(undefined);
    expect(int8.int8Classifier).to.deep.equal({ hidden: 120, classes: 18_710 });
    const ops = new OnnxGraph(int8.model).nodes.map((node) => node.opType);
    expect(ops).to.include('DynamicQuantizeMatMul');
    // The float weights (120 x 18,710 x 4 bytes) are gone from the model, the int8 copy (a quarter) in their place.
    expect(float.model.length - int8.model.length).to.be.greaterThan(0.7 * 120 * 18_710 * 4);

    const input = renderedBatch();
    const expected = await classesOf(float.model, input);
    const actual = await classesOf(int8.model, input);
    const { differing, largest, mean } = compare(expected, actual);
    expect(new Set(expected.best).size, 'the rendered lines read many classes').to.be.greaterThan(30);
    // The scores move by a few hundredths: a column where blank and letter are nearly tied (a letter's edge) may
    // tip either way, which moves that letter's extent by a column, not the text. Measured 1 of 600 columns here
    // (6 of 960 on other lines); 1 in 50 leaves room for other CPUs' rounding and still fails a rewrite that
    // scales the wrong columns.
    expect(differing, `${differing} of ${expected.best.length} columns read another class`).to.be.at.most(expected.best.length / 50);
    // Measured: largest 0.04, mean 0.0007 (0.05 and 0.004 on other lines).
    expect(largest, 'largest change of a best probability').to.be.below(0.1);
    expect(mean, 'mean change of a best probability').to.be.below(0.01);
    const files = bundledModelFiles('ppocrv6');
    const alphabet = alphabetFor(await readDictionary(files.dictionary), 18_710);
    expect(alphabet).to.not.equal(undefined);
    const text = (classes: ColumnClasses, item: number) => decodeColumns(classes, item, alphabet!).map((char) => char.text).join('');
    LINES.forEach((line, item) => {
      expect(text(actual, item), line).to.equal(text(expected, item));
    });
    expect(text(expected, 1).replaceAll(' ', '')).to.equal(LINES[1]!.replaceAll(' ', ''));
  });

  it('leaves recognisers with smaller alphabets in float (PP-OCRv4, the v6 tiny recogniser)', async () => {
    for (const [set, path] of [['ppocrv4', bundledModelFiles('ppocrv4').recogniser], ['ppocrv6-tiny', REWRITE_SOURCES.tinyRecogniser]] as const) {
      const simplified = simplifyModel(await readFile(path), { recogniser: true });
      expect(simplified.int8Classifier, set).to.equal(undefined);
      expect(new OnnxGraph(simplified.model).nodes.map((node) => node.opType), set).to.not.include('DynamicQuantizeMatMul');
    }
  });

  it('rewrites a classifier of any alphabet size when asked, and a detector or classifier model not at all', async () => {
    const tiny = await readFile(REWRITE_SOURCES.tinyRecogniser);
    const rewritten = simplifyModel(tiny, { recogniser: true, int8Classifier: { minClasses: 0, maxWeight: 63 } });
    expect(rewritten.int8Classifier).to.deep.equal({ hidden: 80, classes: 6906 });
    const input = renderedBatch();
    const expected = await classesOf(simplifyModel(tiny, { recogniser: true, int8Classifier: false }).model, input);
    const { differing, mean } = compare(expected, await classesOf(rewritten.model, input));
    expect(differing).to.be.at.most(expected.best.length / 50);
    expect(mean).to.be.below(0.01);
    // Not a recogniser: no rewrite of its last layer, whatever it ends in.
    expect(simplifyModel(await readFile(bundledModelFiles('ppocrv6').detector)).int8Classifier).to.equal(undefined);
  });
});
