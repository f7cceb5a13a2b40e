import { deflateSync } from 'node:zlib';
import { expect } from 'chai';
import type { EInvoiceGroup, EInvoiceValue, Page } from '../../src/document/document.js';
import { AppError } from '../../src/errors.js';
import { decodeContents, type DecodedFile } from '../../src/ingest/decode.js';
import { readEInvoiceXml } from '../../src/ingest/einvoice/read.js';
import { eInvoicePage } from '../../src/ingest/einvoice/page.js';
import { select } from '../../src/ingest/einvoice/paths.js';
import { TERMS, type EInvoice } from '../../src/ingest/einvoice/terms.js';
import { parseXml, XmlProblem } from '../../src/ingest/einvoice/xml.js';
import { ingestFiles, type IngestDeps } from '../../src/ingest/ingest.js';
import { renderLayoutText } from '../../src/ingest/layout.js';
import { PdfProcessor } from '../../src/ingest/pdf.js';
import { FormatReader } from '../../src/ingest/formats-thread.js';
import { packDocument, packPage, unpackDocument, unpackingPage } from '../../src/ingest/document-pack.js';
import { ciiXml, fullInvoice, hybridPdf, sampleCreditNote, sampleInvoice, ublXml, type InvoiceData } from '../fixtures/einvoices.js';
import { rawPdf, stream } from '../../scripts/fuzz/pdf-writer.js';
import { expectLinearGrowth } from '../helpers/growth.js';

function invoiceOf(xml: string): EInvoice {
  const reading = readEInvoiceXml(Buffer.from(xml, 'utf8'));
  if (reading.kind !== 'invoice') return expect.fail(`not read as an invoice: root ${reading.root}`);
  return reading.invoice;
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

/** A value as the expectations write it: "value", with " [scheme]" when the XML names one that is not what selects the term (a VAT id's "VA"). */
const shown = (term: string, found: EInvoiceValue) => (found.scheme && !TERMS.get(term)!.schemeSelects ? `${found.value} [${found.scheme}]` : found.value);

/** Every group of the invoice by where it sits ("BG-4", "BG-25/2", "BG-25/1/BG-27/1"), each its terms' values. */
function flat(group: EInvoiceGroup, key = 'invoice', into: Record<string, Record<string, string[]>> = {}): Record<string, Record<string, string[]>> {
  into[key] = Object.fromEntries(Object.entries(group.terms).map(([term, values]) => [term, values.map((found) => shown(term, found))]));
  for (const [id, instances] of Object.entries(group.groups)) {
    instances.forEach((instance, i) => flat(instance, `${key === 'invoice' ? '' : `${key}/`}${id}${instances.length > 1 || ['BG-25', 'BG-27', 'BG-28', 'BG-32'].includes(id) ? `/${i + 1}` : ''}`, into));
  }
  return into;
}

/** What fullInvoice() states, term by term, as CII D16B and UBL write it (each syntax's differences below). */
function expectedFull(): Record<string, Record<string, string[]>> {
  const address = (id: string, parts: Record<string, string>) => ({ [id]: [Object.values(parts).join(', ')] });
  return {
    invoice: {
      'BT-1': ['RE 2024 0815'], 'BT-2': ['2024-03-15'], 'BT-3': ['380'], 'BT-5': ['EUR'], 'BT-6': ['SEK'], 'BT-7': ['2024-03-10'], 'BT-9': ['2024-04-14'],
      'BT-10': ['991-01234-56'], 'BT-11': ['PRJ-77'], 'BT-12': ['CT-2023-19'], 'BT-13': ['PO 4711'], 'BT-14': ['SO-3321'], 'BT-15': ['RA-5'], 'BT-16': ['DA-88'],
      'BT-17': ['LOT-3'], 'BT-18': ['METER-0042 [AUN]'], 'BT-19': ['4711-300'], 'BT-20': ['Zahlbar innerhalb von 30 Tagen ohne Abzug'], 'BT-83': ['RE 2024 0815'],
      'BT-89': ['MANDATE-1'], 'BT-90': ['DE98ZZZ09999999999'], 'BT-24': ['urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0'],
    },
    'BG-1/1': { 'BT-21': ['AAI'], 'BT-22': ['Vielen Dank für Ihren Auftrag.'] },
    // white space collapsed, nothing else
    'BG-1/2': { 'BT-22': ['Lieferung frei Haus.'] },
    'BG-3': { 'BT-25': ['RE 2024 0700'], 'BT-26': ['2024-02-01'] },
    'BG-4': {
      'BT-27': ['[Seller name]'], 'BT-28': ['Nordlicht'], 'BT-29': ['549910', '4000001123452 [0088]'], 'BT-30': ['HRB 12345 [0002]'], 'BT-31': ['DE123456789'],
      'BT-32': ['201/113/40209'], 'BT-33': ['Amtsgericht Hamburg HRB 12345'], 'BT-34': ['rechnung@nordlicht.example [EM]'],
      ...address('BG-5', { a: 'Hafenstraße 12', b: 'Hinterhaus', c: '3. OG', d: '20457 Hamburg', e: 'HH', f: 'DE' }),
      'BT-35': ['Hafenstraße 12'], 'BT-36': ['Hinterhaus'], 'BT-162': ['3. OG'], 'BT-37': ['Hamburg'], 'BT-38': ['20457'], 'BT-39': ['HH'], 'BT-40': ['DE'],
      'BT-41': ['Anna Schmidt'], 'BT-42': ['+49 40 123456'], 'BT-43': ['anna.schmidt@nordlicht.example'],
    },
    'BG-7': {
      // the salutation the XML puts on a line of its own stays: the name as written
      'BT-44': ['Herrn Max Mustermann'], 'BT-45': ['Mustermann Bau'], 'BT-46': ['K-1001'], 'BT-47': ['HRB 999'], 'BT-48': ['DE987654321'], 'BT-49': ['04011000-12345-34 [0204]'],
      ...address('BG-8', { a: 'Kundenweg 8', b: '10115 Berlin', c: 'DE' }),
      'BT-50': ['Kundenweg 8'], 'BT-52': ['Berlin'], 'BT-53': ['10115'], 'BT-55': ['DE'],
      'BT-56': ['Max Mustermann'], 'BT-57': ['030 998877'], 'BT-58': ['max@mustermann.example'],
    },
    'BG-10': { 'BT-59': ['Factoring Nord AG'], 'BT-60': ['PAYEE-7'], 'BT-61': ['HRB 555'] },
    'BG-11': { 'BT-62': ['Steuervertreter GmbH'], 'BT-63': ['DE111222333'], ...address('BG-12', { a: 'Amtsweg 1', b: '20095 Hamburg', c: 'DE' }), 'BT-64': ['Amtsweg 1'], 'BT-66': ['Hamburg'], 'BT-67': ['20095'], 'BT-69': ['DE'] },
    'BG-13': {
      'BT-70': ['Baustelle Mitte'], 'BT-71': ['4000001000005 [0088]'], 'BT-72': ['2024-03-10'], 'BT-73': ['2024-03-01'], 'BT-74': ['2024-03-31'],
      ...address('BG-15', { a: 'Baustraße 3', b: '10117 Berlin', c: 'DE' }), 'BT-75': ['Baustraße 3'], 'BT-77': ['Berlin'], 'BT-78': ['10117'], 'BT-80': ['DE'],
    },
    'BG-16': { 'BT-81': ['58'], 'BT-82': ['SEPA-Überweisung'] },
    'BG-16/BG-17': { 'BT-84': ['DE02200505501015871393'], 'BT-85': ['Nordlicht Werkzeuge'], 'BT-86': ['HASPDEHHXXX'] },
    'BG-20': { 'BT-92': ['10.00'], 'BT-93': ['100.00'], 'BT-94': ['10'], 'BT-95': ['S'], 'BT-96': ['19'], 'BT-97': ['Treuerabatt'], 'BT-98': ['95'] },
    'BG-21': { 'BT-99': ['5.00'], 'BT-102': ['S'], 'BT-103': ['19'], 'BT-104': ['Verpackung'], 'BT-105': ['ABL'] },
    'BG-22': { 'BT-106': ['1000.00'], 'BT-107': ['10.00'], 'BT-108': ['5.00'], 'BT-109': ['995.00'], 'BT-110': ['172.85'], 'BT-111': ['412.50'], 'BT-112': ['1167.85'], 'BT-113': ['100.00'], 'BT-114': ['0.01'], 'BT-115': ['1067.86'] },
    'BG-23/1': { 'BT-116': ['795.00'], 'BT-117': ['151.05'], 'BT-118': ['S'], 'BT-119': ['19'] },
    'BG-23/2': { 'BT-116': ['200.00'], 'BT-117': ['14.00'], 'BT-118': ['S'], 'BT-119': ['7'] },
    'BG-23/3': { 'BT-116': ['0.00'], 'BT-117': ['0.00'], 'BT-118': ['E'], 'BT-119': ['0'], 'BT-120': ['Steuerfrei nach § 4 UStG'], 'BT-121': ['VATEX-EU-132'] },
    'BG-25/1': {
      'BT-126': ['1'], 'BT-127': ['Farbe nach Muster'], 'BT-128': ['OBJ-1 [AUN]'], 'BT-129': ['8'], 'BT-130': ['C62'], 'BT-131': ['800.00'], 'BT-132': ['10'], 'BT-133': ['KST-100'],
      'BT-134': ['2024-03-01'], 'BT-135': ['2024-03-15'], 'BT-146': ['105.00'], 'BT-147': ['5.00'], 'BT-148': ['110.00'], 'BT-149': ['1'], 'BT-150': ['C62'], 'BT-151': ['S'], 'BT-152': ['19'],
      'BT-153': ['Akkuschrauber 18 V'], 'BT-154': ['Mit zwei Akkus und Koffer'], 'BT-155': ['AS-18'], 'BT-156': ['B-99'], 'BT-157': ['4012345678901 [0160]'], 'BT-158': ['43211503 [STI]', '27.90 [IB]'], 'BT-159': ['CN'],
    },
    'BG-25/1/BG-27/1': { 'BT-136': ['40.00'], 'BT-137': ['840.00'], 'BT-138': ['5'], 'BT-139': ['Mengenrabatt'], 'BT-140': ['95'] },
    'BG-25/1/BG-28/1': { 'BT-141': ['0.00'], 'BT-144': ['Fracht'], 'BT-145': ['FC'] },
    'BG-25/1/BG-32/1': { 'BT-160': ['Farbe'], 'BT-161': ['grün'] },
    'BG-25/2': { 'BT-126': ['2'], 'BT-129': ['4'], 'BT-130': ['H87'], 'BT-131': ['200.00'], 'BT-146': ['50.00'], 'BT-151': ['S'], 'BT-152': ['7'], 'BT-153': ['Fachbuch Schrauben'], 'BT-155': ['FB-1'] },
  };
}

/** Terms ZUGFeRD 1.0 has no element for; the builder leaves them out. */
const NOT_IN_ZUGFERD_1 = ['BT-6', 'BT-7', 'BT-11', 'BT-14', 'BT-17', 'BT-18', 'BT-89', 'BT-90', 'BT-28', 'BT-30', 'BT-33', 'BT-34', 'BT-162', 'BT-39', 'BT-45', 'BT-47', 'BT-49', 'BT-61', 'BT-111', 'BT-114', 'BT-121', 'BT-128'];

function expectedZugferd1(): Record<string, Record<string, string[]>> {
  const expected = expectedFull();
  for (const terms of Object.values(expected)) for (const id of NOT_IN_ZUGFERD_1) delete terms[id];
  delete expected['BG-3'];
  delete expected['BG-11'];
  expected['BG-4']!['BG-5'] = ['Hafenstraße 12, Hinterhaus, 20457 Hamburg, DE'];
  expected.invoice!['BT-24'] = ['urn:ferd:CrossIndustryDocument:invoice:1p0:comfort'];
  return expected;
}

describe('e-invoice XML (ingest/einvoice)', () => {
  describe('the term table, read from every syntax', () => {
    it('reads every term of a CII D16B invoice (ZUGFeRD 2.x, Factur-X, XRechnung CII)', () => {
      const invoice = invoiceOf(ciiXml(fullInvoice(), '2'));
      expect(invoice.syntax).to.equal('CII');
      expect(invoice.standard).to.equal('XRechnung (CII), urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
      expect(flat(invoice.invoice)).to.deep.equal(expectedFull());
    });

    it('reads every term of a UBL 2.1 invoice (Peppol BIS, XRechnung UBL); UBL has no note subject code', () => {
      const invoice = invoiceOf(ublXml(fullInvoice()));
      expect(invoice.syntax).to.equal('UBL');
      expect(invoice.standard).to.match(/^XRechnung \(UBL 2\.1 Invoice\)/);
      const expected = expectedFull();
      delete expected['BG-1/1']!['BT-21'];
      expect(flat(invoice.invoice)).to.deep.equal(expected);
    });

    it('reads a UBL 2.1 credit note: its type code, credited quantities, the due date of its payment means, the project as a document reference', () => {
      const invoice = invoiceOf(ublXml({ ...fullInvoice(), typeCode: '381' }));
      expect(invoice.standard).to.match(/^XRechnung \(UBL 2\.1 CreditNote\)/);
      const expected = expectedFull();
      delete expected['BG-1/1']!['BT-21'];
      expected.invoice!['BT-3'] = ['381'];
      expect(flat(invoice.invoice)).to.deep.equal(expected);
      const line = invoice.invoice.groups['BG-25']![0]!;
      expect(line.terms['BT-129']![0]!.path).to.equal('/CreditNote/cac:CreditNoteLine[1]/cbc:CreditedQuantity');
      expect(invoice.invoice.terms['BT-9']![0]!.path).to.equal('/CreditNote/cac:PaymentMeans/cbc:PaymentDueDate');
      expect(invoice.invoice.terms['BT-11']![0]!.path).to.match(/cac:AdditionalDocumentReference\[2\]\/cbc:ID$/);
    });

    it('reads ZUGFeRD 1.0 (CrossIndustryDocument) to the same terms, where it has elements for them', () => {
      const invoice = invoiceOf(ciiXml(fullInvoice(), '1'));
      expect(invoice.standard).to.equal('ZUGFeRD 1.0, urn:ferd:CrossIndustryDocument:invoice:1p0:comfort');
      expect(flat(invoice.invoice)).to.deep.equal(expectedZugferd1());
      expect(invoice.invoice.terms['BT-1']![0]!.path).to.equal('/rsm:CrossIndustryDocument/rsm:HeaderExchangedDocument/ram:ID');
    });

    it('reads ZUGFeRD 1.0\'s logistics service charge as a document level charge', () => {
      const xml = ciiXml(sampleInvoice(), '1').replace('<ram:SpecifiedTradePaymentTerms>', '<ram:SpecifiedLogisticsServiceCharge><ram:Description>Transportkosten</ram:Description><ram:AppliedAmount currencyID="EUR">3.00</ram:AppliedAmount><ram:AppliedTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:AppliedTradeTax></ram:SpecifiedLogisticsServiceCharge><ram:SpecifiedTradePaymentTerms>');
      expect(flat(invoiceOf(xml).invoice)['BG-21']).to.deep.equal({ 'BT-99': ['3.00'], 'BT-102': ['S'], 'BT-103': ['19.00'], 'BT-104': ['Transportkosten'] });
    });

    it('states nothing the XML does not: an absent term stays absent in every syntax', () => {
      const bare: InvoiceData = { number: '018304 / 28865', seller: { name: 'Solo' }, lines: [{ name: 'Beratung', net: '100.00' }] };
      for (const xml of [ciiXml(bare), ciiXml(bare, '1'), ublXml(bare)]) {
        const terms = flat(invoiceOf(xml).invoice);
        // the specification identifier aside (the builders name one), only the invoice number
        expect(terms.invoice).to.have.property('BT-1').that.deep.equals(['018304 / 28865']);
        expect(Object.keys(terms.invoice!).filter((id) => id !== 'BT-24')).to.deep.equal(['BT-1']);
        expect(terms['BG-4']).to.deep.equal({ 'BT-27': ['Solo'] });
        expect(terms['BG-25/1']).to.deep.equal({ 'BT-131': ['100.00'], 'BT-153': ['Beratung'] });
        expect(Object.keys(terms).sort()).to.deep.equal(['BG-25/1', 'BG-4', 'invoice']);
      }
    });
  });

  describe('values as written', () => {
    it('keeps the text as written, white space collapsed, and sets the normalised value beside it with what was applied', () => {
      const invoice = invoiceOf(ciiXml(fullInvoice({ grandTotal: '850', tax: '-1.12', lines: [{ id: '1', name: 'x', quantity: '1.5', unit: 'KGM', price: '9.8765', net: '14.81', rate: '7' }] }), '2'));
      const totals = invoice.invoice.groups['BG-22']![0]!.terms;
      expect(totals['BT-112']![0]).to.include({ raw: '850', value: '850.00', normalized: 'decimal written with two places at least' });
      expect(totals['BT-110']![0]).to.include({ raw: '-1.12', value: '-1.12', currency: 'EUR' }).and.not.have.property('normalized');
      // the VAT total in the accounting currency (BT-6) is the other one
      expect(totals['BT-111']![0]).to.include({ raw: '412.50', currency: 'SEK' });
      expect(invoice.invoice.terms['BT-2']![0]).to.deep.include({ raw: '20240315', value: '2024-03-15', format: '102', normalized: 'date format 102 (CCYYMMDD) written as YYYY-MM-DD' });
      const line = invoice.invoice.groups['BG-25']![0]!.terms;
      expect(line['BT-146']![0]).to.include({ raw: '9.8765', value: '9.8765' });
      expect(line['BT-129']![0]).to.include({ raw: '1.5', value: '1.5', unit: 'KGM' });
      expect(line['BT-130']![0]).to.include({ raw: 'KGM', path: '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedLineTradeDelivery/ram:BilledQuantity/@unitCode' });
      const buyer = invoice.invoice.groups['BG-7']![0]!.terms['BT-44']![0]!;
      expect(buyer).to.include({ raw: 'Herrn Max Mustermann', value: 'Herrn Max Mustermann' }).and.not.have.property('normalized');
      // UBL writes dates as ISO dates: nothing to normalise
      expect(invoiceOf(ublXml(fullInvoice())).invoice.terms['BT-2']![0]).to.deep.equal({ raw: '2024-03-15', value: '2024-03-15', path: '/Invoice/cbc:IssueDate' });
    });

    it('keeps the path of every value, with positions where siblings share a name', () => {
      const invoice = invoiceOf(ciiXml(sampleInvoice(), '2'));
      expect(invoice.invoice.groups['BG-22']![0]!.terms['BT-112']![0]!.path).to.equal('/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount');
      const line = invoice.invoice.groups['BG-25']![1]!;
      expect(line.path).to.equal('/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem[2]');
      expect(line.terms['BT-131']![0]!.path).to.equal(`${line.path}/ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount`);
      // the tax number (scheme FC) is not the VAT identifier (scheme VA)
      const seller = invoice.invoice.groups['BG-4']![0]!.terms;
      expect(seller['BT-31']![0]!.path).to.match(/ram:SpecifiedTaxRegistration\[2\]\/ram:ID$/);
      expect(seller['BT-32']![0]!.path).to.match(/ram:SpecifiedTaxRegistration\[1\]\/ram:ID$/);
      expect([seller['BT-31']![0]!.scheme, seller['BT-32']![0]!.scheme]).to.deep.equal(['VA', 'FC']);
    });

    it('takes the VAT total in the invoice currency when another currency\'s comes first, with or without a VAT accounting currency', () => {
      const foreign = '<cac:TaxTotal><cbc:TaxAmount currencyID="USD">99.99</cbc:TaxAmount></cac:TaxTotal>';
      const xml = ublXml(sampleInvoice()).replace('<cac:TaxTotal>', `${foreign}<cac:TaxTotal>`);
      expect(flat(invoiceOf(xml).invoice)['BG-22']!['BT-110']).to.deep.equal(['55.10']);
      expect(flat(invoiceOf(xml).invoice)['BG-22']).to.not.have.property('BT-111');
    });
  });

  describe('the path language', () => {
    const root = parseXml(Buffer.from('<r><p k="a"><v>1</v><s>x</s></p><p k="b"><v>2</v></p><p><v>3</v><s> y  z </s></p><c>b</c></r>'));
    const texts = (path: string, lookup?: (term: string) => string | undefined) => select(root, path, lookup).map((m) => (m.attribute ? m.element.attributes[m.attribute] : m.element.text));

    it('selects every node in document order, with conditions on children, attributes and earlier terms', () => {
      expect(texts('p/v')).to.deep.equal(['1', '2', '3']);
      expect(texts("p[@k='b']/v")).to.deep.equal(['2']);
      expect(texts("p[@k!='b']/v"), 'a missing attribute counts as different').to.deep.equal(['1', '3']);
      expect(texts("p[@k=('a','b')]/v")).to.deep.equal(['1', '2']);
      expect(texts('p[s]/v')).to.deep.equal(['1', '3']);
      expect(texts("p[s='y z']/v"), 'white space collapsed').to.deep.equal(['3']);
      expect(texts('p/@k')).to.deep.equal(['a', 'b']);
      expect(texts('p/v/../s|c')).to.deep.equal(['x', 'y  z']);
      expect(texts('p[@k=$BT-5]/v', (term) => (term === 'BT-5' ? 'a' : undefined))).to.deep.equal(['1']);
      expect(texts('p[@k=$BT-5]/v', () => undefined), 'an absent term matches nothing').to.deep.equal([]);
    });
  });

  describe('the page', () => {
    const pageOf = (xml: string): Page => eInvoicePage(invoiceOf(xml), 0)!;

    it('lays the terms out as labelled lines in groups and the lines as a table, every value showing where it is', () => {
      const page = pageOf(ciiXml(fullInvoice(), '2'));
      const text = page.lines.map((line) => line.text);
      expect(text).to.include.members([
        'Invoice number: RE 2024 0815',
        'Document type code: 380 (commercial invoice)',
        'Seller: [Seller name]',
        'Seller identifier: 4000001123452 (scheme 0088)',
        'Seller VAT ID: DE123456789',
        'Seller address: Hafenstraße 12, Hinterhaus, 3. OG, 20457 Hamburg, HH, DE',
        'Seller city: Hamburg',
        'Buyer: Herrn Max Mustermann',
        'Payee: Factoring Nord AG',
        'Deliver to: Baustelle Mitte',
        'Payment means code: 58 (SEPA credit transfer)',
        'IBAN: DE02200505501015871393',
        'BIC: HASPDEHHXXX',
        'Total amount with VAT: 1167.85',
        'VAT total in accounting currency: 412.50',
        'VAT category rate: 7',
        'Allowance reason: Treuerabatt',
        'Note: Lieferung frei Haus.',
        'Line Item name Item ID Quantity Unit Unit price Net amount VAT rate',
        'Line 1 item description: Mit zwei Akkus und Koffer',
        'Line 1 allowance amount: 40.00',
        'Line 1 item attribute: Farbe = grün',
      ]);
      // every value of the terms is on the page, and its words are its value
      let values = 0;
      const visit = (group: EInvoiceGroup) => {
        for (const [term, found] of Object.entries(group.terms)) {
          if (TERMS.get(term)!.offPage) {
            expect(found.every((value) => value.shown === undefined), term).to.equal(true);
            continue;
          }
          for (const value of found) {
            expect(value.shown, `${term} ${value.value}`).to.not.equal(undefined);
            const line = page.lines[value.shown!.line]!;
            expect(line.words.slice(...value.shown!.words).map((word) => word.text).join(' '), term).to.equal(value.value);
            expect(page.eInvoice!.lines[value.shown!.line]).to.deep.include({ term, name: TERMS.get(term)!.name, path: value.path, words: value.shown!.words });
            values++;
          }
        }
        for (const instances of Object.values(group.groups)) instances.forEach(visit);
      };
      visit(page.eInvoice!.invoice);
      expect(values).to.be.greaterThan(150);
      // blocks are set apart: the seller's lines follow the invoice's after a gap
      const sellerLine = text.indexOf('Seller: [Seller name]');
      expect(page.lines[sellerLine]!.bbox.y0 - page.lines[sellerLine - 1]!.bbox.y0).to.be.greaterThan(page.lines[sellerLine + 1]!.bbox.y0 - page.lines[sellerLine]!.bbox.y0);
    });

    it('packs for the event loop to the same page, unpacked a group of terms at a time; the rules engine\'s copy without the terms', () => {
      const lines = Array.from({ length: 40 }, (_, i) => ({ id: String(i + 1), name: `Artikel ${i + 1}`, quantity: '1', unit: 'C62', price: '1.00', net: '1.00', rate: '19', sellerItemId: `A-${i}`, attributes: [{ name: 'Farbe', value: 'rot' }] }));
      const page = pageOf(ciiXml(fullInvoice({ lines })));
      const packed = packPage(page);
      const steps = unpackingPage(structuredClone(packed));
      let turns = 0;
      let step = steps.next();
      for (; !step.done; step = steps.next()) turns++;
      expect(step.value).to.deep.equal(page);
      // a step per page line, per group instance and per group of the terms rebuilt: none parses the whole invoice
      expect(turns).to.be.at.least(page.lines.length + 2 * lines.length);
      expect(packed.eInvoice!.groups.filter(([id]) => id === 'BG-25')).to.have.length(lines.length);
      const forRules = unpackDocument(packDocument({ files: [{ index: 0, filename: 'x.xml', mimeType: 'application/xml', pages: [page] }] }, { withOrigins: false })).files[0]!.pages[0]!;
      expect(forRules.lines).to.deep.equal(page.lines);
      expect(forRules.eInvoice).to.deep.include({ lines: [], invoice: { group: 'invoice', path: '/rsm:CrossIndustryInvoice', terms: {}, groups: {} } });
    });

    it('keeps the labels the engines know for the terms it showed before', () => {
      const text = pageOf(ciiXml(sampleInvoice(), '2')).lines.map((line) => line.text);
      expect(text).to.include.members(['Invoice number: RE-2025-0042', 'Invoice date: 2025-03-14', 'Currency: EUR', 'Due date: 2025-04-13', 'Buyer reference: 04011000-12345-34', 'Purchase order reference: PO-7781', 'Seller: Nordlicht Werkzeuge GmbH', 'Seller address: Hafenstraße 12, 20457 Hamburg, DE', 'Buyer VAT ID: FR44732829320', 'IBAN: DE02120300000000202051', 'Sum of line net amounts: 300.00', 'Total amount without VAT: 290.00', 'VAT total: 55.10', 'Paid amount: 45.10', 'Amount due for payment: 300.00']);
      expect(text.indexOf('Total amount with VAT: 345.10')).to.be.lessThan(text.indexOf('Total amount without VAT: 290.00'));
    });
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
    // the printed page measured as its PDF is, the XML's page on a grid made up to lay its values out
    expect(pages.map((page) => page.units)).to.deep.equal(['pdf-points', 'text-grid']);
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
