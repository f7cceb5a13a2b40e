/** Re-prints a date or time string the way its property asks (see date-request.ts). */
import { findDates, formatDate, formatIsoDateTime, formatTime, parseTime } from './dates.js';
import { dateRequestFor } from './date-request.js';
import type { SchemaView } from './schema-view.js';

const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?$/;

/** The text unchanged when no date form is asked for; null when one is asked for and the text holds no date. */
export function normaliseDateText(text: string, view: SchemaView, dayFirst: boolean): string | null {
  const request = dateRequestFor(view);
  if (!request || request.kind === 'as-printed') return text;
  if (request.kind === 'time') {
    const time = parseTime(text);
    if (!time) return null;
    const clock = formatTime(time, request.withSeconds);
    return request.requireOffset ? `${clock}${time.offset ?? 'Z'}` : `${clock}${time.offset ?? ''}`;
  }
  const date = findDates(text, { dayFirst })[0];
  if (!date) return null;
  if (request.kind === 'date') return formatDate(date.parts, request.pattern);
  if (RFC3339_DATE_TIME.test(text) && (!request.requireOffset || /([Zz]|[+-]\d{2}:\d{2})$/.test(text))) {
    return text.replace(' ', 'T');
  }
  const time = parseTime(text.slice(date.index + date.text.length)) ?? parseTime(text.slice(0, date.index));
  const iso = formatIsoDateTime(date.parts, time);
  return request.requireOffset || time?.offset ? iso : iso.replace(/Z$/, '');
}
