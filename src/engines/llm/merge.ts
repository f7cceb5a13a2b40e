/**
 * Merges the answers of the windows of one long document, in page order:
 * list items from every window are kept, in order, each once (a table that
 * runs over several pages comes back whole; a row repeated on two windows is
 * kept once); a single value is taken from the first window that has it
 * (with grounding on, that window's text contains it); objects are merged
 * property by property.
 */
import { isSchemaObject, setOwn } from '../../extract/schema-walk.js';

export function mergeWindowResults(results: unknown[]): unknown {
  return results.reduce((merged, next) => mergeValues(merged, next), undefined);
}

function mergeValues(a: unknown, b: unknown): unknown {
  if (isMissing(a)) return b;
  if (isMissing(b)) return a;
  if (Array.isArray(a) && Array.isArray(b)) return appendUnique(a, b);
  if (isSchemaObject(a) && isSchemaObject(b)) {
    const merged: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) setOwn(merged, key, mergeValues(a[key], b[key]));
    return merged;
  }
  return a;
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function appendUnique(a: unknown[], b: unknown[]): unknown[] {
  const seen = new Set(a.map(itemKey));
  const merged = [...a];
  // only rows already given by earlier windows are dropped: two equal rows inside one window are two rows
  for (const item of b) if (!seen.has(itemKey(item))) merged.push(item);
  return merged;
}

/** Same content, ignoring property order and case/spacing of text. */
function itemKey(item: unknown): string {
  return JSON.stringify(normalise(item));
}

function normalise(value: unknown): unknown {
  if (typeof value === 'string') return value.toLowerCase().replace(/\s+/g, ' ').trim();
  if (Array.isArray(value)) return value.map(normalise);
  if (isSchemaObject(value)) return Object.keys(value).sort().map((key) => [key, normalise(value[key])]);
  return value;
}
