import { expect } from 'chai';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { DEFAULT_PADDLE_MODEL_SET, loadConfig, PADDLE_MODEL_SETS } from '../../../src/config.js';
import type { Word } from '../../../src/document/document.js';
import { renderPageText } from '../../../src/ingest/layout.js';
import { groupWordsIntoLines } from '../../../src/ingest/line-grouping.js';
import type { OcrResult } from '../../../src/ingest/ocr/engine.js';
import { DEFAULT_MAX_DETECTOR_PIXELS, PaddleEngine, type PaddleEngineOptions } from '../../../src/ingest/ocr/paddle/engine.js';
import { bundledModelFiles, withShippedDetection } from '../../../src/ingest/ocr/paddle/bundled-models.js';
import { modelFilesIn, type ModelRole } from '../../../src/ingest/ocr/paddle/model-files.js';
import { readPage, type PaddleModels, type RunModel } from '../../../src/ingest/ocr/paddle/read-page.js';
import { loadModels } from '../../../src/ingest/ocr/paddle/sessions.js';
import type { GreyRaster } from '../../../src/document/raster.js';
import { COPY_BYTES_PER_UNIT } from '../../../src/util/paced.js';
import { drawTextLines, makeTextRaster, RECEIPT_EXPECTED, RECEIPT_LINES } from '../../fixtures/images.js';
import { renderTextImage } from '../../fixtures/pdfs.js';
import { cpuMsOf, processCpuMs } from '../../helpers/cpu-time.js';
import { rejectionOf } from '../../helpers/rejection.js';

const options: PaddleEngineOptions = { files: bundledModelFiles(DEFAULT_PADDLE_MODEL_SET), workers: 1, threads: 1, allowTurn: true, maxDetectorPixels: DEFAULT_MAX_DETECTOR_PIXELS };

function texts(result: OcrResult): string[] {
  return result.words.map((word) => word.text);
}

function layoutOf(result: OcrResult): string {
  return renderPageText({ index: 0, width: result.width, height: result.height, units: 'raster-pixels', source: 'ocr', lines: groupWordsIntoLines(result.words) }, 0).text;
}

/** The raster turned by 180 degrees: every pixel in reverse order. */
function upsideDown(raster: GreyRaster): GreyRaster {
  return { ...raster, data: raster.data.slice().reverse() };
}

/** The raster turned clockwise by 90 degrees. */
function turnedClockwise(raster: GreyRaster): GreyRaster {
  const { width: w, height: h, data } = raster;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < w; y++) for (let x = 0; x < h; x++) out[y * h + x] = data[(h - 1 - x) * w + y] as number;
  return { width: h, height: w, data: out, dpi: raster.dpi };
}

/** Words drawn at known places: each word's box as the canvas measured it. */
function placedWords(): { raster: GreyRaster; boxes: { text: string; x0: number; y0: number; x1: number; y1: number }[] } {
  const width = 900;
  const height = 320;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000';
  // The fixture font is registered by drawTextLines.
  drawTextLines(['x']);
  context.font = '40px DocshapeFixtureSans';
  context.textBaseline = 'alphabetic';
  const boxes: { text: string; x0: number; y0: number; x1: number; y1: number }[] = [];
  const place = (text: string, x: number, baseline: number) => {
    context.fillText(text, x, baseline);
    const metrics = context.measureText(text);
    boxes.push({ text, x0: x, y0: baseline - metrics.actualBoundingBoxAscent, x1: x + metrics.width, y1: baseline + metrics.actualBoundingBoxDescent });
  };
  place('Invoice', 40, 80);
  place('4711', 600, 80);
  place('Amount', 40, 200);
  place('due', 210, 200);
  place('99.95', 620, 200);
  const rgba = context.getImageData(0, 0, width, height).data;
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = rgba[i * 4] as number;
  return { raster: { width, height, data, dpi: 300 }, boxes };
}

describe('paddle OCR engine', function () {
  this.timeout(60_000);
  let engine: PaddleEngine;
  const receipt = makeTextRaster(RECEIPT_LINES);

  before(async () => {
    engine = await PaddleEngine.create(options);
  });

  after(async () => {
    await engine?.close();
  });

  it('starts warmed with its workers ready', () => {
    expect(engine.status()).to.include({ engine: 'paddle', ready: true, workers: 1, busy: 0, queued: 0 });
  });

  it('reads the values of a receipt, each word with a box inside the page and a confidence', async () => {
    const result = await engine.recognize(receipt);
    expect(result).to.include({ rotation: 0, width: receipt.width, height: receipt.height, passes: 1 });
    expect(texts(result)).to.include.members([...RECEIPT_EXPECTED.words]);
    for (const word of result.words) {
      expect(word.source).to.equal('ocr');
      expect(word.text).to.equal(word.text.trim()).and.not.equal('');
      expect(word.confidence).to.be.within(0, 1);
      expect(word.bbox.x0).to.be.within(0, word.bbox.x1);
      expect(word.bbox.y0).to.be.within(0, word.bbox.y1);
      expect(word.bbox.x1).to.be.at.most(receipt.width);
      expect(word.bbox.y1).to.be.at.most(receipt.height);
    }
    const total = result.words.find((word) => word.text === 'TOTAL');
    expect(total?.confidence).to.be.greaterThan(0.8);
    expect(layoutOf(result)).to.match(/^TOTAL {2,}6\.25$/m);
  });

  it('puts each word box where the word is printed', async () => {
    const { raster, boxes } = placedWords();
    const result = await engine.recognize(raster);
    for (const expected of boxes) {
      const word = result.words.find((candidate) => candidate.text === expected.text);
      expect(word, `"${expected.text}" among ${JSON.stringify(texts(result))}`).to.not.equal(undefined);
      const { bbox } = word as Word;
      const tolerance = 0.25 * (expected.y1 - expected.y0);
      expect(bbox.x0).to.be.closeTo(expected.x0, tolerance + 6);
      expect(bbox.x1).to.be.closeTo(expected.x1, tolerance + 6);
      expect((bbox.y0 + bbox.y1) / 2).to.be.closeTo((expected.y0 + expected.y1) / 2, tolerance);
    }
  });

  it('reads an upside-down page upright, in reading order', async () => {
    const result = await engine.recognize(upsideDown(receipt));
    expect(result).to.include({ rotation: 180, width: receipt.width, height: receipt.height });
    expect(texts(result)).to.include.members([...RECEIPT_EXPECTED.words]);
    const lines = layoutOf(result).split('\n');
    expect(lines[0]?.trim()).to.equal('CORNER CAFE');
    expect(lines[lines.length - 1]).to.match(/^TOTAL {2,}6\.25$/);
  });

  it('reads a page lying on its side and reports the turned frame', async () => {
    const sideways = turnedClockwise(receipt);
    const result = await engine.recognize(sideways);
    expect(result).to.include({ rotation: 270, width: receipt.width, height: receipt.height });
    expect(texts(result)).to.include.members([...RECEIPT_EXPECTED.words]);
    expect(layoutOf(result)).to.match(/^TOTAL {2,}6\.25$/m);
  });

  it('reads a page as it lies with OCR_ROTATION=off', async () => {
    const off = await PaddleEngine.create({ ...options, allowTurn: false });
    try {
      const result = await off.recognize(upsideDown(receipt));
      expect(result.rotation).to.equal(0);
      // Each line is still read the right way up (the angle classifier), but the page is not turned:
      // the TOTAL line comes first, its amount on the left.
      expect(texts(result)).to.include.members(['TOTAL', 'CORNER', '6.25']);
      expect(layoutOf(result).split('\n')[0]).to.match(/^6\.25 {2,}TOTAL$/);
    } finally {
      await off.close();
    }
  });

  it('keeps the columns of a table apart and its rows together', async () => {
    const table = makeTextRaster(
      [
        ['Description', 'Amount'],
        ['Steel hammer   2', '29.00'],
        ['Box of nails   10', '22.50'],
        ['Safety gloves   3', '12.00'],
      ],
      900,
    );
    const layout = layoutOf(await engine.recognize(table));
    expect(layout).to.match(/^Description {2,}Amount$/m);
    expect(layout).to.match(/^Steel hammer +2 {2,}29\.00$/m);
    expect(layout).to.match(/^Box of nails +10 {2,}22\.50$/m);
    expect(layout).to.match(/^Safety gloves +3 {2,}12\.00$/m);
  });

  it('gives up a running page when its request aborts, and reads the next one', async () => {
    const controller = new AbortController();
    const big = makeTextRaster(Array.from({ length: 30 }, (_, i) => `Line ${i + 1}: the quick brown fox jumps over ${i * 7} lazy dogs`), 1400);
    // CPU time: the whole page against what the process spends from the abort to the rejection
    const whole = await cpuMsOf(() => engine.recognize(big));
    const job = engine.recognize(big, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const aborted = processCpuMs();
    controller.abort();
    const error = await rejectionOf(job);
    expect(error.name).to.equal('AbortError');
    expect(processCpuMs() - aborted, `CPU ms after the abort; the whole page ${whole.toFixed(0)} ms`).to.be.below(whole / 2);
    expect(texts(await engine.recognize(receipt))).to.include('TOTAL');
    expect(engine.status()).to.include({ busy: 0, queued: 0 });
  });

  it('fails the page of a worker thread that dies, replaces the thread and reads on', async () => {
    const messages: string[] = [];
    const logger = { info: (_: object, msg?: string) => messages.push(msg ?? ''), warn: (_: object, msg?: string) => messages.push(msg ?? '') };
    const fragile = await PaddleEngine.create(options, logger);
    try {
      const job = fragile.recognize(receipt);
      // Reach into the engine only to simulate a crash of the worker thread.
      const internals = fragile as unknown as { pool: { threads: { worker: { terminate(): Promise<number> } }[] } };
      await internals.pool.threads[0]?.worker.terminate();
      expect((await rejectionOf(job)).message).to.include('exited');
      expect(texts(await fragile.recognize(receipt))).to.include('TOTAL');
      expect(messages).to.include.members(['OCR worker thread died', 'OCR worker replaced']);
    } finally {
      await fragile.close();
    }
  });

  it('reads a raster larger than a copy slice, copied to its thread in turns, and frees the thread of one aborted while copied', async () => {
    // the receipt at the top left of a page of more than COPY_BYTES_PER_UNIT pixels
    const width = 2400;
    const height = Math.ceil((COPY_BYTES_PER_UNIT * 1.5) / width);
    const data = new Uint8Array(width * height).fill(255);
    for (let y = 0; y < receipt.height; y++) data.set(receipt.data.subarray(y * receipt.width, (y + 1) * receipt.width), y * width);
    const large: GreyRaster = { width, height, data, dpi: 300 };
    const controller = new AbortController();
    const aborted = engine.recognize(large, controller.signal);
    controller.abort(); // the copy has done one slice of two
    expect((await rejectionOf(aborted)).name).to.equal('AbortError');
    expect(texts(await engine.recognize(large))).to.include('TOTAL');
    expect(large.data.length, 'the caller\'s pixels, still its own').to.equal(width * height);
    expect(engine.status()).to.include({ busy: 0, queued: 0 });
  });

  it('rejects pages after close() and is no longer ready', async () => {
    const closing = await PaddleEngine.create(options);
    await closing.close();
    expect((await rejectionOf(closing.recognize(receipt))).message).to.include('closed');
    expect(closing.status().ready).to.equal(false);
  });

  it('rejects a raster whose buffer does not match its size', async () => {
    const error = await rejectionOf(engine.recognize({ width: 10, height: 10, data: new Uint8Array(5), dpi: 300 }));
    expect(error.message).to.include('10x10');
  });
});

describe('paddle OCR work per page', function () {
  this.timeout(60_000);
  let models: PaddleModels;
  let release: () => Promise<void>;

  before(async () => {
    ({ models, release } = await loadModels(bundledModelFiles(DEFAULT_PADDLE_MODEL_SET), 1));
  });

  after(async () => {
    await release?.();
  });

  /** Model input pixels of one reading: the work a page costs, measured without a clock. */
  async function workOf(raster: GreyRaster): Promise<{ pixels: number; detector: number; words: string[] }> {
    let pixels = 0;
    const counting =
      <Output>(run: (input: Float32Array, dims: number[]) => Promise<Output>) =>
      async (input: Float32Array, dims: number[]): Promise<Output> => {
      pixels += input.length / 3;
      return run(input, dims);
    };
    const counted: PaddleModels = { ...models, detect: counting(models.detect), recognise: counting(models.recognise), classify: models.classify && counting(models.classify) };
    const reading = await readPage(counted, raster, { allowTurn: true, maxDetectorPixels: DEFAULT_MAX_DETECTOR_PIXELS, checkpoint() {} });
    return { pixels, detector: reading.detectorWidth * reading.detectorHeight, words: reading.words.map((word) => word.text) };
  }

  /** The page's lines rendered with a font of `fontSize` px: a finer scan of the same page has more pixels, not more text. */
  async function scanned(lines: string[], fontSize: number): Promise<GreyRaster> {
    const { png } = await renderTextImage(lines, { fontSize });
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height), dpi: 300 };
  }

  it('costs a large scan about what the same page costs small, not its pixel count', async () => {
    const lines = ['INVOICE 2024-0042', 'Total due 76.20', 'Thank you for your business'];
    const smallPage = await scanned(lines, 40);
    const largePage = await scanned(lines, 240);
    expect(largePage.width * largePage.height).to.be.greaterThan(30 * smallPage.width * smallPage.height);
    const small = await workOf(smallPage);
    const large = await workOf(largePage);
    expect(large.words).to.include.members(['INVOICE', '2024-0042', '76.20', 'business']);
    // 36 times the pixels in, yet the detector sees no more than its budget, the lines cost the same,
    // and the whole page costs a small multiple of the small page, far below its pixel share.
    expect(large.detector).to.be.at.most(DEFAULT_MAX_DETECTOR_PIXELS * 1.05);
    expect(large.pixels - large.detector).to.be.lessThan(2 * (small.pixels - small.detector));
    expect(large.pixels).to.be.lessThan(8 * small.pixels);
  });

  it("keeps a recogniser batch's output within the same memory whatever the recogniser's class count", async () => {
    // PP-OCRv6 small writes 18,710 classes, nearly three times PP-OCRv4's.
    const v6 = await loadModels(bundledModelFiles('ppocrv6-small'), 1);
    try {
      const batches: number[][] = [];
      const recording: PaddleModels = {
        ...v6.models,
        recognise: async (input, dims) => {
          batches.push(dims);
          return v6.models.recognise(input, dims);
        },
      };
      // Twelve short lines of one width, which PP-OCRv4's 6,625 classes let go six to a batch.
      const lines = Array.from({ length: 12 }, (_, i) => `Item ${String(i + 10)} paid`);
      const { png } = await renderTextImage(lines, { fontSize: 40 });
      const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
      const page = { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height), dpi: 300 };
      const reading = await readPage(recording, page, { allowTurn: false, maxDetectorPixels: DEFAULT_MAX_DETECTOR_PIXELS, checkpoint() {} });
      expect(reading.words.map((word) => word.text)).to.include.members(['Item', '10', '21', 'paid']);
      const classes = v6.models.alphabet.characters.length;
      expect(classes).to.equal(18_710);
      expect(batches.some(([items]) => (items as number) > 1)).to.equal(true);
      for (const [items, , , width] of batches) expect((items as number) * (width as number) * classes).to.be.at.most(2400 * 6625);
    } finally {
      await v6.release();
    }
  });

  it('costs a strip 400,000 pixels wide and a few tall no more than the detector budget and a few lines (a 4,000,000 x 1 PNG took 3 GB)', async () => {
    const width = 400_000;
    const height = 16;
    const data = new Uint8Array(width * height).fill(255);
    // glyph-like ink: short dark bars with gaps, along the middle rows
    for (let y = 4; y < 12; y++) for (let x = 0; x < width; x++) if (x % 12 < 7 && (x >> 6) % 8 !== 7) data[y * width + x] = 0;
    const work = await workOf({ width, height, data, dpi: 300 });
    expect(work.detector).to.be.at.most(DEFAULT_MAX_DETECTOR_PIXELS);
    expect(work.pixels - work.detector).to.be.at.most(20 * 48 * 9600);
  });
});

describe('paddle OCR model files', function () {
  this.timeout(60_000);
  let dir: string;
  const bundled = bundledModelFiles('ppocrv4');

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paddle-models-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function copyBundled(except: ModelRole | undefined = undefined): Promise<void> {
    for (const role of ['detector', 'recogniser', 'classifier', 'dictionary'] as const) {
      const path = bundled[role];
      if (role !== except && path) await copyFile(path, join(dir, basename(path)));
    }
  }

  /** How starting the engine on the folder (or on `files`) fails. */
  async function startFailure(files?: PaddleEngineOptions['files']): Promise<Error> {
    return rejectionOf((async () => PaddleEngine.create({ ...options, files: files ?? (await modelFilesIn(dir)) }))());
  }

  it('fails at start naming the missing recogniser', async () => {
    await copyBundled('recogniser');
    const error = await startFailure();
    expect(error.message).to.include(dir).and.include('recogniser').and.include('*rec*.onnx');
  });

  it('fails at start naming a corrupt detector file', async () => {
    await copyBundled();
    await writeFile(join(dir, basename(bundled.detector)), Buffer.from('this is not an ONNX model'.repeat(40)));
    const error = await startFailure();
    expect(error.message).to.include(join(dir, basename(bundled.detector))).and.include('cannot be loaded as an ONNX model');
  });

  it('fails at start naming an empty file and a file that is gone', async () => {
    await copyBundled();
    await writeFile(join(dir, basename(bundled.recogniser)), '');
    expect((await startFailure()).message).to.include(basename(bundled.recogniser)).and.include('is empty');
    const missing = { ...bundled, classifier: join(dir, 'no-such-cls.onnx') };
    expect((await startFailure(missing)).message).to.include('no-such-cls.onnx').and.include('does not exist');
  });

  it('fails at start when the dictionary does not belong to the recogniser', async () => {
    await copyBundled('dictionary');
    await writeFile(join(dir, 'latin_dict.txt'), 'a\nb\nc\n');
    const error = await startFailure();
    expect(error.message).to.include('latin_dict.txt').and.include('lists 3 characters').and.include('6625 classes');
  });

  it('runs on a folder of user-supplied models (OCR_PADDLE_MODEL_DIR), classifier optional', async () => {
    await copyBundled('classifier');
    const files = await modelFilesIn(dir);
    expect(files.classifier).to.equal(undefined);
    const engine = await PaddleEngine.create({ ...options, files });
    try {
      expect(texts(await engine.recognize(makeTextRaster(RECEIPT_LINES)))).to.include.members(['CORNER', 'TOTAL', '6.25']);
    } finally {
      await engine.close();
    }
  });
});

describe('paddle OCR: the model sets docshape ships', function () {
  this.timeout(120_000);
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paddle-shipped-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const set of PADDLE_MODEL_SETS) {
    it(`starts ${set} and reads a receipt`, async () => {
      const engine = await PaddleEngine.create({ ...options, files: bundledModelFiles(set) });
      try {
        expect(texts(await engine.recognize(makeTextRaster(RECEIPT_LINES)))).to.include.members(['CORNER', 'TOTAL', '6.25']);
      } finally {
        await engine.close();
      }
    });
  }

  it('refuses a shipped file that is not the one docshape ships, naming it: a changed byte, a truncated copy', async () => {
    const shipped = bundledModelFiles('ppocrv6-small');
    const changed = join(dir, 'ppocrv6_dict.txt');
    const bytes = await readFile(shipped.dictionary);
    bytes[0] = bytes[0] === 0x21 ? 0x22 : 0x21;
    await writeFile(changed, bytes);
    const wrongHash = await rejectionOf(PaddleEngine.create({ ...options, files: { ...shipped, dictionary: changed } }));
    expect(wrongHash.message).to.include(changed).and.include('sha256').and.include('769e7fa79bb297b5f18d8dbd149e364a45bc61f2b3f574e5ea836f0b261c23a6').and.include('models/ocr');
    const truncated = join(dir, 'det.onnx');
    await writeFile(truncated, (await readFile(shipped.detector)).subarray(0, 1000));
    const wrongSize = await rejectionOf(PaddleEngine.create({ ...options, files: { ...shipped, detector: truncated } }));
    expect(wrongSize.message).to.include(truncated).and.include('1000 bytes, expected 9880512');
  });

  it("reads a user's folder holding a shipped detector with that detector's settings, any other with PP-OCRv4's", async () => {
    const small = bundledModelFiles('ppocrv6-small');
    const v4 = bundledModelFiles('ppocrv4');
    await copyFile(small.detector, join(dir, 'det.onnx'));
    await copyFile(v4.recogniser, join(dir, 'rec.onnx'));
    await copyFile(v4.dictionary, join(dir, 'keys.txt'));
    const mixed = await withShippedDetection(await modelFilesIn(dir));
    expect(mixed.detection).to.deep.equal(small.detection);
    expect(mixed.detection).to.not.deep.equal(v4.detection);
    await copyFile(v4.detector, join(dir, 'det.onnx'));
    expect((await withShippedDetection(await modelFilesIn(dir))).detection).to.deep.equal(v4.detection);
  });
});

describe('OCR_ENGINE', () => {
  it('is read from the environment with OCR_THREADS and OCR_PADDLE_MODEL_DIR', () => {
    const config = loadConfig({ OCR_ENGINE: 'Tesseract', OCR_THREADS: '3', OCR_PADDLE_MODEL_DIR: '/models/ppocr' });
    expect(config.ocr).to.include({ engine: 'tesseract', threads: 3, paddleModelDir: '/models/ppocr' });
    expect(loadConfig({}).ocr.engine).to.equal('auto');
    expect(() => loadConfig({ OCR_ENGINE: 'easyocr' })).to.throw(/OCR_ENGINE/);
  });
});
