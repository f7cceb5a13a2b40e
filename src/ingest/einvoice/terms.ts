/**
 * The EN 16931 business terms docshape reads from an e-invoice, whichever
 * syntax carried them (cii.ts, ubl.ts): each with its number, its name in the
 * standard, and the English label its line on the e-invoice page gets
 * (page.ts). The labels are the plain words invoices print and schemas use
 * ("Invoice number", "Due date", "Total amount with VAT"), so that every
 * engine reads them as it reads a printed label.
 */
import { pathOf, type XmlElement } from './xml.js';

export interface TermInfo {
  /** Its name in EN 16931. */
  name: string;
  /** Its label on the e-invoice page (a column heading for a line's terms). */
  label: string;
}

export const HEADER_TERMS = {
  'BT-1': { name: 'Invoice number', label: 'Invoice number' },
  'BT-2': { name: 'Invoice issue date', label: 'Invoice date' },
  'BT-3': { name: 'Invoice type code', label: 'Document type code' },
  'BT-5': { name: 'Invoice currency code', label: 'Currency' },
  'BT-9': { name: 'Payment due date', label: 'Due date' },
  'BT-10': { name: 'Buyer reference', label: 'Buyer reference' },
  'BT-13': { name: 'Purchase order reference', label: 'Purchase order reference' },
  'BT-27': { name: 'Seller name', label: 'Seller' },
  'BG-5': { name: 'Seller postal address', label: 'Seller address' },
  'BT-31': { name: 'Seller VAT identifier', label: 'Seller VAT ID' },
  'BT-44': { name: 'Buyer name', label: 'Buyer' },
  'BG-8': { name: 'Buyer postal address', label: 'Buyer address' },
  'BT-48': { name: 'Buyer VAT identifier', label: 'Buyer VAT ID' },
  'BT-84': { name: 'Payment account identifier', label: 'IBAN' },
  'BT-106': { name: 'Sum of Invoice line net amount', label: 'Sum of line net amounts' },
  'BT-109': { name: 'Invoice total amount without VAT', label: 'Total amount without VAT' },
  'BT-110': { name: 'Invoice total VAT amount', label: 'VAT total' },
  'BT-112': { name: 'Invoice total amount with VAT', label: 'Total amount with VAT' },
  'BT-113': { name: 'Paid amount', label: 'Paid amount' },
  'BT-115': { name: 'Amount due for payment', label: 'Amount due for payment' },
} as const satisfies Record<string, TermInfo>;

export type HeaderTerm = keyof typeof HEADER_TERMS;

/** The terms of an invoice line (BG-25), in the order of the page's columns. */
export const LINE_TERMS = {
  'BT-126': { name: 'Invoice line identifier', label: 'Line' },
  'BT-153': { name: 'Item name', label: 'Item name' },
  'BT-129': { name: 'Invoiced quantity', label: 'Quantity' },
  'BT-130': { name: 'Invoiced quantity unit of measure code', label: 'Unit' },
  'BT-146': { name: 'Item net price', label: 'Unit price' },
  'BT-131': { name: 'Invoice line net amount', label: 'Net amount' },
  'BT-152': { name: 'Invoiced item VAT rate', label: 'VAT rate' },
} as const satisfies Record<string, TermInfo>;

export type LineTerm = keyof typeof LINE_TERMS;

/** One value of the XML: the text the page prints and the element (its path) it was read from. */
export interface TermValue {
  value: string;
  path: string;
}

export interface EInvoice {
  syntax: 'CII' | 'UBL';
  /** "ZUGFeRD 1.0 (urn:ferd:...:comfort)", "CII (urn:cen.eu:en16931:2017)", "UBL 2.1 Invoice (...)" */
  standard: string;
  header: Partial<Record<HeaderTerm, TermValue>>;
  lines: Array<Partial<Record<LineTerm, TermValue>>>;
}

/** An element's text as one line ("Muster\n   GmbH" -> "Muster GmbH"); undefined when it has none. */
export function textOf(element: XmlElement | undefined): TermValue | undefined {
  const value = element?.text.replace(/\s+/g, ' ').trim();
  return element && value ? { value, path: pathOf(element) } : undefined;
}

/** An attribute's value (the unit code of a quantity), with the path "<element>/@name". */
export function attributeOf(element: XmlElement | undefined, name: string): TermValue | undefined {
  const value = element?.attributes[name]?.trim();
  return element && value ? { value, path: `${pathOf(element)}/@${name}` } : undefined;
}

/** A form of address printed on a line of its own above a person's name, as postal addresses do ("Herrn", "Frau", "Mr", "Mme"). */
const SALUTATION_LINE = /^(?:herrn?|frau|firma|mr|mrs|ms|miss|dr|monsieur|madame|mademoiselle|m|mme|mlle|sig|sig\.ra|sr|sra|dhr|mevr)\.?$/i;

/**
 * A party's name as one line. The XML sometimes breaks the name as an
 * envelope would, the form of address on a line of its own ("Herrn" /
 * "Max Mustermann"): that line is part of the address, not of the name.
 */
export function nameOf(element: XmlElement | undefined): TermValue | undefined {
  const found = textOf(element);
  if (!element || !found) return undefined;
  const lines = element.text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  while (lines.length > 1 && SALUTATION_LINE.test(lines[0]!)) lines.shift();
  return { ...found, value: lines.join(' ').replace(/\s+/g, ' ') };
}

/**
 * An amount as the page prints it: the XML's decimal, with at least two
 * decimals ("850" -> "850.00"; a price's "9.8765" stays), never rounded. A
 * value that is no decimal number is kept as written.
 */
export function amountOf(element: XmlElement | undefined): TermValue | undefined {
  const found = textOf(element);
  if (!found) return undefined;
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(found.value);
  if (!match) return found;
  const [, sign, whole, fraction = ''] = match;
  return { ...found, value: `${sign === '-' ? '-' : ''}${whole}.${fraction.padEnd(2, '0')}` };
}

/** A date as YYYY-MM-DD: CII writes "20180930" (format 102), UBL "2018-09-30". Other forms are kept as written. */
export function dateOf(element: XmlElement | undefined): TermValue | undefined {
  const found = textOf(element);
  if (!found) return undefined;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(found.value);
  if (compact) return { ...found, value: `${compact[1]}-${compact[2]}-${compact[3]}` };
  const iso = /^(\d{4}-\d{2}-\d{2})(?:T|$|[+-Z])/.exec(found.value);
  return iso ? { ...found, value: iso[1]! } : found;
}

/** UNTDID 1001 document types an invoice or credit note uses, by code. */
const TYPE_NAMES: Record<string, string> = {
  '326': 'partial invoice',
  '380': 'commercial invoice',
  '381': 'credit note',
  '383': 'debit note',
  '384': 'corrected invoice',
  '386': 'prepayment invoice',
  '389': 'self-billed invoice',
  '261': 'self-billed credit note',
  '751': 'invoice information for accounting purposes',
};

export function typeCodeOf(element: XmlElement | undefined): TermValue | undefined {
  const found = textOf(element);
  const name = found ? TYPE_NAMES[found.value] : undefined;
  return found && name ? { ...found, value: `${found.value} (${name})` } : found;
}

/** Address lines joined as one line: street lines, "postcode city", subdivision, country code. */
export function addressOf(element: XmlElement | undefined, parts: { lines: Array<XmlElement | undefined>; postcode?: XmlElement; city?: XmlElement; subdivision?: XmlElement; country?: XmlElement }): TermValue | undefined {
  if (!element) return undefined;
  const text = (e: XmlElement | undefined) => textOf(e)?.value;
  const place = [text(parts.postcode), text(parts.city)].filter(Boolean).join(' ');
  const pieces = [...parts.lines.map(text), place, text(parts.subdivision), text(parts.country)].filter((piece): piece is string => Boolean(piece));
  return pieces.length > 0 ? { value: pieces.join(', '), path: pathOf(element) } : undefined;
}
