import type { GreyRaster } from '../../document/raster.js';

/** The raster turned clockwise by 90 or 270 degrees (a plain index transform). */
export function rotateRaster(raster: GreyRaster, degrees: 90 | 270): GreyRaster {
  const { width: w, height: h, data } = raster;
  const out = new Uint8Array(w * h);
  // Output is h wide and w tall; output (x, y) comes from input (y, h-1-x) for 90, (w-1-y, x) for 270.
  if (degrees === 90) {
    for (let y = 0; y < w; y++) {
      const row = y * h;
      for (let x = 0; x < h; x++) out[row + x] = data[(h - 1 - x) * w + y] as number;
    }
  } else {
    for (let y = 0; y < w; y++) {
      const row = y * h;
      const sx = w - 1 - y;
      for (let x = 0; x < h; x++) out[row + x] = data[x * w + sx] as number;
    }
  }
  return { width: h, height: w, data: out, dpi: raster.dpi };
}
