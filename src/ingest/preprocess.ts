import sharp, { type Sharp } from 'sharp';
import type { GreyRaster } from '../document/raster.js';

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
 * - No binarisation here: each OCR engine binarises itself (Tesseract is told
 *   which thresholding suits the page, see ocr/tesseract/thresholding.ts).
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
/**
 * Nor a side longer than this (a long receipt 500 px wide and 8,000 tall
 * becomes 1,200 x 19,200). libvips' lanczos3 holds buffers as wide as the
 * image: a 4 KB PNG of 4,000,000 x 1 pixels, enlarged within the pixel cap
 * to 11,832,160 x 3, peaked at 872 MB while it was read.
 */
const MAX_UPSCALED_SIDE = 20_000;

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
  const allowed = Math.min(Math.sqrt(MAX_UPSCALED_PIXELS / (width * height)), MAX_UPSCALED_SIDE / Math.max(width, height));
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

/** The OCR raster's size for a frame shown `width` x `height` (orientation applied): chooseScale's, rounded to whole pixels. */
export function ocrSize(width: number, height: number): { scale: number; width: number; height: number } {
  const scale = chooseScale(width, height);
  return scale === 1 ? { scale, width, height } : { scale, width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The resize to the OCR raster's size: lanczos3 keeps strokes crisp. */
export function resizeForOcr(image: Sharp, size: { width: number; height: number }): Sharp {
  // fastShrinkOnLoad off: a JPEG is decoded at a fraction of its size only when it shrinks 4 times or more
  // (a short side over 9,920 px), so the raster is the one decoding it whole would give
  return image.resize({ width: size.width, height: size.height, fit: 'fill', kernel: 'lanczos3', fastShrinkOnLoad: false });
}

/**
 * Turns a decoded frame into the raster handed to OCR.
 * @param density pixels per inch from the file's metadata, if any
 * @param orientation EXIF orientation still to apply (1 when the decoder already did)
 */
export async function prepareForOcr(frame: GreyFrame, density: number | undefined, orientation = 1): Promise<GreyRaster> {
  const quarterTurn = orientation >= 5 && orientation <= 8;
  const [width, height] = quarterTurn ? [frame.height, frame.width] : [frame.width, frame.height];
  const size = ocrSize(width, height);
  let image = orient(sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 1 } }), orientation);
  if (size.scale !== 1) image = resizeForOcr(image, size);
  // Without an explicit colourspace sharp turns single-channel input into sRGB on output.
  const { data, info } = await image.toColourspace('b-w').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected 1 channel after preprocessing, got ${info.channels}`);
  return { width: info.width, height: info.height, data, dpi: dpiFor(density, size.scale) };
}
