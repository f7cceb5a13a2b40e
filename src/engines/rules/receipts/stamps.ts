/**
 * The document's own date and time when no label announces them. The first
 * date of a receipt or invoice is its own, but not every date-shaped token is
 * a date: item codes ("RC11-23-42") carry them glued to letters, and opening
 * hours ("OPEN 8:00AM TO 9:00PM") print times that are no transaction time.
 * A time printed next to a date is the document's timestamp.
 */
import { competitionAmong, type Competition } from '../../../schema/provenance.js';
import { tokensBefore } from '../core/fuzzy.js';
import type { FieldHints } from '../core/labels.js';
import type { RuleLine } from '../core/lines.js';
import { findValues, type Found } from '../core/parsers.js';
import type { LineValue } from '../core/reading.js';
import { tableWordSet } from '../core/table-words.js';
/** One-word titles of the documents the tables know ("invoice", "rechnung", "facture"). */
const TITLE_WORDS = [...tableWordSet((language) => language.titles)].filter((title) => !/\s/.test(title));
/** Titles that keep their meaning closing a compound, as the tables' compoundHeads say: a "Handelsrechnung" is a "Rechnung". */
const COMPOUND_TITLES = [...tableWordSet((language) => language.compoundHeads)].filter((head) => TITLE_WORDS.includes(head));

/** A line that opens with the document's title and its number before the date: "Handelsrechnung Nr. 471102 vom 05.03.2020", "Invoice 2020-17 dated ...". */
function titleLineDate(line: RuleLine, found: Found): boolean {
  const first = line.tokens[0]?.norm;
  if (!first || !(TITLE_WORDS.includes(first) || COMPOUND_TITLES.some((title) => first.endsWith(title)))) return false;
  return /\d/.test(line.text.slice(line.tokens[0]!.end, found.start));
}

/**
 * Words of opening hours and schedules, whose times are not the transaction's.
 * Not "closed" nor weekday names: "Closed 11/06/2011 1:38 AM" and "Mon 12/03/18 10:22" are transaction stamps.
 */
const SCHEDULE_WORDS = tableWordSet((language) => language.scheduleWords);

/** Part of a longer code: letters or digits run straight into its start, or digits into its end ("09/06/2007THU" is fine). */
function glued(text: string, found: Found): boolean {
  return /[\p{L}\p{N}]/u.test(text.charAt(found.start - 1)) || /\p{N}/u.test(text.charAt(found.end));
}

/** The first date not announced as something else ("Delivery date: ..." is no order date), and the others it was preferred to. */
export function documentDate(kind: 'date' | 'datetime', lines: readonly RuleLine[], hints: FieldHints, dayFirst: boolean): Stamp | undefined {
  const dates: LineValue[] = [];
  for (const line of lines) {
    for (const found of findValues(kind, line.text, dayFirst)) {
      if (glued(line.text, found)) continue;
      const before = tokensBefore(line.tokens, found.start, 3);
      if (!before.some((t) => hints.negatives.includes(t.norm))) dates.push({ line, found });
    }
  }
  // the date the document's title line gives is its own, before any earlier one (a form's version date at the top)
  return stampOf(dates.find((date) => titleLineDate(date.line, date.found)) ?? dates[0], dates);
}

/** A time on a line with a date first, else the first time outside a schedule or a range ("9:00 - 17:00"); and the others. */
export function documentTime(lines: readonly RuleLine[], dayFirst: boolean): Stamp | undefined {
  let stamped: LineValue | undefined;
  const all: LineValue[] = [];
  for (const line of lines) {
    const times = findValues('time', line.text, dayFirst).filter((found) => !glued(line.text, found)).sort((a, b) => a.start - b.start);
    if (times.length === 0 || line.tokens.some((t) => SCHEDULE_WORDS.has(t.norm))) continue;
    // only a neighbour can be the other end of a range: between any other two times lies a third (comparing all pairs was quadratic)
    const ranged = (index: number): boolean =>
      [times[index - 1], times[index + 1]].some((other) => other !== undefined && /^\s*(?:-|–|to|till|until)\s*$/i.test(between(line.text, times[index]!, other)));
    const usable = times.filter((_found, index) => !ranged(index));
    if (usable.length === 0) continue;
    if (!stamped && findValues('date', line.text, dayFirst).length > 0) stamped = { line, found: usable[0]! };
    for (const found of usable) all.push({ line, found });
  }
  return stampOf(stamped ?? all[0], all);
}

/** A value chosen by its place among others of its kind, none stronger than another. */
export interface Stamp extends LineValue {
  competition: Competition;
}

function stampOf(chosen: LineValue | undefined, all: readonly LineValue[]): Stamp | undefined {
  if (!chosen) return undefined;
  return { ...chosen, competition: competitionAmong(chosen, all, () => 0, (c) => JSON.stringify(c.found.value)) };
}

function between(text: string, a: Found, b: Found): string {
  return a.end <= b.start ? text.slice(a.end, b.start) : text.slice(b.end, a.start);
}
