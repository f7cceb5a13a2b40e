import { expect } from 'chai';
import sharp from 'sharp';
import type { Page } from '../../src/document/document.js';
import { AppError } from '../../src/errors.js';
import { decodeContents } from '../../src/ingest/decode.js';
import { detectDialect } from '../../src/ingest/formats/csv.js';
import { formatNumber } from '../../src/ingest/formats/number-format.js';
import { readFormat, type FormatLimits } from '../../src/ingest/formats/read.js';
import { detectFormat } from '../../src/ingest/formats/registry.js';
import { tiffPages } from '../../src/ingest/image.js';
import { locate } from '../../src/evidence/locate.js';
import { deepHtml, DOCX_TYPE, longLineCsv, manyPartEmail, manyRowSheet, ooxmlWithDtd, tiffHeader, XLSX_TYPE, zipBombDocx, zipBombXlsx } from '../../scripts/fuzz/families/formats.js';
import { excelSerial, invoiceSheetRows, makeCsv, makeDocx, makeEmail, makeHtml, makeOdt, makeOds, makePptx, makeText, makeTiff, makeXlsx } from '../fixtures/formats.js';
import { makeInvoicePdf } from '../fixtures/pdfs.js';
import { cpuGrowth, LINEAR_GROWTH_LIMIT } from '../helpers/growth.js';

const LIMITS: FormatLimits = { maxWords: 200_000, maxInflateBytes: 100 * 1024 ** 2, email: { maxParts: 10_000, maxDepth: 50 } };
const OOXML = 'application/vnd.openxmlformats-officedocument';

const linesOf = (page: Page) => page.lines.map((line) => line.text);
/** Each line's runs of words with their places, as "text @ place". */
function placed(page: Page): string[][] {
  return page.lines.map((line, i) => (page.places?.[i] ?? []).map((run) => `${line.words.slice(run.words[0], run.words[1]).map((w) => w.text).join(' ')} @ ${JSON.stringify(run.place)}`));
}

async function problem(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    return (error as Error).message;
  }
  expect.fail('expected the reading to fail');
}

describe('input formats (ingest/formats/)', function () {
  this.timeout(60_000);

  describe('the registry', () => {
    it('recognises each type by its bytes, whatever the file is called', async () => {
      const files: Array<[Buffer, string]> = [
        [await makeInvoicePdf(), 'application/pdf'],
        [await makeTiff('lzw'), 'image/tiff'],
        [makeDocx(), `${OOXML}.wordprocessingml.document`],
        [makeXlsx(invoiceSheetRows()), `${OOXML}.spreadsheetml.sheet`],
        [makePptx(), `${OOXML}.presentationml.presentation`],
        [makeOdt(), 'application/vnd.oasis.opendocument.text'],
        [makeOds([['a']]), 'application/vnd.oasis.opendocument.spreadsheet'],
        [makeHtml(), 'text/html'],
        [makeEmail(), 'message/rfc822'],
        [Buffer.from('<?xml version="1.0"?><Order/>'), 'application/xml'],
      ];
      for (const [bytes, mimeType] of files) expect(detectFormat(bytes, 'upload.bin')?.mimeType, mimeType).to.equal(mimeType);
    });

    it('tells text without a signature by its filename, else JSON by its brace, else plain text', () => {
      expect(detectFormat(makeCsv(), 'a.CSV')?.mimeType).to.equal('text/csv');
      expect(detectFormat(makeCsv('\t'), 'a.tsv')?.mimeType).to.equal('text/tab-separated-values');
      expect(detectFormat(Buffer.from('# Title\n'), 'notes.md')?.mimeType).to.equal('text/markdown');
      expect(detectFormat(Buffer.from('{"a": 1}'), 'data')?.mimeType).to.equal('application/json');
      expect(detectFormat(makeText(), 'invoice')?.mimeType).to.equal('text/plain');
      expect(detectFormat(Buffer.from([0x00, 0x01, 0x02, 0x03]), 'blob.bin')).to.equal(undefined);
    });

    it('decodes a generic declared type as what the bytes are, and keeps the 400 when a declared type is contradicted', () => {
      const item = (mimeType: string, bytes: Buffer, filename?: string) => ({ mimeType, data: bytes.toString('base64'), ...(filename ? { filename } : {}) });
      const [docx, csv] = decodeContents([item('application/octet-stream', makeDocx()), item('', makeCsv(), 'rows.csv')], { maxFiles: 5 });
      expect(docx!.mimeType).to.equal(DOCX_TYPE);
      expect(csv!.mimeType).to.equal('text/csv');
      const refuse = (entry: unknown) => {
        try {
          decodeContents([entry as never], { maxFiles: 5 });
        } catch (error) {
          expect((error as AppError).status).to.equal(400);
          return (error as AppError).message;
        }
        return expect.fail('expected a 400');
      };
      expect(refuse(item(DOCX_TYPE, makeXlsx(invoiceSheetRows())))).to.equal(`contents[0].data is an XLSX workbook but contents[0].mimeType is ${DOCX_TYPE}`);
      expect(refuse(item('text/csv', Buffer.from('%PDF-1.7\n')))).to.equal('contents[0].data is a PDF file but contents[0].mimeType is text/csv');
      expect(refuse(item('application/octet-stream', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0])))).to.include('is a legacy Office file (DOC/XLS/PPT, OLE2)');
    });
  });

  describe('TIFF', () => {
    /** The Compression tag (259) of a little-endian TIFF's first directory. */
    const compressionTag = (tiff: Buffer) => {
      const ifd = tiff.readUInt32LE(4);
      for (let i = 0; i < tiff.readUInt16LE(ifd); i++) if (tiff.readUInt16LE(ifd + 2 + i * 12) === 259) return tiff.readUInt16LE(ifd + 2 + i * 12 + 8);
      return undefined;
    };
    const LIMIT = { maxPixelsPerImage: 80_000_000, maxGifFrames: 10 };
    const file = (bytes: Buffer) => ({ index: 0, filename: 'scan.tif', mimeType: 'image/tiff', bytes });

    for (const [compression, tag] of [['ccittfax4', 4], ['lzw', 5], ['deflate', 8], ['jpeg', 7], ['packbits', 32773]] as const) {
      it(`decodes every page of a ${compression} TIFF (tag ${tag}) at its DPI, one raster per page`, async () => {
        const tiff = await makeTiff(compression, 2);
        expect(compressionTag(tiff)).to.equal(tag);
        const pages = await tiffPages(file(tiff), LIMIT, 10);
        expect(pages.map((page) => page.index)).to.deep.equal([0, 1]);
        const raster = await pages[1]!.load();
        expect(raster.dpi).to.equal(300);
        // the scan's ink is there: a page of black text on white
        const dark = raster.data.reduce((count, value) => count + (value < 128 ? 1 : 0), 0);
        expect(dark / raster.data.length).to.be.within(0.005, 0.2);
      });
    }

    it('refuses a header claiming 100,000 x 100,000 pixels, or 10,000 pages, before any pixel is read', async () => {
      expect(await problem(() => tiffPages(file(tiffHeader(100_000, 100_000)), LIMIT, 10))).to.equal('contents[0].data: page 1 of the image is 100000 x 100000 = 10000000000 pixels; the limit is 80000000 pixels per image (MAX_PIXELS)');
      expect(await problem(() => tiffPages(file(tiffHeader(1, 1, 10_000)), LIMIT, 100))).to.equal('contents[0].data: TIFF has 10000 pages, more than the 100 left of the per-request page limit (MAX_PAGES)');
    });
  });

  describe('spreadsheets', () => {
    it('XLSX: a line per row, each cell its reference, dates as dates and amounts as their format shows them', async () => {
      const { pages } = await readFormat(XLSX_TYPE, makeXlsx(invoiceSheetRows()), LIMITS);
      expect(pages[0]!.part).to.deep.equal({ sheet: 'Invoice' });
      // a sheet has no printed page: its boxes lay the cells out on a grid, and evidence names the cell instead
      expect(pages[0]!.units).to.equal('text-grid');
      expect(placed(pages[0]!)[4]).to.deep.equal(['Invoice date: @ {"kind":"cell","ref":"A5"}', '2024-03-14 @ {"kind":"cell","ref":"B5"}']);
      expect(placed(pages[0]!)[8]).to.deep.equal(['Steel hammer @ {"kind":"cell","ref":"A10"}', '2 @ {"kind":"cell","ref":"B10"}', '14.50 @ {"kind":"cell","ref":"C10"}', '29.00 @ {"kind":"cell","ref":"D10"}']);
    });

    it('number formats: dates and times, percentages, thousands, decimals, currencies, negatives', () => {
      const serial = excelSerial(2024, 3, 14);
      expect(formatNumber(serial, 'dd/mm/yyyy', false)).to.equal('2024-03-14');
      expect(formatNumber(serial + 0.5, 'yyyy-mm-dd h:mm', false)).to.equal('2024-03-14 12:00');
      expect(formatNumber(serial - 1462, 'd-mmm-yy', true)).to.equal('2024-03-14');
      expect(formatNumber(0.2, '0%', false)).to.equal('20%');
      expect(formatNumber(1234567.891, '#,##0.00', false)).to.equal('1,234,567.89');
      expect(formatNumber(76.2, '#,##0.00 [$€-407]', false)).to.equal('76.20 €');
      expect(formatNumber(76.2, '"$"#,##0.00', false)).to.equal('$76.20');
      expect(formatNumber(-12.5, '#,##0.00;(#,##0.00)', false)).to.equal('(12.50)');
      expect(formatNumber(-12.5, '0.00', false)).to.equal('-12.50');
      expect(formatNumber(0.1 + 0.2, 'General', false)).to.equal('0.3');
    });

    it('ODS: dates from their value, a million repeated empty rows skipped', async () => {
      const { pages } = await readFormat('application/vnd.oasis.opendocument.spreadsheet', makeOds([['Invoice date', { date: '2024-03-14', shown: '14.03.24' }], [undefined, 'Total', '76.20']]), LIMITS);
      expect(placed(pages[0]!)).to.deep.equal([
        ['Invoice date @ {"kind":"cell","ref":"A1"}', '2024-03-14 @ {"kind":"cell","ref":"B1"}'],
        ['Total @ {"kind":"cell","ref":"B2"}', '76.20 @ {"kind":"cell","ref":"C2"}'],
      ]);
    });

    it('stops a sheet of a million rows at MAX_WORDS with a 400 naming it', async () => {
      expect(await problem(() => readFormat(XLSX_TYPE, manyRowSheet(30_000), { ...LIMITS, maxWords: 50_000 }))).to.equal('it brings the request to more than 50000 words of text; the limit is MAX_WORDS');
    });

    it('refuses a zip bomb at MAX_INFLATE_MB, and OOXML with a DTD', async () => {
      const limits = { ...LIMITS, maxInflateBytes: 5 * 1024 ** 2 };
      expect(await problem(() => readFormat(DOCX_TYPE, zipBombDocx(50), limits))).to.equal('it inflates to more than 5 MB (a zip bomb?); the limit is MAX_INFLATE_MB');
      expect(await problem(() => readFormat(XLSX_TYPE, zipBombXlsx(50), limits))).to.equal('it inflates to more than 5 MB (a zip bomb?); the limit is MAX_INFLATE_MB');
      for (const kind of ['laughs', 'external'] as const) expect(await problem(() => readFormat(DOCX_TYPE, ooxmlWithDtd(kind), LIMITS))).to.include('its word/document.xml declares a DTD');
    });

    it('CSV: finds the delimiter, semicolons with decimal commas not split at the commas', () => {
      expect(detectDialect(makeCsv().toString(), false)).to.deep.equal({ delimiter: ',', decimalComma: false });
      expect(detectDialect(makeCsv(';', true).toString(), false)).to.deep.equal({ delimiter: ';', decimalComma: true });
      expect(detectDialect('a|b|c\n1|2|3\n', false).delimiter).to.equal('|');
      expect(detectDialect('a,b\n1,2\n', true).delimiter).to.equal('\t');
    });

    it('CSV: quoted fields across lines, each cell its line and column; a 2 MB line is a 400', async () => {
      const { pages } = await readFormat('text/csv', Buffer.from('name,note\r\nHammer,"two\r\nlines, ""quoted"""\r\n\r\nNails,plain\n"Glue"x,\n'), LIMITS);
      expect(placed(pages[0]!)).to.deep.equal([
        ['name @ {"kind":"line","line":1,"column":1}', 'note @ {"kind":"line","line":1,"column":2}'],
        ['Hammer @ {"kind":"line","line":2,"column":1}', 'two lines, "quoted" @ {"kind":"line","line":2,"column":2}'],
        ['Nails @ {"kind":"line","line":5,"column":1}', 'plain @ {"kind":"line","line":5,"column":2}'],
        ['Gluex @ {"kind":"line","line":6,"column":1}'],
      ]);
      expect(await problem(() => readFormat('text/csv', longLineCsv(2), LIMITS))).to.include('a record longer than 1048576 characters');
    });
  });

  describe('documents', () => {
    it('DOCX: paragraphs and table cells in reading order, each its place; the table columns stand apart', async () => {
      const { pages } = await readFormat(DOCX_TYPE, makeDocx(), LIMITS);
      const page = pages[0]!;
      expect(linesOf(page).slice(0, 4)).to.deep.equal(['Acme Tools Ltd', '1 Forge Lane, Sheffield S1 2AB', 'INVOICE', 'Invoice number: INV-2024-0042']);
      expect(placed(page)[9]).to.deep.equal(['Steel hammer @ {"kind":"table-cell","table":1,"row":2,"column":1}', '2 @ {"kind":"table-cell","table":1,"row":2,"column":2}', '14.50 @ {"kind":"table-cell","table":1,"row":2,"column":3}', '29.00 @ {"kind":"table-cell","table":1,"row":2,"column":4}']);
      // the rules engine cuts a line into cells at gaps wider than 1.8 characters (5 points each here)
      const words = page.lines[9]!.words;
      expect(words[2]!.bbox.x0 - words[1]!.bbox.x1).to.be.above(1.8 * 5);
      expect(words[1]!.bbox.x0 - words[0]!.bbox.x1).to.be.below(1.8 * 5);
    });

    it('PPTX: a page per slide', async () => {
      const { pages } = await readFormat(`${OOXML}.presentationml.presentation`, makePptx(), LIMITS);
      expect(pages.map((page) => page.part)).to.deep.equal([{ slide: 1 }]);
      expect(linesOf(pages[0]!)).to.include('Total due: 76.20');
    });

    it('HTML: blocks as lines, tables as cells, script and style left out, entities decoded; a nest past 1,000 is a 400', async () => {
      const html = Buffer.from('<html><head><style>p{}</style><script>var x = "Total 1";</script></head><body><p>Caf&eacute; &amp; Bar<br>Line two</p><table><tr><td>Total</td><td><b>76.20</b></td></tr></table></body></html>');
      const { pages } = await readFormat('text/html', html, LIMITS);
      expect(placed(pages[0]!)).to.deep.equal([
        ['Café & Bar @ {"kind":"paragraph","paragraph":1}'],
        ['Line two @ {"kind":"paragraph","paragraph":2}'],
        ['Total @ {"kind":"table-cell","table":1,"row":1,"column":1}', '76.20 @ {"kind":"table-cell","table":1,"row":1,"column":2}'],
      ]);
      expect(await problem(() => readFormat('text/html', deepHtml(100_000), LIMITS))).to.equal('it nests elements more than 1000 deep');
    });

    it('text keeps its columns; Markdown drops its marks and reads its tables as cells', async () => {
      const text = await readFormat('text/plain', Buffer.from('Item        Amount\nHammer       29.00\n'), LIMITS);
      expect(text.pages[0]!.lines[1]!.words.map((word) => word.bbox.x0)).to.deep.equal(text.pages[0]!.lines[0]!.words.map((word) => word.bbox.x0).map((x, i) => (i === 0 ? x : x + 5)));
      const markdown = await readFormat('text/markdown', Buffer.from('# Invoice\n\n| Item | Amount |\n|---|---:|\n| **Hammer** | 29.00 |\n'), LIMITS);
      expect(placed(markdown.pages[0]!)).to.deep.equal([
        ['Invoice @ {"kind":"line","line":1}'],
        ['Item @ {"kind":"line","line":3,"column":1}', 'Amount @ {"kind":"line","line":3,"column":2}'],
        ['Hammer @ {"kind":"line","line":5,"column":1}', '29.00 @ {"kind":"line","line":5,"column":2}'],
      ]);
    });

    it('XML and JSON that are no e-invoice: a labelled line per value, its element or key path its place', async () => {
      const xml = await readFormat('application/xml', Buffer.from('<Order><OrderNumber>7</OrderNumber><Line><Price>2.50</Price></Line><Line><Price>3</Price></Line></Order>'), LIMITS);
      expect(placed(xml.pages[0]!)).to.deep.equal([['7 @ {"kind":"path","path":"/Order/OrderNumber"}'], ['2.50 @ {"kind":"path","path":"/Order/Line/Price"}'], ['3 @ {"kind":"path","path":"/Order/Line[2]/Price"}']]);
      expect(linesOf(xml.pages[0]!)[0]).to.equal('Order Number: 7');
      const json = await readFormat('application/json', Buffer.from(JSON.stringify({ invoice_number: 'A-1', items: [{ name: 'x', price: 2 }, { name: 'y', price: 3 }] })), LIMITS);
      expect(linesOf(json.pages[0]!)).to.deep.equal(['Invoice number: A-1', 'Name Price', 'x 2', 'y 3']);
      expect(placed(json.pages[0]!)[3]).to.deep.equal(['y @ {"kind":"path","path":"$.items[1].name"}', '3 @ {"kind":"path","path":"$.items[1].price"}']);
      // JSON nested deeper than any stack: read without recursion
      const deep = await readFormat('application/json', Buffer.from(`${'['.repeat(100_000)}"deep"${']'.repeat(100_000)}`), LIMITS);
      expect(linesOf(deep.pages[0]!)).to.deep.equal(['Value: deep']);
    });
  });

  describe('e-mail', () => {
    it('reads its headers, its body and hands back its attachments with their types', async () => {
      const pdf = await makeInvoicePdf();
      const { pages, attachments } = await readFormat('message/rfc822', makeEmail({ body: 'Invoice attached.\n\nRegards', attachments: [{ filename: 'invoice.pdf', mimeType: 'application/pdf', bytes: pdf }] }), LIMITS);
      expect(linesOf(pages[0]!)).to.deep.equal([
        'From: Acme Billing <billing@acme.example>',
        'To: Northwind Accounts <accounts@northwind.example>',
        'Date: 2024-03-14T09:30:00.000Z',
        'Subject: Invoice INV-2024-0042',
        'Invoice attached.',
        'Regards',
        'Attachment: invoice.pdf (application/pdf)',
      ]);
      expect(placed(pages[0]!)[3]).to.deep.equal(['Invoice INV-2024-0042 @ {"kind":"header","name":"subject"}']);
      expect(attachments!.map((a) => [a.filename, a.mimeType, Buffer.from(a.bytes).equals(pdf)])).to.deep.equal([['invoice.pdf', 'application/pdf', true]]);
    });

    it('refuses more attachments than MAX_EMAIL_PARTS', async () => {
      expect(await problem(() => readFormat('message/rfc822', manyPartEmail(101), { ...LIMITS, email: { maxParts: 100, maxDepth: 50 } }))).to.equal('it has 101 attachments; the limit is 100 parts (MAX_EMAIL_PARTS)');
    });
  });

  it('evidence names the sheet and cell of a value read from a spreadsheet', async () => {
    const { pages } = await readFormat(XLSX_TYPE, makeXlsx(invoiceSheetRows()), LIMITS);
    const document = { files: [{ index: 0, filename: 'invoice.xlsx', mimeType: XLSX_TYPE, pages }] };
    const line = pages[0]!.lines.findIndex((l) => l.text.startsWith('Total due'));
    expect(locate([{ file: 0, page: 0, line, word: 2 }], document)?.at).to.deep.equal({ sheet: 'Invoice', places: ['Invoice!D16'] });
  });

  it('lays out a CSV in time linear in its rows', async () => {
    const csv = (rows: number) => Buffer.from(Array.from({ length: rows }, (_, i) => `Item ${i},${i}.50,"a ""quoted"" note"`).join('\n'));
    const small = csv(2000);
    const large = csv(8000);
    const growth = await cpuGrowth((n) => readFormat('text/csv', n === 2000 ? small : large, LIMITS), 2000);
    expect(growth.ratio, JSON.stringify(growth)).to.be.below(LINEAR_GROWTH_LIMIT);
  });
});
