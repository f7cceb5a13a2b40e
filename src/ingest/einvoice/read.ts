/**
 * XML bytes -> an e-invoice, when the root is one docshape reads: a CII
 * invoice (ZUGFeRD 1.0 CrossIndustryDocument, or CrossIndustryInvoice of
 * ZUGFeRD 2.x, Factur-X, XRechnung) or a UBL 2.1 Invoice or CreditNote. The
 * business terms are read by one walk over the term table (terms.ts), with
 * the paths of the root's syntax. Runs on a worker thread
 * (ingest/pdf-worker.ts): parsing grows with the bytes; the walk is linear
 * in the elements it visits.
 */
import type { EInvoiceGroup, EInvoiceValue } from '../../document/document.js';
import { select, type TermLookup } from './paths.js';
import { INVOICE, pathsFor, type EInvoice, type GroupDef, type TermDef, type Variant } from './terms.js';
import { addressValue, pathOfMatch, valueOf } from './values.js';
import { parseXml, pathOf, type XmlElement } from './xml.js';

export const CII_NAMESPACE = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
export const ZUGFERD1_NAMESPACE = 'urn:ferd:CrossIndustryDocument:invoice:1p0';
export const UBL_INVOICE_NAMESPACE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
export const UBL_CREDIT_NOTE_NAMESPACE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

export type EInvoiceReading = { kind: 'invoice'; invoice: EInvoice } | { kind: 'other'; root: string };

/** What the syntaxes' roots are, for messages. */
export const E_INVOICE_ROOTS = 'CII CrossIndustryInvoice (ZUGFeRD 2.x, Factur-X, XRechnung), ZUGFeRD 1.0 CrossIndustryDocument, UBL 2.1 Invoice or CreditNote';

/** The syntax a root element is written in; undefined for XML that is no e-invoice docshape reads. */
export function variantOf(root: XmlElement): Variant | undefined {
  if (root.local === 'CrossIndustryInvoice' && root.uri === CII_NAMESPACE) return 'cii';
  if (root.local === 'CrossIndustryDocument' && root.uri === ZUGFERD1_NAMESPACE) return 'zf1';
  if (root.local === 'Invoice' && root.uri === UBL_INVOICE_NAMESPACE) return 'ubl';
  if (root.local === 'CreditNote' && root.uri === UBL_CREDIT_NOTE_NAMESPACE) return 'creditNote';
  return undefined;
}

/** Throws XmlProblem (xml.ts) when the bytes are no well-formed XML or declare a DTD. */
export function readEInvoiceXml(bytes: Uint8Array): EInvoiceReading {
  const root = parseXml(bytes);
  const variant = variantOf(root);
  if (!variant) return { kind: 'other', root: root.uri ? `${root.local} (${root.uri})` : root.local };
  return { kind: 'invoice', invoice: readEInvoice(root, variant) };
}

export function readEInvoice(root: XmlElement, variant: Variant): EInvoice {
  const invoice: EInvoiceGroup = { group: INVOICE.id, path: pathOf(root), terms: {}, groups: {} };
  // a condition may compare with a term of the invoice read before it (BT-110: the VAT total in the invoice's currency, BT-5)
  const lookup: TermLookup = (term) => invoice.terms[term]?.[0]?.raw;
  readInto(invoice, INVOICE, root, variant, lookup);
  return { syntax: variant === 'cii' || variant === 'zf1' ? 'CII' : 'UBL', standard: standardOf(root, variant, invoice), invoice };
}

/** The group's terms and inner groups, read from `element` into `group`. */
function readInto(group: EInvoiceGroup, def: GroupDef, element: XmlElement, variant: Variant, lookup: TermLookup): void {
  for (const term of def.terms) {
    if (term.kind === 'address') continue;
    const values = termValues(term, element, variant, lookup);
    if (values.length > 0) group.terms[term.id] = values;
  }
  for (const term of def.terms) if (term.kind === 'address') addAddress(group, term, element, variant, lookup);
  for (const inner of def.groups ?? []) {
    const found: EInvoiceGroup[] = [];
    for (const path of pathsFor(inner, variant)) {
      for (const match of select(element, path, lookup, inner.repeats ? Infinity : 1)) {
        const instance: EInvoiceGroup = { group: inner.id, path: pathOf(match.element), terms: {}, groups: {} };
        readInto(instance, inner, match.element, variant, lookup);
        if (Object.keys(instance.terms).length > 0 || Object.keys(instance.groups).length > 0) found.push(instance);
        if (!inner.repeats) break;
      }
      if (!inner.repeats && found.length > 0) break;
    }
    if (found.length > 0) group.groups[inner.id] = found;
  }
}

/** The first of the term's paths that finds a value: all its values when the term repeats, else the first. */
function termValues(term: TermDef, element: XmlElement, variant: Variant, lookup: TermLookup): EInvoiceValue[] {
  const scheme = term.scheme ?? (term.kind === 'identifier' ? ['@schemeID'] : []);
  for (const path of pathsFor(term, variant)) {
    const valuesOf = (limit: number) => select(element, path, lookup, limit).flatMap((match) => valueOf(match, term.kind, scheme) ?? []);
    // a term that does not repeat wants the first match; only when that one is empty, the first of the others that is not
    const values = term.repeats ? valuesOf(Infinity) : valuesOf(1);
    if (values.length > 0) return values;
    if (!term.repeats && select(element, path, lookup, 2).length > 1) {
      const later = valuesOf(Infinity);
      if (later.length > 0) return later.slice(0, 1);
    }
  }
  return [];
}

/** A whole postal address from its parts, read before it; its path is the address element's. */
function addAddress(group: EInvoiceGroup, term: TermDef, element: XmlElement, variant: Variant, lookup: TermLookup): void {
  const [line1, line2, line3, city, postcode, subdivision, country] = (term.parts ?? []).map((id) => group.terms[id]?.[0]);
  const at = pathsFor(term, variant).flatMap((path) => select(element, path, lookup))[0];
  const whole = at ? addressValue(pathOfMatch(at), { lines: [line1, line2, line3], postcode, city, subdivision, country }) : undefined;
  if (whole) group.terms[term.id] = [whole];
}

function standardOf(root: XmlElement, variant: Variant, invoice: EInvoiceGroup): string {
  // BT-24, the specification identifier: the guideline a CII invoice names, a UBL invoice's CustomizationID
  const guideline = invoice.terms['BT-24']?.[0]?.raw;
  const xrechnung = /xrechnung/i.test(guideline ?? '');
  const version =
    variant === 'zf1' ? 'ZUGFeRD 1.0'
    : variant === 'cii' ? (xrechnung ? 'XRechnung (CII)' : 'ZUGFeRD 2.x / Factur-X (CII D16B)')
    : xrechnung ? `XRechnung (UBL 2.1 ${root.local})`
    : `UBL 2.1 ${root.local}`;
  return guideline ? `${version}, ${guideline}` : version;
}
