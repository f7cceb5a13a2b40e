/**
 * European letters and currency signs through the OCR a fresh install uses:
 * no OCR_* setting, so OCR_ENGINE=auto, OCR_LANGS=eng and the default PP-OCR
 * models (DEFAULT_PADDLE_MODEL_SET). The page is drawn in code with the
 * LiberationSans font pdfjs-dist ships, which has every one of these glyphs.
 */
import { expect } from 'chai';
import sharp from 'sharp';
import { DEFAULT_PADDLE_MODEL_SET, loadConfig } from '../../../src/config.js';
import type { GreyRaster } from '../../../src/document/raster.js';
import { createOcrEngine, type OcrEngine } from '../../../src/ingest/ocr-choice.js';
import { renderTextImage } from '../../fixtures/pdfs.js';

/** Each of € £ ä ö ü ß é è ç ñ ø å œ at least once, in words an invoice prints. */
const LINES = ['Müller & Söhne GmbH', 'Hauptstraße 12, 50667 Köln', 'Café Lefèvre, Façade', 'Señor Peña', 'Søren på Bornholm', 'Geschäft du cœur', 'Gesamtbetrag 1.234,56 €', 'Total £ 12.50'];
const CHARACTERS = [...'€£äöüßéèçñøåœ'];

async function scannedPage(lines: string[]): Promise<GreyRaster> {
  const { png } = await renderTextImage(lines, { fontSize: 40 });
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height), dpi: 300 };
}

describe('default OCR: European letters and currency signs', function () {
  this.timeout(180_000);
  let engine: OcrEngine | undefined;

  after(async () => {
    await engine?.close();
  });

  it(`reads ${CHARACTERS.join(' ')} back from a scanned page, every word as printed`, async () => {
    const created = await createOcrEngine({ ...loadConfig({}).ocr, workers: 1 });
    engine = created.engine;
    expect(engine.name).to.equal('paddle');
    expect(created.reason).to.include(DEFAULT_PADDLE_MODEL_SET);

    const read = (await engine.recognize(await scannedPage(LINES))).words.map((word) => word.text);
    const text = read.join(' ');
    expect(CHARACTERS.filter((character) => !text.includes(character)), `read: ${text}`).to.deep.equal([]);
    // Word by word as printed, with the punctuation that ends them ("12,", "Lefèvre,").
    const printed = LINES.flatMap((line) => line.split(' '));
    expect(printed.filter((word) => !read.includes(word)), `read: ${text}`).to.deep.equal([]);
  });

  it("reads Romanian's comma-below ș ț with OCR_LANGS=ron, which the default's quick recogniser cannot write", async () => {
    const created = await createOcrEngine({ ...loadConfig({ OCR_LANGS: 'ron' }).ocr, workers: 1 });
    await engine?.close();
    engine = created.engine;
    expect(engine.name).to.equal('paddle');
    // Lower case: PP-OCRv6 small itself reads the capitals Ș Ț as Ş and T.
    const romanian = ['Timișoara, județul Timiș', 'Piața Unirii, București'];
    const text = (await engine.recognize(await scannedPage(romanian))).words.map((word) => word.text).join(' ');
    expect(romanian.flatMap((line) => line.split(' ')).filter((word) => !text.split(' ').includes(word)), `read: ${text}`).to.deep.equal([]);
  });
});
