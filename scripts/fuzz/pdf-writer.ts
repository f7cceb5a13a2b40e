/**
 * Writes PDFs object by object, so the corpus can build structures no PDF
 * library would produce: cross-reference tables that lie, cycles, page trees
 * that claim a billion pages, streams that inflate to hundreds of megabytes.
 */
import { deflateSync } from 'node:zlib';

/** One indirect object's body (what stands between "n 0 obj" and "endobj"). */
export type PdfObject = string | Buffer;

export type XrefDamage = 'none' | 'missing' | 'wrong-offsets' | 'garbage' | 'startxref-past-eof' | 'no-trailer';

export interface RawPdfOptions {
  header?: string;
  /** The catalog's object number; default 1. */
  root?: number;
  trailerExtra?: string;
  xref?: XrefDamage;
}

/** A stream object with a correct /Length; `dict` holds the other entries, e.g. "/Filter /FlateDecode". */
export function stream(dict: string, data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${bytes.length} >>\nstream\n`, 'latin1'), bytes, Buffer.from('\nendstream', 'latin1')]);
}

export function flateStream(dict: string, data: Buffer | string): Buffer {
  return stream(`${dict} /Filter /FlateDecode`, deflateSync(typeof data === 'string' ? Buffer.from(data, 'latin1') : data, { level: 9 }));
}

/**
 * A content stream that inflates to `megabytes` MB: one string of "a"s shown with
 * Tj (one word) or only spaces. A few hundred KB in the file.
 */
export function inflatingContent(megabytes: number, text: boolean): Buffer {
  const filler = Buffer.alloc(Math.round(megabytes * 1024 * 1024), text ? 0x61 : 0x20);
  return flateStream('', text ? Buffer.concat([Buffer.from('BT /F1 0.001 Tf 72 700 Td ('), filler, Buffer.from(') Tj ET')]) : filler);
}

/** LZW as PDF writes it (EarlyChange 1): a clear code, codes widening as the reader's table grows, the end code. */
export function lzwEncode(data: Buffer): Buffer {
  const table = new Map<number, number>();
  const out: number[] = [];
  let buffered = 0;
  let bits = 0;
  let emitted = 0;
  /** Writes a code at the width the reader will read it with; clear and end codes do not add to its table. */
  const emit = (code: number, addsEntry = true) => {
    // the reader's table lags one code behind the writer's
    const readerNext = Math.min(4096, 258 + Math.max(0, emitted - 1));
    let width = 9;
    while (width < 12 && readerNext + 1 >= 1 << width) width++;
    buffered = (buffered << width) | code;
    bits += width;
    while (bits >= 8) {
      out.push((buffered >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    buffered &= (1 << bits) - 1;
    if (addsEntry) emitted++;
  };
  emit(256, false);
  let next = 258;
  let w = data[0]!;
  for (let i = 1; i < data.length; i++) {
    const key = w * 256 + data[i]!;
    const known = table.get(key);
    if (known !== undefined) {
      w = known;
      continue;
    }
    emit(w);
    if (next < 4096) table.set(key, next++);
    w = data[i]!;
  }
  emit(w);
  emit(257, false);
  if (bits > 0) out.push((buffered << (8 - bits)) & 0xff);
  return Buffer.from(out);
}

/** ASCII base-85 as PDF writes it: four bytes as five characters ("z" for four zero bytes), ending "~>". */
export function ascii85Encode(data: Buffer): string {
  let text = '';
  for (let i = 0; i < data.length; i += 4) {
    const chunk = Buffer.alloc(4);
    data.copy(chunk, 0, i, i + 4);
    const n = Math.min(4, data.length - i);
    let value = chunk.readUInt32BE();
    if (value === 0 && n === 4) {
      text += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode(33 + (value % 85)));
      value = Math.floor(value / 85);
    }
    text += digits.slice(0, n + 1).join('');
  }
  return `${text}~>`;
}

/**
 * A content stream of `megabytes` MB of one word in LZW (some 400 bytes per
 * MB, each code standing for up to 4,096 letters) or RunLength (2 bytes for
 * every 128).
 */
export function expandingContent(megabytes: number, filter: 'LZWDecode' | 'RunLengthDecode'): Buffer {
  const filler = Buffer.alloc(Math.round(megabytes * 1024 * 1024), 0x61);
  const content = Buffer.concat([Buffer.from('BT /F1 0.001 Tf 72 700 Td ('), filler, Buffer.from(') Tj ET')]);
  if (filter === 'LZWDecode') return stream('/Filter /LZWDecode', lzwEncode(content));
  // literal runs for the text around the letters, then runs of 128 "a"s
  const head = content.subarray(0, 27);
  const tail = content.subarray(content.length - 7);
  const runs = Buffer.alloc(2 * Math.floor(filler.length / 128), 0);
  for (let i = 0; i < runs.length; i += 2) {
    runs[i] = 129;
    runs[i + 1] = 0x61;
  }
  return stream('/Filter /RunLengthDecode', Buffer.concat([Buffer.from([head.length - 1]), head, runs, Buffer.from([tail.length - 1]), tail, Buffer.from([128])]));
}

/** Objects numbered from 1 in order, a cross-reference table (damaged as asked) and a trailer. */
export function rawPdf(objects: PdfObject[], options: RawPdfOptions = {}): Buffer {
  const parts: Buffer[] = [Buffer.from(`${options.header ?? '%PDF-1.7'}\n%\xe2\xe3\xcf\xd3\n`, 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), typeof body === 'string' ? Buffer.from(body, 'latin1') : body, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(chunk);
    length += chunk.length;
  });
  const damage = options.xref ?? 'none';
  const xrefAt = length;
  if (damage !== 'missing') {
    const entries = offsets.map((offset, i) => {
      if (damage === 'wrong-offsets') return `${String((offset * 7 + i * 13) % (length + 1000)).padStart(10, '0')} 00000 n \n`;
      if (damage === 'garbage') return `${'x'.repeat(10)} ?????? q \n`;
      return `${String(offset).padStart(10, '0')} 00000 n \n`;
    });
    parts.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries.join('')}`, 'latin1'));
  }
  const trailer = damage === 'no-trailer' ? '' : `trailer\n<< /Size ${objects.length + 1} /Root ${options.root ?? 1} 0 R ${options.trailerExtra ?? ''} >>\n`;
  const startxref = damage === 'startxref-past-eof' ? length * 10 + 12345 : xrefAt;
  parts.push(Buffer.from(`${trailer}startxref\n${startxref}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/** A PDF literal string: backslashes and parentheses escaped. */
export function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** A content stream showing each line in 12 pt Helvetica (resource /F1). */
export function textContent(lines: string[]): string {
  return `BT /F1 12 Tf 14 TL 72 720 Td ${lines.map((line) => `${pdfString(line)} Tj T*`).join(' ')} ET`;
}

export const HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

export interface OnePageOptions {
  mediaBox?: string;
  content?: Buffer;
  /** Extra entries of the page dictionary. */
  pageExtra?: string;
  /** Extra entries of the catalog. */
  catalogExtra?: string;
  /** Resources; default: /F1 Helvetica (object 4). */
  resources?: string;
  /** More objects, numbered from 6 on. */
  extraObjects?: PdfObject[];
  raw?: RawPdfOptions;
}

/**
 * Objects: 1 catalog, 2 pages, 3 page, 4 Helvetica, 5 content, 6.. extra.
 * Callers refer to their extra objects as 6 0 R, 7 0 R, ...
 */
export function onePagePdf(options: OnePageOptions = {}): Buffer {
  const content = options.content ?? stream('', textContent(['Hello']));
  return rawPdf(
    [
      `<< /Type /Catalog /Pages 2 0 R ${options.catalogExtra ?? ''} >>`,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox ${options.mediaBox ?? '[0 0 612 792]'} /Resources ${options.resources ?? '<< /Font << /F1 4 0 R >> >>'} /Contents 5 0 R ${options.pageExtra ?? ''} >>`,
      HELVETICA,
      content,
      ...(options.extraObjects ?? []),
    ],
    options.raw,
  );
}
