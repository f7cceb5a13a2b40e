import sharp, { type Sharp } from 'sharp';
import type { GreyRaster } from './raster.js';

/**
 * OCR preprocessing. Each choice was measured with Tesseract (PSM 6,
 * best_int model) on the dev receipts (20 SROIE scans, 20 WildReceipt phone
 * photos), scoring how closely each labelled field appears in the OCR text
 * (mean fuzzy similarity, 1 = every field found verbatim):
 *
 * - Upscaling helps small images only. Photos with a short side under 600 px
 *   scored 0.82 as they are, 0.89 enlarged 2x, 0.93 enlarged 3x; images of
 *   600-1000 px gained nothing on average (some scans lost up to 0.12) and
 *   took twice as long. So only short sides under UPSCALE_BELOW are enlarged,
 *   towards UPSCALE_TARGET, at most MAX_UPSCALE times (lanczos3 keeps strokes
 *   crisp).
 * - No contrast normalisation (sharp `normalise`): Tesseract's Otsu threshold
 *   ignores a linear stretch, and the percentile clipping turned faint JPEG
 *   noise on two scans into speckle that cost them most of their text
 *   (SROIE 0.95 -> 0.91 overall) and several times the OCR time.
 * - No binarisation here: Tesseract binarises itself, and chooseThresholding
 *   tells it when local (Sauvola) thresholding suits the page better.
 * - Very large scans (A4 at 600 DPI, 35 MP) are shrunk to a short side of
 *   DOWNSCALE_TARGET (A4 at 300 DPI): the same fields were found, in about a
 *   third of the time.
 */
export interface GreyFrame {
  width: number;
  height: number;
  /** One byte per pixel; alpha already flattened onto white. */
  data: Buffer;
}

const UPSCALE_BELOW = 600;
const UPSCALE_TARGET = 1200;
const MAX_UPSCALE = 3;
const DOWNSCALE_ABOVE = 3000;
const DOWNSCALE_TARGET = 2480;
/** Upscaling never produces more pixels than an A4 page at 600 DPI. */
const MAX_UPSCALED_PIXELS = 35_000_000;

/** 72 and 96 are what cameras and encoders write when they do not know the resolution. */
const PLACEHOLDER_DENSITIES = new Set([72, 96]);
const MIN_PLAUSIBLE_DPI = 70;
const MAX_PLAUSIBLE_DPI = 2400;
const ASSUMED_DPI = 300;

export function chooseScale(width: number, height: number): number {
  const shortSide = Math.min(width, height);
  if (shortSide > DOWNSCALE_ABOVE) return DOWNSCALE_TARGET / shortSide;
  if (shortSide >= UPSCALE_BELOW) return 1;
  const wanted = Math.min(MAX_UPSCALE, UPSCALE_TARGET / shortSide);
  const allowed = Math.sqrt(MAX_UPSCALED_PIXELS / (width * height));
  return Math.max(1, Math.min(wanted, allowed));
}

/**
 * The resolution the OCR raster represents: the file's own density scaled
 * like the pixels when it is believable, else 300 DPI, which is what the
 * rescaled text size roughly corresponds to.
 */
export function dpiFor(density: number | undefined, scale: number): number {
  if (density === undefined || PLACEHOLDER_DENSITIES.has(Math.round(density))) return ASSUMED_DPI;
  if (density < MIN_PLAUSIBLE_DPI || density > MAX_PLAUSIBLE_DPI) return ASSUMED_DPI;
  return Math.round(density * scale);
}

/**
 * Rotations and mirrors that display a frame stored with EXIF `orientation`
 * upright (sharp mirrors before it rotates; a test checks every case against
 * sharp's own EXIF handling).
 */
function orient(image: Sharp, orientation: number): Sharp {
  switch (orientation) {
    case 2:
      return image.flop();
    case 3:
      return image.rotate(180);
    case 4:
      return image.flip();
    case 5:
      return image.rotate(90).flip();
    case 6:
      return image.rotate(90);
    case 7:
      return image.rotate(90).flop();
    case 8:
      return image.rotate(270);
    default:
      return image;
  }
}

/**
 * Turns a decoded frame into the raster handed to OCR.
 * @param density pixels per inch from the file's metadata, if any
 * @param orientation EXIF orientation still to apply (1 when the decoder already did)
 */
export async function prepareForOcr(frame: GreyFrame, density: number | undefined, orientation = 1): Promise<GreyRaster> {
  const quarterTurn = orientation >= 5 && orientation <= 8;
  const [width, height] = quarterTurn ? [frame.height, frame.width] : [frame.width, frame.height];
  const scale = chooseScale(width, height);
  let image = orient(sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 1 } }), orientation);
  if (scale !== 1) {
    image = image.resize({
      width: Math.max(1, Math.round(width * scale)),
      height: Math.max(1, Math.round(height * scale)),
      fit: 'fill',
      kernel: 'lanczos3',
    });
  }
  // Without an explicit colourspace sharp turns single-channel input into sRGB on output.
  const { data, info } = await image.toColourspace('b-w').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected 1 channel after preprocessing, got ${info.channels}`);
  return { width: info.width, height: info.height, data, dpi: dpiFor(density, scale) };
}

/** The raster shrunk (keeping its aspect) so that neither side exceeds `maxSide`; itself when it already fits. */
export async function shrinkToSide(raster: GreyRaster, maxSide: number): Promise<GreyRaster> {
  const scale = maxSide / Math.max(raster.width, raster.height);
  if (scale >= 1) return raster;
  const width = Math.max(1, Math.floor(raster.width * scale));
  const height = Math.max(1, Math.floor(raster.height * scale));
  const data = await sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: 1 }, limitInputPixels: false })
    .resize({ width, height, fit: 'fill' })
    .toColourspace('b-w')
    .raw({ depth: 'uchar' })
    .toBuffer();
  return { width, height, data, dpi: Math.max(1, Math.round(raster.dpi * scale)) };
}

export type Thresholding = 'otsu' | 'sauvola';

const GRID = 16;
/** Above this, the page is lit unevenly or lies on a dark background (see chooseThresholding). */
const UNEVEN_BACKGROUND = 0.3;

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.floor(fraction * (sorted.length - 1))] ?? 0;
}

/**
 * Global Otsu suits flat scans; Sauvola (local) suits photos with shadows or
 * a dark table around the receipt. Sauvola everywhere lifted the photos from
 * 0.82 to 0.85 but cost the scans (0.95 -> 0.94, one receipt lost a third of
 * its text), so it is chosen per page: the raster is cut into a 16x16 grid of
 * mean brightness, and when the darker cells (10th percentile) sit more than
 * 30% below the bright ones (90th) the background is uneven. With this choice
 * photos reached 0.85 and scans kept 0.96. Samples about 65k pixels: well
 * under a millisecond.
 */
export function chooseThresholding(raster: GreyRaster): Thresholding {
  const cellWidth = raster.width / GRID;
  const cellHeight = raster.height / GRID;
  const step = Math.max(1, Math.floor(Math.min(cellWidth, cellHeight) / 16));
  const means: number[] = [];
  for (let gy = 0; gy < GRID; gy++) {
    for (let gx = 0; gx < GRID; gx++) {
      let sum = 0;
      let count = 0;
      for (let y = Math.floor(gy * cellHeight); y < Math.floor((gy + 1) * cellHeight); y += step) {
        const row = y * raster.width;
        for (let x = Math.floor(gx * cellWidth); x < Math.floor((gx + 1) * cellWidth); x += step) {
          sum += raster.data[row + x] ?? 0;
          count++;
        }
      }
      if (count > 0) means.push(sum / count);
    }
  }
  if (means.length === 0) return 'otsu';
  means.sort((a, b) => a - b);
  const bright = percentile(means, 0.9);
  if (bright <= 0) return 'otsu';
  return (bright - percentile(means, 0.1)) / bright > UNEVEN_BACKGROUND ? 'sauvola' : 'otsu';
}
