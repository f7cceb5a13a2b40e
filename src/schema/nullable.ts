/**
 * The "nullable" variant of a caller's schema: every property value may also
 * be null and lists may be empty, because a value the document does not
 * contain comes back as null (or []) instead of being invented.
 * Array items are not made nullable: a failing item is dropped, not nulled.
 */
import type { JsonSchema } from './json-schema.js';
import { isSchemaObject, setOwn } from './schema-walk.js';

const COMPOSITION_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef', 'anyOf', 'oneOf', 'allOf', 'not', 'if'];
const NULL_ONLY: JsonSchema = { type: 'null' };

export function makeNullable(schema: JsonSchema): JsonSchema {
  return deepNullableObject(schema);
}

type SchemaNode = JsonSchema | boolean;

/** The node itself keeps its meaning; everything it contains may be null. */
function deepNullable(node: SchemaNode): SchemaNode {
  return typeof node === 'boolean' ? node : deepNullableObject(node);
}

function deepNullableObject(node: JsonSchema): JsonSchema {
  const copy: JsonSchema = { ...node };
  mapEntries(copy, 'properties', nullableValue);
  mapEntries(copy, 'patternProperties', nullableValue);
  mapEntries(copy, '$defs', deepNullable);
  mapEntries(copy, 'definitions', deepNullable);
  mapEntries(copy, 'dependentSchemas', deepNullable);
  if (isSchemaObject(copy['additionalProperties'])) copy['additionalProperties'] = nullableValue(copy['additionalProperties']);
  if (isSchemaObject(copy['unevaluatedProperties'])) copy['unevaluatedProperties'] = nullableValue(copy['unevaluatedProperties']);
  const items = copy['items'];
  if (isSchemaObject(items)) copy['items'] = deepNullableObject(items);
  else if (Array.isArray(items)) copy['items'] = items.map((item: unknown) => (isSchemaNode(item) ? nullableValue(item) : item));
  if (Array.isArray(copy['prefixItems'])) {
    copy['prefixItems'] = copy['prefixItems'].map((item: unknown) => (isSchemaNode(item) ? nullableValue(item) : item));
  }
  delete copy['minItems'];
  delete copy['contains'];
  delete copy['minContains'];
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const branches = copy[keyword];
    if (Array.isArray(branches)) copy[keyword] = branches.map((b: unknown) => (isSchemaNode(b) ? deepNullable(b) : b));
  }
  for (const keyword of ['then', 'else']) {
    const branch = copy[keyword];
    if (isSchemaNode(branch)) copy[keyword] = deepNullable(branch);
  }
  return copy;
}

/** A schema that accepts null as well as whatever deepNullable(node) accepts. */
function nullableValue(node: SchemaNode): SchemaNode {
  if (node === true) return true;
  if (node === false) return NULL_ONLY;
  const inner = deepNullableObject(node);
  if (COMPOSITION_KEYWORDS.some((keyword) => keyword in node)) {
    // Adding null inside each oneOf branch would make null match several branches.
    return { anyOf: [NULL_ONLY, inner] };
  }
  return addNullInPlace(inner);
}

function addNullInPlace(node: JsonSchema): JsonSchema {
  const type = node['type'];
  if (typeof type === 'string' && type !== 'null') node['type'] = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) node['type'] = [...type, 'null'];
  if (Array.isArray(node['enum']) && !node['enum'].includes(null)) node['enum'] = [...node['enum'], null];
  if ('const' in node) {
    node['enum'] = node['const'] === null ? [null] : [node['const'], null];
    delete node['const'];
  }
  return node;
}

function mapEntries(node: JsonSchema, keyword: string, transform: (child: SchemaNode) => SchemaNode): void {
  const map = node[keyword];
  if (!isSchemaObject(map)) return;
  const mapped: JsonSchema = {};
  for (const [name, child] of Object.entries(map)) setOwn(mapped, name, isSchemaNode(child) ? transform(child) : child);
  node[keyword] = mapped;
}

function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'boolean' || isSchemaObject(value);
}
