import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import ort from 'onnxruntime-node';
import { rewriteFolder, rewriteShippedModels } from '../../scripts/ocr-models/rewrite.js';
import { bundledModelFiles, SHIPPED_MODELS_DIR } from '../../src/ingest/ocr/paddle/bundled-models.js';
import { DEFAULT_MAX_DETECTOR_PIXELS } from '../../src/ingest/ocr/paddle/engine.js';
import { modelFilesIn } from '../../src/ingest/ocr/paddle/model-files.js';
import { BEST_CLASS_OUTPUTS } from '../../src/ingest/ocr/paddle/model-outputs.js';
import { readPage } from '../../src/ingest/ocr/paddle/read-page.js';
import { loadModels } from '../../src/ingest/ocr/paddle/sessions.js';
import { makeTextRaster, RECEIPT_LINES } from '../fixtures/images.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('models/ocr/rewritten: the rewritten models docshape ships', function () {
  this.timeout(120_000);

  it('are, byte for byte, what scripts/ocr-models.ts makes of their sources, and what the sets expect at start', async () => {
    const made = await rewriteShippedModels();
    const expected = {
      'rewritten/ppocrv6-small-rec.onnx': bundledModelFiles('ppocrv6-small').expected?.recogniser,
      'rewritten/ppocrv6-tiny-rec.onnx': bundledModelFiles('ppocrv6-tiny').expected?.recogniser,
      'rewritten/ppocrv6-small-tiny-rec.onnx': bundledModelFiles('ppocrv6').expected?.jointRecognisers,
      'rewritten/ppocr-mobile-v2-cls.onnx': bundledModelFiles('ppocrv4').expected?.classifier,
    };
    expect(made.map((model) => model.path)).to.have.members(Object.keys(expected));
    for (const model of made) {
      const committed = await readFile(join(SHIPPED_MODELS_DIR, model.path));
      expect(sha256(committed), model.path).to.equal(sha256(model.bytes));
      expect({ bytes: model.bytes.length, sha256: sha256(model.bytes) }, model.path).to.deep.equal(expected[model.path as keyof typeof expected]);
    }
  });
});

/** PP-OCRv4 as npm ships it, copied into `dir`/in and rewritten into `dir`/out; the words read from each. */
async function readBothWays(dir: string): Promise<{ written: string[]; outputs: string[]; asGiven: string[]; rewritten: string[] }> {
  const v4 = bundledModelFiles('ppocrv4');
  const input = join(dir, 'in');
  await mkdir(input);
  for (const path of [v4.detector, v4.recogniser, v4.dictionary]) await copyFile(path, join(input, basename(path)));
  const written = await rewriteFolder(input, join(dir, 'out'));
  const recogniser = await ort.InferenceSession.create(join(dir, 'out', basename(v4.recogniser)));
  const outputs = [...recogniser.outputNames];
  await recogniser.release();
  const read = async (folder: string) => {
    const { models, release } = await loadModels(await modelFilesIn(folder), 1);
    try {
      return (await readPage(models, makeTextRaster(RECEIPT_LINES), { allowTurn: false, maxDetectorPixels: DEFAULT_MAX_DETECTOR_PIXELS, checkpoint() {} })).words.map((word) => word.text);
    } finally {
      await release();
    }
  };
  return { written, outputs, asGiven: await read(input), rewritten: await read(join(dir, 'out')) };
}

describe('scripts/ocr-models.ts --folder: a folder of your own PP-OCR models rewritten', function () {
  this.timeout(120_000);

  it('writes the folder under the same names, its recogniser with the per-column outputs the service reads, and the service reads it alike', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ocr-models-'));
    try {
      const v4 = bundledModelFiles('ppocrv4');
      const { written, outputs, asGiven, rewritten } = await readBothWays(dir);
      expect(written).to.have.members([basename(v4.detector), basename(v4.recogniser), basename(v4.dictionary)]);
      expect(outputs).to.include.members(Object.values(BEST_CLASS_OUTPUTS));
      expect(rewritten).to.include.members(['CORNER', 'TOTAL', '6.25']);
      expect(rewritten).to.deep.equal(asGiven);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
