/**
 * Images whose headers lie (dimensions in the billions, frames that claim
 * more than they hold), images that are really huge or really small, GIFs
 * with hundreds of frames or frames of zero size, odd colour models and
 * orientations.
 */
import sharp from 'sharp';
import { drawTextLines, encodeGif, makeCorruptPng, makeHugePngHeader, sharpFromRgba } from '../../../test/fixtures/images.js';
import { basicSchema, DOCUMENT_LINES, entry, memo, requestCase, type Family, type FuzzCase, type MimeType } from '../case.js';
import type { Random } from '../random.js';

const FAMILY = 'images';

function imageCase(variant: string, bytes: Buffer, mimeType: MimeType, extra: Partial<FuzzCase> = {}): FuzzCase {
  return requestCase(FAMILY, variant, basicSchema(), [entry(bytes, mimeType, 'hostile-image')], extra);
}

/** Overwrites the width and height of a JPEG's first frame header (SOFn). */
function jpegWithSize(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let i = 2; i < out.length - 9; ) {
    if (out[i] !== 0xff) break;
    const marker = out[i + 1]!;
    const length = out.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
    i += 2 + length;
  }
  return out;
}

/** GIF89a logical screen of the given size holding one image of the given frame geometry, LZW data as given. */
function handmadeGif(screen: [number, number], frame: { left: number; top: number; width: number; height: number }, frames: number, lzw: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(screen[0], 6);
  header.writeUInt16LE(screen[1], 8);
  header[10] = 0x80; // global colour table of 2 entries
  const palette = Buffer.from([0, 0, 0, 255, 255, 255]);
  const parts: Buffer[] = [header, palette];
  for (let i = 0; i < frames; i++) {
    const descriptor = Buffer.alloc(10);
    descriptor[0] = 0x2c;
    descriptor.writeUInt16LE(frame.left, 1);
    descriptor.writeUInt16LE(frame.top, 3);
    descriptor.writeUInt16LE(frame.width, 5);
    descriptor.writeUInt16LE(frame.height, 7);
    parts.push(Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00]), descriptor, Buffer.from([0x02]), lzw, Buffer.from([0x00]));
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

/** LZW data for a 2-colour image: clear code, a few pixels, end code (in one sub-block). */
const TINY_LZW = Buffer.from([0x02, 0x4c, 0x01]);

type Variant = (rng: Random, png: Buffer) => Promise<FuzzCase> | FuzzCase;

const variants: Array<[Variant, number]> = [
  [(rng) => {
    const [w, h] = rng.pick([[50_000, 50_000], [8_000, 8_000], [4_000_000, 1], [1, 80_000_001], [0, 0], [0, 100], [65_535, 65_535]] as const);
    return imageCase(`PNG header says ${w}x${h}`, makeHugePngHeader(w, h), 'image/png');
  }, 3],
  [() => imageCase('PNG with garbage pixel data', makeCorruptPng(), 'image/png', { allowed: [400] }), 1],
  [async (rng, png) => {
    const jpeg = await memo('jpeg', () => sharp(png).jpeg().toBuffer());
    const [w, h] = rng.pick([[65_535, 65_535], [0, 100], [100, 0], [1, 1], [20_000, 20_000], [8_000, 8_000]] as const);
    return imageCase(`JPEG frame header says ${w}x${h}`, jpegWithSize(jpeg, w, h), 'image/jpeg');
  }, 3],
  [(rng) => {
    const screen = rng.pick([[65_535, 65_535], [1, 1], [0, 0], [10, 10]] as [number, number][]);
    const frame = rng.pick([{ left: 0, top: 0, width: 0, height: 0 }, { left: 0, top: 0, width: 10, height: 0 }, { left: 60_000, top: 60_000, width: 10, height: 10 }, { left: 0, top: 0, width: 65_535, height: 65_535 }, { left: 0, top: 0, width: 4, height: 4 }]);
    const frames = rng.pick([1, 2, 500]);
    return imageCase(`GIF screen ${screen.join('x')}, ${frames} frame(s) of ${frame.width}x${frame.height} at ${frame.left},${frame.top}`, handmadeGif(screen, frame, frames, TINY_LZW), 'image/gif');
  }, 4],
  [async (rng) => {
    // hundreds of distinct real frames: only MAX_GIF_FRAMES are read
    const frames = rng.pick([11, 100, 400]);
    const size = rng.pick([32, 120]);
    const gif = memo(`frames ${frames} ${size}`, () => encodeGif(Array.from({ length: frames }, (_, i) => {
      const image = drawTextLines([`F${i}`], size);
      return image;
    })));
    return imageCase(`GIF with ${frames} distinct frames`, gif, 'image/gif');
  }, 2],
  [async (rng) => {
    // really large but within MAX_PIXELS: a big blank page, cheap to send, costly to decode
    const [w, h] = rng.pick([[6_000, 6_000], [30_000, 2], [2, 30_000], [1, 1], [8_000, 9_999]] as const);
    const format = rng.pick(['png', 'jpeg', 'webp', 'gif'] as const);
    if (format === 'webp' && (w > 16_383 || h > 16_383)) return imageCase(`WebP ${w}x${h} refused by the encoder`, Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'), 'image/webp');
    const bytes = await memo(`blank ${format} ${w}x${h}`, () => sharp({ create: { width: w, height: h, channels: 3, background: '#ffffff' } }).toFormat(format).toBuffer());
    return imageCase(`blank ${format} ${w}x${h}`, bytes, `image/${format}` as MimeType);
  }, 2],
  [async (rng) => {
    const drawn = drawTextLines(DOCUMENT_LINES, 760);
    const kind = rng.pick(['16-bit PNG', 'palette PNG', 'interlaced PNG', 'grey+alpha PNG', 'CMYK JPEG', 'progressive JPEG', 'lossless WebP', 'EXIF orientation'] as const);
    const base = sharpFromRgba(drawn);
    let bytes: Buffer;
    let mime: MimeType = 'image/png';
    switch (kind) {
      case '16-bit PNG': bytes = await base.toColourspace('rgb16').png().toBuffer(); break;
      case 'palette PNG': bytes = await base.png({ palette: true, colours: 4 }).toBuffer(); break;
      case 'interlaced PNG': bytes = await base.png({ progressive: true }).toBuffer(); break;
      case 'grey+alpha PNG': bytes = await base.greyscale().ensureAlpha(0.5).png().toBuffer(); break;
      case 'CMYK JPEG': bytes = await base.toColourspace('cmyk').jpeg().toBuffer(); mime = 'image/jpeg'; break;
      case 'progressive JPEG': bytes = await base.jpeg({ progressive: true, quality: 50 }).toBuffer(); mime = 'image/jpeg'; break;
      case 'lossless WebP': bytes = await base.webp({ lossless: true }).toBuffer(); mime = 'image/webp'; break;
      default: bytes = await base.jpeg().withMetadata({ orientation: rng.int(1, 8) }).toBuffer(); mime = 'image/jpeg';
    }
    return imageCase(kind, bytes, mime);
  }, 2],
  [async (rng, png) => {
    // a WebP whose extended header claims a canvas of 16384 x 16384
    const webp = await memo('webp', () => sharp(png).webp().toBuffer());
    const vp8x = Buffer.alloc(18);
    vp8x.write('VP8X', 0, 'latin1');
    vp8x.writeUInt32LE(10, 4);
    const w = rng.pick([16_383, 1]);
    vp8x.writeUIntLE(w, 12, 3);
    vp8x.writeUIntLE(w, 15, 3);
    const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), vp8x, webp.subarray(12)]);
    const riff = Buffer.alloc(8);
    riff.write('RIFF', 0, 'latin1');
    riff.writeUInt32LE(rng.chance(0.5) ? body.length : 0xffffffff, 4);
    return imageCase(`WebP canvas ${w + 1}x${w + 1} over a small image`, Buffer.concat([riff, body]), 'image/webp');
  }, 2],
];

export const imagesFamily: Family = {
  name: FAMILY,
  weight: 10,
  generate: (rng, { seeds }) => rng.weighted(variants)(rng, seeds.png),
};
