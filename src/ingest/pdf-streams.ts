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
 * /Length cannot hide data). FlateDecode (chains of it too) and ASCIIHexDecode
 * are decoded with a bounded output; decoding stops at any other filter and
 * the check applies to what was decoded so far.
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

function filtersOf(dictionary: string): string[] {
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

/** The stream decoded through as many of its filters as the scan knows, stopping once past `limit`. */
async function decodedPrefix(data: Buffer, filters: string[], limit: number): Promise<Buffer> {
  let bytes = data;
  for (const filter of filters) {
    if (bytes.length > limit) break;
    if (filter === 'FlateDecode' || filter === 'Fl') bytes = await boundedInflate(bytes, limit);
    else if (filter === 'ASCIIHexDecode' || filter === 'AHx') bytes = hexDecode(bytes);
    else break;
  }
  return bytes;
}

/** The first stream (not an image or attachment; a font program has a wider limit) that decodes to more than `maxBytes`, if any. */
export async function findOversizedStream(pdf: Uint8Array, maxBytes: number): Promise<OversizedStream | undefined> {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  for (const raw of rawStreams(bytes)) {
    const { text, objectNumber } = ownDictionary(raw.dictionary);
    const limit = limitFor(text, maxBytes);
    if (limit === undefined) continue;
    const decoded = await decodedPrefix(raw.data, filtersOf(text), limit);
    if (decoded.length > limit) return { objectNumber, decodedBytes: decoded.length, limit };
  }
  return undefined;
}
