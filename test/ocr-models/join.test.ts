import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import ort from 'onnxruntime-node';
import { bundledModelFiles } from '../../src/ingest/ocr/paddle/bundled-models.js';
import { JoinError, joinModels } from '../../scripts/ocr-models/join-models.js';
import { MessageWriter } from '../../scripts/ocr-models/onnx-protobuf.js';
import { loadModels } from '../../src/ingest/ocr/paddle/sessions.js';
import { REWRITE_SOURCES } from '../../scripts/ocr-models/rewrite.js';
import { simplifyModel } from '../../scripts/ocr-models/simplify-model.js';
import { model, node, tensor } from '../fixtures/onnx-models.js';

// Both parts name their input, output, constant and dimensions alike, as two exports of one exporter do.
const DIMS = ['batch', 2, 'height', 'width'];
const doubles = () => model(11, [node('Mul', ['x', 'c'], ['y'])], [tensor('c', [], [2])], ['y'], DIMS, DIMS);
const addsOne = (opset = 11) => model(opset, [node('Add', ['x', 'c'], ['y'])], [tensor('c', [], [1])], ['y'], DIMS, DIMS);

const ramp = (length: number) => Float32Array.from({ length }, (_, i) => (i % 13) - 6);

describe('paddle OCR: models joined into one session', function () {
  this.timeout(60_000);

  it('computes each part from its own input as the part alone does, at different batch sizes', async () => {
    const joint = joinModels([
      { prefix: 'a/', bytes: doubles() },
      { prefix: 'b/', bytes: addsOne() },
    ]);
    expect(joint.parts).to.deep.equal([
      { inputs: ['a/x'], outputs: ['a/y'] },
      { inputs: ['b/x'], outputs: ['b/y'] },
    ]);
    const session = await ort.InferenceSession.create(joint.bytes);
    try {
      const a = ramp(3 * 2 * 4 * 5);
      const b = ramp(1 * 2 * 2 * 7);
      const result = await session.run({ 'a/x': new ort.Tensor('float32', a, [3, 2, 4, 5]), 'b/x': new ort.Tensor('float32', b, [1, 2, 2, 7]) });
      expect([...(result['a/y'] as ort.Tensor).data]).to.deep.equal([...a].map((v) => v * 2));
      expect([...(result['b/y'] as ort.Tensor).data]).to.deep.equal([...b].map((v) => v + 1));
      expect((result['b/y'] as ort.Tensor).dims).to.deep.equal([1, 2, 2, 7]);
    } finally {
      await session.release();
    }
  });

  it('refuses models that import the standard operators at different versions, naming both', () => {
    expect(() => joinModels([
      { prefix: 'a/', bytes: doubles() },
      { prefix: 'b/', bytes: addsOne(13) },
    ])).to.throw(JoinError, /versions 11 and 13/);
  });

  it('refuses a model whose nodes carry subgraphs (their names could reach the outer graph)', () => {
    const branch = new MessageWriter().bytes(1, node('Identity', ['x'], ['z'])).string(2, 'branch').finish();
    const graphAttribute = new MessageWriter().string(1, 'then_branch').bytes(6, branch).varint(20, 5).finish();
    const withIf = model(11, [node('If', ['cond'], ['y'], [graphAttribute])], [], ['y'], DIMS, DIMS);
    expect(() => joinModels([
      { prefix: 'a/', bytes: doubles() },
      { prefix: 'b/', bytes: withIf },
    ])).to.throw(JoinError, /subgraph/);
  });

  // Both recognisers were exported with the same symbolic batch dimension: unless joining renames it, ONNX Runtime
  // holds the two inputs to one size and refuses a batch of 2 beside the idle part's 1.
  it('joins the default set\'s two recognisers so that each reads a line batch exactly as alone', async () => {
    const small = simplifyModel(await readFile(REWRITE_SOURCES.smallRecogniser), { recogniser: true });
    const tiny = simplifyModel(await readFile(REWRITE_SOURCES.tinyRecogniser), { recogniser: true });
    const joint = joinModels([
      { prefix: 'full/', bytes: small.model },
      { prefix: 'quick/', bytes: tiny.model },
    ]);
    const options = { graphOptimizationLevel: 'all', intraOpNumThreads: 1 } as const;
    const [jointSession, smallSession, tinySession] = await Promise.all([joint.bytes, small.model, tiny.model].map((bytes) => ort.InferenceSession.create(bytes, options)));
    try {
      const lines = new ort.Tensor('float32', ramp(2 * 3 * 48 * 320).map((v) => v / 6), [2, 3, 48, 320]);
      const idle = new ort.Tensor('float32', new Float32Array(3 * 48 * 8), [1, 3, 48, 8]);
      const [fullPart, quickPart] = joint.parts;
      for (const [alone, part, other] of [[smallSession, fullPart, quickPart], [tinySession, quickPart, fullPart]] as const) {
        const own = alone!.outputNames[0] as string;
        const expected = (await alone!.run({ [alone!.inputNames[0] as string]: lines }, [own]))[own] as ort.Tensor;
        const jointOwn = part!.outputs[0] as string;
        const got = (await jointSession!.run({ [part!.inputs[0] as string]: lines, [other!.inputs[0] as string]: idle }, [jointOwn]))[jointOwn] as ort.Tensor;
        expect(jointOwn).to.equal((part === fullPart ? 'full/' : 'quick/') + own);
        expect(got.dims).to.deep.equal(expected.dims);
        expect(Buffer.from((got.data as Float32Array).buffer).equals(Buffer.from((expected.data as Float32Array).buffer))).to.equal(true);
      }
    } finally {
      await Promise.all([jointSession, smallSession, tinySession].map((session) => session!.release()));
    }
  });

  it('loads the default set with its recognisers in one session, and a set with one recogniser as before', async () => {
    const loadedDefault = await loadModels(bundledModelFiles('ppocrv6'), 1);
    const loadedSmall = await loadModels(bundledModelFiles('ppocrv6-small'), 1);
    try {
      expect(loadedDefault.recognisersJoined).to.equal(true);
      expect(loadedDefault.models.quickReader).to.not.equal(undefined);
      expect(loadedSmall.recognisersJoined).to.equal(false);
    } finally {
      await Promise.all([loadedDefault.release(), loadedSmall.release()]);
    }
  });
});
