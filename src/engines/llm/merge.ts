/**
 * Merges the answers of the windows of one long document, in page order:
 * list items from every window are kept, in order, each once (a table that
 * runs over several pages comes back whole; a row repeated on two windows is
 * kept once); a single value is taken from the first window that has it
 * (with grounding on, that window's text contains it); objects are merged
 * property by property. Where each value was read comes along with it.
 */
import type { Extraction } from '../../schema/engine.js';
import { combineSources, PointerMoves, type Provenance } from '../../schema/provenance.js';
import { isSchemaObject, setOwn } from '../../schema/schema-walk.js';
import { childPointer } from '../../util/json-pointer.js';

export function mergeWindowResults(results: Extraction[]): Extraction {
  return results.reduce<Extraction>((merged, next) => mergePair(merged, next), { value: undefined, provenance: new Map() });
}

/** What a merge took from the later answer, and which places of the earlier one it replaced. */
interface MergeRecord {
  fromLater: PointerMoves;
  replaced: string[];
}

function mergePair(earlier: Extraction, later: Extraction): Extraction {
  const record: MergeRecord = { fromLater: new PointerMoves(), replaced: [] };
  const value = mergeValues(earlier.value, later.value, '', '', record);
  const provenance: Provenance = new Map();
  for (const [pointer, source] of earlier.provenance) {
    if (!record.replaced.some((place) => pointer === place || pointer.startsWith(`${place}/`))) provenance.set(pointer, source);
  }
  for (const [pointer, source] of record.fromLater.apply(later.provenance)) {
    const known = provenance.get(pointer);
    provenance.set(pointer, known ? combineSources([known, source]) : source);
  }
  return { value, provenance };
}

/** `at` is the place in the merged value, `laterAt` the same value's place in the later answer. */
function mergeValues(a: unknown, b: unknown, at: string, laterAt: string, record: MergeRecord): unknown {
  if (isMissing(a)) {
    record.replaced.push(at);
    record.fromLater.move(at, laterAt, true);
    return b;
  }
  if (isMissing(b)) return a;
  if (Array.isArray(a) && Array.isArray(b)) return appendUnique(a, b, at, laterAt, record);
  if (isSchemaObject(a) && isSchemaObject(b)) {
    const merged: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      setOwn(merged, key, mergeValues(a[key], b[key], childPointer(at, key), childPointer(laterAt, key), record));
    }
    return merged;
  }
  return a;
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function appendUnique(a: unknown[], b: unknown[], at: string, laterAt: string, record: MergeRecord): unknown[] {
  const seen = new Set(a.map(itemKey));
  const merged = [...a];
  // only rows already given by earlier windows are dropped: two equal rows inside one window are two rows
  b.forEach((item, index) => {
    if (seen.has(itemKey(item))) return;
    record.fromLater.move(childPointer(at, merged.length), childPointer(laterAt, index), true);
    merged.push(item);
  });
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
