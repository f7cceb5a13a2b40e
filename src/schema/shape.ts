/**
 * Walks a candidate object and the caller's schema together and gives every
 * value the type, form and presence the schema asks for: missing properties
 * become null ([] for lists), loose values are coerced, dates re-printed.
 * Values can move on the way (a list item dropped, "Invoice Number" becoming
 * invoice_number); `trace` is told where each one went, so that where it was
 * read (provenance.ts) follows it. `shaping` is the same walk in steps (one
 * per list item) for an answer of thousands of rows (util/paced.ts).
 */
import { childPointer } from '../util/json-pointer.js';
import type { JsonSchema } from './json-schema.js';
import { allowsType, viewSchema, type SchemaView } from './schema-view.js';
import { isSchemaObject, setOwn } from './schema-walk.js';
import { finiteOrNull, isNullWord, matchEnum, parseBoolean, parseInteger, parseNumber, toText } from './coerce.js';
import { normaliseDateText } from './date-values.js';
import { runSync, type PacedWork } from '../util/paced.js';

export interface ShapeContext {
  root: JsonSchema;
  dayFirst: boolean;
  /** Told where each value went: `to` in the result, from `from` in the candidate; `subtree` when it was copied as is. */
  trace?: (to: string, from: string, subtree?: boolean) => void;
}

/** Pointers of the value being shaped: where it is in the candidate, and where it goes in the result. */
interface At {
  from: string;
  to: string;
}

const ROOT: At = { from: '', to: '' };

export function shapeValue(value: unknown, schema: unknown, context: ShapeContext): unknown {
  return runSync(shaping(value, schema, context));
}

/** shapeValue in steps: yields after each list item. */
export function* shaping(value: unknown, schema: unknown, context: ShapeContext, at: At = ROOT): PacedWork<unknown> {
  const view = viewSchema(schema, context.root);
  if (schema === false) return null;
  if (typeof value === 'string' && isNullWord(value)) value = null;
  if (value === undefined || value === null) return emptyValue(view);
  if (view.enumValues !== undefined && !Array.isArray(value)) return traced(matchEnum(value, view.enumValues) ?? null, at, context);
  if (isSchemaObject(value)) {
    if (allowsType(view, 'object')) return yield* shapeObject(value, view, context, at);
    if (allowsType(view, 'array')) return yield* shapeArray([value], view, context, at.to, () => at.from);
    return null;
  }
  if (Array.isArray(value)) {
    if (allowsType(view, 'array')) return yield* shapeArray(value, view, context, at.to, (index) => childPointer(at.from, index), at.from);
    // a one-element list where a single value is wanted is that value
    if (value.length === 1) return yield* shaping(value[0], schema, context, { from: childPointer(at.from, 0), to: at.to });
    const text = allowsType(view, 'string') ? toText(value) : null;
    // the text is read from every item of the list
    if (text !== null) value.forEach((_, index) => traced(text, { from: childPointer(at.from, index), to: at.to }, context));
    return traced(text, at, context);
  }
  const scalar = shapeScalar(value, view, context);
  if (scalar === null && allowsType(view, 'array') && view.types.length > 0) {
    return yield* shapeArray([value], view, context, at.to, () => at.from);
  }
  return traced(scalar, at, context);
}

function traced(value: unknown, at: At, context: ShapeContext, subtree = false): unknown {
  if (value !== null && context.trace) context.trace(at.to, at.from, subtree);
  return value;
}

function emptyValue(view: SchemaView): unknown {
  if (view.types.includes('array') && !view.types.includes('null')) return [];
  return null;
}

function* shapeObject(value: Record<string, unknown>, view: SchemaView, context: ShapeContext, at: At): PacedWork<Record<string, unknown>> {
  const declared = Object.keys(view.properties);
  if (declared.length === 0 && view.required.length === 0) return traced(value, at, context, true) as Record<string, unknown>;
  traced(value, at, context);
  const result: Record<string, unknown> = {};
  const looseKeys = new Map<string, string>();
  for (const key of Object.keys(value)) looseKeys.set(looseKey(key), key);
  const names = [...declared, ...view.required.filter((name) => !declared.includes(name))];
  for (const name of names) {
    const sourceKey = Object.prototype.hasOwnProperty.call(value, name) ? name : looseKeys.get(looseKey(name));
    const candidate = sourceKey === undefined ? undefined : value[sourceKey];
    const child = { from: childPointer(at.from, sourceKey ?? name), to: childPointer(at.to, name) };
    setOwn(result, name, yield* shaping(candidate, view.properties[name] ?? true, context, child));
  }
  if (!view.closed) {
    for (const [key, extra] of Object.entries(value)) {
      if (names.includes(key) || names.some((name) => looseKey(name) === looseKey(key))) continue;
      setOwn(result, key, traced(extra, { from: childPointer(at.from, key), to: childPointer(at.to, key) }, context, true));
    }
  }
  return result;
}

/** Models sometimes write "Invoice Number" for invoice_number. */
function looseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * `itemFrom(i)` is where the i-th of `values` sits in the candidate (the
 * value itself when it was wrapped in a list); `listFrom` the list's own
 * place, when the candidate had a list there.
 */
function* shapeArray(values: unknown[], view: SchemaView, context: ShapeContext, to: string, itemFrom: (index: number) => string, listFrom?: string): PacedWork<unknown[]> {
  const itemSchema = view.items ?? true;
  const itemView = viewSchema(itemSchema, context.root);
  const keepNulls = itemView.types.includes('null');
  const shaped: unknown[] = [];
  for (const [index, value] of values.entries()) {
    // shaped into a scratch trace first: a dropped item must leave no trace behind
    const moves: Array<[string, string, boolean | undefined]> = [];
    const scratch: ShapeContext = { ...context, trace: context.trace && ((t, f, subtree) => void moves.push([t, f, subtree])) };
    const item = yield* shaping(value, itemSchema, scratch, { from: itemFrom(index), to: childPointer(to, shaped.length) });
    yield;
    if (item === null && !keepNulls) continue;
    if (isSchemaObject(item) && Object.keys(itemView.properties).length > 0 && isEmptyRecord(item)) continue;
    for (const [t, f, subtree] of moves) context.trace?.(t, f, subtree);
    shaped.push(item);
  }
  if (listFrom !== undefined) context.trace?.(to, listFrom);
  return shaped;
}

/** An extracted row whose every field is missing carries no information. */
function isEmptyRecord(record: Record<string, unknown>): boolean {
  return Object.values(record).every((value) => value === null || (Array.isArray(value) && value.length === 0));
}

function shapeScalar(value: unknown, view: SchemaView, context: ShapeContext): unknown {
  if (typeof value === 'number') return shapeNumber(value, view);
  if (typeof value === 'boolean') {
    if (allowsType(view, 'boolean')) return value;
    return allowsType(view, 'string') && view.types.length > 0 ? String(value) : null;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (view.types.length === 0 || view.types.includes('string')) return shapeString(text, view, context);
  if (view.types.includes('integer') && !view.types.includes('number')) return parseInteger(text);
  if (view.types.includes('number')) return parseNumber(text);
  if (view.types.includes('boolean')) return parseBoolean(text);
  return null;
}

function shapeNumber(value: number, view: SchemaView): unknown {
  const finite = finiteOrNull(value);
  if (finite === null) return null;
  if (view.types.length === 0 || view.types.includes('number')) return finite;
  if (view.types.includes('integer')) return Number.isInteger(finite) ? finite : null;
  if (view.types.includes('string')) return String(finite);
  if (view.types.includes('boolean')) return parseBoolean(finite);
  return null;
}

function shapeString(text: string, view: SchemaView, context: ShapeContext): string | null {
  if (text === '') return null;
  return normaliseDateText(text, view, context.dayFirst);
}
