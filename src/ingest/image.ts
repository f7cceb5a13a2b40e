import sharp, { type Metadata, type Sharp } from 'sharp';
import type { Limits } from '../config.js';
import { AppError, badRequest } from '../errors.js';
import { dataField, type DecodedFile } from './decode.js';
import { dpiFor, ocrSize, prepareForOcr, resizeForOcr, type GreyFrame } from './preprocess.js';
import type { GreyRaster } from '../document/raster.js';

type ImageLimits = Pick<Limits, 'maxPixelsPerImage' | 'maxGifFrames'>;

const SHARP_FORMAT_BY_MIME: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/tiff': 'tiff',
};

interface ImageHeader {
  width: number;
  /** Height of one frame. */
  height: number;
  frames: number;
  orientation: number;
  density: number | undefined;
}

/**
 * libvips keeps one error buffer per process, so under concurrent decodes its
 * message for one file may be another's, or "Unknown error": the caller gets a
 * stable sentence instead, and the cause stays on the error for the logs.
 */
function undecodable(file: DecodedFile, cause: unknown): Error {
  const format = SHARP_FORMAT_BY_MIME[file.mimeType]?.toUpperCase() ?? 'image';
  return new AppError('bad_request', `${dataField(file)}: image cannot be decoded (the ${format} data is truncated or corrupt)`, { cause });
}

/** Reads only the header, so an image that is too large is refused before any pixel is decoded. */
async function readHeader(file: DecodedFile, limits: ImageLimits, page?: number): Promise<ImageHeader> {
  const expected = SHARP_FORMAT_BY_MIME[file.mimeType];
  if (!expected) throw new Error(`loadImagePages called with ${file.mimeType}`);
  let metadata: Metadata;
  try {
    // No pixel limit here: the header is all that is read, and the limit is checked below with a clear message.
    metadata = await sharp(file.bytes, { limitInputPixels: false, ...(page === undefined ? {} : { page }) }).metadata();
  } catch (error) {
    throw undecodable(file, error);
  }
  if (metadata.format !== expected) {
    throw badRequest(`${dataField(file)}: bytes are ${metadata.format ?? 'not an image'}, not ${file.mimeType}`);
  }
  const width = metadata.width ?? 0;
  const height = metadata.pageHeight ?? metadata.height ?? 0;
  if (width <= 0 || height <= 0) throw undecodable(file, new Error('no dimensions'));
  const pixels = width * height;
  if (pixels > limits.maxPixelsPerImage) {
    const which = page === undefined ? 'image' : `page ${page + 1} of the image`;
    throw badRequest(
      `${dataField(file)}: ${which} is ${width} x ${height} = ${pixels} pixels; the limit is ${limits.maxPixelsPerImage} pixels per image (MAX_PIXELS)`,
    );
  }
  return {
    width,
    height,
    frames: Math.max(1, metadata.pages ?? 1),
    orientation: metadata.orientation ?? 1,
    density: metadata.density,
  };
}

function decoderFor(file: DecodedFile, limits: ImageLimits, pages: number): Sharp {
  // 'error' refuses truncated or corrupt data (the caller should learn that the upload is broken)
  // but, unlike the default 'warning', tolerates benign warnings such as a slightly odd ICC profile.
  return sharp(file.bytes, { pages, limitInputPixels: limits.maxPixelsPerImage, failOn: 'error' });
}

async function decodeGrey(file: DecodedFile, image: Sharp): Promise<GreyFrame> {
  try {
    const { data, info } = await image
      .flatten({ background: '#ffffff' })
      .greyscale()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`decoded to ${info.channels} channels instead of 1`);
    return { data, width: info.width, height: info.height };
  } catch (error) {
    throw undecodable(file, error);
  }
}

/**
 * All frames are decoded in one pass (libvips composites GIF frames in
 * order, so decoding them one by one would redo the earlier ones), at most
 * MAX_PIXELS worth of them. A frame equal to the one before it is skipped:
 * comparing bytes is cheaper than hashing them.
 */
async function decodeDistinctFrames(file: DecodedFile, header: ImageHeader, limits: ImageLimits): Promise<Array<GreyFrame & { index: number }>> {
  const framePixels = header.width * header.height;
  const framesToRead = Math.min(header.frames, Math.max(1, Math.floor(limits.maxPixelsPerImage / framePixels)));
  const strip = await decodeGrey(file, decoderFor(file, limits, framesToRead));
  const frames: Array<GreyFrame & { index: number }> = [];
  let previous: Buffer | undefined;
  for (let i = 0; i < framesToRead && frames.length < limits.maxGifFrames; i++) {
    const data = strip.data.subarray(i * framePixels, (i + 1) * framePixels);
    if (data.length < framePixels) break;
    if (previous?.equals(data)) continue;
    previous = data;
    frames.push({ width: header.width, height: header.height, data, index: i });
  }
  return frames;
}

/**
 * Decodes an uploaded image into OCR-ready greyscale rasters: one per
 * distinct frame (GIF/WebP animations), EXIF orientation applied.
 */
export async function loadImagePages(file: DecodedFile, limits: ImageLimits): Promise<GreyRaster[]> {
  const header = await readHeader(file, limits);
  if (header.frames === 1) {
    const quarterTurn = header.orientation >= 5 && header.orientation <= 8;
    const size = quarterTurn ? ocrSize(header.height, header.width) : ocrSize(header.width, header.height);
    const upright = decoderFor(file, limits, 1).rotate();
    // An upright image is decoded and resized in one pass: a 35 MP scan never lies whole in memory (35 MB of
    // grey, and libvips' buffers to make it), only its 8.7 MP raster. One stored turned or mirrored and resized
    // is turned first and resized apart: in one pass libvips resizes before it turns, which rounds otherwise.
    if (size.scale === 1 || header.orientation === 1) {
      const frame = await decodeGrey(file, size.scale === 1 ? upright : resizeForOcr(upright, size));
      return [{ ...frame, dpi: dpiFor(header.density, size.scale) }];
    }
    return [await prepareForOcr(await decodeGrey(file, upright), header.density)];
  }
  // sharp cannot turn a multi-frame strip by 90 degrees, so each frame is oriented on its own.
  const frames = await decodeDistinctFrames(file, header, limits);
  const rasters: GreyRaster[] = [];
  for (const frame of frames) rasters.push(await prepareForOcr(frame, header.density, header.orientation));
  return rasters;
}

/**
 * Which frames of the file loadImagePages reads as its pages: page i is
 * frame indexes[i] (frames repeating the one before them are no pages).
 */
export async function distinctFrameIndexes(file: DecodedFile, limits: ImageLimits): Promise<number[]> {
  const header = await readHeader(file, limits);
  if (header.frames === 1) return [0];
  return (await decodeDistinctFrames(file, header, limits)).map((frame) => frame.index);
}

/**
 * A TIFF's pages, each decoded when it is OCRed (`load`), so that a scan of
 * 100 pages is never in memory at once. Pages may differ in size, so each
 * is read on its own (sharp `{page}`): its header first, against MAX_PIXELS,
 * then its pixels at its own resolution (a fax's 204 or 200 DPI, a scan's
 * 300). The page count is checked against `maxPages` before any page is
 * read: a header claiming 10,000 pages costs only the count (libtiff walks
 * the directory chain). libvips' libtiff reads CCITT G3/G4, LZW, Deflate,
 * JPEG and PackBits, 1-bit to RGB.
 */
export async function tiffPages(file: DecodedFile, limits: ImageLimits, maxPages: number): Promise<Array<{ index: number; load: () => Promise<GreyRaster> }>> {
  const first = await readHeader(file, limits, 0);
  if (first.frames > maxPages) {
    throw badRequest(`${dataField(file)}: TIFF has ${first.frames} pages, more than the ${maxPages} left of the per-request page limit (MAX_PAGES)`);
  }
  return Array.from({ length: first.frames }, (_, index) => ({
    index,
    load: async () => {
      const header = index === 0 ? first : await readHeader(file, limits, index);
      const quarterTurn = header.orientation >= 5 && header.orientation <= 8;
      const size = quarterTurn ? ocrSize(header.height, header.width) : ocrSize(header.width, header.height);
      const upright = sharp(file.bytes, { page: index, limitInputPixels: limits.maxPixelsPerImage, failOn: 'error' }).rotate();
      // as loadImagePages: resized in the same pass only when upright (libvips would resize before it turns)
      if (size.scale !== 1 && header.orientation !== 1) return prepareForOcr(await decodeGrey(file, upright), header.density);
      const frame = await decodeGrey(file, size.scale === 1 ? upright : resizeForOcr(upright, size));
      return { ...frame, dpi: dpiFor(header.density, size.scale) };
    },
  }));
}
