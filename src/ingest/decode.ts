import { DEFAULT_MAX_XML_MB, type Limits } from '../config.js';
import { badRequest } from '../errors.js';
import { JsonStringBytes } from '../util/json-string-bytes.js';
import { ACCEPTED_MIME_TYPES, FORMATS, GENERIC_MIME_TYPES, describeBytes, detectFormat, formatOfMimeType, type InputFormat } from './formats/registry.js';

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

/**
 * The media types docshape reads (ingest/formats/registry.ts), as files of the Document say them; a caller
 * may also write their aliases (ACCEPTED_MIME_TYPES), and application/octet-stream or an empty mimeType has
 * the bytes and the filename decide.
 */
export const SUPPORTED_MIME_TYPES: readonly string[] = FORMATS.map((format) => format.mimeType);
export { ACCEPTED_MIME_TYPES };
/** Each filename extension docshape knows (".pdf", ".docx", ".eml", ...) and its media type: for the command line. */
export const MIME_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = Object.fromEntries(FORMATS.flatMap((format) => format.extensions.map((extension) => [extension, format.mimeType])));
/** A canonical media type of the registry (FORMATS[].mimeType). */
export type SupportedMimeType = string;

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

/** The declared type's format, or 'generic' when it says nothing of the content (the bytes will decide). */
function readMimeType(item: Record<string, unknown>, index: number): InputFormat | 'generic' {
  const raw = item.mimeType;
  if (raw === undefined || raw === null) throw badRequest(`${field(index, 'mimeType')} is required`);
  if (typeof raw !== 'string') throw badRequest(`${field(index, 'mimeType')} must be a string`);
  const trimmed = raw.trim();
  if (trimmed.length > MAX_MIME_TYPE_CHARS) {
    throw badRequest(`${field(index, 'mimeType')} of ${trimmed.length} characters is not a media type; use one docshape reads (docs/inputs.md) or application/octet-stream`);
  }
  if (GENERIC_MIME_TYPES.includes(trimmed.split(';')[0]!.trim().toLowerCase())) return 'generic';
  const format = formatOfMimeType(trimmed);
  if (!format) {
    throw badRequest(
      `${field(index, 'mimeType')} ${JSON.stringify(raw)} is not supported; use one of ${SUPPORTED_MIME_TYPES.join(', ')} (or application/octet-stream to have the bytes tell)`,
    );
  }
  return format;
}

function readFilename(item: Record<string, unknown>, index: number): string {
  const raw = item.filename;
  if (raw === undefined || raw === null) return `file-${index + 1}`;
  if (typeof raw !== 'string') throw badRequest(`${field(index, 'filename')} must be a string`);
  return raw.trim() || `file-${index + 1}`;
}

const DATA_URL_PREFIX = /^data:([^,]*),/i;

/** Removes an optional `data:<mime>;base64,` prefix, checking that it agrees with mimeType. */
function stripDataUrlPrefix(data: string, declared: InputFormat | 'generic', index: number): string {
  const match = DATA_URL_PREFIX.exec(data.slice(0, 256).trimStart());
  if (!match) return data;
  const [mediaType = '', ...parameters] = (match[1] ?? '').split(';').map((part) => part.trim());
  if (!parameters.some((parameter) => parameter.toLowerCase() === 'base64')) {
    throw badRequest(`${field(index, 'data')} is a data URL without ";base64"; send the file base64-encoded`);
  }
  const prefixFormat = GENERIC_MIME_TYPES.includes(mediaType.toLowerCase()) ? undefined : formatOfMimeType(mediaType);
  if (declared !== 'generic' && prefixFormat && prefixFormat !== declared) {
    throw badRequest(
      `${field(index, 'data')} has a data URL prefix declaring ${mediaType} but ${field(index, 'mimeType')} is ${declared.mimeType}`,
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

function decodeBase64(data: unknown, mimeType: InputFormat | 'generic', index: number): Buffer {
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

/** The file's format: the declared one when the bytes agree (else a 400 naming what they are), or what the bytes and filename say. */
function formatOf(bytes: Buffer, declared: InputFormat | 'generic', filename: string, index: number): InputFormat {
  const mimeField = field(index, 'mimeType');
  if (declared === 'generic') {
    const detected = detectFormat(bytes, filename);
    if (detected) return detected;
    const actual = describeBytes(bytes);
    throw badRequest(`${field(index, 'data')} is ${actual ?? 'of no type docshape reads'} (${mimeField} says nothing of it); docshape reads ${SUPPORTED_MIME_TYPES.join(', ')}`);
  }
  if (declared.matches(bytes)) return declared;
  const actual = describeBytes(bytes);
  if (actual) throw badRequest(`${field(index, 'data')} is ${actual} but ${mimeField} is ${declared.mimeType}`);
  throw badRequest(`${field(index, 'data')} is not ${declared.label} as ${mimeField} says; its first bytes match no known file type`);
}

/** The file's bytes: a view of bytes sent as they are, or base64 decoded. */
function fileBytes(data: unknown, declared: InputFormat | 'generic', index: number): Buffer {
  // a JsonStringBytes revived after a clone is an object holding a Uint8Array, never a Uint8Array itself
  if (!(data instanceof Uint8Array)) return decodeBase64(data, declared, index);
  if (data.byteLength === 0) throw badRequest(`${field(index, 'data')} is empty`);
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function decodeItem(item: unknown, index: number, maxXmlBytes: number): DecodedFile {
  if (!isRecord(item)) throw badRequest(`contents[${index}] must be an object with mimeType and data`);
  const declared = readMimeType(item, index);
  const filename = readFilename(item, index);
  const bytes = fileBytes(item.data, declared, index);
  const { mimeType } = formatOf(bytes, declared, filename, index);
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
