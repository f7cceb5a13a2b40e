/**
 * `npm run bench -- formats`: the cost of each input type without printed
 * pages (ingest/formats/), read in this process as a formats thread reads it:
 * milliseconds per MB of file (and per MB inflated, for the ZIP-based ones),
 * TIFF decoding per page, and the peak memory of reading a large sheet, in
 * a child process of its own (streamed SAX: what it holds is the page it
 * builds, not the sheet's XML).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readFormat, type FormatLimits } from '../../src/ingest/formats/read.js';
import { tiffPages } from '../../src/ingest/image.js';
import { readZipDirectory } from '../../src/ingest/formats/zip.js';
import { DOCX_TYPE, XLSX_TYPE, manyRowSheet } from '../fuzz/families/formats.js';
import { invoiceBlocks, makeCsv, makeDocx, makeEmail, makeHtml, makeOdt, makePptx, makeText, makeTiff, type Block } from '../../test/fixtures/formats.js';
import { makeInvoicePdf } from '../../test/fixtures/pdfs.js';

type Report = (label: string, value: string) => void;

const UNLIMITED: FormatLimits = { maxWords: Number.MAX_SAFE_INTEGER, maxInflateBytes: 4096 * 1024 ** 2, email: { maxParts: 10_000, maxDepth: 50 } };
const OOXML = 'application/vnd.openxmlformats-officedocument';

/** The invoice's blocks `times` over: a long document of the same kind. */
function repeated(times: number): Block[] {
  return Array.from({ length: times }, () => invoiceBlocks()).flat();
}

/** The best of three readings, in ms of this process's CPU (the machine may be shared). */
async function bestMs(mimeType: string, bytes: Buffer): Promise<{ ms: number; words: number }> {
  let ms = Infinity;
  let words = 0;
  for (let round = 0; round < 3; round++) {
    const started = process.cpuUsage();
    const { pages } = await readFormat(mimeType, bytes, UNLIMITED);
    const used = process.cpuUsage(started);
    ms = Math.min(ms, (used.user + used.system) / 1000);
    words = pages.reduce((sum, page) => sum + page.lines.reduce((count, line) => count + line.words.length, 0), 0);
  }
  return { ms, words };
}

const mb = (bytes: number) => bytes / 1024 ** 2;

/** The bytes a file's parsers go through: a ZIP's parts inflated (as its directory says), else the file. */
function parsedBytes(bytes: Buffer): number {
  const entries = bytes[0] === 0x50 && bytes[1] === 0x4b ? readZipDirectory(bytes) : undefined;
  return entries ? [...entries.values()].reduce((sum, entry) => sum + entry.size, 0) : bytes.length;
}

/** Peak RSS of a child process that reads `rows` rows of a sheet, against one that only loads the code. */
function sheetMemory(rows: number): { peakMb: number; baseMb: number; ms: number } {
  const readModule = fileURLToPath(new URL('../../src/ingest/formats/read.js', import.meta.url));
  const sheetModule = fileURLToPath(new URL('../fuzz/families/formats.js', import.meta.url));
  const script = (read: boolean) => `
    const { readFormat } = await import(${JSON.stringify(readModule)});
    const { manyRowSheet, XLSX_TYPE } = await import(${JSON.stringify(sheetModule)});
    const bytes = manyRowSheet(${rows});
    globalThis.gc?.();
    const before = process.resourceUsage().maxRSS;
    const started = performance.now();
    if (${read}) await readFormat(XLSX_TYPE, bytes, { maxWords: Number.MAX_SAFE_INTEGER, maxInflateBytes: 4096 * 1024 ** 2, email: { maxParts: 1, maxDepth: 1 } });
    process.stdout.write(JSON.stringify({ before, after: process.resourceUsage().maxRSS, ms: performance.now() - started }));`;
  const run = (read: boolean) => JSON.parse(spawnSync(process.execPath, ['--input-type=module', '-e', script(read)], { encoding: 'utf8', maxBuffer: 1 << 20 }).stdout) as { before: number; after: number; ms: number };
  const base = run(false);
  const reading = run(true);
  return { peakMb: reading.after / 1024, baseMb: base.after / 1024, ms: reading.ms };
}

export async function benchFormats(report: Report): Promise<void> {
  const docx = makeDocx(repeated(400));
  const files: Array<[string, string, Buffer]> = [
    ['DOCX', DOCX_TYPE, docx],
    ['ODT', 'application/vnd.oasis.opendocument.text', makeOdt(repeated(400))],
    ['PPTX (one slide)', `${OOXML}.presentationml.presentation`, makePptx(repeated(400))],
    ['HTML', 'text/html', makeHtml(repeated(400))],
    ['text', 'text/plain', makeText(repeated(400))],
    ['CSV', 'text/csv', Buffer.concat(Array.from({ length: 400 }, () => makeCsv()))],
    ['e-mail with a DOCX attached', 'message/rfc822', makeEmail({ attachments: [{ filename: 'a.docx', mimeType: DOCX_TYPE, bytes: docx }] })],
    ['JSON', 'application/json', Buffer.from(JSON.stringify(Array.from({ length: 4000 }, (_, i) => ({ invoice: `INV-${i}`, items: [{ description: 'Steel hammer', quantity: 2, amount: 29 }] }))))],
    ['XML (no e-invoice)', 'application/xml', Buffer.from(`<Orders>${Array.from({ length: 4000 }, (_, i) => `<Order><Number>INV-${i}</Number><Line><Description>Steel hammer</Description><Amount>29.00</Amount></Line></Order>`).join('')}</Orders>`)],
  ];
  for (const [label, mimeType, bytes] of files) {
    const { ms, words } = await bestMs(mimeType, bytes);
    const parsed = parsedBytes(bytes);
    report(`read ${label}, ${mb(parsed).toFixed(2)} MB${parsed === bytes.length ? '' : ' inflated'}, ${words} words`, `${ms.toFixed(0)} ms, ${(ms / mb(parsed)).toFixed(0)} ms/MB, ${((ms / words) * 1000).toFixed(1)} µs/word`);
  }
  const sheet = manyRowSheet(100_000);
  const sheetRead = await bestMs(XLSX_TYPE, sheet);
  report(`read XLSX of ~100,000 rows, ${mb(parsedBytes(sheet)).toFixed(1)} MB of sheet XML`, `${sheetRead.ms.toFixed(0)} ms, ${(sheetRead.ms / mb(parsedBytes(sheet))).toFixed(0)} ms/MB inflated, ${((sheetRead.ms / sheetRead.words) * 1000).toFixed(1)} µs/word`);
  const memory = sheetMemory(100_000);
  report('peak RSS reading that sheet (child process)', `${memory.peakMb.toFixed(0)} MB against ${memory.baseMb.toFixed(0)} MB making it alone (+${(memory.peakMb - memory.baseMb).toFixed(0)} MB)`);
  const pdf = await makeInvoicePdf();
  const mail = makeEmail({ attachments: [{ filename: 'invoice.pdf', mimeType: 'application/pdf', bytes: pdf }] });
  const mailRead = await bestMs('message/rfc822', mail);
  report('read e-mail with a PDF attached (message page only)', `${mailRead.ms.toFixed(1)} ms`);
  for (const compression of ['ccittfax4', 'lzw', 'deflate', 'jpeg', 'packbits'] as const) {
    const tiff = await makeTiff(compression, 4);
    const file = { index: 0, filename: 'scan.tif', mimeType: 'image/tiff', bytes: tiff };
    const started = performance.now();
    const pages = await tiffPages(file, { maxPixelsPerImage: 80_000_000, maxGifFrames: 1 }, 10);
    for (const page of pages) await page.load();
    const ms = (performance.now() - started) / pages.length;
    report(`decode TIFF ${compression}, A4 at 300 DPI, ${(tiff.length / 1024 / pages.length).toFixed(0)} KB a page`, `${ms.toFixed(0)} ms/page (OCR not counted)`);
  }
}
