import { DEFAULT_MAX_XML_MB, type Limits } from '../config.js';
import { badRequest } from '../errors.js';
import { JsonStringBytes } from '../util/json-string-bytes.js';
import { looksLikeXml } from './einvoice/sniff.js';

/** One entry of the request's `contents` array, as sent by the caller. */
export interface ContentItem {
  filename?: string;
  mimeType: string;
  /**
   * Base64; a long one from a POST /v1/ JSON body stays the body's bytes until
   * it is decoded (http/json-body.ts). Or the file's own bytes, not base64: a
   * multipart file part (http/multipart-body.ts) or a file the CLI read.
   */
  data: string | JsonStringBytes | Uint8Array;
}

/** A content item whose bytes are known to be a file of the declared type. */
export interface DecodedFile {
  /** 0-based position in the request's `contents`. */
  index: number;
  filename: string;
  mimeType: SupportedMimeType;
  bytes: Buffer;
}

/** application/xml: an e-invoice without a page (CII or UBL XML, ingest/einvoice/). */
export const SUPPORTED_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf', 'application/xml'] as const;
export type SupportedMimeType = (typeof SUPPORTED_MIME_TYPES)[number];

/** Common spellings that clearly mean a supported type. */
const MIME_ALIASES: Record<string, SupportedMimeType> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg', 'text/xml': 'application/xml' };


/** How far into a file `%PDF-` may start: readers accept leading junk (e.g. a mail header) within 1 KB. */
const PDF_HEADER_WINDOW = 1024;

interface FileKind {
  label: string;
  mimeType?: SupportedMimeType;
  matches: (bytes: Buffer) => boolean;
}

function startsWith(bytes: Buffer, signature: number[] | string, offset = 0): boolean {
  const expected = typeof signature === 'string' ? Buffer.from(signature, 'latin1') : Buffer.from(signature);
  return bytes.length >= offset + expected.length && bytes.subarray(offset, offset + expected.length).equals(expected);
}

/**
 * File signatures, supported types first. The unsupported ones only make the
 * error message say what the caller actually sent.
 */
const FILE_KINDS: FileKind[] = [
  { label: 'a JPEG image', mimeType: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { label: 'a PNG image', mimeType: 'image/png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { label: 'a GIF image', mimeType: 'image/gif', matches: (b) => startsWith(b, 'GIF87a') || startsWith(b, 'GIF89a') },
  { label: 'a WebP image', mimeType: 'image/webp', matches: (b) => startsWith(b, 'RIFF') && startsWith(b, 'WEBP', 8) },
  {
    label: 'a PDF file',
    mimeType: 'application/pdf',
    matches: (b) => b.subarray(0, PDF_HEADER_WINDOW).includes('%PDF-', 0, 'latin1'),
  },
  { label: 'an XML file', mimeType: 'application/xml', matches: looksLikeXml },
  { label: 'a TIFF image', matches: (b) => startsWith(b, 'II*\0') || startsWith(b, 'MM\0*') },
  { label: 'a BMP image', matches: (b) => startsWith(b, 'BM') && b.length > 14 },
  { label: 'a HEIC/AVIF image', matches: (b) => startsWith(b, 'ftyp', 4) },
  { label: 'a ZIP archive (e.g. DOCX or XLSX)', matches: (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04]) },
];

function detectKind(bytes: Buffer): FileKind | undefined {
  return FILE_KINDS.find((kind) => kind.matches(bytes));
}

function field(index: number, name: string): string {
  return `contents[${index}].${name}`;
}

/** "contents[2].data": how messages about a file's bytes name the field. */
export function dataField(file: Pick<DecodedFile, 'index'>): string {
  return field(file.index, 'data');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Longer than any media type (RFC 6838: type and subtype of at most 127
 * characters each): not read, nor quoted back (an 8 MB one went whole into
 * its 400, 0.1 s of the loop).
 */
const MAX_MIME_TYPE_CHARS = 255;

function readMimeType(item: Record<string, unknown>, index: number): SupportedMimeType {
  const raw = item.mimeType;
  if (raw === undefined || raw === null || raw === '') throw badRequest(`${field(index, 'mimeType')} is required`);
  if (typeof raw !== 'string') throw badRequest(`${field(index, 'mimeType')} must be a string`);
  const trimmed = raw.trim();
  if (trimmed.length > MAX_MIME_TYPE_CHARS) {
    throw badRequest(`${field(index, 'mimeType')} of ${trimmed.length} characters is not a media type; use one of ${SUPPORTED_MIME_TYPES.join(', ')}`);
  }
  const normalised = trimmed.toLowerCase();
  const supported = (SUPPORTED_MIME_TYPES as readonly string[]).includes(normalised)
    ? (normalised as SupportedMimeType)
    : MIME_ALIASES[normalised];
  if (!supported) {
    throw badRequest(
      `${field(index, 'mimeType')} ${JSON.stringify(raw)} is not supported; use one of ${SUPPORTED_MIME_TYPES.join(', ')}`,
    );
  }
  return supported;
}

function readFilename(item: Record<string, unknown>, index: number): string {
  const raw = item.filename;
  if (raw === undefined || raw === null) return `file-${index + 1}`;
  if (typeof raw !== 'string') throw badRequest(`${field(index, 'filename')} must be a string`);
  return raw.trim() || `file-${index + 1}`;
}

const DATA_URL_PREFIX = /^data:([^,]*),/i;

/** Removes an optional `data:<mime>;base64,` prefix, checking that it agrees with mimeType. */
function stripDataUrlPrefix(data: string, mimeType: SupportedMimeType, index: number): string {
  const match = DATA_URL_PREFIX.exec(data.slice(0, 256).trimStart());
  if (!match) return data;
  const [mediaType = '', ...parameters] = (match[1] ?? '').split(';').map((part) => part.trim());
  if (!parameters.some((parameter) => parameter.toLowerCase() === 'base64')) {
    throw badRequest(`${field(index, 'data')} is a data URL without ";base64"; send the file base64-encoded`);
  }
  const prefixMime = mediaType.toLowerCase();
  const prefixType = MIME_ALIASES[prefixMime] ?? prefixMime;
  if (prefixType !== '' && prefixType !== mimeType) {
    throw badRequest(
      `${field(index, 'data')} has a data URL prefix declaring ${mediaType} but ${field(index, 'mimeType')} is ${mimeType}`,
    );
  }
  return data.trimStart().slice(match[0].length);
}

const WHITESPACE = /[\t\n\f\r ]+/g;
const HAS_WHITESPACE = /[\t\n\f\r ]/;
const STANDARD_ALPHABET = /^[A-Za-z0-9+/]*$/;
const URL_SAFE_ALPHABET = /^[A-Za-z0-9_-]*$/;
const NOT_BASE64_OR_WHITESPACE = /[^A-Za-z0-9+/_=\t\n\f\r -]/;

/** Why `original` (`text` once whitespace is removed) is not strict base64, or undefined when it is. */
function base64Problem(original: string, text: string): string | undefined {
  const stray = NOT_BASE64_OR_WHITESPACE.exec(original);
  if (stray) return `unexpected character ${JSON.stringify(stray[0])} at position ${stray.index}`;
  const firstPad = text.indexOf('=');
  const body = firstPad === -1 ? text : text.slice(0, firstPad);
  const padding = text.length - body.length;
  if (padding > 0) {
    if (!/^={1,2}$/.test(text.slice(firstPad))) return '"=" may only appear as one or two padding characters at the end';
    if (text.length % 4 !== 0) return 'wrong amount of "=" padding';
  }
  if (body.length % 4 === 1) return 'its length is not possible for base64 (truncated?)';
  if (!STANDARD_ALPHABET.test(body) && !URL_SAFE_ALPHABET.test(body)) return 'it mixes the standard ("+/") and URL-safe ("-_") alphabets';
  return undefined;
}

function withoutPadding(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x3d /* = */) end--;
  return text.slice(0, end);
}

/**
 * Node's decoder silently skips characters it does not know, so the bytes are
 * re-encoded and compared with the input: equal means the input was clean
 * base64 (either alphabet, padded or not). This costs ~150 ms for 50 MB, where
 * checking the characters with regular expressions costs ~1 s.
 */
function decodeIfWellFormed(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64');
  const standard = bytes.toString('base64');
  if (text === standard || text === withoutPadding(standard)) return bytes;
  const urlSafe = bytes.toString('base64url');
  if (text === urlSafe || text === urlSafe + '='.repeat(standard.length - urlSafe.length)) return bytes;
  return undefined;
}

/** The text of a string still in its body's bytes; a raw control character in it makes the body not JSON, as JSON.parse would have said. */
function jsonText(data: JsonStringBytes): string {
  try {
    return data.text();
  } catch (error) {
    if (error instanceof SyntaxError) throw badRequest(`request body is not valid JSON: ${error.message}`);
    throw error;
  }
}

function decodeBase64(data: unknown, mimeType: SupportedMimeType, index: number): Buffer {
  const inBody = JsonStringBytes.revive(data);
  const raw = inBody ? jsonText(inBody) : data;
  if (raw === undefined || raw === null) throw badRequest(`${field(index, 'data')} is required`);
  if (typeof raw !== 'string') throw badRequest(`${field(index, 'data')} must be a base64 string`);
  const text = stripDataUrlPrefix(raw, mimeType, index);
  // Line-wrapped base64 shows whitespace early; skip the attempt that would fail on it.
  const wrapped = HAS_WHITESPACE.test(text.slice(0, 1024));
  let bytes = wrapped ? undefined : decodeIfWellFormed(text);
  const compact = bytes ? text : text.replace(WHITESPACE, '');
  bytes ??= decodeIfWellFormed(compact);
  if (compact.length === 0) throw badRequest(`${field(index, 'data')} is empty`);
  if (bytes) return bytes;
  // Failure path: find out what exactly is wrong, to say so.
  const problem = base64Problem(text, compact) ?? 'its last character has bits set that belong to no byte';
  throw badRequest(`${field(index, 'data')} is not valid base64 (${problem})`);
}

function checkSignature(bytes: Buffer, mimeType: SupportedMimeType, index: number): void {
  const declared = FILE_KINDS.find((kind) => kind.mimeType === mimeType);
  if (declared?.matches(bytes)) return;
  const actual = detectKind(bytes);
  const mimeField = field(index, 'mimeType');
  if (actual) throw badRequest(`${field(index, 'data')} is ${actual.label} but ${mimeField} is ${mimeType}`);
  throw badRequest(
    `${field(index, 'data')} is not ${declared?.label ?? mimeType} as ${mimeField} says; its first bytes match no known file type`,
  );
}

/** The file's bytes: a view of bytes sent as they are, or base64 decoded. */
function fileBytes(data: unknown, mimeType: SupportedMimeType, index: number): Buffer {
  // a JsonStringBytes revived after a clone is an object holding a Uint8Array, never a Uint8Array itself
  if (!(data instanceof Uint8Array)) return decodeBase64(data, mimeType, index);
  if (data.byteLength === 0) throw badRequest(`${field(index, 'data')} is empty`);
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function decodeItem(item: unknown, index: number, maxXmlBytes: number): DecodedFile {
  if (!isRecord(item)) throw badRequest(`contents[${index}] must be an object with mimeType and data`);
  const mimeType = readMimeType(item, index);
  const filename = readFilename(item, index);
  const bytes = fileBytes(item.data, mimeType, index);
  checkSignature(bytes, mimeType, index);
  // parsing XML grows with its size, and an e-invoice is some kilobytes: its own limit, far below the body's
  if (mimeType === 'application/xml' && bytes.length > maxXmlBytes) {
    throw badRequest(`${field(index, 'data')} is ${megabytes(bytes.length)} MB of XML; the limit is ${megabytes(maxXmlBytes)} MB (MAX_XML_MB)`);
  }
  return { index, filename, mimeType, bytes };
}

function megabytes(bytes: number): string {
  return String(Math.round((bytes / 1024 ** 2) * 10) / 10);
}

/**
 * Turns the request's `contents` into file bytes, rejecting (400, naming the
 * field) anything that is not strict base64 (or the bytes themselves) of a
 * supported file whose bytes match its declared mimeType.
 */
export function decodeContents(contents: ContentItem[], limits: Pick<Limits, 'maxFiles'> & Partial<Pick<Limits, 'maxXmlBytes'>>): DecodedFile[] {
  if (!Array.isArray(contents) || contents.length === 0) throw badRequest('contents must be a non-empty array');
  if (contents.length > limits.maxFiles) {
    throw badRequest(`contents has ${contents.length} files; the limit is ${limits.maxFiles} files per request (MAX_FILES)`);
  }
  const maxXmlBytes = limits.maxXmlBytes ?? DEFAULT_MAX_XML_MB * 1024 ** 2;
  return contents.map((item: unknown, index) => decodeItem(item, index, maxXmlBytes));
}
