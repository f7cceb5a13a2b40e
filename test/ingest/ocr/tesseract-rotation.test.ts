import { expect } from 'chai';
import sharp from 'sharp';
import { ConfigError, loadConfig } from '../../../src/config.js';
import type { DecodedFile } from '../../../src/ingest/decode.js';
import { ingestFiles } from '../../../src/ingest/ingest.js';
import { rotateRaster } from '../../../src/ingest/ocr/rotate-raster.js';
import type { OcrResult } from '../../../src/ingest/ocr/engine.js';
import { TesseractPool, type TesseractConfig } from '../../../src/ingest/ocr/tesseract/pool.js';
import type { PdfProcessor } from '../../../src/ingest/pdf.js';
import type { GreyRaster } from '../../../src/document/raster.js';
import { makeTextRaster, RECEIPT_LINES } from '../../fixtures/images.js';

const LINES = [...RECEIPT_LINES, 'Thank you for your visit', ['Card', '6.25'] as [string, string]];
const KEY_WORDS = ['CORNER', 'CAFE', 'Coffee', 'Muffin', 'TOTAL', '6.25', 'visit'];

/** The raster turned by `degrees` (clockwise) within a frame grown to fit, white corners: a tilted photo. */
async function tilted(raster: GreyRaster, degrees: number): Promise<GreyRaster> {
  const { data, info } = await sharp(Buffer.from(raster.data), { raw: { width: raster.width, height: raster.height, channels: 1 } })
    .rotate(degrees, { background: '#fff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height), dpi: raster.dpi };
}

function texts(result: OcrResult): string[] {
  return result.words.map((word) => word.text);
}

function expectBoxesInside(result: OcrResult): void {
  for (const { bbox } of result.words) {
    expect(bbox.x1).to.be.at.most(result.width);
    expect(bbox.y1).to.be.at.most(result.height);
  }
}

describe('rotateRaster', () => {
  // 3 wide, 2 tall:  a b c
  //                  d e f
  const raster: GreyRaster = { width: 3, height: 2, data: Uint8Array.from([1, 2, 3, 4, 5, 6]), dpi: 300 };

  it('turns clockwise by 90 degrees', () => {
    const turned = rotateRaster(raster, 90);
    expect(turned).to.include({ width: 2, height: 3, dpi: 300 });
    expect([...turned.data]).to.deep.equal([4, 1, 5, 2, 6, 3]);
  });

  it('turns clockwise by 270 degrees, undoing 90', () => {
    const turned = rotateRaster(raster, 270);
    expect(turned).to.include({ width: 2, height: 3 });
    expect([...turned.data]).to.deep.equal([3, 6, 2, 5, 1, 4]);
    expect([...rotateRaster(rotateRaster(raster, 90), 270).data]).to.deep.equal([...raster.data]);
  });
});

describe('OCR_ROTATION', function () {
  this.timeout(60_000);
  const baseConfig: TesseractConfig = { ...loadConfig({}).ocr, workers: 1 };
  const clean = makeTextRaster(LINES);
  /** Text reading bottom to top, as a page photographed sideways without EXIF orientation. */
  const sideways = rotateRaster(clean, 270);
  let skewed: GreyRaster;
  let auto: TesseractPool;
  let off: TesseractPool;

  before(async () => {
    skewed = await tilted(clean, 6);
    [auto, off] = await Promise.all([TesseractPool.create({ ...baseConfig, rotation: 'auto' }), TesseractPool.create({ ...baseConfig, rotation: 'off' })]);
  });

  after(async () => {
    await Promise.all([auto?.close(), off?.close()]);
  });

  it('is read from the environment, defaults to auto and rejects other values', () => {
    expect(loadConfig({}).ocr.rotation).to.equal('auto');
    expect(loadConfig({ OCR_ROTATION: 'Always' }).ocr.rotation).to.equal('always');
    expect(loadConfig({ OCR_ROTATION: 'off' }).ocr.rotation).to.equal('off');
    expect(() => loadConfig({ OCR_ROTATION: 'sometimes' })).to.throw(ConfigError, /OCR_ROTATION/);
  });

  it('auto: a clean page costs a single pass', async () => {
    const result = await auto.recognize(clean);
    expect(result).to.include({ passes: 1, rotation: 0, deskewed: false, width: clean.width, height: clean.height });
    expect(texts(result)).to.include.members(KEY_WORDS);
  });

  it('auto: a blank page is not retried', async () => {
    const blank: GreyRaster = { width: 600, height: 800, data: new Uint8Array(600 * 800).fill(255), dpi: 300 };
    expect(await auto.recognize(blank)).to.deep.include({ words: [], passes: 1, rotation: 0 });
  });

  it('auto: reads a page tilted by 6 degrees by straightening it', async () => {
    const result = await auto.recognize(skewed);
    expect(result).to.include({ passes: 2, rotation: 0, deskewed: true, width: skewed.width, height: skewed.height });
    expect(Math.abs(result.skewDegrees)).to.be.lessThan(1);
    expect(texts(result)).to.include.members(KEY_WORDS);
    expectBoxesInside(result);
  });

  it('auto: reads a page turned by 90 degrees and returns boxes in the turned frame', async () => {
    const result = await auto.recognize(sideways);
    expect(result).to.include({ rotation: 90, width: sideways.height, height: sideways.width });
    expect(result.passes).to.be.within(3, 4);
    expect(texts(result)).to.include.members(KEY_WORDS);
    expectBoxesInside(result);
    // Upright again: "TOTAL" is left of "6.25" on one line.
    const total = result.words.find((word) => word.text === 'TOTAL');
    const amount = result.words.filter((word) => word.text === '6.25').find((word) => Math.abs(word.bbox.y0 - (total?.bbox.y0 ?? -1e9)) < 20);
    expect(amount?.bbox.x0).to.be.greaterThan(total?.bbox.x1 ?? Infinity);
  });

  it('off: never rotates and runs one pass', async () => {
    for (const raster of [skewed, sideways]) {
      const result = await off.recognize(raster);
      expect(result).to.include({ passes: 1, rotation: 0, deskewed: false, width: raster.width, height: raster.height });
    }
    expect(texts(await off.recognize(sideways))).not.to.include.members(['Coffee', 'Muffin', 'TOTAL']);
  });

  it('always: deskews every page in one pass', async () => {
    const always = await TesseractPool.create({ ...baseConfig, rotation: 'always' });
    try {
      const result = await always.recognize(skewed);
      expect(result).to.include({ passes: 1, rotation: 0, deskewed: true });
      expect(texts(result)).to.include.members(KEY_WORDS);
    } finally {
      await always.close();
    }
  });

  it('ingest gives a page found sideways the turned size', async () => {
    const png = await sharp(Buffer.from(sideways.data), { raw: { width: sideways.width, height: sideways.height, channels: 1 } }).png().toBuffer();
    const file: DecodedFile = { index: 0, filename: 'sideways.png', mimeType: 'image/png', bytes: png };
    const { document } = await ingestFiles(
      [file],
      {
        pdf: {} as PdfProcessor,
        ocr: auto,
        limits: { maxPagesPerRequest: 10, maxWordsPerRequest: 200_000, maxPixelsPerImage: 80_000_000, maxGifFrames: 10 },
        ocrConcurrency: 1,
      },
      new AbortController().signal,
    );
    const page = document.files[0]?.pages[0];
    expect(page?.source).to.equal('ocr');
    expect(page?.ocrEngine).to.equal('tesseract');
    expect(page?.units).to.equal('raster-pixels');
    // The image is taller than wide; the page that was read is the upright one, wider than tall.
    expect(page?.width).to.be.greaterThan(page?.height ?? Infinity);
    const text = page?.lines.map((line) => line.words.map((word) => word.text).join(' ')).join('\n');
    expect(text).to.match(/TOTAL\s+6\.25/);
  });
});
