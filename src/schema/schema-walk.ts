/**
 * Which keywords of a JSON Schema hold subschemas, so that every walker over a
 * caller's schema agrees on what is a schema and what is data (enum, const,
 * default and unknown keywords are data and are never walked into).
 */
import type { JsonSchema } from './json-schema.js';

const SINGLE_SCHEMA_KEYWORDS = [
  'additionalProperties', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties',
  'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema',
];
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/** A subschema and the keyword path that leads to it from its parent. */
export interface ChildSchema {
  path: string[];
  schema: JsonSchema | boolean;
}

export function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSchemaLike(value: unknown): value is JsonSchema | boolean {
  return typeof value === 'boolean' || isSchemaObject(value);
}

export function childSchemas(node: JsonSchema): ChildSchema[] {
  const children: ChildSchema[] = [];
  for (const keyword of SINGLE_SCHEMA_KEYWORDS) {
    const value = node[keyword];
    if (isSchemaLike(value)) children.push({ path: [keyword], schema: value });
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = node[keyword];
    if (!isSchemaObject(map)) continue;
    for (const [name, value] of Object.entries(map)) {
      // draft-07 `dependencies` mixes schemas with arrays of property names
      if (isSchemaLike(value)) children.push({ path: [keyword, name], schema: value });
    }
  }
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const list = node[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((value, index) => {
      if (isSchemaLike(value)) children.push({ path: [keyword, String(index)], schema: value });
    });
  }
  const items = node['items'];
  if (isSchemaLike(items)) children.push({ path: ['items'], schema: items });
  else if (Array.isArray(items)) {
    items.forEach((value, index) => {
      if (isSchemaLike(value)) children.push({ path: ['items', String(index)], schema: value });
    });
  }
  return children;
}

/** `schema.properties.x.$ref` style path for error messages. */
export function formatSchemaPath(field: string, path: readonly string[]): string {
  return [field, ...path].join('.');
}

/** Assigns as an own property even for a key like `__proto__`, which plain assignment would turn into a prototype change. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
