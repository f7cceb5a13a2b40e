/**
 * The real files the corpus mutates: one of every supported type, generated
 * in code (test/fixtures), each carrying DOCUMENT_LINES and so the markers.
 * Images and scanned pages are kept small so that OCR stays cheap.
 */
import sharp from 'sharp';
import { drawTextLines, encodeGif, sharpFromRgba } from '../../test/fixtures/images.js';
import { buildPdf, makeEncryptedPdf, makeFormPdf, makeInvoicePdf, makeTextPdf } from '../../test/fixtures/pdfs.js';
import { DOCUMENT_LINES, type MimeType, type SeedFile, type SeedFiles } from './case.js';

/** Wide enough for the e-mail line; images stay small so that OCR of the many that still decode stays cheap. */
const IMAGE_WIDTH = 760;

async function smallScannedPdf(png: Buffer): Promise<Buffer> {
  const { width = 1, height = 1 } = await sharp(png).metadata();
  // 300 dpi, the render resolution: the page is OCRed at the image's own size
  const size: [number, number] = [(width * 72) / 300, (height * 72) / 300];
  return buildPdf({ size, margin: 0 }, (doc) => {
    doc.image(png, 0, 0, { width: size[0], height: size[1] });
  });
}

let cached: Promise<SeedFiles> | undefined;

export function loadSeeds(): Promise<SeedFiles> {
  cached ??= buildSeeds();
  return cached;
}

async function buildSeeds(): Promise<SeedFiles> {
  // blank lines below the text make the image 600 px tall: smaller images are upscaled for OCR, which costs more
  const drawn = drawTextLines([...DOCUMENT_LINES, '', '', '', ''], IMAGE_WIDTH);
  const png = await sharpFromRgba(drawn).png().toBuffer();
  const jpeg = await sharpFromRgba(drawn).jpeg({ quality: 85 }).toBuffer();
  const webp = await sharpFromRgba(drawn).webp({ quality: 85 }).toBuffer();
  const gif = encodeGif([drawn]);
  const animatedGif = encodeGif([drawn, drawTextLines(DOCUMENT_LINES.slice(0, 3), IMAGE_WIDTH)]);
  const textPdf = await makeTextPdf([DOCUMENT_LINES, ['Page two', ...DOCUMENT_LINES.slice(3)]]);
  const scannedPdf = await smallScannedPdf(png);
  const encryptedPdf = await makeEncryptedPdf();
  const all: SeedFile[] = [
    { name: 'png', mimeType: 'image/png', bytes: png },
    { name: 'jpeg', mimeType: 'image/jpeg', bytes: jpeg },
    { name: 'webp', mimeType: 'image/webp', bytes: webp },
    { name: 'gif', mimeType: 'image/gif', bytes: gif },
    { name: 'animated-gif', mimeType: 'image/gif', bytes: animatedGif },
    { name: 'text-pdf', mimeType: 'application/pdf', bytes: textPdf },
    { name: 'invoice-pdf', mimeType: 'application/pdf', bytes: await makeInvoicePdf() },
    { name: 'scanned-pdf', mimeType: 'application/pdf', bytes: scannedPdf },
    { name: 'form-pdf', mimeType: 'application/pdf', bytes: await makeFormPdf() },
  ];
  return {
    all,
    byType: (mimeType) => all.filter((file) => file.mimeType === mimeType),
    textPdf,
    scannedPdf,
    png,
    encryptedPdf,
  };
}
