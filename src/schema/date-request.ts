/**
 * What shape a string property wants its date or time in, read from
 * `format` and from the property's description ("YYYY-MM-DD", "ISO 8601",
 * "exactly as printed").
 */
import type { SchemaView } from './schema-view.js';

export type DateRequest =
  | { kind: 'date'; pattern: string }
  | { kind: 'date-time'; requireOffset: boolean }
  | { kind: 'time'; withSeconds: boolean; requireOffset: boolean }
  | { kind: 'as-printed' };

const KEEP_AS_PRINTED = /\bas (?:it is |they are |it was )?(?:printed|written|shown|displayed|appears?|it appears)\b|\bexactly as\b|\boriginal format\b|\bverbatim\b|\bas-is\b|\bunchanged\b/i;
const CONVERSION_VERB = /\b(?:normali[sz]e|normali[sz]ed|convert|converted|reformat|reformatted|transform)\b/i;
const TOKEN = '(?:YYYY|YY|MMMM|MMM|MM|M|DD|D)';
const DATE_PATTERN = new RegExp(`(?<![A-Za-z])(${TOKEN}([-/. ])${TOKEN}\\2${TOKEN}|YYYYMMDD)(?![A-Za-z])`, 'i');
const ISO_8601 = /\bISO[- ]?8601\b|\bISO (?:date|format)\b|\bRFC ?3339\b/i;
const DATE_TIME_WORDS = /\b(?:date[- ]?time|timestamp)\b/i;
const TIME_PATTERN = /(?<![A-Za-z])HH:MM(:SS)?(?![A-Za-z])/i;

export function dateRequestFor(view: SchemaView): DateRequest | undefined {
  switch (view.format) {
    case 'date':
      return { kind: 'date', pattern: 'YYYY-MM-DD' };
    case 'date-time':
      return { kind: 'date-time', requireOffset: true };
    case 'iso-date-time':
      return { kind: 'date-time', requireOffset: false };
    case 'time':
      return { kind: 'time', withSeconds: true, requireOffset: true };
    case 'iso-time':
      return { kind: 'time', withSeconds: true, requireOffset: false };
  }
  const description = view.description;
  if (!description) return undefined;
  if (KEEP_AS_PRINTED.test(description) && !CONVERSION_VERB.test(description)) return { kind: 'as-printed' };
  const datePattern = DATE_PATTERN.exec(description);
  if (datePattern && isCompleteDatePattern(datePattern[1]!)) return { kind: 'date', pattern: datePattern[1]!.toUpperCase() };
  const timePattern = TIME_PATTERN.exec(description);
  if (timePattern) return { kind: 'time', withSeconds: timePattern[1] !== undefined, requireOffset: false };
  if (ISO_8601.test(description)) {
    return DATE_TIME_WORDS.test(description) ? { kind: 'date-time', requireOffset: false } : { kind: 'date', pattern: 'YYYY-MM-DD' };
  }
  return undefined;
}

function isCompleteDatePattern(pattern: string): boolean {
  const upper = pattern.toUpperCase();
  return /Y/.test(upper) && /M/.test(upper) && /D/.test(upper);
}
