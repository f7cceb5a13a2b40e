/**
 * ZIP archives (DOCX, XLSX, PPTX, ODT, ODS) read from their central directory,
 * each entry inflated as a stream with fflate: a part is handed on in chunks
 * (the sheet XML to its SAX parser) and never has to lie whole in memory, and
 * every inflated byte counts against one budget for the archive
 * (MAX_INFLATE_MB), so a zip bomb stops at the limit, not at its 4 GB.
 * fflate is pure JS, without dependencies, and its streaming Inflate calls
 * back per pushed chunk: input is pushed 4 KiB at a time, so no one callback
 * can bring more than ~4 MB (deflate's best ratio is about 1:1032).
 */
import { Inflate } from 'fflate';
import { FormatProblem } from './problem.js';

export interface ZipEntry {
  name: string;
  /** 0: stored, 8: deflated; others are refused when read. */
  method: number;
  flags: number;
  compressedSize: number;
  /** As the directory says; only what is inflated counts. */
  size: number;
  localOffset: number;
}

/** An Office file has tens to a few thousand parts. */
export const MAX_ZIP_ENTRIES = 10_000;
const INPUT_CHUNK = 4096;
const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

/** The central directory's entries by name; undefined when the bytes are no ZIP archive this reader can open. */
export function readZipDirectory(bytes: Uint8Array): Map<string, ZipEntry> | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // the end record is within the last 22 + 65,535 (comment) bytes
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const count = view.getUint16(eocd + 10, true);
  const offset = view.getUint32(eocd + 16, true);
  // ZIP64 marks its sizes 0xFFFF / 0xFFFFFFFF: an archive past 4 GB or 65,535 entries is no Office file to read here
  if (count === 0xffff || offset === 0xffffffff || offset >= bytes.length) return undefined;
  if (count > MAX_ZIP_ENTRIES) throw new FormatProblem(`its ZIP archive has ${count} entries; the limit is ${MAX_ZIP_ENTRIES}`);
  const entries = new Map<string, ZipEntry>();
  const names = new TextDecoder('utf-8');
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE) return undefined;
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    entries.set(name, {
      name,
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Bytes inflated so far across one archive, against MAX_INFLATE_MB. */
export class InflateBudget {
  private used = 0;
  constructor(private readonly limit: number) {}
  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) {
      throw new FormatProblem(`it inflates to more than ${Math.round(this.limit / 1024 ** 2)} MB (a zip bomb?); the limit is MAX_INFLATE_MB`);
    }
  }
}

/** The entry's data, inflated, handed to `onData` in chunks as it comes. */
export function streamEntry(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget, onData: (chunk: Uint8Array) => void): void {
  if (entry.flags & 1) throw new FormatProblem(`its part ${entry.name} is encrypted; send the file without a password`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_SIGNATURE) throw new FormatProblem(`its ZIP archive is damaged (part ${entry.name})`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new FormatProblem(`its ZIP archive is truncated (part ${entry.name})`);
  if (entry.method === 0) {
    for (let from = start; from < end; from += INPUT_CHUNK * 16) {
      const chunk = bytes.subarray(from, Math.min(end, from + INPUT_CHUNK * 16));
      budget.take(chunk.length);
      onData(chunk);
    }
    return;
  }
  if (entry.method !== 8) throw new FormatProblem(`its part ${entry.name} uses ZIP compression method ${entry.method}; only stored and deflated parts are read`);
  const inflater = new Inflate((chunk) => {
    budget.take(chunk.length);
    onData(chunk);
  });
  try {
    for (let from = start; from < end || from === start; from += INPUT_CHUNK) {
      const to = Math.min(end, from + INPUT_CHUNK);
      inflater.push(bytes.subarray(from, to), to >= end);
      if (to >= end) break;
    }
  } catch (error) {
    if (error instanceof FormatProblem) throw error;
    throw new FormatProblem(`its part ${entry.name} cannot be inflated (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The entry as text (UTF-8), decoded chunk by chunk into `onText`. */
export function streamEntryText(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget, onText: (text: string) => void): void {
  const decoder = new TextDecoder('utf-8');
  streamEntry(bytes, entry, budget, (chunk) => {
    const text = decoder.decode(chunk, { stream: true });
    if (text) onText(text);
  });
  const rest = decoder.decode();
  if (rest) onText(rest);
}
