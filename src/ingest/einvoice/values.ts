/**
 * A node of the XML -> the value of a business term: the text as written
 * (white space collapsed, nothing else), the value it means where a rule of
 * its kind applies (a CII date "20240315" -> "2024-03-15", an amount
 * "850" -> "850.00") with what was applied, the qualifiers written beside it
 * (scheme, currency, unit, date format) and the element path.
 */
import type { EInvoiceValue } from '../../document/document.js';
import { matchText, select, type PathMatch } from './paths.js';
import { pathOf } from './xml.js';

/**
 * What a term's value is: free text; an identifier (with the scheme its
 * schemeID / listID names); a code of a code list; a date; an amount (with
 * its currency); a quantity (with its unit); a percentage; a postal address
 * made of its parts.
 */
export type TermKind = 'text' | 'identifier' | 'code' | 'date' | 'amount' | 'quantity' | 'percentage' | 'address';

export function pathOfMatch(match: PathMatch): string {
  const path = pathOf(match.element);
  return match.attribute === undefined ? path : `${path}/@${match.attribute}`;
}

/** `match` as the value of a term of `kind`; undefined when it holds no text. `scheme`: where an identifier's or code's scheme may be, from its element, in order. */
export function valueOf(match: PathMatch, kind: TermKind, scheme: readonly string[] = []): EInvoiceValue | undefined {
  const raw = matchText(match);
  if (raw === undefined) return undefined;
  const found: EInvoiceValue = { raw, value: raw, path: pathOfMatch(match) };
  const attribute = (name: string) => (match.attribute === undefined ? match.element.attributes[name]?.trim() || undefined : undefined);
  switch (kind) {
    case 'identifier':
    case 'code': {
      const schemeText = match.attribute === undefined ? scheme.flatMap((path) => select(match.element, path)).map(matchText).find((text) => text !== undefined) : undefined;
      if (schemeText) found.scheme = schemeText;
      break;
    }
    case 'amount': {
      const currency = attribute('currencyID');
      if (currency) found.currency = currency;
      return normalized(found, amountValue(raw));
    }
    case 'quantity': {
      const unit = attribute('unitCode');
      if (unit) found.unit = unit;
      break;
    }
    case 'date': {
      const format = attribute('format');
      if (format) found.format = format;
      return normalized(found, dateValue(raw, format));
    }
    default:
      break;
  }
  return found;
}

function normalized(found: EInvoiceValue, rule: { value: string; applied: string } | undefined): EInvoiceValue {
  return rule && rule.value !== found.raw ? { ...found, value: rule.value, normalized: rule.applied } : found;
}

/**
 * An amount as a decimal with two places at least: "850" -> "850.00",
 * "+.5" -> "0.50"; more places stay ("9.8765"), nothing is rounded. Text
 * that is no decimal number is left as written.
 */
export function amountValue(raw: string): { value: string; applied: string } | undefined {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(raw);
  if (!match || `${match[2]}${match[3] ?? ''}` === '') return undefined;
  const [, sign, whole = '', fraction = ''] = match;
  return { value: `${sign === '-' ? '-' : ''}${whole.replace(/^0+(?=\d)/, '') || '0'}.${fraction.padEnd(2, '0')}`, applied: 'decimal written with two places at least' };
}

/**
 * A date as YYYY-MM-DD: CII writes "20240315" (format 102), ZUGFeRD 1.0 a
 * referenced document's date as a date-time ("2013-08-01T00:00:00"), UBL
 * "2024-03-15" (with a time zone at times). Other forms are left as written.
 */
export function dateValue(raw: string, format: string | undefined): { value: string; applied: string } | undefined {
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(raw);
  if (compact && (format === undefined || format === '102')) return { value: `${compact[1]}-${compact[2]}-${compact[3]}`, applied: `date format 102 (CCYYMMDD) written as YYYY-MM-DD` };
  const iso = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+)?(Z|[+-]\d{2}:\d{2})?$/.exec(raw);
  if (iso && (iso[2] || iso[3])) return { value: iso[1]!, applied: iso[2] ? 'the date of a date-time' : 'the date without its time zone' };
  return undefined;
}

/**
 * A postal address as one line from its parts' values: the street lines,
 * "post code city", the subdivision, the country code.
 */
export function addressValue(path: string, parts: { lines: Array<EInvoiceValue | undefined>; postcode?: EInvoiceValue; city?: EInvoiceValue; subdivision?: EInvoiceValue; country?: EInvoiceValue }): EInvoiceValue | undefined {
  const place = [parts.postcode?.raw, parts.city?.raw].filter(Boolean).join(' ');
  const pieces = [...parts.lines.map((line) => line?.raw), place, parts.subdivision?.raw, parts.country?.raw].filter((piece): piece is string => Boolean(piece));
  if (pieces.length === 0) return undefined;
  const joined = pieces.join(', ');
  return { raw: joined, value: joined, normalized: 'the address parts joined: street lines, post code and city, subdivision, country', path };
}
