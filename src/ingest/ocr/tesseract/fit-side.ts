import sharp from 'sharp';
import type { GreyRaster } from '../../../document/raster.js';

/**
 * Tesseract (Leptonica) fails a job whose raster has a side over this many
 * pixels (a 2 x 30,000 px GIF, upscaled for OCR, made every request with it a
 * 500). Such rasters are shrunk to fit first.
 */
export const MAX_OCR_SIDE = 32_767;

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
