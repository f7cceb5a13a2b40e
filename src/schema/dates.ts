/**
 * Finding, reading and re-printing calendar dates and clock times in the
 * many ways documents print them.
 */
import { ENGLISH_MONTHS, MONTH_PATTERN, monthNumber } from './month-names.js';

export interface DateParts {
  year: number;
  month: number;
  day: number;
}

export interface TimeParts {
  hour: number;
  minute: number;
  second: number;
  /** "Z" or "+hh:mm" when printed. */
  offset?: string;
}

export interface DateMatch {
  parts: DateParts;
  /** The date exactly as printed. */
  text: string;
  index: number;
}

export interface TimeMatch {
  parts: TimeParts;
  text: string;
  index: number;
}

export interface DateReadOptions {
  /** How to read 03/04/2024 when neither part exceeds 12. */
  dayFirst: boolean;
}

type Reader = (groups: string[], options: DateReadOptions) => DateParts | undefined;

const MONTH = `(${MONTH_PATTERN})\\.?(?![a-z])`;
const ORDINAL = '(?:st|nd|rd|th|er|e|\\.)?';

/** 14/03/2024, 3-14-24, 10.07.13: day and month in either order. */
const NUMERIC_DAY_MONTH = /(?<![\d.,])(\d{1,2})\s?([-/.])\s?(\d{1,2})\s?\2\s?(\d{4}|\d{2})(?![\d]|[.,]\d)/gi;

const READERS: Array<[RegExp, Reader]> = [
  // 2024-03-14, 2024/3/14, 2024.03.14
  [/(?<!\d)(\d{4})\s?([-/.])\s?(\d{1,2})\s?\2\s?(\d{1,2})(?!\d)/gi, ([y, , m, d]) => partsOf(y, m, d)],
  [NUMERIC_DAY_MONTH, ([a, , b, y], options) => dayMonth(a!, b!, y!, options)],
  // 14 Mar 2024, 14-MAR-24, 14th of March 2024, 15MAR18, 24th day of August, 1999 (contracts), 3 de abril de 2024
  [new RegExp(`(?<![\\d])(\\d{1,2})${ORDINAL}(?:\\s+(?:day\\s+)?of|\\s+de)?[\\s\\-./,]*${MONTH}(?:\\s+de)?[\\s\\-./,]*('?\\d{4}|'?\\d{2})(?!\\d)`, 'gi'),
    ([d, month, y]) => partsOf(y, String(monthNumber(month!) ?? ''), d)],
  // March 14, 2024, Feb11.2012, Mar 14 2024
  [new RegExp(`(?<![a-z])${MONTH}[\\s\\-./,]*(\\d{1,2})${ORDINAL}[\\s,.\\-/]*('?\\d{4}|'\\d{2}|\\d{2})(?![\\d:])`, 'gi'),
    ([month, d, y]) => partsOf(y, String(monthNumber(month!) ?? ''), d)],
  // 20180306
  [/(?<![\d.,])((?:19|20)\d{2})(\d{2})(\d{2})(?![\d.,]\d|\d)/g, ([y, m, d]) => partsOf(y, m, d)],
];

/**
 * Every date in the text, left to right, without overlaps, read in the
 * request's date order: there is no default, so that no caller reads
 * "03/04/2024" day first on a document the request settled as month first.
 * A caller that asks only whether or where dates are printed uses
 * findDateSpans.
 */
export function findDates(text: string, options: DateReadOptions): DateMatch[] {
  const found: DateMatch[] = [];
  for (const [pattern, read] of READERS) {
    for (const match of text.matchAll(pattern)) {
      const index = match.index ?? 0;
      const end = index + match[0].length;
      if (found.some((other) => index < other.index + other.text.length && other.index < end)) continue;
      const parts = read(match.slice(1), options);
      if (parts) found.push({ parts, text: match[0].trim(), index });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/**
 * Where dates are printed, without reading them: the order decides only how
 * "03/04/2024" is read (both readings are dates), never whether or where a
 * date is printed.
 */
export function findDateSpans(text: string): Array<Pick<DateMatch, 'text' | 'index'>> {
  return findDates(text, { dayFirst: true }).map(({ text: printed, index }) => ({ text: printed, index }));
}

/**
 * Numeric dates whose order their numbers settle: "25/03/2024" is written
 * day first, "03/25/2024" month first. (Found the same way as by findDates,
 * one text at a time.)
 */
export function countDateOrders(text: string): { dayFirst: number; monthFirst: number } {
  const counts = { dayFirst: 0, monthFirst: 0 };
  for (const match of text.matchAll(NUMERIC_DAY_MONTH)) {
    const [, a = '', , b = '', year = ''] = match;
    if (Number(a) > 12 && Number(b) <= 12 && partsOf(year, b, a)) counts.dayFirst++;
    else if (Number(b) > 12 && Number(a) <= 12 && partsOf(year, a, b)) counts.monthFirst++;
  }
  return counts;
}

function dayMonth(first: string, second: string, year: string, options: DateReadOptions): DateParts | undefined {
  const a = Number(first);
  const b = Number(second);
  const monthFirst = a <= 12 && b > 12 ? true : a > 12 && b <= 12 ? false : !options.dayFirst;
  return monthFirst ? partsOf(year, first, second) : partsOf(year, second, first);
}

function partsOf(yearText: string | undefined, monthText: string | undefined, dayText: string | undefined): DateParts | undefined {
  if (!yearText || !monthText || !dayText) return undefined;
  const digits = yearText.replace("'", '');
  let year = Number(digits);
  // POSIX strptime pivot: 69-99 are 19xx, 00-68 are 20xx
  if (digits.length === 2) year += year >= 69 ? 1900 : 2000;
  const month = Number(monthText);
  const day = Number(dayText);
  if (!Number.isInteger(year) || year < 1000 || year > 2999) return undefined;
  if (!Number.isInteger(month) || month < 1 || month > 12) return undefined;
  if (!Number.isInteger(day) || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The meridiem as tills print it: "PM", "p.m.", "05:10:PM" (a colon before
 * it), or one letter right after the minutes ("5:59P", "02:37a"; never one
 * letter after a space, which may be the word "a"). A time starts after a
 * label's colon ("Time :05:10") but not after a digit and a colon (the
 * "23:02" of "1:23:02").
 */
const TIME_PATTERN = /(?<!\d)(?<!\d\s?:)(\d{1,2})\s?[:h]\s?(\d{2})(?::(\d{2}))?(?:\.\d+)?(?:\s*:?\s*([ap])\.?\s?m\.?(?![a-z])|([ap])(?![a-z\d]))?(?:\s*(Z|[+-]\d{2}:?\d{2})(?![\d]))?(?![\d:])/gi;

/** Every clock time ("19:19", "8:35PM", "09:47:16 pm", "5:59P", "14h30") in the text. */
export function findTimes(text: string): TimeMatch[] {
  const found: TimeMatch[] = [];
  for (const match of text.matchAll(TIME_PATTERN)) {
    const [whole, h = '', m = '', s, spelled, single, offset] = match;
    const meridiem = spelled ?? single;
    let hour = Number(h);
    const minute = Number(m);
    const second = s === undefined ? 0 : Number(s);
    if (meridiem) {
      if (hour < 1 || hour > 12) continue;
      hour = (hour % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0);
    }
    if (hour > 23 || minute > 59 || second > 59) continue;
    const parts: TimeParts = { hour, minute, second };
    if (offset) parts.offset = offset.toUpperCase() === 'Z' ? 'Z' : offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    found.push({ parts, text: whole.trim(), index: match.index ?? 0 });
  }
  return found;
}

export function parseTime(text: string): TimeParts | null {
  return findTimes(text)[0]?.parts ?? null;
}

/** Prints a date with a pattern of YYYY, YY, MMMM, MMM, MM, M, DD, D tokens (other characters kept). */
export function formatDate(parts: DateParts, pattern: string): string {
  const monthName = ENGLISH_MONTHS[parts.month - 1] ?? '';
  const tokens: Record<string, string> = {
    YYYY: String(parts.year).padStart(4, '0'),
    YY: String(parts.year % 100).padStart(2, '0'),
    MMMM: monthName.charAt(0).toUpperCase() + monthName.slice(1),
    MMM: monthName.charAt(0).toUpperCase() + monthName.slice(1, 3),
    MM: String(parts.month).padStart(2, '0'),
    M: String(parts.month),
    DD: String(parts.day).padStart(2, '0'),
    D: String(parts.day),
  };
  return pattern.replace(/YYYY|YY|MMMM|MMM|MM|M|DD|D/g, (token) => tokens[token] ?? token);
}

export function formatTime(parts: TimeParts, withSeconds: boolean): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return withSeconds ? `${pad(parts.hour)}:${pad(parts.minute)}:${pad(parts.second)}` : `${pad(parts.hour)}:${pad(parts.minute)}`;
}

export function formatIsoDateTime(date: DateParts, time: TimeParts | null): string {
  const clock = time ?? { hour: 0, minute: 0, second: 0 };
  return `${formatDate(date, 'YYYY-MM-DD')}T${formatTime(clock, true)}${time?.offset ?? 'Z'}`;
}
