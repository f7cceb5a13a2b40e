/**
 * Pixels into model inputs: the page shrunk (or grown) for the detector,
 * and text lines sampled straight out of the page at the recogniser's and
 * classifier's height. Every input has 3 channels; our rasters are grey, so
 * the three planes differ only by the per-channel normalisation.
 */
import type { GreyRaster } from '../../../document/raster.js';
import { pointIn, type Quad } from './geometry.js';

/** ImageNet statistics, which PP-OCR's detectors are trained with (scale 1/255, then (v - mean) / std). */
const DETECTOR_MEAN = [0.485, 0.456, 0.406] as const;
const DETECTOR_STD = [0.229, 0.224, 0.225] as const;

export interface DetectorInput {
  data: Float32Array;
  width: number;
  height: number;
}

/**
 * Box-filter resampling of a grey raster to `width` x `height` (each output
 * pixel averages the input area it covers, so shrinking a 5000 px scan keeps
 * thin strokes instead of aliasing them away; growing falls back to bilinear).
 * Writes the normalised detector planes directly.
 */
export function detectorInput(raster: GreyRaster, width: number, height: number): DetectorInput {
  const plane = width * height;
  const data = new Float32Array(3 * plane);
  const scaleX = raster.width / width;
  const scaleY = raster.height / height;
  const lookup = [0, 1, 2].map((c) => Float32Array.from({ length: 256 }, (_, v) => (v / 255 - (DETECTOR_MEAN[c] as number)) / (DETECTOR_STD[c] as number)));
  const [l0, l1, l2] = lookup as [Float32Array, Float32Array, Float32Array];
  const write = (i: number, value: number) => {
    const grey = Math.min(255, Math.max(0, Math.round(value)));
    data[i] = l0[grey] as number;
    data[plane + i] = l1[grey] as number;
    data[2 * plane + i] = l2[grey] as number;
  };
  if (scaleX > 1 || scaleY > 1) {
    areaMeans(raster, width, height, write);
  } else {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) write(y * width + x, bilinear(raster, (x + 0.5) * scaleX - 0.5, (y + 0.5) * scaleY - 0.5));
    }
  }
  return { data, width, height };
}

/**
 * The whole input pixels under each output pixel's footprint, [start, end)
 * along one axis: from floor(i * scale) for floor(scale) pixels, at least one.
 */
function footprints(inputSize: number, outputSize: number): { start: Int32Array; end: Int32Array } {
  const scale = inputSize / outputSize;
  const start = new Int32Array(outputSize);
  const end = new Int32Array(outputSize);
  for (let i = 0; i < outputSize; i++) {
    const first = Math.min(inputSize - 1, Math.floor(i * scale));
    start[i] = first;
    end[i] = Math.min(inputSize, Math.max(first + 1, Math.floor(i * scale + scale)));
  }
  return { start, end };
}

/**
 * Mean of the input pixels under each output pixel's footprint, row of
 * footprints by row: the input rows of one are summed per column (integers,
 * so exact), then each output pixel adds up its columns of those sums.
 */
function areaMeans(raster: GreyRaster, width: number, height: number, write: (i: number, value: number) => void): void {
  const { data, width: rw } = raster;
  const columns = footprints(rw, width);
  const rows = footprints(raster.height, height);
  const sums = new Int32Array(rw);
  for (let y = 0; y < height; y++) {
    const y0 = rows.start[y] as number;
    const y1 = rows.end[y] as number;
    sums.fill(0);
    for (let row = y0; row < y1; row++) {
      const offset = row * rw;
      for (let x = 0; x < rw; x++) sums[x] = (sums[x] as number) + (data[offset + x] as number);
    }
    const out = y * width;
    for (let x = 0; x < width; x++) {
      const x0 = columns.start[x] as number;
      const x1 = columns.end[x] as number;
      let sum = 0;
      for (let column = x0; column < x1; column++) sum += sums[column] as number;
      write(out + x, sum / ((x1 - x0) * (y1 - y0)));
    }
  }
}

/** Bilinear sample at a fractional position (edges repeat). */
export function bilinear(raster: GreyRaster, x: number, y: number): number {
  const cx = Math.min(raster.width - 1, Math.max(0, x));
  const cy = Math.min(raster.height - 1, Math.max(0, y));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(raster.width - 1, x0 + 1);
  const y1 = Math.min(raster.height - 1, y0 + 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const { data, width } = raster;
  const top = (data[y0 * width + x0] as number) * (1 - fx) + (data[y0 * width + x1] as number) * fx;
  const bottom = (data[y1 * width + x0] as number) * (1 - fx) + (data[y1 * width + x1] as number) * fx;
  return top * (1 - fy) + bottom * fy;
}

/**
 * Samples the quad of the page into a `width` x `height` grey strip (text
 * running left to right, whatever way it runs on the page). Where the strip
 * is much smaller than the quad, several samples per output pixel are
 * averaged so small print shrunk to the model's height keeps its strokes.
 */
export function sampleQuad(raster: GreyRaster, quad: Quad, width: number, height: number): Uint8Array {
  const across = Math.hypot(quad[3].x - quad[0].x, quad[3].y - quad[0].y) / height;
  const along = Math.hypot(quad[1].x - quad[0].x, quad[1].y - quad[0].y) / width;
  const samples = Math.min(3, Math.max(1, Math.round(Math.max(across, along))));
  const sums = new Float32Array(width * height);
  const { data, width: rw, height: rh } = raster;
  const maxX = rw - 1;
  const maxY = rh - 1;
  // Along one sampling row (fixed v) the quad's bilinear map is linear in u: start point plus a constant step.
  for (let y = 0; y < height; y++) {
    for (let sy = 0; sy < samples; sy++) {
      const v = (y + (sy + 0.5) / samples) / height;
      const left = pointIn(quad, 0, v);
      const right = pointIn(quad, 1, v);
      const stepX = (right.x - left.x) / (width * samples);
      const stepY = (right.y - left.y) / (width * samples);
      let px = left.x + stepX / 2 - 0.5;
      let py = left.y + stepY / 2 - 0.5;
      const row = y * width;
      for (let i = 0; i < width * samples; i++, px += stepX, py += stepY) {
        const cx = px < 0 ? 0 : px > maxX ? maxX : px;
        const cy = py < 0 ? 0 : py > maxY ? maxY : py;
        const x0 = cx | 0;
        const y0 = cy | 0;
        const x1 = x0 < maxX ? x0 + 1 : x0;
        const y1 = y0 < maxY ? y0 + 1 : y0;
        const fx = cx - x0;
        const fy = cy - y0;
        const top = (data[y0 * rw + x0] as number) + ((data[y0 * rw + x1] as number) - (data[y0 * rw + x0] as number)) * fx;
        const bottom = (data[y1 * rw + x0] as number) + ((data[y1 * rw + x1] as number) - (data[y1 * rw + x0] as number)) * fx;
        const target = row + ((i / samples) | 0);
        sums[target] = (sums[target] as number) + top + (bottom - top) * fy;
      }
    }
  }
  const out = new Uint8Array(width * height);
  const count = samples * samples;
  for (let i = 0; i < out.length; i++) out[i] = Math.round((sums[i] as number) / count);
  return out;
}

/**
 * Writes a strip into one item of a recogniser/classifier batch tensor
 * (N x 3 x height x batchWidth), normalised to [-1, 1]; the rest of the row
 * stays 0, the padding PP-OCR is trained with.
 */
export function writeStrip(tensor: Float32Array, item: number, strip: Uint8Array, stripWidth: number, height: number, batchWidth: number): void {
  const plane = height * batchWidth;
  const base = item * 3 * plane;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < stripWidth; x++) {
      const value = (strip[y * stripWidth + x] as number) / 127.5 - 1;
      const i = base + y * batchWidth + x;
      tensor[i] = value;
      tensor[i + plane] = value;
      tensor[i + 2 * plane] = value;
    }
  }
}
