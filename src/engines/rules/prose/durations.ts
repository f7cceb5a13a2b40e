/**
 * Durations as typed values: "two (2) years", "a period of 3 years",
 * "twelve (12) month period", "eighteen months", "the second anniversary".
 * Each occurrence is read to a count and a unit as written, so that a
 * property can ask for "<number> <unit>" without the engine converting
 * months to years. Notice periods and deadlines are recognised as such:
 * "thirty (30) days' notice" says how to end something, not how long it lasts.
 */
import { numberFromWords, ONES, TENS } from '../../../util/number-words.js';
import type { Found } from '../core/parsers.js';

export type DurationRole = 'period' | 'notice' | 'deadline';

export interface Duration extends Found {
  value: string;
  count: number;
  /** Singular unit as written: year, month, week, day, hour, business day... */
  unit: string;
  role: DurationRole;
}

const UNITS = ['year', 'month', 'week', 'day', 'hour', 'minute'];
const ORDINALS = ['', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

const WORD = `(?:${[...TENS.filter(Boolean), ...ONES].join('|')})`;
const NUMBER_WORDS = `${WORD}(?:[\\s-]+${WORD})?`;
/** "two (2)", "2", "two", "twenty-four (24)". */
const COUNT = `(?:(${NUMBER_WORDS})\\s*(?:\\(\\s*(\\d{1,4})\\s*\\))?|(\\d{1,4}(?:\\.\\d+)?))`;
const UNIT = `((?:business|calendar|working)\\s+)?(${UNITS.join('|')})s?(?:['’]s?)?`;
const DURATION = new RegExp(`(?<![\\p{L}\\p{N}])${COUNT}(?:\\s*-\\s*|\\s+)${UNIT}(?![\\p{L}])`, 'giu');
const ANNIVERSARY = new RegExp(`\\b(${ORDINALS.filter(Boolean).join('|')}|(\\d{1,2})(?:st|nd|rd|th))\\s+anniversary\\b`, 'gi');

/** Every duration in the text, left to right. */
export function findDurations(text: string): Duration[] {
  const found: Duration[] = [];
  for (const match of text.matchAll(DURATION)) {
    const [printed, words, digitsInParens, digits, qualifier, unitWord] = match;
    // "two (2)": the digits are what the parties wrote to remove doubt
    const count = digitsInParens !== undefined ? Number(digitsInParens) : digits !== undefined ? Number(digits) : numberFromWords(words ?? '');
    if (count === undefined || !Number.isFinite(count) || count <= 0) continue;
    const unit = `${qualifier ? `${qualifier.trim().toLowerCase()} ` : ''}${unitWord!.toLowerCase()}`;
    const start = match.index ?? 0;
    const end = start + printed.length;
    found.push({ value: formatDuration(count, unit), text: printed.trim(), start, end, count, unit, role: roleOf(text, start, end), score: 1 });
  }
  for (const match of text.matchAll(ANNIVERSARY)) {
    const start = match.index ?? 0;
    if (found.some((f) => f.start <= start && start < f.end)) continue;
    const count = match[2] !== undefined ? Number(match[2]) : ORDINALS.indexOf(match[1]!.toLowerCase());
    if (count <= 0) continue;
    const end = start + match[0].length;
    // an anniversary is a count of years, said less directly than "two years"
    found.push({ value: formatDuration(count, 'year'), text: match[0], start, end, count, unit: 'year', role: roleOf(text, start, end), score: 0.9 });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** "2 years", "1 month", "5 business days". */
export function formatDuration(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** What the duration is for, from the words around it. */
function roleOf(text: string, start: number, end: number): DurationRole {
  const after = text.slice(end, end + 40).toLowerCase();
  const before = text.slice(Math.max(0, start - 30), start).toLowerCase();
  if (/^\W*(?:prior |advance |advanced |written |prior written |days? )*notice\b/.test(after) || /\bnotice of\s*$/.test(before)) return 'notice';
  if (/\b(?:within|no later than|not later than|at least|up to)\s*$/.test(before)) return 'deadline';
  return 'period';
}

/** Does the schema description ask for the "<number> <unit>" form (or give examples of it)? */
export function wantsNumberUnit(description: string): boolean {
  return /<\s*(?:number|count|n)\s*>\s*<\s*unit\s*>|\bnumber (?:and|\+|with) (?:a |its )?unit\b/i.test(description) || /['"‘“]\d+ (?:years?|months?|weeks?|days?)['"’”]/i.test(description);
}

const IN_UNIT = /\b(?:in|as|number of)\s+(years|months|weeks|days|hours)\b/i;

/** A duration as a number in the unit a numeric property asks for ("term in months"); undefined when it cannot be converted exactly. */
export function durationInUnit(duration: Duration, description: string): number | undefined {
  const asked = IN_UNIT.exec(description)?.[1]?.toLowerCase().replace(/s$/, '');
  const unit = duration.unit.replace(/^(?:business|calendar|working) /, '');
  if (!asked || asked === unit) return duration.count;
  const factors: Record<string, number> = { 'year>month': 12, 'week>day': 7, 'day>hour': 24, 'hour>minute': 60 };
  const factor = factors[`${unit}>${asked}`];
  return factor === undefined ? undefined : duration.count * factor;
}
