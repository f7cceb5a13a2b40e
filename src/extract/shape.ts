/**
 * Walks a candidate object and the caller's schema together and gives every
 * value the type, form and presence the schema asks for: missing properties
 * become null ([] for lists), loose values are coerced, dates re-printed.
 */
import type { JsonSchema } from './json-schema.js';
import { allowsType, viewSchema, type SchemaView } from './schema-view.js';
import { isSchemaObject, setOwn } from './schema-walk.js';
import { finiteOrNull, isNullWord, matchEnum, parseBoolean, parseInteger, parseNumber, toText } from './coerce.js';
import { normaliseDateText } from './date-values.js';

export interface ShapeContext {
  root: JsonSchema;
  dayFirst: boolean;
}

export function shapeValue(value: unknown, schema: unknown, context: ShapeContext): unknown {
  const view = viewSchema(schema, context.root);
  if (schema === false) return null;
  if (typeof value === 'string' && isNullWord(value)) value = null;
  if (value === undefined || value === null) return emptyValue(view);
  if (view.enumValues !== undefined && !Array.isArray(value)) return matchEnum(value, view.enumValues) ?? null;
  if (isSchemaObject(value)) {
    if (allowsType(view, 'object')) return shapeObject(value, view, context);
    if (allowsType(view, 'array')) return shapeArray([value], view, context);
    return null;
  }
  if (Array.isArray(value)) {
    if (allowsType(view, 'array')) return shapeArray(value, view, context);
    // a one-element list where a single value is wanted is that value
    if (value.length === 1) return shapeValue(value[0], schema, context);
    return allowsType(view, 'string') ? toText(value) : null;
  }
  const scalar = shapeScalar(value, view, context);
  if (scalar === null && allowsType(view, 'array') && view.types.length > 0) {
    return shapeArray([value], view, context);
  }
  return scalar;
}

function emptyValue(view: SchemaView): unknown {
  if (view.types.includes('array') && !view.types.includes('null')) return [];
  return null;
}

function shapeObject(value: Record<string, unknown>, view: SchemaView, context: ShapeContext): Record<string, unknown> {
  const declared = Object.keys(view.properties);
  if (declared.length === 0 && view.required.length === 0) return value;
  const result: Record<string, unknown> = {};
  const looseKeys = new Map<string, string>();
  for (const key of Object.keys(value)) looseKeys.set(looseKey(key), key);
  const names = [...declared, ...view.required.filter((name) => !declared.includes(name))];
  for (const name of names) {
    const sourceKey = Object.prototype.hasOwnProperty.call(value, name) ? name : looseKeys.get(looseKey(name));
    const candidate = sourceKey === undefined ? undefined : value[sourceKey];
    setOwn(result, name, shapeValue(candidate, view.properties[name] ?? true, context));
  }
  if (!view.closed) {
    for (const [key, extra] of Object.entries(value)) {
      if (!names.includes(key) && !names.some((name) => looseKey(name) === looseKey(key))) setOwn(result, key, extra);
    }
  }
  return result;
}

/** Models sometimes write "Invoice Number" for invoice_number. */
function looseKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function shapeArray(values: unknown[], view: SchemaView, context: ShapeContext): unknown[] {
  const itemSchema = view.items ?? true;
  const itemView = viewSchema(itemSchema, context.root);
  const keepNulls = itemView.types.includes('null');
  const shaped: unknown[] = [];
  for (const value of values) {
    const item = shapeValue(value, itemSchema, context);
    if (item === null && !keepNulls) continue;
    if (isSchemaObject(item) && Object.keys(itemView.properties).length > 0 && isEmptyRecord(item)) continue;
    shaped.push(item);
  }
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
