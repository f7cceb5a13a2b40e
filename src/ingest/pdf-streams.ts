/**
 * A look at a PDF's streams before pdf.js reads it: the size each non-image
 * stream inflates to. pdf.js decodes a whole stream into memory and offers no
 * limit, and reading text costs it some 60 bytes per character of a content
 * stream (a 20 MB stream of one word peaked at 900 MB, 300 MB at 3.4 GB; a worker's
 * resourceLimits do not help: a single growth of pdf.js's token buffer past the
 * limit ends the whole process, not the thread). Images are left to pdf.js's
 * own pixel limit (maxImageSize).
 *
 * The scan reads the raw bytes, not the object graph: every `stream` keyword,
 * the dictionary before it, the data up to the next `endstream` (a lying
 * /Length cannot hide data). FlateDecode, LZWDecode and RunLengthDecode (the
 * filters that expand: LZW up to some 2,700 times, RunLength 64) and the ASCII
 * encodings, in any chain, are decoded with a bounded output; decoding stops
 * at any other filter (DCT, JPX, CCITT, JBIG2: images) and the check applies
 * to what was decoded so far.
 */
import { createInflate, constants as zlibConstants } from 'node:zlib';

export interface OversizedStream {
  /** Object number from "N G obj", when the dictionary is preceded by one. */
  objectNumber?: number;
  /** Bytes decoded when the scan stopped: more than the limit. */
  decodedBytes: number;
  /** The limit that applied to this stream. */
  limit: number;
}

const STREAM = Buffer.from('stream', 'latin1');
const END_STREAM = Buffer.from('endstream', 'latin1');
/** How far before `stream` the dictionary is looked for; a stream dictionary longer than this is read from its tail. */
const DICTIONARY_WINDOW = 4096;

interface RawStream {
  dictionary: string;
  data: Buffer;
}

function* rawStreams(pdf: Buffer): Generator<RawStream> {
  let from = 0;
  for (;;) {
    const at = pdf.indexOf(STREAM, from);
    if (at < 0) return;
    from = at + STREAM.length;
    if (at >= 3 && pdf.toString('latin1', at - 3, at) === 'end') continue;
    let dataStart = from;
    if (pdf[dataStart] === 0x0d) dataStart++;
    if (pdf[dataStart] === 0x0a) dataStart++;
    if (dataStart === from) continue; // "stream" inside a name or string, not the keyword
    const end = pdf.indexOf(END_STREAM, dataStart);
    const dataEnd = end < 0 ? pdf.length : end;
    yield { dictionary: pdf.toString('latin1', Math.max(0, at - DICTIONARY_WINDOW), at), data: pdf.subarray(dataStart, dataEnd) };
    from = dataEnd;
  }
}

/** The dictionary of the object the stream belongs to: the text after the last "N G obj" of the window. */
function ownDictionary(window: string): { text: string; objectNumber?: number } {
  const objects = [...window.matchAll(/(\d+)\s+\d+\s+obj\b/g)];
  const last = objects.at(-1);
  if (!last) return { text: window };
  return { text: window.slice(last.index + last[0].length), objectNumber: Number(last[1]) };
}

export function filtersOf(dictionary: string): string[] {
  const match = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]()]+)/.exec(dictionary);
  if (!match) return [];
  return [...match[1]!.matchAll(/\/([^\s/<>[\]()]+)/g)].map((name) => name[1]!);
}

/**
 * Font programs are decoded to a buffer and parsed at a few bytes per byte (a
 * full CJK font is 10-20 MB), so they get a wider limit; images are left to
 * pdf.js's pixel limit and attachments are never decoded for reading text.
 */
const FONT_PROGRAM_MIN_LIMIT = 64 * 1024 * 1024;

function limitFor(dictionary: string, maxBytes: number): number | undefined {
  if (/\/Subtype\s*\/Image\b|\/Type\s*\/EmbeddedFile\b/.test(dictionary)) return undefined;
  if (/\/Length1\b|\/Subtype\s*\/(?:Type1C|CIDFontType0C|OpenType)\b/.test(dictionary)) return Math.max(maxBytes, FONT_PROGRAM_MIN_LIMIT);
  return maxBytes;
}

/** Inflates up to `limit` + 1 bytes; a damaged or cut-off stream yields what came before the damage, as pdf.js reads it. */
function boundedInflate(data: Buffer, limit: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const inflate = createInflate({ finishFlush: zlibConstants.Z_SYNC_FLUSH });
    const finish = () => resolve(Buffer.concat(chunks, size));
    inflate.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        inflate.destroy();
        finish();
      }
    });
    inflate.on('error', finish);
    inflate.on('end', finish);
    inflate.end(data);
  });
}

function hexDecode(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const end = text.indexOf('>');
  const digits = (end < 0 ? text : text.slice(0, end)).replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
}

/** ASCII base-85 ("<~ ... ~>"): five characters to four bytes, "z" for four zero bytes; at most four times its input. */
function ascii85Decode(data: Buffer, limit: number): Buffer {
  const out = Buffer.alloc(Math.min(limit + 4, data.length * 4 + 4));
  let size = 0;
  let group = 0;
  let count = 0;
  let i = data[0] === 0x3c && data[1] === 0x7e ? 2 : 0; // "<~"
  for (; i < data.length && size <= limit; i++) {
    const c = data[i]!;
    if (c === 0x7e) break; // "~>"
    if (c === 0x7a && count === 0) {
      size += 4; // "z": four zero bytes (the buffer is zeroed)
      continue;
    }
    if (c < 0x21 || c > 0x75) continue; // white space and anything else pdf.js skips
    group = group * 85 + (c - 0x21);
    if (++count === 5) {
      out.writeUInt32BE(group >>> 0, size);
      size += 4;
      group = 0;
      count = 0;
    }
  }
  if (count > 1 && size <= limit) {
    // a short last group: padded with "u", as many bytes as characters less one
    for (let k = count; k < 5; k++) group = group * 85 + 84;
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(group >>> 0);
    tail.copy(out, size, 0, count - 1);
    size += count - 1;
  }
  return out.subarray(0, Math.min(size, out.length));
}

/** RunLength: a length byte n, then n + 1 bytes as they are (n < 128) or one byte 257 - n times (n > 128); 128 ends. */
function runLengthDecode(data: Buffer, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let size = 0;
  for (let i = 0; i < data.length && size <= limit; ) {
    const n = data[i++]!;
    if (n === 128) break;
    if (n < 128) {
      const literal = data.subarray(i, i + n + 1);
      chunks.push(literal);
      size += literal.length;
      i += n + 1;
    } else if (i < data.length) {
      chunks.push(Buffer.alloc(257 - n, data[i++]!));
      size += 257 - n;
    }
  }
  return Buffer.concat(chunks, size);
}

/**
 * LZW as PDF writes it: codes of 9 to 12 bits, most significant bit first,
 * 256 clears the table, 257 ends; with EarlyChange 1 (the default) the code
 * width grows one code early. A full table is kept (no clear needed), so a
 * code can stand for 4,096 bytes: the filter's bomb.
 */
function lzwDecode(data: Buffer, limit: number, earlyChange: number): Buffer {
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  for (let code = 0; code < 256; code++) {
    suffix[code] = code;
    length[code] = 1;
  }
  // grown as needed: a font program's limit is 64 MB, most streams decode to far less
  let out = Buffer.alloc(Math.min(limit + 4097, Math.max(65536, data.length * 4)));
  let size = 0;
  let next = 258;
  let width = 9;
  let previous = -1;
  let bits = 0;
  let buffered = 0;
  const write = (code: number) => {
    // the string of `code`, written from its last byte back to its first
    const end = size + length[code]!;
    if (end > out.length) {
      const grown = Buffer.alloc(Math.min(limit + 4097, Math.max(end, out.length * 2)));
      out.copy(grown, 0, 0, size);
      out = grown;
    }
    for (let at = end - 1, c = code; at >= size; at--, c = prefix[c]!) out[at] = suffix[c]!;
    size = end;
  };
  for (let i = 0; i < data.length && size <= limit; ) {
    while (bits < width && i < data.length) {
      buffered = ((buffered << 8) | data[i++]!) & 0xffffff;
      bits += 8;
    }
    if (bits < width) break;
    const code = (buffered >>> (bits - width)) & ((1 << width) - 1);
    bits -= width;
    if (code === 257) break;
    if (code === 256) {
      next = 258;
      width = 9;
      previous = -1;
      continue;
    }
    if (previous < 0) {
      if (code > 255) break; // damaged: pdf.js stops there too
      write(code);
      previous = code;
      continue;
    }
    let first: number;
    if (code < next) {
      write(code);
      first = out[size - length[code]!]!;
    } else if (code === next) {
      // the string of the previous code and its own first byte
      const start = size;
      write(previous);
      first = out[start]!;
      write(first);
    } else break;
    if (next < 4096) {
      prefix[next] = previous;
      suffix[next] = first;
      length[next] = Math.min(length[previous]! + 1, 4096);
      next++;
    }
    if (next + earlyChange >= 1 << width && width < 12) width++;
    previous = code;
  }
  return out.subarray(0, size);
}

/** EarlyChange from the dictionary's /DecodeParms (1 unless it says 0). */
function earlyChangeOf(dictionary: string): number {
  return /\/EarlyChange\s+0/.test(dictionary) ? 0 : 1;
}

/** The stream decoded through as many of its filters as the scan knows, stopping once past `limit`. */
export async function decodedPrefix(data: Buffer, filters: string[], limit: number, dictionary = ''): Promise<Buffer> {
  let bytes = data;
  for (const filter of filters) {
    if (bytes.length > limit) break;
    if (filter === 'FlateDecode' || filter === 'Fl') bytes = await boundedInflate(bytes, limit);
    else if (filter === 'LZWDecode' || filter === 'LZW') bytes = lzwDecode(bytes, limit, earlyChangeOf(dictionary));
    else if (filter === 'RunLengthDecode' || filter === 'RL') bytes = runLengthDecode(bytes, limit);
    else if (filter === 'ASCII85Decode' || filter === 'A85') bytes = ascii85Decode(bytes, limit);
    else if (filter === 'ASCIIHexDecode' || filter === 'AHx') bytes = hexDecode(bytes);
    else break;
  }
  return bytes;
}

/** Every stream of the raw bytes with the dictionary of its own object (and that object's number, when written). */
export function* streamsOf(pdf: Uint8Array): Generator<{ dictionary: string; objectNumber?: number; data: Buffer }> {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  for (const raw of rawStreams(bytes)) {
    const { text, objectNumber } = ownDictionary(raw.dictionary);
    yield { dictionary: text, ...(objectNumber === undefined ? {} : { objectNumber }), data: raw.data };
  }
}

/** The first stream (not an image or attachment; a font program has a wider limit) that decodes to more than `maxBytes`, if any. */
export async function findOversizedStream(pdf: Uint8Array, maxBytes: number): Promise<OversizedStream | undefined> {
  for (const raw of streamsOf(pdf)) {
    const { dictionary: text, objectNumber } = raw;
    const limit = limitFor(text, maxBytes);
    if (limit === undefined) continue;
    const decoded = await decodedPrefix(raw.data, filtersOf(text), limit, text);
    if (decoded.length > limit) return { objectNumber, decodedBytes: decoded.length, limit };
  }
  return undefined;
}
