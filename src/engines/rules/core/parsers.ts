/**
 * Typed value finders: every occurrence of a kind of value in a piece of
 * text, with its printed form and position. "score" says how typical the
 * occurrence is for its kind (an amount with cents beats a bare integer).
 */
import { parseBoolean, parseNumber } from '../../../schema/coerce.js';
import { findDates, findDateSpans, findTimes } from '../../../schema/dates.js';
import { currencyCode, isWordlikeCode } from './currencies.js';
import type { ValueKind } from './kinds.js';

export interface Found {
  value: unknown;
  /** As printed. */
  text: string;
  start: number;
  end: number;
  score: number;
}

/** Currency signs printed beside amounts (a character class body). */
const CURRENCY_SIGNS = '$€£¥₹₩₽₺฿₫₱₴₦';
const CURRENCY = String.raw`(?:[${CURRENCY_SIGNS}]|\b(?:RM|USD|EUR|GBP|JPY|CNY|INR|AUD|CAD|CHF|SGD|MYR|HKD|NZD|AED|SAR|ZAR|SEK|NOK|DKK|PLN|CZK|HUF|THB|IDR|PHP|VND|KRW|BRL|MXN|TRY|Rs|Eur|Kr)\.?)`;
/** A currency printed after the amount, as much of Europe does: "12,50 €", "34,85EUR". */
const CURRENCY_AFTER = String.raw`(?:\s?(?:[€£$¥₹]|(?:EUR|USD|GBP|CHF|PLN|SEK|NOK|DKK|CZK|HUF|RON|BGN|AED|SGD|MYR|RM|Eur|eur|Euro|EURO|Kr|kr|zł|Kč|Ft|lei)(?!\p{L})))`;
/** Digits with their separators; an apostrophe groups thousands ("1'234.50", Switzerland) only before three digits. */
const DIGITS = String.raw`\d(?:(?:[\d,.]|['’](?=\d{3}(?!\d)))*\d)?`;
const NUMBER_TOKEN = new RegExp(
  // a dot leader may run into the amount ("TOTAL...16,70", "Total.. .24,80")
  String.raw`(?:(?<![\p{L}\p{N}.,:/\-])|(?<=\.\.|\.\s\.))(\(?[-−]?\s?(?:${CURRENCY}\s?)?[-−]?)(${DIGITS})(\s?-(?!\d))?${CURRENCY_AFTER}?\)?(?!\p{N}|[.,]\p{N}|\s?%|[/:]|\p{L})`,
  'gu',
);

/** Score of an amount whose decimal point OCR set apart: between a clean amount with cents (1) and a bare integer (0.7). */
const SPLIT_DECIMAL_SCORE = 0.9;

/**
 * Where a blank of the text lies inside one printed number ("1 234,56"), as
 * opposed to between two ("2  100,00": a quantity and a price): only the
 * words' positions tell, so callers that know them say so.
 */
export type DigitGroupBlank = (offset: number) => boolean;

export function findNumbers(text: string, groupBlank?: DigitGroupBlank): Found[] {
  const blocked = [...findDateSpans(text), ...findTimes(text)].map((m) => [m.index, m.index + m.text.length] as const);
  const found: Found[] = [];
  for (const match of text.matchAll(NUMBER_TOKEN)) {
    const start = match.index ?? 0;
    const printed = match[0];
    const end = start + printed.length;
    if (blocked.some(([from, to]) => start < to && from < end)) continue;
    // "01838740031", "201611020201": ids and codes; amounts neither start with a zero digit nor run to nine digits unseparated
    if (/^0\d/.test(match[2]!) || /^\d{9,}$/.test(match[2]!)) continue;
    const value = parseNumber(printed);
    if (value === null) continue;
    const hasCents = /[.,]\d{1,2}$/.test(match[2]!);
    found.push({ value, text: printed.trim(), start, end, score: hasCents ? 1 : 0.7 });
  }
  for (const match of text.matchAll(CENTS_ONLY)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    if (!blocked.some(([from, to]) => start < to && from < end)) found.push({ value: Number(`0.${match[1]!}`), text: match[0], start, end, score: 1 });
  }
  const whole = withSplitDecimals(text, found.sort((a, b) => a.start - b.start), blocked);
  return groupBlank ? withSpaceGroups(text, whole, groupBlank) : whole;
}

/** "1 234,56", "-12 500,00": thousands grouped by blanks, as French and Polish print them, with a decimal comma. */
const SPACE_GROUPED = /(?<![\p{L}\p{N}.,:/\-])([-−]\s?)?(\d{1,3}(?: \d{3})+),(\d{2})(?!\p{N}|[.,]\p{N}|\s?%)/gu;

/** Numbers grouped by blanks the words' positions place inside one number, in place of their pieces. */
function withSpaceGroups(text: string, found: Found[], groupBlank: DigitGroupBlank): Found[] {
  const merged: Found[] = [];
  let next = 0;
  for (const match of text.matchAll(SPACE_GROUPED)) {
    const start = match.index ?? 0;
    const digitsAt = start + (match[1]?.length ?? 0);
    const blanks = [...match[2]!.matchAll(/ /g)].map((blank) => digitsAt + (blank.index ?? 0));
    if (!blanks.every(groupBlank)) continue;
    const magnitude = Number(`${match[2]!.replace(/ /g, '')}.${match[3]!}`);
    // a currency printed after the last group stays with the number, as it does for any amount (both lists are in text order)
    const matchEnd = start + match[0].length;
    while (next < found.length && found[next]!.end < matchEnd) next++;
    const tail = found[next] !== undefined && found[next]!.start < matchEnd ? found[next] : undefined;
    const end = Math.max(matchEnd, tail?.end ?? 0);
    merged.push({ value: match[1] ? -magnitude : magnitude, text: text.slice(start, end).trim(), start, end, score: 1 });
  }
  if (merged.length === 0) return found;
  const apart = found.filter((f) => !merged.some((m) => f.start < m.end && m.start < f.end));
  return [...apart, ...merged].sort((a, b) => a.start - b.start);
}

/** ".00", ".99": cents without a zero before the point, as US tills print a tax of nothing ("TAX .00 BAL 2.00"); not the cents of "48 .40". */
const CENTS_ONLY = /(?<![\p{L}\p{N}.,:/\-]|\p{N}\s)\.(\d{2})(?![\p{N}.,:/%\p{L}]|\s?%)/gu;

/** "100. 60", "$48 .40": an amount whose decimal point OCR set apart from one side, a blank the print does not have. */
const SPLIT_DECIMAL = new RegExp(String.raw`(?<![\p{L}\p{N}.,:/\-])((?:${CURRENCY}\s?)?)(\d{1,3}(?:,\d{3})+|\d{1,6})(?:\.\s|\s\.)(\d{2})(?![\p{N}.,:/%]|\s?%|\s?\p{L})`, 'gu');

/**
 * Split decimals read as one amount with cents, in place of the bare
 * integer and the two digits found apart. A little less typical than an
 * amount printed whole: a clean one on the same line wins.
 */
function withSplitDecimals(text: string, found: Found[], blocked: ReadonlyArray<readonly [number, number]>): Found[] {
  const merged: Found[] = [];
  for (const match of text.matchAll(SPLIT_DECIMAL)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    if (blocked.some(([from, to]) => start < to && from < end) || /^0\d/.test(match[2]!)) continue;
    const value = Number(`${match[2]!.replace(/,/g, '')}.${match[3]!}`);
    merged.push({ value, text: `${match[1]!}${match[2]!}.${match[3]!}`, start, end, score: SPLIT_DECIMAL_SCORE });
  }
  if (merged.length === 0) return found;
  const apart = found.filter((f) => !merged.some((m) => f.start < m.end && m.start < f.end));
  return [...apart, ...merged].sort((a, b) => a.start - b.start);
}

/** The digits of an amount as printed, without currency or sign decoration: "RM 1,234.50" -> "1,234.50", "1 234,56 zł" -> "1 234,56". */
export function amountDigits(found: Found): string {
  const digits = found.text.replace(/^[^\d.]+|\D+$/g, '') || found.text;
  return (found.value as number) < 0 ? `-${digits}` : digits;
}

export function findPercentages(text: string): Found[] {
  const found: Found[] = [];
  for (const match of text.matchAll(/(?<![\d.,])(\d{1,3}(?:[.,]\d+)?)\s?%/g)) {
    const value = parseNumber(match[1]!);
    if (value !== null) found.push({ value, text: match[0], start: match.index ?? 0, end: (match.index ?? 0) + match[0].length, score: 1 });
  }
  return found;
}

/** Starts where the local part starts: without the lookbehind a long run of name characters is rescanned from each of them. */
export function findEmails(text: string): Found[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu)].map((m) => ({
    value: m[0], text: m[0], start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, score: 1,
  }));
}

export function findUrls(text: string): Found[] {
  return [...text.matchAll(/\b(?:https?:\/\/|www\.)[^\s,;]+[^\s,;.)]/gi)].map((m) => ({
    value: m[0], text: m[0], start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, score: 1,
  }));
}

const PHONE = /(?<![\p{L}\p{N}])(?:\+\s?)?\(?\d{1,5}\)?(?:[ .\-/]?\(?\d{1,5}\)?){1,6}(?![\p{N}])/gu;

/** A US ZIP+4 code ("12345-6789"), which the phone pattern would take for a number. */
const ZIP_PLUS_FOUR = /^\d{5}-\d{4}$/;
/** "9416 (770)979-5667": a store number before a whole North American number with its area code in brackets. */
const NUMBER_BEFORE_NANP = /^(\d{3,}\s+)(\(\d{3}\)\s?\d{3}[ .-]\d{4})$/;

export function findPhones(text: string): Found[] {
  const found: Found[] = [];
  for (const match of text.matchAll(PHONE)) {
    let printed = match[0].trim();
    let start = (match.index ?? 0) + match[0].indexOf(printed);
    const digits = printed.replace(/\D/g, '').length;
    if (digits < 7 || digits > 15) continue;
    if (findDateSpans(printed).length > 0 || ZIP_PLUS_FOUR.test(printed)) continue;
    // "14.50 29.00" is two amounts, not a phone number
    if (/\d[.,]\d{2}(?!\d)/.test(printed) && !/^\+?\d{2,4}\.\d{3}\.\d{3,4}$/.test(printed)) continue;
    const lead = NUMBER_BEFORE_NANP.exec(printed);
    if (lead) {
      start += lead[1]!.length;
      printed = lead[2]!;
    }
    found.push({ value: printed, text: printed, start, end: start + printed.length, score: digits >= 9 ? 1 : 0.8 });
  }
  return found;
}

const IDENTIFIER = /[\p{L}\p{N}][\p{L}\p{N}\-/._]*[\p{L}\p{N}]|[\p{N}]/gu;
/** Two capitals (a country code) and groups of digits split by single blanks, alone: "GB 100 0079 19". */
const GROUPED_VAT_ID = /(?<![\p{L}\p{N}])[A-Z]{2} ?\d{2,4}(?: \d{2,4}){2,4}(?![\p{L}\p{N}])/u;

/** The first code-like token ("INV-2024-0042", "12345"); words without digits only when they look like a code; no date ("vom 20.09.2018", "24. Januar 2014"). */
export function findIdentifiers(text: string): Found[] {
  const found: Found[] = [];
  const dates = findDateSpans(text).map((date) => [date.index, date.index + date.text.length] as const);
  // "GB 100 0079 19", "DE 123 456 789": a country's VAT number printed in groups, before any other figure, is one id
  const grouped = GROUPED_VAT_ID.exec(text);
  if (grouped && !/\d/.test(text.slice(0, grouped.index)) && grouped[0].replace(/\D/g, '').length >= 8) {
    const printed = grouped[0];
    found.push({ value: printed, text: printed, start: grouped.index, end: grouped.index + printed.length, score: 1 });
    return found;
  }
  for (const match of text.matchAll(IDENTIFIER)) {
    const token = match[0];
    const start = match.index ?? 0;
    if (dates.some(([from, to]) => from <= start && start + token.length <= to)) continue;
    const hasDigit = /\d/.test(token);
    if (!hasDigit && !(token.length >= 4 && token === token.toUpperCase() && /^[A-Z0-9\-/._]+$/.test(token))) continue;
    found.push({ value: token, text: token, start: match.index ?? 0, end: (match.index ?? 0) + token.length, score: hasDigit ? 1 : 0.6 });
  }
  return found;
}

export function findBooleans(text: string): Found[] {
  const found: Found[] = [];
  for (const match of text.matchAll(/\[\s?[xX✓✔]?\s?\]|[☐☑☒✓✔]|\b(?:yes|no|true|false|y|n|checked|unchecked)\b/giu)) {
    const value = parseBoolean(match[0].replace(/\s/g, ''));
    if (value !== null) found.push({ value, text: match[0], start: match.index ?? 0, end: (match.index ?? 0) + match[0].length, score: 1 });
  }
  return found;
}

// "US$" before "$"; a code or an abbreviation stands alone ("EURO" and "RMB" are not "EUR" and "RM")
const CURRENCY_MENTION = new RegExp(String.raw`(?:US|NZ|HK|[CASR])\$|[${CURRENCY_SIGNS}₪]|(?<![\p{L}\p{N}])(?:[A-Z]{3}|RM|zł|Kč)(?!\p{L})`, 'gu');

/** Every currency the text names: value is the ISO code where the mention names one currency, else the sign as printed ("$"). */
export function findCurrencies(text: string): Found[] {
  const found: Found[] = [];
  for (const match of text.matchAll(CURRENCY_MENTION)) {
    const printed = match[0];
    const code = currencyCode(printed);
    // three capitals that are no ISO code are a word ("THE", "TAX"), not a currency
    if (code === undefined && /^[A-Z]{3}$/.test(printed)) continue;
    const start = match.index ?? 0;
    const end = start + printed.length;
    const besideAmount = /\d\s?$/.test(text.slice(Math.max(0, start - 2), start)) || /^\s?\d/.test(text.slice(end, end + 2));
    if (isWordlikeCode(printed) && !besideAmount) continue;
    found.push({ value: code ?? printed, text: printed, start, end, score: code ? 1 : 0.6 });
  }
  return found;
}

/** Typed values of a kind in a piece of text, left to right; `groupBlank` when the caller knows where the text's words sit. */
export function findValues(kind: ValueKind, text: string, dayFirst: boolean, groupBlank?: DigitGroupBlank): Found[] {
  switch (kind) {
    case 'date':
      return findDates(text, { dayFirst }).map((m) => ({ value: m.text, text: m.text, start: m.index, end: m.index + m.text.length, score: 1 }));
    case 'datetime':
      return findDateTimes(text, dayFirst);
    case 'time':
      return findTimes(text).map((m) => ({ value: m.text, text: m.text, start: m.index, end: m.index + m.text.length, score: 1 }));
    case 'amount':
    case 'number':
      return findNumbers(text, groupBlank);
    case 'integer':
      return findNumbers(text, groupBlank).filter((f) => Number.isInteger(f.value));
    case 'percentage':
      return findPercentages(text);
    case 'email':
      return findEmails(text);
    case 'phone':
      return findPhones(text);
    case 'url':
      return findUrls(text);
    case 'boolean':
      return findBooleans(text);
    case 'identifier':
      return findIdentifiers(text);
    case 'currency':
      return findCurrencies(text);
    default:
      return [];
  }
}

function findDateTimes(text: string, dayFirst: boolean): Found[] {
  const times = findTimes(text);
  return findDates(text, { dayFirst }).map((date) => {
    const end = date.index + date.text.length;
    const time = times.find((t) => t.index >= end && t.index - end <= 4);
    const last = time ? time.index + time.text.length : end;
    const printed = text.slice(date.index, last);
    return { value: printed, text: printed, start: date.index, end: last, score: 1 };
  });
}
