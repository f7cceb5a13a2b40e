/**
 * Dates and clock times for the grounding check. A model may rightly write
 * them otherwise than printed (the schema asks for YYYY-MM-DD, a 24-hour
 * clock), so they are found by what they name: the same day, the same time
 * of day, printed in any form.
 */
import { meaningOf } from '../../meaning/meaning.js';
import { findDates, findDateSpans, findTimes, type DateParts, type TimeParts } from '../../schema/dates.js';
import type { ValueSource } from '../../schema/provenance.js';
import type { SchemaView } from '../../schema/schema-view.js';
import type { LayoutText } from '../../ingest/layout.js';
import type { GroundingIndex } from './grounding-index.js';

/** A field whose value the model may rewrite into another date form, so its text need not appear verbatim. */
export function looksLikeDateField(view: SchemaView, name: string, path: readonly string[] = [], inItems = false): boolean {
  if (view.format === 'date' || view.format === 'date-time' || view.format === 'time') return true;
  // the name and description in any language the tables know ("Rechnungsdatum", "fecha", "inv_dt")
  const meaning = meaningOf({ name, description: view.description, types: view.types, format: view.format, enumValues: view.enumValues, examples: view.examples, path, inItems });
  if (meaning.kind === 'date' || meaning.kind === 'datetime' || meaning.kind === 'time' || meaning.date !== undefined) return true;
  if (/date|time|day|year|month|period/i.test(meaning.nameWords.join(' '))) return true;
  return /\b(date|dated|day|time|period|year|month)\b|YYYY|DD\/|MM\//i.test(meaning.description);
}

/** A value that is a date and nothing else ("14 March 2024", "2024-03-14"). */
export function isWholeDate(value: string): boolean {
  const dates = findDateSpans(value);
  return dates.length === 1 && dates[0]!.text.length >= value.trim().length - 2;
}

/** A value that is a date and a clock time and nothing else ("2022-06-06 12:12:52.125", "30/05/18 11:01", "2024-03-14T09:30:00Z"). */
export function isDateAndTime(value: string): boolean {
  const dates = findDateSpans(value);
  const times = findTimes(value);
  if (dates.length !== 1 || times.length !== 1) return false;
  return value.replace(dates[0]!.text, '').replace(times[0]!.text, '').replace(/[\s,;@|T-]+/gi, '') === '';
}

/** A value that is a clock time and nothing else ("19:19", "9:47 PM", "21:47:16"). */
export function isWholeTime(value: string): boolean {
  const times = findTimes(value);
  return times.length === 1 && times[0]!.text.length >= value.trim().length - 1;
}

interface Printed<T> {
  parts: T;
  text: string;
  source: ValueSource;
}

export class PrintedDates {
  /** The document's dates read day first and month first, and its clock times: built when first asked. */
  private readonly dates = new Map<boolean, Array<Printed<DateParts>>>();
  private times: Array<Printed<TimeParts>> | undefined;

  constructor(
    private readonly layout: LayoutText,
    private readonly index: GroundingIndex,
    private readonly dayFirst: boolean,
  ) {}

  /**
   * Where the day a date value names is printed, in whatever form
   * ("2024-03-14" in "14 Mar 2024"). A numeric date the document prints is
   * read both ways, day first as the request says and month first: a model
   * that read "05/11/13" the other way misread a printed date, it did not
   * invent one.
   */
  findDate(value: string): ValueSource | undefined {
    const wanted = findDates(value, { dayFirst: this.dayFirst })[0]?.parts;
    if (!wanted) return undefined;
    for (const dayFirst of [this.dayFirst, !this.dayFirst]) {
      const same = this.datesRead(dayFirst).find(({ parts }) => parts.year === wanted.year && parts.month === wanted.month && parts.day === wanted.day);
      if (same) return same.source;
    }
    return undefined;
  }

  /**
   * Where the time of day a clock-time value names is printed ("21:47" in
   * "9:47 PM", "09:47" in "09:47:16"). Seconds count only where both give
   * them; an hour without am/pm may be either half of the day.
   */
  findTime(value: string): ValueSource | undefined {
    const wanted = findTimes(value)[0];
    if (!wanted) return undefined;
    const hours = /[ap]\.?\s?m/i.test(wanted.text) || wanted.parts.hour > 12 ? [wanted.parts.hour] : [wanted.parts.hour % 12, (wanted.parts.hour % 12) + 12];
    const withSeconds = /\d:\d{2}:\d{2}/.test(wanted.text);
    this.times ??= this.placed(this.matches(findTimes));
    const same = this.times.find(({ parts, text }) => {
      if (!hours.includes(parts.hour) || parts.minute !== wanted.parts.minute) return false;
      return !withSeconds || !/\d:\d{2}:\d{2}/.test(text) || parts.second === wanted.parts.second;
    });
    return same?.source;
  }

  private datesRead(dayFirst: boolean): Array<Printed<DateParts>> {
    let dates = this.dates.get(dayFirst);
    if (!dates) {
      dates = this.placed(this.matches((text) => findDates(text, { dayFirst })));
      this.dates.set(dayFirst, dates);
    }
    return dates;
  }

  /**
   * What `find` reads in the whole text (a date wrapped over two lines of a
   * paragraph) and in each line on its own: across lines a number ending one
   * line can take the day of a date starting the next ("page 1 ---" over
   * "Feb 11.2012" read as 1 Feb 2011), and the date itself would be missed.
   */
  private matches<T>(find: (text: string) => Array<{ parts: T; text: string; index: number }>): Array<{ parts: T; text: string; index: number }> {
    const found = find(this.layout.text);
    const seen = new Set(found.map((match) => `${match.index}:${match.text}`));
    let lineStart = 0;
    for (const line of this.layout.text.split('\n')) {
      for (const match of find(line)) {
        const placed = { ...match, index: match.index + lineStart };
        if (!seen.has(`${placed.index}:${placed.text}`)) found.push(placed);
      }
      lineStart += line.length + 1;
    }
    return found;
  }

  /** Each match with the words it was printed in; a match in a page marker's file name is no document text. */
  private placed<T>(matches: Array<{ parts: T; text: string; index: number }>): Array<Printed<T>> {
    return matches
      .map((match) => ({ parts: match.parts, text: match.text, source: { words: this.index.wordsOf([[match.index, match.index + match.text.length]]), score: 1 } }))
      .filter((match) => match.source.words.length > 0);
  }
}
