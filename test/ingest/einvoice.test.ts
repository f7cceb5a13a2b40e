import { deflateSync } from 'node:zlib';
import { expect } from 'chai';
import { AppError } from '../../src/errors.js';
import { decodeContents, type DecodedFile } from '../../src/ingest/decode.js';
import { readEInvoiceXml } from '../../src/ingest/einvoice/read.js';
import { eInvoicePage } from '../../src/ingest/einvoice/page.js';
import type { EInvoice } from '../../src/ingest/einvoice/terms.js';
import { XmlProblem } from '../../src/ingest/einvoice/xml.js';
import { ingestFiles, type IngestDeps } from '../../src/ingest/ingest.js';
import { renderLayoutText } from '../../src/ingest/layout.js';
import { PdfProcessor } from '../../src/ingest/pdf.js';
import { FormatReader } from '../../src/ingest/formats-thread.js';
import { packDocument, unpackDocument } from '../../src/ingest/document-pack.js';
import { ciiXml, hybridPdf, sampleCreditNote, sampleInvoice, ublXml } from '../fixtures/einvoices.js';
import { rawPdf, stream } from '../../scripts/fuzz/pdf-writer.js';
import { expectLinearGrowth } from '../helpers/growth.js';

function invoiceOf(xml: string): EInvoice {
  const reading = readEInvoiceXml(Buffer.from(xml, 'utf8'));
  if (reading.kind !== 'invoice') return expect.fail(`not read as an invoice: root ${reading.root}`);
  return reading.invoice;
}

function values(invoice: EInvoice): Record<string, string> {
  return Object.fromEntries(Object.entries(invoice.header).map(([term, found]) => [term, found!.value]));
}

function problemOf(xml: string | Buffer): string {
  try {
    readEInvoiceXml(typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml);
  } catch (error) {
    expect(error).to.be.instanceOf(XmlProblem);
    return (error as Error).message;
  }
  return expect.fail('expected the XML to be refused');
}

const EXPECTED_HEADER = {
  'BT-1': 'RE-2025-0042',
  'BT-2': '2025-03-14',
  'BT-3': '380 (commercial invoice)',
  'BT-5': 'EUR',
  'BT-9': '2025-04-13',
  'BT-10': '04011000-12345-34',
  'BT-13': 'PO-7781',
  'BT-27': 'Nordlicht Werkzeuge GmbH',
  'BG-5': 'Hafenstraße 12, 20457 Hamburg, DE',
  'BT-31': 'DE123456789',
  'BT-44': 'Atelier Dupont SARL',
  'BG-8': '5 rue des Lilas, 69003 Lyon, FR',
  'BT-48': 'FR44732829320',
  'BT-84': 'DE02120300000000202051',
  'BT-106': '300.00',
  'BT-109': '290.00',
  'BT-110': '55.10',
  'BT-112': '345.10',
  'BT-113': '45.10',
  'BT-115': '300.00',
};

const EXPECTED_LINES = [
  { 'BT-126': '1', 'BT-153': 'Schraubendreher Satz', 'BT-129': '2', 'BT-130': 'C62', 'BT-146': '50.00', 'BT-131': '100.00', 'BT-152': '19.00' },
  { 'BT-126': '2', 'BT-153': 'Akkuschrauber 18 V', 'BT-129': '1', 'BT-130': 'C62', 'BT-146': '200.00', 'BT-131': '200.00', 'BT-152': '19.00' },
];

function lineValues(invoice: EInvoice): Array<Record<string, string>> {
  return invoice.lines.map((line) => Object.fromEntries(Object.entries(line).map(([term, found]) => [term, found!.value])));
}

describe('e-invoice XML (ingest/einvoice)', () => {
  it('reads every business term of a CII invoice (ZUGFeRD 2.x / Factur-X) with the path of its element', () => {
    const invoice = invoiceOf(ciiXml(sampleInvoice(), '2'));
    expect(invoice.syntax).to.equal('CII');
    expect(invoice.standard).to.match(/ZUGFeRD 2\.x \/ Factur-X.*urn:cen\.eu:en16931:2017/);
    expect(values(invoice)).to.deep.equal(EXPECTED_HEADER);
    expect(lineValues(invoice)).to.deep.equal(EXPECTED_LINES);
    expect(invoice.header['BT-112']!.path).to.equal('/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount');
    expect(invoice.lines[1]!['BT-131']!.path).to.contain('ram:IncludedSupplyChainTradeLineItem[2]');
    // the tax number (scheme FC) is not the VAT identifier (scheme VA)
    expect(invoice.header['BT-31']!.path).to.contain('ram:SpecifiedTaxRegistration[2]');
  });

  it('reads ZUGFeRD 1.0 (CrossIndustryDocument) to the same terms', () => {
    const invoice = invoiceOf(ciiXml(sampleInvoice(), '1'));
    expect(invoice.standard).to.match(/^ZUGFeRD 1\.0/);
    expect(values(invoice)).to.deep.equal(EXPECTED_HEADER);
    expect(lineValues(invoice)).to.deep.equal(EXPECTED_LINES);
    expect(invoice.header['BT-1']!.path).to.equal('/rsm:CrossIndustryDocument/rsm:HeaderExchangedDocument/ram:ID');
  });

  it('reads UBL 2.1 invoices: the registered name, the VAT total in the invoice currency', () => {
    const invoice = invoiceOf(ublXml(sampleInvoice()));
    expect(invoice.syntax).to.equal('UBL');
    expect(invoice.standard).to.match(/^XRechnung \(UBL 2\.1 Invoice\)/);
    expect(values(invoice)).to.deep.equal(EXPECTED_HEADER);
    expect(lineValues(invoice)).to.deep.equal(EXPECTED_LINES);
  });

  it('reads UBL 2.1 credit notes (credited quantities, the due date of the payment means) and CII credit notes alike', () => {
    const note = sampleCreditNote();
    for (const invoice of [invoiceOf(ublXml(note)), invoiceOf(ciiXml(note, '2'))]) {
      const header = values(invoice);
      expect(header['BT-1']).to.equal('GS-2025-0007');
      expect(header['BT-3']).to.equal('381 (credit note)');
      expect(header['BT-9']).to.equal('2025-04-13');
      expect(header['BT-112']).to.equal('59.50');
      expect(lineValues(invoice)).to.deep.equal([{ 'BT-126': '1', 'BT-153': 'Schraubendreher Satz (retour)', 'BT-129': '1', 'BT-130': 'C62', 'BT-146': '50.00', 'BT-131': '50.00', 'BT-152': '19.00' }]);
    }
  });

  it('writes amounts with two decimals at least, never rounded, and keeps their sign', () => {
    const invoice = invoiceOf(ciiXml(sampleInvoice({ grandTotal: '850', tax: '-1.12', lineTotal: '0', lines: [{ id: '1', name: 'x', quantity: '1.5', unit: 'KGM', price: '9.8765', net: '14.81', rate: '7' }] }), '2'));
    expect(values(invoice)).to.include({ 'BT-112': '850.00', 'BT-110': '-1.12', 'BT-106': '0.00' });
    expect(lineValues(invoice)[0]).to.include({ 'BT-146': '9.8765', 'BT-129': '1.5' });
  });

  it('takes a name the XML breaks after a form of address on a line of its own as the name alone', () => {
    const xml = ciiXml(sampleInvoice({ buyer: { name: 'BUYER', street: 'Weg 1', postcode: '10115', city: 'Berlin', country: 'DE' } }), '2').replace('<ram:Name>BUYER</ram:Name>', '<ram:Name>Herrn\n   Max   Mustermann\n</ram:Name>');
    expect(values(invoiceOf(xml))['BT-44']).to.equal('Max Mustermann');
  });

  it('says what other XML is, rather than reading it', () => {
    expect(readEInvoiceXml(Buffer.from('<?xml version="1.0"?><Order xmlns="urn:example:order"><ID>1</ID></Order>'))).to.deep.equal({ kind: 'other', root: 'Order (urn:example:order)' });
    // the right local name in the wrong namespace is not an invoice either
    expect(readEInvoiceXml(Buffer.from('<Invoice><ID>1</ID></Invoice>')).kind).to.equal('other');
  });

  describe('hostile and broken XML', () => {
    it('refuses a billion-laughs document for its DTD, before expanding anything', () => {
      const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]><lolz>&lol9;</lolz>`;
      expect(problemOf(lol)).to.match(/DTD/);
    });

    it('refuses external entities (XXE): nothing is fetched or read', () => {
      expect(problemOf('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><x>&xxe;</x>')).to.match(/DTD/);
      expect(problemOf('<?xml version="1.0"?><!DOCTYPE x SYSTEM "http://127.0.0.1:9/evil.dtd"><x/>')).to.match(/DTD/);
    });

    it('refuses an entity it was never told of, and malformed XML, saying where', () => {
      expect(problemOf('<x>&undeclared;</x>')).to.match(/not well-formed/);
      expect(problemOf('<a><b></a>')).to.match(/not well-formed/);
      expect(problemOf(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x61, 0x3e]))).to.match(/UTF-8/);
      expect(problemOf('')).to.match(/no root|well-formed/);
    });

    it('bounds nesting: 100,000 open elements are refused, not recursed', () => {
      expect(problemOf(`${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`)).to.match(/deep/);
    });

    it('grows linearly with the input: 4x the lines costs about 4x the work', async () => {
      const many = (count: number) => ciiXml(sampleInvoice({ lines: Array.from({ length: count }, (_, i) => ({ id: String(i + 1), name: `Item ${i}`, quantity: '1', unit: 'C62', price: '1.00', net: '1.00', rate: '19' })) }), '2');
      const sizes = new Map([500, 2000].map((count) => [count, many(count)]));
      // CPU time in one run (growth.ts): wall-clock time also counts what other processes take
      await expectLinearGrowth((count) => eInvoicePage(invoiceOf(sizes.get(count)!), 0), 500);
    });
  });
});

describe('application/xml contents (decode)', () => {
  it('accepts application/xml and text/xml, and refuses XML over MAX_XML_MB with a 400 naming the limit', () => {
    const item = (mimeType: string, bytes: Buffer) => ({ mimeType, data: bytes.toString('base64') });
    const xml = Buffer.from(ublXml(sampleInvoice()));
    expect(decodeContents([item('application/xml', xml), item('text/xml', xml)], { maxFiles: 5 }).map((file) => file.mimeType)).to.deep.equal(['application/xml', 'application/xml']);
    const fifty = Buffer.alloc(50 * 1024 * 1024, 0x20);
    fifty.write('<x>', 0);
    fifty.write('</x>', fifty.length - 4);
    try {
      decodeContents([item('application/xml', fifty)], { maxFiles: 5, maxXmlBytes: 20 * 1024 * 1024 });
      expect.fail('expected a 400');
    } catch (error) {
      expect((error as AppError).status).to.equal(400);
      expect((error as Error).message).to.equal('contents[0].data is 50 MB of XML; the limit is 20 MB (MAX_XML_MB)');
    }
    expect(() => decodeContents([item('application/xml', Buffer.from('%PDF-1.7\n'))], { maxFiles: 5 })).to.throw(/is a PDF file but contents\[0\]\.mimeType is application\/xml/);
  });
});

describe('e-invoices in ingestion', function () {
  this.timeout(60_000);
  let pdf: PdfProcessor;
  let formats: FormatReader;
  let deps: IngestDeps;
  before(() => {
    pdf = new PdfProcessor({ workers: 1, maxPixelsPerPage: 4_000_000, renderDpi: 100 });
    formats = new FormatReader({ workers: 1 });
    deps = { pdf, formats, ocr: undefined as never, limits: { maxPagesPerRequest: 20, maxWordsPerRequest: 50_000, maxPixelsPerImage: 4_000_000, maxGifFrames: 3, maxXmlBytes: 1024 * 1024 }, ocrConcurrency: 1 };
  });
  after(() => Promise.all([pdf.close(), formats.close()]));

  const pdfFile = (bytes: Buffer, index = 0): DecodedFile => ({ index, filename: `invoice-${index}.pdf`, mimeType: 'application/pdf', bytes });
  const xmlFile = (xml: string): DecodedFile => ({ index: 0, filename: 'invoice.xml', mimeType: 'application/xml', bytes: Buffer.from(xml) });

  it('reads the CII a PDF/A-3 carries as a page after its printed one, naming the attachment', async () => {
    const { document, stats } = await ingestFiles([pdfFile(await hybridPdf(sampleInvoice(), ciiXml(sampleInvoice())))], deps, new AbortController().signal);
    const pages = document.files[0]!.pages;
    expect(pages.map((page) => [page.index, page.source])).to.deep.equal([[0, 'text-layer'], [1, 'e-invoice']]);
    expect(stats.eInvoicePages).to.equal(1);
    const einvoice = pages[1]!;
    expect(einvoice.eInvoice).to.include({ attachment: 'factur-x.xml', syntax: 'CII' });
    expect(einvoice.lines.map((line) => line.text)).to.include.members(['Invoice number: RE-2025-0042', 'Total amount with VAT: 345.10', 'Seller: Nordlicht Werkzeuge GmbH']);
    expect(einvoice.lines.every((line) => line.words.every((word) => word.source === 'e-invoice'))).to.equal(true);
    // every value knows its term and element; the table's cells each theirs
    const total = einvoice.lines.findIndex((line) => line.text.startsWith('Total amount with VAT'));
    expect(einvoice.eInvoice!.lines[total]).to.deep.equal([{ term: 'BT-112', name: 'Invoice total amount with VAT', path: '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount', words: [4, 5] }]);
    const row = einvoice.lines.findIndex((line) => line.text.startsWith('2 Akkuschrauber'));
    expect(einvoice.eInvoice!.lines[row]!.map((value) => value.term)).to.deep.equal(['BT-126', 'BT-153', 'BT-129', 'BT-130', 'BT-146', 'BT-131', 'BT-152']);
    // the engines read it first, under a marker that says what it is
    const layout = renderLayoutText(document).text;
    expect(layout.indexOf('e-invoice: the values of the e-invoice XML it carries (factur-x.xml')).to.be.lessThan(layout.indexOf('page 1 ---'));
    // the page survives the way to the rules engine's thread
    expect(unpackDocument(packDocument(document))).to.deep.equal(document);
  });

  it('reads a PDF\'s pages and the e-invoice it carries in one task on the PDF threads', async () => {
    // each task is a message to a thread and back; the text, the inspection and the attachment search share one
    const tasks: string[] = [];
    const counting = Object.create(pdf) as PdfProcessor;
    counting.inspect = (...args) => (tasks.push('inspect'), pdf.inspect(...args));
    counting.render = (...args) => (tasks.push('render'), pdf.render(...args));
    counting.readEInvoiceXml = (...args) => (tasks.push('readEInvoiceXml'), pdf.readEInvoiceXml(...args));
    const { document } = await ingestFiles([pdfFile(await hybridPdf(sampleInvoice(), ciiXml(sampleInvoice())))], { ...deps, pdf: counting }, new AbortController().signal);
    expect(document.files[0]!.pages.map((page) => page.source)).to.deep.equal(['text-layer', 'e-invoice']);
    expect(tasks).to.deep.equal(['inspect']);
  });

  it('finds ZUGFeRD 1.0 and UBL attachments, and one that only /AF names', async () => {
    for (const [xml, filename, placement] of [[ciiXml(sampleInvoice(), '1'), 'ZUGFeRD-invoice.xml', 'names'], [ublXml(sampleCreditNote()), 'xrechnung.xml', 'names'], [ciiXml(sampleInvoice()), 'factur-x.xml', 'af']] as const) {
      const { document } = await ingestFiles([pdfFile(await hybridPdf(sampleInvoice(), xml, { filename, placement }))], deps, new AbortController().signal);
      const einvoice = document.files[0]!.pages.find((page) => page.source === 'e-invoice');
      expect(einvoice, `${filename} in ${placement}`).to.not.equal(undefined);
      // pdf.js lists only the name tree; the scan of embedded files finds the /AF one, without a name
      expect(einvoice!.eInvoice!.attachment).to.equal(placement === 'af' ? undefined : filename);
    }
  });

  it('reads a PDF whose attachment is no invoice, is hostile or too large as an ordinary PDF', async () => {
    const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">&b;</rsm:CrossIndustryInvoice>`;
    const huge = `<?xml version="1.0"?>${' '.repeat(2 * 1024 * 1024)}${ciiXml(sampleInvoice()).replace(/^<\?xml[^>]*>/, '')}`;
    for (const attachment of ['<?xml version="1.0"?><Order xmlns="urn:example"><ID>7</ID></Order>', 'plain text, no XML', lol, huge, '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"><broken>']) {
      const { document } = await ingestFiles([pdfFile(await hybridPdf(sampleInvoice(), attachment, { filename: 'factur-x.xml' }))], deps, new AbortController().signal);
      expect(document.files[0]!.pages.map((page) => page.source), attachment.slice(0, 60)).to.deep.equal(['text-layer']);
      expect(document.files[0]!.pages[0]!.lines.map((line) => line.text)).to.include('Rechnungsnummer: RE-2025-0042');
    }
  });

  it('leaves a PDF whose embedded file inflates far past the limit to the page, without decoding it', async () => {
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const bytes = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(factur-x.xml) 5 0 R] >> >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 6 0 R >> >> /Contents 4 0 R >>',
      stream('', 'BT /F1 12 Tf 50 700 Td (Invoice number: A-1) Tj ET'),
      '<< /Type /Filespec /F (factur-x.xml) /UF (factur-x.xml) /EF << /F 7 0 R >> >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      stream('/Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode', bomb),
    ]);
    const { document } = await ingestFiles([pdfFile(bytes)], deps, new AbortController().signal);
    expect(document.files[0]!.pages.map((page) => page.source)).to.deep.equal(['text-layer']);
  });

  it('with options.eInvoice "ignore", reads the visible page only, and an XML file as plain XML (a line per value, its path)', async () => {
    const { document } = await ingestFiles([pdfFile(await hybridPdf(sampleInvoice(), ciiXml(sampleInvoice())))], deps, new AbortController().signal, { eInvoice: 'ignore' });
    expect(document.files[0]!.pages.map((page) => page.source)).to.deep.equal(['text-layer']);
    const xml = await ingestFiles([xmlFile(ublXml(sampleInvoice()))], deps, new AbortController().signal, { eInvoice: 'ignore' });
    const page = xml.document.files[0]!.pages[0]!;
    expect(page.source).to.equal('text-layer');
    const id = page.lines.findIndex((line) => line.text === 'ID: RE-2025-0042');
    expect(page.places?.[id]).to.deep.equal([{ words: [1, 2], place: { kind: 'path', path: '/Invoice/cbc:ID' } }]);
  });

  it('reads an XML file as its one page, XML that is no invoice as plain XML; hostile or broken XML gets a 400 naming the file', async () => {
    const { document } = await ingestFiles([xmlFile(ublXml(sampleCreditNote()))], deps, new AbortController().signal);
    expect(document.files[0]!.pages.map((page) => [page.index, page.source])).to.deep.equal([[0, 'e-invoice']]);
    expect(document.files[0]!.pages[0]!.eInvoice).to.not.have.property('attachment');
    const order = await ingestFiles([xmlFile('<?xml version="1.0"?><Order xmlns="urn:example"><OrderID>77</OrderID></Order>')], deps, new AbortController().signal);
    expect(order.document.files[0]!.pages[0]!.lines.map((line) => line.text)).to.deep.equal(['Order ID: 77']);
    const cases: Array<[string, RegExp]> = [
      ['<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><x>&xxe;</x>', /contents\[0\]\.data: XML cannot be read: it declares a DTD/],
      ['<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID>', /contents\[0\]\.data: XML cannot be read: it is not well-formed XML/],
    ];
    for (const [xml, message] of cases) {
      try {
        await ingestFiles([xmlFile(xml)], deps, new AbortController().signal);
        expect.fail('expected a 400');
      } catch (error) {
        expect((error as AppError).status, (error as Error).message).to.equal(400);
        expect((error as Error).message).to.match(message);
      }
    }
  });
});
