/**
 * The input types without printed pages, and TIFF, built to hurt their
 * readers (ingest/formats/, ingest/image.ts): zip bombs as DOCX and XLSX,
 * OOXML parts with a DTD or an external entity, a sheet of a million rows,
 * TIFF headers claiming 100,000 x 100,000 pixels or 10,000 pages, HTML
 * nested 100,000 deep, e-mails of 10,000 parts or nested 50 deep, a CSV
 * line of 50 MB; and small valid files of each type. Each must get a 200, a
 * 400 or a 413 in time, with /healthz answering meanwhile. The generators
 * are exported for the tests (test/ingest/formats.test.ts).
 */
import { constants as zlibConstants, deflateRawSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';
import { DOCUMENT_MARKERS, entry, requestCase, type Family, type FuzzCase } from '../case.js';
import type { Random } from '../random.js';
import { makeCsv, makeDocx, makeEmail, makeHtml, makeText, makeXlsx, invoiceSheetRows } from '../../../test/fixtures/formats.js';

const FAMILY = 'formats';
const OOXML = 'application/vnd.openxmlformats-officedocument';
export const DOCX_TYPE = `${OOXML}.wordprocessingml.document`;
export const XLSX_TYPE = `${OOXML}.spreadsheetml.sheet`;

/**
 * A ZIP whose one part (`name`) is `head`, then `unit` repeated to `megabytes`
 * MB, then `tail`, made without ever holding that part: one megabyte of units
 * is deflated on its own and sync-flushed (no final bit, byte-aligned, no
 * reference before it), and that piece repeated; the tail ends the stream.
 * The other parts are written by fflate (stored), this one and the directory
 * by hand; the sizes it declares are true, its CRC is left 0.
 */
export function zipWithRepeatedPart(name: string, parts: { head: string; unit: string; megabytes: number; tail: string }, others: Record<string, string> = {}): Buffer {
  const unit = Buffer.from(parts.unit);
  const block = Buffer.alloc(Math.floor((1024 * 1024) / unit.length) * unit.length);
  for (let at = 0; at < block.length; at += unit.length) unit.copy(block, at);
  const head = Buffer.from(parts.head);
  const tail = Buffer.from(parts.tail);
  const piece = (bytes: Buffer) => deflateRawSync(bytes, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const blocks = Math.max(1, parts.megabytes);
  const repeated = piece(block);
  const data = Buffer.concat([piece(head), ...Array.from({ length: blocks }, () => repeated), deflateRawSync(tail)]);
  const size = head.length + blocks * block.length + tail.length;
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(size >>> 0, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const rest = Buffer.from(zipSync(Object.fromEntries(Object.entries(others).map(([key, text]) => [key, [strToU8(text), { level: 0 }]]))));
  // the stored parts' local records, then this part's, then a directory that lists them all
  const eocdAt = rest.length - 22;
  const directoryAt = rest.readUInt32LE(eocdAt + 16);
  const directorySize = rest.readUInt32LE(eocdAt + 12);
  const count = rest.readUInt16LE(eocdAt + 10);
  const partLocal = Buffer.concat([local, nameBytes, data]);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(size >>> 0, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(directoryAt, 42);
  const eocd = Buffer.from(rest.subarray(eocdAt));
  eocd.writeUInt16LE(count + 1, 8);
  eocd.writeUInt16LE(count + 1, 10);
  eocd.writeUInt32LE(directorySize + central.length + nameBytes.length, 12);
  eocd.writeUInt32LE(directoryAt + partLocal.length, 16);
  return Buffer.concat([rest.subarray(0, directoryAt), partLocal, rest.subarray(directoryAt, directoryAt + directorySize), central, nameBytes, eocd]);
}

const WORD_HEAD = '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>';

/** A DOCX whose text is `megabytes` MB of spaces: some 1 KB per MB zipped. */
export function zipBombDocx(megabytes: number): Buffer {
  return zipWithRepeatedPart('word/document.xml', { head: WORD_HEAD, unit: ' ', megabytes, tail: '</w:t></w:r></w:p></w:body></w:document>' }, { '[Content_Types].xml': '<Types/>' });
}

const SHEET_HEAD = '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';
const SHEET_OTHERS = {
  'xl/workbook.xml': '<workbook xmlns:r="r"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
  'xl/_rels/workbook.xml.rels': '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
};

/** An XLSX whose sheet is `megabytes` MB of empty rows. */
export function zipBombXlsx(megabytes: number): Buffer {
  return zipWithRepeatedPart('xl/worksheets/sheet1.xml', { head: SHEET_HEAD, unit: '<row/>', megabytes, tail: SHEET_TAIL }, SHEET_OTHERS);
}

/** An XLSX of about `rows` rows (whole megabytes of them), each a text and a number (rows without references, which XLSX allows). */
export function manyRowSheet(rows: number): Buffer {
  const unit = '<row><c t="inlineStr"><is><t>Item</t></is></c><c><v>12.5</v></c></row>';
  const perMegabyte = Math.floor((1024 * 1024) / unit.length);
  return zipWithRepeatedPart('xl/worksheets/sheet1.xml', { head: SHEET_HEAD, unit, megabytes: Math.ceil(rows / perMegabyte), tail: SHEET_TAIL }, SHEET_OTHERS);
}

/** A DOCX whose document part declares a DTD: an entity bomb, or an external entity. */
export function ooxmlWithDtd(kind: 'laughs' | 'external'): Buffer {
  const dtd = kind === 'laughs' ? `<!DOCTYPE d [<!ENTITY a "${'lol'.repeat(10)}"><!ENTITY b "${'&a;'.repeat(10)}"><!ENTITY c "${'&b;'.repeat(10)}">]>` : '<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>';
  const entity = kind === 'laughs' ? '&c;' : '&x;';
  return makeDocx(undefined, `<?xml version="1.0"?>${dtd}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${entity}</w:t></w:r></w:p></w:body></w:document>`);
}

/** A little-endian TIFF of `pages` image directories of width x height 8-bit grey, each with one strip of `stripBytes` bytes. */
export function tiffHeader(width: number, height: number, pages = 1, stripBytes = 1): Buffer {
  const entries = 9;
  const ifdSize = 2 + entries * 12 + 4;
  const pageSize = ifdSize + stripBytes;
  const out = Buffer.alloc(8 + pages * pageSize);
  out.write('II*\0', 0, 'latin1');
  out.writeUInt32LE(8, 4);
  for (let page = 0; page < pages; page++) {
    const at = 8 + page * pageSize;
    const strip = at + ifdSize;
    out.writeUInt16LE(entries, at);
    const tags: Array<[number, number, number]> = [
      [256, 4, width], [257, 4, height], [258, 3, 8], [259, 3, 1], [262, 3, 1], [273, 4, strip], [277, 3, 1], [278, 4, height], [279, 4, stripBytes],
    ];
    tags.forEach(([tag, type, value], i) => {
      const entryAt = at + 2 + i * 12;
      out.writeUInt16LE(tag, entryAt);
      out.writeUInt16LE(type, entryAt + 2);
      out.writeUInt32LE(1, entryAt + 4);
      if (type === 3) out.writeUInt16LE(value, entryAt + 8);
      else out.writeUInt32LE(value, entryAt + 8);
    });
    out.writeUInt32LE(page === pages - 1 ? 0 : at + pageSize, at + 2 + entries * 12);
    out.fill(0xff, strip, strip + stripBytes);
  }
  return out;
}

export function deepHtml(depth: number, tag = 'div'): Buffer {
  return Buffer.from(`<!DOCTYPE html><html><body>${`<${tag}>`.repeat(depth)}${DOCUMENT_MARKERS[0]}</body></html>`);
}

/** An e-mail of `parts` small text attachments. */
export function manyPartEmail(parts: number): Buffer {
  return makeEmail({ attachments: Array.from({ length: parts }, (_, i) => ({ filename: `note-${i}.txt`, mimeType: 'text/plain', bytes: Buffer.from(`Note ${i}`) })) });
}

/** An e-mail forwarding an e-mail forwarding ... `depth` times, the innermost with the invoice as text. */
export function nestedEmail(depth: number): Buffer {
  let message = makeEmail({ attachments: [{ filename: 'invoice.txt', mimeType: 'text/plain', bytes: makeText() }] });
  // each forwarded message as it is (8bit), not in base64, which would grow it a third per level
  for (let level = 1; level < depth; level++) message = makeEmail({ subject: `Fwd ${level}`, attachments: [{ filename: `forwarded-${level}.eml`, mimeType: 'message/rfc822', bytes: message, raw: true }] });
  return message;
}

/** A CSV whose second line is `megabytes` MB without a line break. */
export function longLineCsv(megabytes: number): Buffer {
  return Buffer.concat([Buffer.from('name,value\n'), Buffer.alloc(megabytes * 1024 * 1024, 0x41), Buffer.from(',1\n')]);
}

/** Generators of hostile and valid files: bytes, media type, filename, label. */
const FILES: Array<[(rng: Random) => [Buffer, string, string, string], number]> = [
  [(rng) => { const mb = rng.pick([150, 1000]); return [zipBombDocx(mb), DOCX_TYPE, 'bomb.docx', `DOCX zip bomb of ${mb} MB`]; }, 2],
  [(rng) => { const mb = rng.pick([150, 1000]); return [zipBombXlsx(mb), XLSX_TYPE, 'bomb.xlsx', `XLSX zip bomb of ${mb} MB`]; }, 2],
  [(rng) => { const kind = rng.pick(['laughs', 'external'] as const); return [ooxmlWithDtd(kind), DOCX_TYPE, 'dtd.docx', `DOCX with a DTD (${kind})`]; }, 2],
  [(rng) => { const rows = rng.pick([100_000, 1_000_000]); return [manyRowSheet(rows), XLSX_TYPE, 'rows.xlsx', `a sheet of ${rows} rows`]; }, 1],
  [() => [tiffHeader(100_000, 100_000), 'image/tiff', 'huge.tif', 'TIFF claiming 100,000 x 100,000 pixels'], 2],
  [(rng) => { const pages = rng.pick([1000, 10_000]); return [tiffHeader(1, 1, pages), 'image/tiff', 'pages.tif', `TIFF of ${pages} pages`]; }, 2],
  [(rng) => { const depth = rng.pick([1001, 100_000]); const tag = rng.pick(['div', 'table', 'span', 'td']); return [deepHtml(depth, tag), 'text/html', 'deep.html', `HTML <${tag}> nested ${depth} deep`]; }, 2],
  [(rng) => { const parts = rng.pick([101, 10_000]); return [manyPartEmail(parts), 'message/rfc822', 'parts.eml', `e-mail of ${parts} parts`]; }, 2],
  [(rng) => { const depth = rng.pick([10, 51]); return [nestedEmail(depth), 'message/rfc822', 'nested.eml', `e-mail nested ${depth} deep`]; }, 2],
  [(rng) => { const mb = rng.pick([2, 36, 50]); return [longLineCsv(mb), 'text/csv', 'long.csv', `CSV line of ${mb} MB`]; }, 2],
  [(rng) => { const pick = rng.pick(['docx', 'xlsx', 'html', 'text', 'csv'] as const); const file = { docx: () => makeDocx(), xlsx: () => makeXlsx(invoiceSheetRows()), html: () => makeHtml(), text: () => makeText(), csv: () => makeCsv() }[pick](); return [file, rng.pick(['application/octet-stream', '']), `invoice.${pick}`, `a valid ${pick} sent as a generic type`]; }, 2],
  [(rng) => { const file = makeDocx(); const at = rng.int(1, file.length - 1); return [file.subarray(0, at), DOCX_TYPE, 'cut.docx', `DOCX cut at ${at} of ${file.length}`]; }, 2],
];

function formatsCase(rng: Random): FuzzCase {
  const [bytes, mimeType, filename, label] = rng.weighted(FILES)(rng);
  const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' }, items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } } } };
  return { ...requestCase(FAMILY, label, schema, [entry(bytes, mimeType, filename)]), allowed: [200, 400, 413] };
}

export const formatsFamily: Family = {
  name: FAMILY,
  weight: 2,
  generate: (rng) => formatsCase(rng),
};
