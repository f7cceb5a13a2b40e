import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import ort from 'onnxruntime-node';
import { OnnxGraph } from '../../scripts/ocr-models/onnx-graph.js';
import { REWRITE_SOURCES } from '../../scripts/ocr-models/rewrite.js';
import { simplifyModel } from '../../scripts/ocr-models/simplify-model.js';
import { columnClasses } from '../../src/ingest/ocr/paddle/ctc.js';
import { sampleQuad, writeStrip } from '../../src/ingest/ocr/paddle/tensors.js';
import { makeTextRaster } from '../fixtures/images.js';
import { floatAttribute, intsAttribute, model as fixedModel, node, tensor } from '../fixtures/onnx-models.js';

/** A model reading x of 1 x 2 x 5 x 6 and writing outputs of 1 x channels x 5 x 6. */
const model = (opset: number, nodes: Uint8Array[], initializers: Uint8Array[], outputs: string[], channels: number) => fixedModel(opset, nodes, initializers, outputs, [1, channels, 5, 6]);
import { bundledModelFiles } from '../../src/ingest/ocr/paddle/bundled-models.js';

/** Deterministic values in [-1.2, 1.2] with some structure, like a normalised text strip. */
function sampleInput(length: number): Float32Array {
  const data = new Float32Array(length);
  let seed = 7;
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = ((i % 97) / 48 - 1) * 0.8 + (seed / 0x7fffffff - 0.5) * 0.8;
  }
  return data;
}

async function run(model: Uint8Array, dims: number[]): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(model, { graphOptimizationLevel: 'all', intraOpNumThreads: 1 });
  try {
    const input = new ort.Tensor('float32', sampleInput(dims.reduce((a, b) => a * b, 1)), dims);
    const output = (await session.run({ [session.inputNames[0] as string]: input }))[session.outputNames[0] as string] as ort.Tensor;
    return output.data as Float32Array;
  } finally {
    await session.release();
  }
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).to.equal(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs((a[i] as number) - (b[i] as number)));
  return max;
}

const opTypes = (model: Uint8Array) => new OnnxGraph(model).nodes.map((node) => node.opType);

/**
 * x -> Conv -> Mul(0.5) -> Add(0.25) -> hard-swish (Add 3, Clip 0..6, Mul, Div 6) -> y,
 * the way paddle2onnx writes PP-LCNet blocks; `opset` 9 gives Clip its bounds as
 * attributes, 11 as inputs.
 */
function convBlock(opset: number): Uint8Array {
  const weights = Array.from({ length: 3 * 2 * 3 * 3 }, (_, i) => ((i * 7) % 11) / 10 - 0.5);
  const clip = opset < 11 ? node('Clip', ['shifted'], ['clipped'], [floatAttribute('min', 0), floatAttribute('max', 6)]) : node('Clip', ['shifted', 'zero', 'six'], ['clipped']);
  const nodes = [
    node('Conv', ['x', 'w', 'b'], ['conv'], [intsAttribute('kernel_shape', [3, 3]), intsAttribute('pads', [1, 1, 1, 1])]),
    node('Mul', ['half', 'conv'], ['scaled']),
    node('Add', ['scaled', 'quarter'], ['affine']),
    node('Add', ['affine', 'three'], ['shifted']),
    clip,
    node('Mul', ['affine', 'clipped'], ['gated']),
    node('Div', ['gated', 'six'], ['y']),
  ];
  const initializers = [
    tensor('w', [3, 2, 3, 3], weights),
    tensor('b', [3], [0.1, -0.2, 0.3]),
    tensor('half', [1], [0.5]),
    tensor('quarter', [1], [0.25]),
    tensor('three', [], [3]),
    tensor('six', [], [6]),
    ...(opset < 11 ? [] : [tensor('zero', [], [0])]),
  ];
  return model(opset, nodes, initializers, ['y'], 3);
}

describe('paddle OCR: model rewrites', function () {
  this.timeout(60_000);

  for (const opset of [9, 11]) {
    it(`folds a convolution's scale and bias into it and writes hard-swish as HardSigmoid x Mul (opset ${opset}), same outputs`, async () => {
      const original = convBlock(opset);
      const simplified = simplifyModel(original);
      expect(simplified.foldedIntoConv).to.equal(2);
      expect(simplified.hardSwishes).to.equal(1);
      expect(opTypes(simplified.model)).to.deep.equal(['Conv', 'HardSigmoid', 'Mul']);
      expect(maxDifference(await run(original, [1, 2, 5, 6]), await run(simplified.model, [1, 2, 5, 6]))).to.be.below(1e-5);
    });
  }

  it('leaves a convolution whose output is also read elsewhere as it is', async () => {
    const weights = tensor('w', [2, 2, 1, 1], [1, 0.5, -0.5, 1]);
    const original = model(
      11,
      [node('Conv', ['x', 'w'], ['conv']), node('Mul', ['conv', 'two'], ['doubled']), node('Add', ['doubled', 'conv'], ['y'])],
      [weights, tensor('two', [1], [2])],
      ['y'],
      2,
    );
    const simplified = simplifyModel(original);
    expect(simplified.foldedIntoConv).to.equal(0);
    expect(simplified.model).to.equal(original);
  });

  it('does not fold a per-channel factor that is no scalar', () => {
    const original = model(
      11,
      [node('Conv', ['x', 'w'], ['conv']), node('Mul', ['conv', 'factors'], ['y'])],
      [tensor('w', [2, 2, 1, 1], [1, 0.5, -0.5, 1]), tensor('factors', [1, 2, 1, 1], [2, 3])],
      ['y'],
      2,
    );
    expect(simplifyModel(original).foldedIntoConv).to.equal(0);
  });

  it('throws on bytes that are no model, so the caller hands them to ONNX Runtime for its own error', () => {
    expect(() => simplifyModel(new TextEncoder().encode('this is not an ONNX model at all'))).to.throw();
  });

  const bundled = bundledModelFiles('ppocrv4');
  const cases = [
    { role: 'recogniser', path: bundled.recogniser, dims: [2, 3, 48, 320] },
    { role: 'detector', path: bundled.detector, dims: [1, 3, 256, 192] },
    { role: 'classifier', path: REWRITE_SOURCES.classifier, dims: [2, 3, 48, 192] },
  ];
  for (const { role, path, dims } of cases) {
    it(`gives the bundled PP-OCR ${role} the same outputs without its four-operator hard-swishes`, async () => {
      const original = await readFile(path);
      const simplified = simplifyModel(original);
      expect(simplified.hardSwishes).to.be.greaterThan(10);
      const before = opTypes(original);
      const after = opTypes(simplified.model);
      expect(after.filter((op) => op === 'Clip')).to.have.length(before.filter((op) => op === 'Clip').length - simplified.hardSwishes);
      expect(after.length).to.be.below(before.length);
      expect(maxDifference(await run(original, dims), await run(simplified.model, dims))).to.be.below(1e-4);
    });
  }

  it('adds per-column outputs to the bundled recogniser that match its full output (class, probability, last class)', async () => {
    const simplified = simplifyModel(await readFile(bundled.recogniser), { recogniser: true });
    const names = simplified.bestClass;
    expect(names, 'per-column outputs added').to.not.equal(undefined);
    const session = await ort.InferenceSession.create(simplified.model, { intraOpNumThreads: 1 });
    try {
      // A printed line, so the columns read letters and blanks, not one class throughout.
      const raster = makeTextRaster(['Total 76.20'], 320);
      const quad = [{ x: 0, y: 0 }, { x: raster.width, y: 0 }, { x: raster.width, y: raster.height }, { x: 0, y: raster.height }] as const;
      const width = Math.round((48 * raster.width) / raster.height);
      const dims = [1, 3, 48, width];
      const planes = new Float32Array(3 * 48 * width);
      writeStrip(planes, 0, sampleQuad(raster, [...quad] as Parameters<typeof sampleQuad>[1], width, 48), width, 48, width);
      const input = new ort.Tensor('float32', planes, dims);
      const full = session.outputNames[0] as string;
      const out = await session.run({ [session.inputNames[0] as string]: input }, [full, names!.best, names!.bestProbability, names!.lastProbability]);
      const probabilities = out[full] as ort.Tensor;
      const [items, columns, classes] = probabilities.dims as [number, number, number];
      const expected = columnClasses(probabilities.data as Float32Array, items, columns, classes);
      expect(out[names!.best]?.dims).to.deep.equal([items, columns]);
      expect(Array.from(out[names!.best]?.data as Int32Array)).to.deep.equal(Array.from(expected.best));
      expect(new Set(expected.best).size, 'the sample input reads more than one class').to.be.greaterThan(1);
      expect(maxDifference(out[names!.bestProbability]?.data as Float32Array, expected.bestProbability)).to.be.below(1e-6);
      expect(maxDifference(out[names!.lastProbability]?.data as Float32Array, expected.lastProbability)).to.be.below(1e-6);
    } finally {
      await session.release();
    }
  });

});
