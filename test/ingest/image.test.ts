import { expect } from 'chai';
import sharp from 'sharp';
import { loadConfig } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import type { DecodedFile } from '../../src/ingest/decode.js';
import { loadImagePages } from '../../src/ingest/image.js';
import { TesseractPool } from '../../src/ingest/ocr/tesseract/pool.js';
import { chooseThresholding } from '../../src/ingest/ocr/tesseract/thresholding.js';
import { chooseScale, dpiFor, prepareForOcr } from '../../src/ingest/preprocess.js';
import type { GreyRaster } from '../../src/document/raster.js';
import {
  drawTextLines,
  makeAnimatedGif,
  makeCorruptPng,
  makeExifRotatedJpeg,
  makeHugePngHeader,
  makeReceiptImage,
  makeTextRaster,
  RECEIPT_EXPECTED,
  RECEIPT_LINES,
} from '../fixtures/images.js';

const limits = { maxPixelsPerImage: 80_000_000, maxGifFrames: 10 };

function file(mimeType: DecodedFile['mimeType'], bytes: Buffer, index = 0): DecodedFile {
  return { index, filename: `upload-${index}`, mimeType, bytes };
}

async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a rejection');
}

function expectGreyRaster(raster: GreyRaster): void {
  expect(raster.width).to.be.greaterThan(0);
  expect(raster.height).to.be.greaterThan(0);
  expect(raster.data.length).to.equal(raster.width * raster.height);
  expect(raster.dpi).to.be.within(70, 1200);
}

describe('loadImagePages', function () {
  this.timeout(60_000);
  let pool: TesseractPool;

  before(async () => {
    pool = await TesseractPool.create({ ...loadConfig({}).ocr, workers: 2 });
  });

  after(async () => {
    await pool?.close();
  });

  async function ocrText(raster: GreyRaster): Promise<string[]> {
    return (await pool.recognize(raster)).words.map((word) => word.text);
  }

  for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) {
    it(`decodes a ${format} receipt into one greyscale raster that OCR reads`, async () => {
      const pages = await loadImagePages(file(`image/${format}`, await makeReceiptImage(format)), limits);
      expect(pages).to.have.length(1);
      const page = pages[0] as GreyRaster;
      expectGreyRaster(page);
      const words = await ocrText(page);
      expect(words).to.include.members(['CORNER', 'CAFE', 'TOTAL', RECEIPT_EXPECTED.total]);
    });
  }

  it('applies EXIF orientation so rotated phone photos read upright', async () => {
    const bytes = await makeExifRotatedJpeg(RECEIPT_LINES);
    const stored = await sharp(bytes).metadata();
    expect(stored.orientation).to.equal(6);
    expect(stored.height).to.be.greaterThan(stored.width ?? 0);

    const [page] = await loadImagePages(file('image/jpeg', bytes), limits);
    expect(page?.width).to.be.greaterThan(page?.height ?? Infinity);
    const words = await ocrText(page as GreyRaster);
    expect(words).to.include.members(['CORNER', 'CAFE', 'Street', 'TOTAL', '6.25']);
  });

  it('returns each distinct GIF frame once, in order', async () => {
    const gif = makeAnimatedGif([['FIRST PAGE'], ['SECOND PAGE'], ['THIRD PAGE']]);
    expect((await sharp(gif).metadata()).pages).to.equal(4);

    const pages = await loadImagePages(file('image/gif', gif), limits);
    expect(pages).to.have.length(3);
    const firstWords = await Promise.all(pages.map(async (page) => (await ocrText(page))[0]));
    expect(firstWords).to.deep.equal(['FIRST', 'SECOND', 'THIRD']);
  });

  it('returns the distinct frames of an animated WebP', async () => {
    const gif = makeAnimatedGif([['FIRST PAGE'], ['SECOND PAGE']]);
    const webp = await sharp(gif, { pages: -1 }).webp({ quality: 90 }).toBuffer();
    const pages = await loadImagePages(file('image/webp', webp), limits);
    expect(pages).to.have.length(2);
    expect((await ocrText(pages[1] as GreyRaster))[0]).to.equal('SECOND');
  });

  it('keeps at most maxGifFrames frames', async () => {
    const gif = makeAnimatedGif([['ONE'], ['TWO'], ['THREE']]);
    const pages = await loadImagePages(file('image/gif', gif), { ...limits, maxGifFrames: 2 });
    expect(pages).to.have.length(2);
  });

  it('flattens transparency onto white', async () => {
    const text = drawTextLines(['TRANSPARENT']);
    const alphaOnly = Buffer.alloc(text.width * text.height * 4);
    for (let i = 0; i < text.width * text.height; i++) alphaOnly[i * 4 + 3] = 255 - (text.rgba[i * 4] ?? 255);
    const png = await sharp(alphaOnly, { raw: { width: text.width, height: text.height, channels: 4 } }).png().toBuffer();

    const [page] = await loadImagePages(file('image/png', png), limits);
    const raster = page as GreyRaster;
    expect(raster.data[0]).to.equal(255);
    expect(await ocrText(raster)).to.deep.equal(['TRANSPARENT']);
  });

  it('refuses an image whose header declares too many pixels before decoding it', async () => {
    // the file is a header and no pixels: the size in the message is the one the header declares
    const error = await rejectionOf(loadImagePages(file('image/png', makeHugePngHeader(50_000, 50_000), 2), limits));
    expect(error.status).to.equal(400);
    expect(error.message).to.include('contents[2].data').and.include('MAX_PIXELS').and.include('50000 x 50000');
  });

  it('answers 400 naming the field for an undecodable image', async () => {
    const error = await rejectionOf(loadImagePages(file('image/png', makeCorruptPng(), 1), limits));
    expect(error.status).to.equal(400);
    expect(error.message).to.match(/^contents\[1\]\.data: image cannot be decoded \(.+\)$/);
  });

  it('answers 400 when the bytes are another image format than declared', async () => {
    const error = await rejectionOf(loadImagePages(file('image/jpeg', await makeReceiptImage('png')), limits));
    expect(error.status).to.equal(400);
    expect(error.message).to.include('contents[0].data').and.include('png');
  });

  it('decodes and resizes in one pass to the raster that decoding the whole image and resizing it gives, in every orientation', async function () {
    this.timeout(120_000);
    // noise, so that any difference in rounding shows; small (enlarged), large (shrunk, a 3400 x 4200 scan) and as is
    for (const [width, height] of [[400, 500], [3400, 4200], [1000, 1300]] as const) {
      const noise = Buffer.alloc(width * height * 3);
      let seed = 1;
      for (let i = 0; i < noise.length; i++) noise[i] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16;
      for (const orientation of [1, 3, 6]) {
        const jpeg = await sharp(noise, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).withMetadata({ orientation }).toBuffer();
        // the two passes of before: the whole image decoded upright and grey, then resized
        const whole = await sharp(jpeg).rotate().flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
        const expected = await prepareForOcr({ width: whole.info.width, height: whole.info.height, data: whole.data }, undefined);
        const [actual] = await loadImagePages(file('image/jpeg', jpeg), limits);
        const label = `${width} x ${height}, orientation ${orientation}`;
        expect([actual!.width, actual!.height, actual!.dpi], label).to.deep.equal([expected.width, expected.height, expected.dpi]);
        expect(Buffer.from(actual!.data).equals(Buffer.from(expected.data)), label).to.equal(true);
      }
    }
  });

  it('enlarges small images and reports the resulting resolution', async () => {
    const [page] = await loadImagePages(file('image/png', await makeReceiptImage('png')), limits);
    const source = drawTextLines(RECEIPT_LINES);
    expect(page?.width).to.be.greaterThan(source.width);
    expect(page?.dpi).to.equal(300);
  });
});

describe('OCR preprocessing', () => {
  it('enlarges only small images, shrinks huge scans, and caps the result', () => {
    expect(chooseScale(300, 400)).to.equal(3);
    expect(chooseScale(560, 416)).to.be.closeTo(1200 / 416, 1e-9);
    expect(chooseScale(620, 1268)).to.equal(1);
    expect(chooseScale(2480, 3508)).to.equal(1);
    expect(chooseScale(4961, 7016)).to.be.closeTo(2480 / 4961, 1e-9);
    expect(chooseScale(500, 60_000)).to.be.lessThan(1200 / 500);
    // no side enlarged past 20,000 px: a long receipt keeps its enlargement, a strip of one pixel gets none
    expect(chooseScale(500, 8000)).to.be.closeTo(1200 / 500, 1e-9);
    expect(chooseScale(300, 10_000)).to.equal(2);
    expect(chooseScale(4_000_000, 1)).to.equal(1);
  });

  it('reads a 4,000,000 x 1 PNG as it is, not enlarged to 11,832,160 x 3 (its read peaked at 872 MB)', async () => {
    const [page] = await loadImagePages(file('image/png', makeHugePngHeader(4_000_000, 1)), limits);
    expect([page?.width, page?.height]).to.deep.equal([4_000_000, 1]);
  });

  it('trusts only believable densities', () => {
    expect(dpiFor(undefined, 2)).to.equal(300);
    expect(dpiFor(72, 1)).to.equal(300);
    expect(dpiFor(96, 2)).to.equal(300);
    expect(dpiFor(50, 1)).to.equal(300);
    expect(dpiFor(200, 1)).to.equal(200);
    expect(dpiFor(600, 0.5)).to.equal(300);
  });

  it('orients frames exactly as sharp applies EXIF orientation', async () => {
    const width = 700;
    const height = 650;
    const data = Buffer.alloc(width * height, 255);
    for (let y = 0; y < 100; y++) data.fill(0, y * width, y * width + 300);
    for (let orientation = 1; orientation <= 8; orientation++) {
      const tagged = await sharp(data, { raw: { width, height, channels: 1 } }).png().withMetadata({ orientation }).toBuffer();
      const expected = await sharp(tagged).rotate().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
      const actual = await prepareForOcr({ width, height, data }, undefined, orientation);
      expect([actual.width, actual.height], `orientation ${orientation}`).to.deep.equal([expected.info.width, expected.info.height]);
      expect(Buffer.from(actual.data).equals(expected.data), `orientation ${orientation}`).to.equal(true);
    }
  });

  it('picks Otsu for a flat scan and Sauvola for a page on a dark background', () => {
    const scan = makeTextRaster(RECEIPT_LINES);
    expect(chooseThresholding(scan)).to.equal('otsu');
    const photo = { ...scan, data: Uint8Array.from(scan.data) };
    for (let y = 0; y < photo.height; y++) photo.data.fill(20, y * photo.width, y * photo.width + Math.floor(photo.width / 3));
    expect(chooseThresholding(photo)).to.equal('sauvola');
  });
});
