import type { SchemaView } from '../../extract/schema-view.js';

/** A field whose value the model may rewrite into another date form, so its text need not appear verbatim. */
export function looksLikeDateField(view: SchemaView, name: string): boolean {
  if (/date|time|day|year|month|period/i.test(name)) return true;
  if (view.format === 'date' || view.format === 'date-time' || view.format === 'time') return true;
  return /\b(date|dated|day|time|period|year|month)\b|YYYY|DD\/|MM\//i.test(view.description);
}
