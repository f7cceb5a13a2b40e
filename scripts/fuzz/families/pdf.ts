/**
 * PDFs built to hurt a reader: cross-reference tables that lie or loop,
 * cyclic page trees and resources, page counts in the billions, pages
 * kilometres wide, JavaScript, embedded files, encryption, content streams
 * that nest, inflate to hundreds of megabytes or hold one 100,000-character line.
 */
import { basicSchema, DOCUMENT_LINES, DOCUMENT_MARKERS, entry, memo, requestCase, type Family, type FuzzCase } from '../case.js';
import { expandingContent, flateStream, HELVETICA, inflatingContent, onePagePdf, pdfString, rawPdf, stream, textContent, type XrefDamage } from '../pdf-writer.js';
import type { Random } from '../random.js';
import { buildPdf } from '../../../test/fixtures/pdfs.js';

const FAMILY = 'pdf';
const PAGE = (extra = '') => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R ${extra} >>`;
const CONTENT = () => stream('', textContent(DOCUMENT_LINES));

function pdfCase(variant: string, pdf: Buffer, extra: Partial<FuzzCase> = {}): FuzzCase {
  return requestCase(FAMILY, variant, basicSchema(), [entry(pdf, 'application/pdf', 'hostile.pdf')], extra);
}

/** A blank (white) 8-bit grey image of the given size, deflated: a few KB that decode to width x height bytes. */
function blankImage(width: number, height: number): Buffer {
  return memo(`blank ${width}x${height}`, () => flateStream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8`, Buffer.alloc(width * height, 0xff)));
}

type Variant = (rng: Random) => FuzzCase | Promise<FuzzCase>;

const variants: Array<[Variant, number]> = [
  // cross-reference damage
  [(rng) => {
    const damage = rng.pick<XrefDamage>(['missing', 'wrong-offsets', 'garbage', 'startxref-past-eof', 'no-trailer']);
    return pdfCase(`xref ${damage}`, onePagePdf({ content: CONTENT(), raw: { xref: damage } }));
  }, 4],
  [() => {
    // an incremental update whose /Prev points back at itself: the xref chain loops
    const base = onePagePdf({ content: CONTENT() });
    const at = base.length;
    const update = Buffer.from(`xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 6 /Root 1 0 R /Prev ${at} >>\nstartxref\n${at}\n%%EOF\n`, 'latin1');
    return pdfCase('xref /Prev loop', Buffer.concat([base, update]));
  }, 1],
  [(rng) => {
    // a compressed cross-reference stream with nonsense field widths
    const widths = rng.pick(['[1 2 1]', '[0 0 0]', '[9 9 9]', '[1 -2 1]', '[1 1000000 1]']);
    const xref = stream(`/Type /XRef /Size 6 /W ${widths} /Root 1 0 R /Index [0 6]`, rnd(rng, 40));
    return pdfCase(`xref stream /W ${widths}`, rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', PAGE(), HELVETICA, CONTENT(), xref], { xref: 'missing' }));
  }, 1],
  // cycles
  [(rng) => {
    const which = rng.int(0, 6);
    const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', PAGE(), HELVETICA, CONTENT()];
    let label = '';
    switch (which) {
      case 0: objects[1] = '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>'; label = 'page tree contains itself'; break;
      case 1: objects[1] = '<< /Type /Pages /Kids [6 0 R] /Count 1 >>'; objects.push('<< /Type /Pages /Kids [2 0 R] /Count 1 /Parent 2 0 R >>'); label = 'two page-tree nodes contain each other'; break;
      case 2: objects[2] = PAGE().replace('/Parent 2 0 R', '/Parent 3 0 R'); label = 'page is its own parent'; break;
      case 3: objects[0] = '<< /Type /Catalog /Pages 1 0 R >>'; label = 'catalog is its own page tree'; break;
      case 4: objects[4] = Buffer.concat([Buffer.from('<< /Length 5 0 R >>\nstream\n', 'latin1'), Buffer.from(textContent(DOCUMENT_LINES), 'latin1'), Buffer.from('\nendstream', 'latin1')]); label = 'stream length refers to itself'; break;
      case 5: objects[2] = PAGE().replace('/Resources << /Font << /F1 4 0 R >> >>', '/Resources 6 0 R'); objects.push('<< /Font << /F1 4 0 R >> /XObject << /X 6 0 R >> /Parent 6 0 R >>'); label = 'resources refer to themselves'; break;
      default: objects[2] = PAGE().replace('/Resources << /Font << /F1 4 0 R >> >>', '/Resources << /Font << /F1 4 0 R >> /XObject << /X0 6 0 R >> >>'); objects[4] = stream('', `${textContent(DOCUMENT_LINES)} /X0 Do`); objects.push(stream('/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X0 6 0 R >> >>', '/X0 Do')); label = 'form XObject draws itself';
    }
    return pdfCase(`cycle: ${label}`, rawPdf(objects));
  }, 5],
  // page counts
  [(rng) => {
    const count = rng.pick(['2147483647', '1e30', '-1', '0', '(many)', '1.5', '99999999999999999999']);
    return pdfCase(`/Count ${count}`, rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [3 0 R] /Count ${count} >>`, PAGE(), HELVETICA, CONTENT()]));
  }, 2],
  [(rng) => {
    const kids = rng.pick([100, 101, 10_000, 1_000_000]);
    return pdfCase(`${kids} kids, all the same page`, rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${'3 0 R '.repeat(kids)}] /Count ${kids} >>`, PAGE(), HELVETICA, CONTENT()]));
  }, 2],
  [(rng) => {
    // a page tree 10,000 levels deep
    const depth = rng.pick([500, 10_000]);
    const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>'];
    for (let level = 0; level < depth; level++) objects.push(`<< /Type /Pages /Kids [${level + 3} 0 R] /Count 1 >>`);
    objects.push(`<< /Type /Page /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${depth + 3} 0 R >> >> /Contents ${depth + 4} 0 R >>`, HELVETICA);
    return pdfCase(`page tree ${depth} levels deep`, rawPdf([...objects, CONTENT()]));
  }, 1],
  [async (rng) => {
    const pages = rng.pick([100, 101]);
    const pdf = await buildPdf({ autoFirstPage: false }, (doc) => {
      for (let i = 0; i < pages; i++) {
        doc.addPage({ size: 'A4' });
        doc.font('Helvetica').fontSize(9);
        for (let line = 0; line < 60; line++) doc.text(`${DOCUMENT_LINES[line % DOCUMENT_LINES.length]} line ${line} of page ${i + 1} Total 12.50 Date 2024-03-${String((line % 28) + 1).padStart(2, '0')}`, 40, 40 + line * 12, { lineBreak: false });
      }
    });
    return pdfCase(`${pages} dense text pages`, pdf);
  }, 1],
  // page sizes
  [(rng) => {
    const box = rng.pick(['[0 0 1e9 1e9]', '[0 0 14400 14400]', '[0 0 0 0]', '[0 0 -612 -792]', '[1e308 1e308 -1e308 -1e308]', '[0 0 612]', '[(a) (b) 1 2]', '[0 0 612 792 5 5]', 'null', '[0 0 3 3]']);
    const extra = rng.pick(['', '/UserUnit 75000', '/Rotate 45', '/Rotate -90', '/Rotate 1000000000', '/CropBox [0 0 1e9 1e9]']);
    const scanned = rng.chance(0.5);
    const content = scanned ? stream('', 'q 612 0 0 792 0 0 cm /Im0 Do Q') : CONTENT();
    const resources = scanned ? '<< /XObject << /Im0 6 0 R >> >>' : undefined;
    return pdfCase(`MediaBox ${box} ${extra}${scanned ? ' (image only)' : ''}`, onePagePdf({ mediaBox: box, pageExtra: extra, content, ...(resources ? { resources } : {}), extraObjects: scanned ? [blankImage(200, 200)] : [] }));
  }, 3],
  [(rng) => {
    // an embedded image whose decoded size is enormous (within or just past pdf.js's limit)
    const [w, h] = rng.pick([[9_000, 9_000], [10_001, 10_001], [100_000, 1], [1, 100_000], [65_535, 65_535]] as const);
    const declaredOnly = w * h > 100_000_000 || rng.chance(0.5);
    const image = declaredOnly
      ? flateStream(`/Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceGray /BitsPerComponent 8`, Buffer.alloc(1000, 0xff))
      : blankImage(w, h);
    return pdfCase(`image ${w}x${h}${declaredOnly ? ' (header only)' : ''}`, onePagePdf({ content: stream('', 'q 612 0 0 792 0 0 cm /Im0 Do Q'), resources: '<< /XObject << /Im0 6 0 R >> >>', extraObjects: [image] }));
  }, 2],
  // active content
  [(rng) => {
    const js = pdfString('app.alert(1); while (true) {} this.submitForm("http://example.invalid/")');
    const where = rng.int(0, 3);
    const catalogExtra = [`/OpenAction 6 0 R`, `/Names << /JavaScript << /Names [(x) 6 0 R] >> >>`, `/AA << /WC 6 0 R >>`, ''][where]!;
    const pageExtra = where === 3 ? '/Annots [7 0 R]' : '';
    const objects = [`<< /S /JavaScript /JS ${js} >>`, `<< /Type /Annot /Subtype /Link /Rect [0 0 612 792] /A 6 0 R >>`];
    return pdfCase(`JavaScript (${['OpenAction', 'name tree', 'document action', 'link annotation'][where]})`, onePagePdf({ content: CONTENT(), catalogExtra, pageExtra, extraObjects: objects }));
  }, 2],
  [(rng) => {
    const inner = rng.chance(0.5) ? onePagePdf({ content: CONTENT() }) : Buffer.alloc(rng.pick([10, 5_000_000]), 0x41);
    const objects = [`<< /Type /Filespec /F (inner.pdf) /EF << /F 7 0 R >> >>`, flateStream('/Type /EmbeddedFile', inner), `<< /Type /Annot /Subtype /FileAttachment /Rect [0 0 10 10] /FS 6 0 R >>`];
    return pdfCase(`embedded file of ${inner.length} bytes`, onePagePdf({ content: CONTENT(), catalogExtra: '/Names << /EmbeddedFiles << /Names [(inner.pdf) 6 0 R] >> >>', pageExtra: '/Annots [8 0 R]', extraObjects: objects }));
  }, 2],
  // encryption
  [async (rng) => {
    const version = rng.pick(['1.3', '1.4', '1.7', '1.7ext3'] as const);
    const ownerOnly = rng.chance(0.3);
    const pdf = await buildPdf({ pdfVersion: version, ...(ownerOnly ? {} : { userPassword: 'secret' }), ownerPassword: 'owner' }, (doc) => {
      doc.font('Helvetica').fontSize(12);
      DOCUMENT_LINES.forEach((line, i) => doc.text(line, 72, 72 + i * 18, { lineBreak: false }));
    });
    return pdfCase(`encrypted PDF ${version}${ownerOnly ? ' (owner password only)' : ''}`, pdf, ownerOnly ? {} : { allowed: [400] });
  }, 2],
  [(rng) => {
    const dict = rng.pick(['<< /Filter /Standard /V 99 /R 99 /O (x) /U (y) /P -1 >>', '<< /Filter /FooBar /V 1 >>', '<< /Filter /Standard /V 5 /R 6 /O <00> /U <00> /OE <00> /UE <00> /Perms <00> /P -4 >>', '(not a dictionary)']);
    return pdfCase(`encryption dictionary ${dict.slice(0, 30)}`, onePagePdf({ content: CONTENT(), extraObjects: [dict], raw: { trailerExtra: '/Encrypt 6 0 R /ID [<01> <01>]' } }));
  }, 1],
  // content streams
  [(rng) => {
    const n = rng.pick([1000, 100_000]);
    const content = rng.pick([
      ['nested q', 'q '.repeat(n) + textContent(DOCUMENT_LINES)],
      ['unclosed BT', 'BT '.repeat(n)],
      ['unknown operators', 'xyz '.repeat(n) + textContent(DOCUMENT_LINES)],
      ['huge numbers', `1e999999 0 0 1e999999 0 0 cm ${textContent(DOCUMENT_LINES)}`],
      ['deep arrays', `${'['.repeat(n)}${']'.repeat(n)} TJ`],
      ['inline image of huge size', 'BI /W 100000 /H 100000 /BPC 8 /CS /G ID \x00\x00 EI'],
      ['many tiny words', `BT /F1 1 Tf ${`(a ) Tj `.repeat(n)} ET`],
    ] as const);
    return pdfCase(`content: ${content[0]} (${n})`, onePagePdf({ content: stream('', content[1]) }));
  }, 3],
  [(rng) => {
    // one line of 10,000 or 100,000 characters of a repeated token: every regular expression of the engine sees it
    const length = rng.pick([10_000, 100_000]);
    const token = rng.pick(['a', 'A', 'x', '1', 'Corp', 'INV', '.com', 'www.', 'INV-', 'Co.', '1e-', 'No', '"', ',', '.', '-', '(', '1.', 'a@', 'Total ', 'x y ', '12/', 'Jan ', 'prior written ']);
    const line = `${rng.pick(['', 'Total: ', 'Invoice number: ', 'Email: '])}${token.repeat(Math.ceil(length / token.length)).slice(0, length)}`;
    const size = 0.002;
    const width = Math.ceil(line.length * size * 0.7) + 200;
    const content = stream('', `BT /F1 ${size} Tf 72 700 Td ${pdfString(line)} Tj ET ${textContent(DOCUMENT_LINES.slice(0, 2))}`);
    return pdfCase(`one ${length}-character line of ${JSON.stringify(token)}`, onePagePdf({ mediaBox: `[0 0 ${width} 792]`, content }));
  }, 4],
  [(rng) => {
    // more lines on a page than a function call takes arguments (about 120,000): a Math.min(...lines) overflows the stack
    const count = rng.pick([130_000, 200_000]);
    const lines = '0 -10 Td (Total 1.00) Tj '.repeat(count);
    return pdfCase(`${count} text lines on one page`, onePagePdf({ mediaBox: `[0 0 612 ${count * 10 + 100}]`, content: flateStream('', `BT /F1 8 Tf 72 ${count * 10 + 50} Td ${lines} ET`) }));
  }, 1],
  [(rng) => {
    // a content stream that inflates to tens or hundreds of megabytes
    const megabytes = rng.pick([20, 100, 300]);
    const text = rng.chance(0.5);
    const content = memo(`bomb ${megabytes} ${text}`, () => inflatingContent(megabytes, text));
    // past MAX_PDF_STREAM_MB (8 MB): refused before pdf.js reads it
    return pdfCase(`content stream inflating to ${megabytes} MB of ${text ? 'one word' : 'spaces'}`, onePagePdf({ content }), { allowed: [400] });
  }, 1],
  [(rng) => {
    // the same bomb in the other filters that expand: LZW (some 2,700 times) and RunLength (64 times)
    const megabytes = rng.pick([20, 300]);
    const filter = rng.pick(['LZWDecode', 'RunLengthDecode'] as const);
    const content = memo(`${filter} ${megabytes}`, () => expandingContent(megabytes, filter));
    return pdfCase(`${filter} content stream of ${megabytes} MB of one word`, onePagePdf({ content }), { allowed: [400] });
  }, 1],
  [(rng) => {
    // a font program of random bytes, a Type3 font whose glyph draws itself
    if (rng.chance(0.5)) {
      const font = '<< /Type /Font /Subtype /TrueType /BaseFont /Broken /FirstChar 32 /LastChar 126 /Widths [] /FontDescriptor 6 0 R >>';
      const descriptor = '<< /Type /FontDescriptor /FontName /Broken /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>';
      return pdfCase('TrueType font of random bytes', onePagePdf({ content: CONTENT(), resources: '<< /Font << /F1 8 0 R >> >>', extraObjects: [descriptor, stream('', rnd(rng, 5000)), font] }));
    }
    const type3 = '<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 7 0 R >> /Encoding << /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] /Resources << /Font << /F1 6 0 R >> >> >>';
    return pdfCase('Type3 glyph that draws itself', onePagePdf({ content: stream('', `BT /F1 12 Tf 72 700 Td (aaaa) Tj ET ${textContent(DOCUMENT_LINES)}`), resources: '<< /Font << /F1 6 0 R >> >>', extraObjects: [type3, stream('', '1000 0 d0 BT /F1 12 Tf (a) Tj ET')] }));
  }, 2],
  [(rng) => {
    const where = rng.pick([0, 1000, 1025]);
    return pdfCase(`header after ${where} junk bytes`, Buffer.concat([Buffer.alloc(where, 0x0a), onePagePdf({ content: CONTENT() })]), where > 1024 ? { allowed: [400] } : {});
  }, 1],
  [() => pdfCase('text with markers in every field type', onePagePdf({ content: stream('', textContent([...DOCUMENT_LINES, `Notes: ${DOCUMENT_MARKERS.join(' ')}`])) })), 1],
];

function rnd(rng: Random, n: number): Buffer {
  return rng.bytes(n);
}

export const pdfFamily: Family = {
  name: FAMILY,
  weight: 16,
  generate: (rng) => rng.weighted(variants)(rng),
};
