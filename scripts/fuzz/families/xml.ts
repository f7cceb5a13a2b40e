/**
 * E-invoices as XML content (application/xml, text/xml) built to hurt a
 * parser: entity bombs (billion laughs, quadratic blow-up), external entities
 * (files, URLs, parameter entities), nesting and breadth past any invoice,
 * long texts and attributes, broken encodings, cut-off and malformed
 * documents, foreign roots, and well-formed CII / UBL invoices whose values
 * are nonsense. Each must get a 200 or a 400 in time; nothing is fetched.
 */
import { DOCUMENT_MARKERS, entry, requestCase, type FuzzCase } from '../case.js';
import type { Random } from '../random.js';
import type { Family } from '../case.js';
import { ciiXml, sampleInvoice, ublXml, type InvoiceData } from '../../../test/fixtures/einvoices.js';

const FAMILY = 'xml';

/** A schema the e-invoice page answers (its labels), with room for lines. */
export function eInvoiceSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      invoice_number: { type: 'string' },
      invoice_date: { type: 'string', format: 'date' },
      seller: { type: 'string' },
      buyer: { type: 'string' },
      total: { type: 'number' },
      currency: { type: 'string' },
      items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, amount: { type: 'number' } } } },
    },
  };
}

/** An invoice whose values carry the markers that must never reach a log. */
export function markedInvoice(overrides: Partial<InvoiceData> = {}): InvoiceData {
  const invoice = sampleInvoice(overrides);
  return { ...invoice, number: DOCUMENT_MARKERS[0], buyer: { ...invoice.buyer, name: DOCUMENT_MARKERS[1] }, orderReference: DOCUMENT_MARKERS[3], ...overrides };
}

const CII_ROOT = '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100">';

/** Hostile or broken XML documents, each with a label. */
export const hostileXml: Array<[(rng: Random) => [string | Buffer, string], number]> = [
  [(rng) => {
    const levels = rng.pick([5, 9, 12]);
    const entities = Array.from({ length: levels }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    return [`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY l0 "lol">${entities}]>${CII_ROOT}&l${levels};</rsm:CrossIndustryInvoice>`, `billion laughs, ${levels} levels`];
  }, 3],
  [(rng) => {
    const size = rng.pick([10_000, 100_000]);
    return [`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "${'a'.repeat(size)}">]><r>${'&a;'.repeat(size / 10)}</r>`, `quadratic blow-up, ${size}`];
  }, 2],
  [(rng) => {
    const target = rng.pick(['file:///etc/passwd', 'file:///proc/self/environ', 'http://127.0.0.1:9/x.dtd', 'https://example.invalid/evil', 'expect://id', 'php://filter/resource=/etc/hosts']);
    const form = rng.pick([`<!DOCTYPE r [<!ENTITY x SYSTEM "${target}">]><r>&x;</r>`, `<!DOCTYPE r SYSTEM "${target}"><r/>`, `<!DOCTYPE r [<!ENTITY % p SYSTEM "${target}"> %p;]><r/>`, `<!DOCTYPE r PUBLIC "-//X//EN" "${target}"><r/>`]);
    return [`<?xml version="1.0"?>${form}`, `external entity ${target}`];
  }, 3],
  [(rng) => { const depth = rng.pick([65, 1000, 200_000]); return [`${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`, `${depth} levels deep`]; }, 2],
  [(rng) => { const count = rng.pick([100_000, 1_100_000]); return [`${CII_ROOT}${'<x/>'.repeat(count)}</rsm:CrossIndustryInvoice>`, `${count} sibling elements`]; }, 1],
  [(rng) => { const length = rng.pick([100_000, 5_000_000]); return [`${CII_ROOT}<ram:ID>${'9'.repeat(length)}</ram:ID></rsm:CrossIndustryInvoice>`, `a text of ${length} characters`]; }, 1],
  [(rng) => { const length = rng.pick([100_000, 3_000_000]); return [`<r a="${'x'.repeat(length)}"/>`, `an attribute of ${length} characters`]; }, 1],
  [(rng) => { const count = rng.pick([1000, 50_000]); return [`<r ${Array.from({ length: count }, (_, i) => `a${i}="1"`).join(' ')}/>`, `${count} attributes`]; }, 1],
  [(rng) => { const count = rng.pick([1000, 100_000]); return [`<r ${Array.from({ length: count }, (_, i) => `xmlns:p${i}="urn:x:${i}"`).join(' ')}/>`, `${count} namespace declarations`]; }, 1],
  [() => [Buffer.concat([Buffer.from('<?xml version="1.0" encoding="UTF-8"?><r>'), Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x00]), Buffer.from('</r>')]), 'invalid UTF-8'], 1],
  [() => [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ciiXml(markedInvoice()).replace('UTF-8', 'UTF-16'), 'utf16le')]), 'UTF-16LE with BOM'], 1],
  [(rng) => [`<?xml version="1.0" encoding="${rng.pick(['EBCDIC-US', 'x-unknown', 'utf-7', 'Shift_JIS'])}"?><r/>`, 'unsupported encoding'], 1],
  [(rng) => { const xml = ciiXml(markedInvoice()); const at = rng.int(1, xml.length - 1); return [xml.slice(0, at), `CII cut at ${at} of ${xml.length}`]; }, 3],
  [(rng) => { const xml = ublXml(markedInvoice()); const at = rng.int(0, xml.length - 1); return [xml.slice(0, at) + rng.pick(['<', '&', ']]>', '\u0000', '</wrong>', '<?', '<!--']) + xml.slice(at), `UBL with a stray token at ${at}`]; }, 2],
  [(rng) => [rng.pick(['', ' ', '<', '<?xml version="1.0"?>', '<!-- only a comment -->', '<a></b>', '<a/><b/>', '<a>&#0;</a>', '<a>&#x110000;</a>', '<a xmlns:p="">p:x</a>', '<p:a/>']), 'tiny malformed'], 2],
  [(rng) => {
    const root = rng.pick(['Order', 'html', 'svg', 'Invoice', 'CreditNote', 'CrossIndustryInvoice']);
    return [`<?xml version="1.0"?><${root} xmlns="urn:${rng.string(8)}"><ID>${DOCUMENT_MARKERS[0]}</ID></${root}>`, `foreign root ${root}`];
  }, 2],
  [(rng) => [`<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><![CDATA[${'<'.repeat(rng.pick([10, 100_000]))}]]><!--${'-'.repeat(3)}--></Invoice>`, 'CDATA and comments'], 1],
  [(rng) => {
    const junk = () => rng.pick(['', ' ', 'NaN', '-', '1e309', '-0', '0x1F', '١٢٣', '2025-02-30', '99999999', `${'9'.repeat(400)}.5`, '<>', DOCUMENT_MARKERS[2]]);
    const invoice = markedInvoice({ grandTotal: junk(), issueDate: junk(), dueDate: junk(), currency: junk(), tax: junk(), lines: Array.from({ length: rng.int(0, 3) }, (_, i) => ({ id: String(i), name: junk(), quantity: junk(), unit: 'C62', price: junk(), net: junk(), rate: junk() })) });
    return [rng.chance(0.5) ? ciiXml(invoice, rng.pick(['1', '2'] as const)) : ublXml(invoice), 'an e-invoice with nonsense values'];
  }, 3],
  [(rng) => {
    const lines = rng.pick([1, 100, 1000]);
    const invoice = markedInvoice({ lines: Array.from({ length: lines }, (_, i) => ({ id: String(i + 1), name: `Item ${i}`, quantity: '1', unit: 'C62', price: '1.00', net: '1.00', rate: '19' })) });
    return [rng.pick([() => ciiXml(invoice, '2'), () => ciiXml(invoice, '1'), () => ublXml(invoice), () => ublXml({ ...invoice, typeCode: '381' })])(), `a valid e-invoice of ${lines} lines`];
  }, 3],
];

function xmlCase(rng: Random): FuzzCase {
  const [xml, label] = rng.weighted(hostileXml)(rng);
  const bytes = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml;
  const mimeType = rng.pick(['application/xml', 'application/xml', 'text/xml', 'TEXT/XML']);
  const options = rng.chance(0.2) ? { options: { eInvoice: rng.pick(['auto', 'ignore']) } } : {};
  const body = JSON.stringify({ schema: eInvoiceSchema(), contents: [entry(bytes, mimeType, 'invoice.xml')], ...options });
  return { ...requestCase(FAMILY, `${label} as ${mimeType}`, eInvoiceSchema(), [entry(bytes, mimeType, 'invoice.xml')]), body, allowed: [200, 400, 413] };
}

export const xmlFamily: Family = {
  name: FAMILY,
  weight: 4,
  generate: (rng) => xmlCase(rng),
};
