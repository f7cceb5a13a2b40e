/**
 * Every input type docshape reads, and how bytes are recognised as one: by
 * their magic bytes first, then, for text without a signature, by the
 * filename. decode.ts checks a declared type against the bytes with it and
 * detects the type when the declared one is generic (application/octet-stream
 * or empty); the e-mail reader's attachments go through the same detection.
 */
import { looksLikeXml } from '../einvoice/sniff.js';
import { readZipDirectory } from './zip.js';

/** Who reads a type: pdf.js threads, sharp and OCR, the e-invoice reader (else the XML reader), or the formats thread (ingest/formats-thread.ts). */
export type ReaderKind = 'pdf' | 'image' | 'xml' | 'formats';

export interface InputFormat {
  /** The canonical media type, as a Document's file says it. */
  mimeType: string;
  /** Other spellings that mean it. */
  aliases: readonly string[];
  /** Filename endings (lower case, with the dot), for text without a signature and for the command line. */
  extensions: readonly string[];
  /** "a DOCX document": how messages name it. */
  label: string;
  reader: ReaderKind;
  /** The bytes say they are of this type (a signature; for text, that the bytes are text and no other type's). */
  matches: (bytes: Uint8Array) => boolean;
  /** The bytes carry this type's signature: detection by bytes alone trusts it (text types have none, or a weak one). */
  signature?: (bytes: Uint8Array) => boolean;
}

function startsWith(bytes: Uint8Array, signature: number[] | string, offset = 0): boolean {
  const expected = typeof signature === 'string' ? Buffer.from(signature, 'latin1') : signature;
  if (bytes.length < offset + expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[offset + i] !== expected[i]) return false;
  return true;
}

/** How far into a file `%PDF-` may start: readers accept leading junk (e.g. a mail header) within 1 KB. */
const PDF_HEADER_WINDOW = 1024;
const TEXT_SNIFF_BYTES = 64 * 1024;

function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PDF_HEADER_WINDOW)).includes('%PDF-', 0, 'latin1');
}

/** What a ZIP archive's parts say it is: the ODF `mimetype` entry, or the main part of an OOXML package. */
const zipKinds = new WeakMap<Uint8Array, string | null>();
function zipKind(bytes: Uint8Array): string | undefined {
  if (!startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return undefined;
  if (!zipKinds.has(bytes)) zipKinds.set(bytes, readZipKind(bytes) ?? null);
  return zipKinds.get(bytes) ?? undefined;
}

const OOXML_MAIN_PARTS: Record<string, string> = {
  'word/document.xml': 'docx',
  'xl/workbook.xml': 'xlsx',
  'ppt/presentation.xml': 'pptx',
};

function readZipKind(bytes: Uint8Array): string | undefined {
  // ODF: the first entry is `mimetype`, stored, holding the media type: readable at a fixed offset
  if (startsWith(bytes, 'mimetype', 30)) {
    const nameEnd = 30 + 8 + (bytes[28]! | (bytes[29]! << 8));
    const text = Buffer.from(bytes.subarray(nameEnd, nameEnd + 80)).toString('latin1');
    if (text.startsWith('application/vnd.oasis.opendocument.text')) return 'odt';
    if (text.startsWith('application/vnd.oasis.opendocument.spreadsheet')) return 'ods';
  }
  let entries;
  try {
    entries = readZipDirectory(bytes);
  } catch {
    return 'zip';
  }
  if (!entries) return 'zip';
  for (const [part, kind] of Object.entries(OOXML_MAIN_PARTS)) if (entries.has(part)) return kind;
  return 'zip';
}

/** Text: no NUL byte in its first 64 KiB (UTF-16 needs its byte-order mark). */
export function looksLikeText(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  return !bytes.subarray(0, TEXT_SNIFF_BYTES).includes(0);
}

function head(bytes: Uint8Array, length = 2048): string {
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  return Buffer.from(bytes.subarray(start, start + length)).toString('latin1');
}

function looksLikeHtml(bytes: Uint8Array): boolean {
  return /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i.test(head(bytes));
}

function hasXmlDeclaration(bytes: Uint8Array): boolean {
  return /^\s*<\?xml[\s?]/.test(head(bytes, 256)) || (looksLikeXml(bytes) && (bytes[0] === 0xff || bytes[0] === 0xfe));
}

/** RFC 5322: the file opens with header fields, among them one a message always has. */
function looksLikeEmail(bytes: Uint8Array): boolean {
  const text = head(bytes, 4096);
  if (!/^[!-9;-~]+:/.test(text)) return false;
  const end = text.search(/\r?\n\r?\n/);
  const headers = end < 0 ? text : text.slice(0, end);
  return /^(from|received|message-id|mime-version|return-path):/im.test(headers) && /^(from|to|subject|date):/im.test(headers);
}

function looksLikeJson(bytes: Uint8Array): boolean {
  return /^\s*[[{]/.test(head(bytes, 256));
}

/** The binary types' signatures, which text of any kind must not carry. */
function binarySignature(bytes: Uint8Array): boolean {
  return FORMATS.some((format) => format.signature === format.matches && format.matches(bytes));
}

const isText = (bytes: Uint8Array) => looksLikeText(bytes) && !binarySignature(bytes);

const OOXML = 'application/vnd.openxmlformats-officedocument';

/** A binary type: its signature is all it takes to match. */
function signed(matches: (bytes: Uint8Array) => boolean): Pick<InputFormat, 'matches' | 'signature'> {
  return { matches, signature: matches };
}

export const FORMATS: readonly InputFormat[] = [
  { mimeType: 'image/jpeg', aliases: ['image/jpg', 'image/pjpeg'], extensions: ['.jpg', '.jpeg'], label: 'a JPEG image', reader: 'image', ...signed((b) => startsWith(b, [0xff, 0xd8, 0xff])) },
  { mimeType: 'image/png', aliases: [], extensions: ['.png'], label: 'a PNG image', reader: 'image', ...signed((b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mimeType: 'image/gif', aliases: [], extensions: ['.gif'], label: 'a GIF image', reader: 'image', ...signed((b) => startsWith(b, 'GIF87a') || startsWith(b, 'GIF89a')) },
  { mimeType: 'image/webp', aliases: [], extensions: ['.webp'], label: 'a WebP image', reader: 'image', ...signed((b) => startsWith(b, 'RIFF') && startsWith(b, 'WEBP', 8)) },
  { mimeType: 'image/tiff', aliases: ['image/tif', 'image/x-tiff'], extensions: ['.tif', '.tiff'], label: 'a TIFF image', reader: 'image', ...signed((b) => startsWith(b, 'II*\0') || startsWith(b, 'MM\0*')) },
  { mimeType: 'application/pdf', aliases: ['application/x-pdf'], extensions: ['.pdf'], label: 'a PDF file', reader: 'pdf', ...signed(isPdf) },
  { mimeType: `${OOXML}.wordprocessingml.document`, aliases: [], extensions: ['.docx'], label: 'a DOCX document', reader: 'formats', ...signed((b) => zipKind(b) === 'docx') },
  { mimeType: `${OOXML}.spreadsheetml.sheet`, aliases: [], extensions: ['.xlsx'], label: 'an XLSX workbook', reader: 'formats', ...signed((b) => zipKind(b) === 'xlsx') },
  { mimeType: `${OOXML}.presentationml.presentation`, aliases: [], extensions: ['.pptx'], label: 'a PPTX presentation', reader: 'formats', ...signed((b) => zipKind(b) === 'pptx') },
  { mimeType: 'application/vnd.oasis.opendocument.text', aliases: [], extensions: ['.odt'], label: 'an ODT document', reader: 'formats', ...signed((b) => zipKind(b) === 'odt') },
  { mimeType: 'application/vnd.oasis.opendocument.spreadsheet', aliases: [], extensions: ['.ods'], label: 'an ODS spreadsheet', reader: 'formats', ...signed((b) => zipKind(b) === 'ods') },
  { mimeType: 'message/rfc822', aliases: [], extensions: ['.eml'], label: 'an e-mail', reader: 'formats', matches: isText, signature: looksLikeEmail },
  { mimeType: 'text/html', aliases: ['application/xhtml+xml'], extensions: ['.html', '.htm', '.xhtml'], label: 'an HTML page', reader: 'formats', matches: isText, signature: looksLikeHtml },
  { mimeType: 'application/xml', aliases: ['text/xml'], extensions: ['.xml'], label: 'an XML file', reader: 'xml', matches: looksLikeXml, signature: hasXmlDeclaration },
  { mimeType: 'application/json', aliases: ['text/json'], extensions: ['.json'], label: 'a JSON file', reader: 'formats', matches: (b) => isText(b) && looksLikeJson(b) },
  { mimeType: 'text/csv', aliases: ['application/csv', 'text/x-csv', 'text/comma-separated-values'], extensions: ['.csv'], label: 'a CSV file', reader: 'formats', matches: isText },
  { mimeType: 'text/tab-separated-values', aliases: ['text/tsv'], extensions: ['.tsv', '.tab'], label: 'a TSV file', reader: 'formats', matches: isText },
  { mimeType: 'text/markdown', aliases: ['text/x-markdown'], extensions: ['.md', '.markdown'], label: 'a Markdown file', reader: 'formats', matches: isText },
  { mimeType: 'text/plain', aliases: [], extensions: ['.txt', '.text', '.log'], label: 'a text file', reader: 'formats', matches: isText },
];


/** Signatures of types docshape does not read, so that a 400 can say what the caller sent. */
const UNREAD_KINDS: Array<{ label: string; matches: (bytes: Uint8Array) => boolean }> = [
  { label: 'a BMP image', matches: (b) => startsWith(b, 'BM') && b.length > 14 },
  { label: 'a HEIC/AVIF image', matches: (b) => startsWith(b, 'ftyp', 4) },
  { label: 'a legacy Office file (DOC/XLS/PPT, OLE2)', matches: (b) => startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) },
  { label: 'a ZIP archive that is no DOCX, XLSX, PPTX, ODT or ODS', matches: (b) => zipKind(b) === 'zip' },
];

/** Media types that say nothing of the content: the bytes and the filename decide. */
export const GENERIC_MIME_TYPES: readonly string[] = ['application/octet-stream', 'binary/octet-stream', 'application/unknown', ''];

/** Every accepted media type, canonical first, then the aliases (the HTTP layer and the OpenAPI list them). */
export const ACCEPTED_MIME_TYPES: readonly string[] = [...FORMATS.map((format) => format.mimeType), ...FORMATS.flatMap((format) => format.aliases)];

/** The format a declared media type names (aliases and parameters such as "; charset=utf-8" allowed), or undefined. */
export function formatOfMimeType(mimeType: string): InputFormat | undefined {
  const bare = mimeType.split(';')[0]!.trim().toLowerCase();
  return FORMATS.find((format) => format.mimeType === bare || format.aliases.includes(bare));
}

export function formatOfFilename(filename: string | undefined): InputFormat | undefined {
  const lower = filename?.toLowerCase() ?? '';
  const dot = lower.lastIndexOf('.');
  if (dot < 0) return undefined;
  const extension = lower.slice(dot);
  return FORMATS.find((format) => format.extensions.includes(extension));
}

/**
 * The type of bytes whose declared type says nothing: a binary signature or
 * a text one (an XML declaration, an HTML doctype, e-mail headers), then the
 * filename, then text as plain text. Undefined: no type docshape reads.
 */
export function detectFormat(bytes: Uint8Array, filename?: string): InputFormat | undefined {
  const signed = FORMATS.find((format) => format.signature?.(bytes));
  if (signed) return signed;
  if (!looksLikeText(bytes)) return undefined;
  const named = formatOfFilename(filename);
  if (named?.matches(bytes)) return named;
  if (looksLikeXml(bytes)) return formatOfMimeType('application/xml');
  if (looksLikeJson(bytes)) return formatOfMimeType('application/json');
  return formatOfMimeType('text/plain');
}

/** What the bytes are, to name in a 400: a type docshape reads, or one it knows but does not read. */
export function describeBytes(bytes: Uint8Array): string | undefined {
  return FORMATS.find((format) => format.signature?.(bytes) && format.reader !== 'formats')?.label
    ?? FORMATS.find((format) => format.signature?.(bytes))?.label
    ?? UNREAD_KINDS.find((kind) => kind.matches(bytes))?.label;
}
