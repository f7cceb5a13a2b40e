/**
 * The schema handed to a model server's constrained decoding (Ollama
 * `format`, OpenAI `response_format`, node-llama-cpp grammar). Those
 * converters force every property to be present and ignore or reject much of
 * JSON Schema (pattern, minimum, $ref cycles, allOf...). So the model gets a
 * plain, self-contained shape: every property present and nullable, lists as
 * lists, enums kept; everything else is checked afterwards by finalize (Ajv
 * against the caller's own schema).
 */
import type { JsonSchema } from '../../schema/schema.js';
import { viewSchema, type SchemaView } from '../../schema/schema-view.js';

const MAX_DEPTH = 12;
const SCALAR_TYPES = ['string', 'number', 'integer', 'boolean'];
const ANY_SCALAR: JsonSchema = { type: ['string', 'number', 'boolean', 'null'] };

export function toModelSchema(schema: JsonSchema): JsonSchema {
  return objectShape(viewSchema(schema, schema), schema, 0);
}

function objectShape(view: SchemaView, root: JsonSchema, depth: number): JsonSchema {
  const properties: JsonSchema = {};
  for (const [name, child] of Object.entries(view.properties)) {
    Object.defineProperty(properties, name, { value: valueShape(child, root, depth + 1, true), enumerable: true, writable: true, configurable: true });
  }
  const shape: JsonSchema = { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
  if (view.description) shape['description'] = view.description;
  return shape;
}

function valueShape(node: unknown, root: JsonSchema, depth: number, nullable: boolean): JsonSchema {
  if (depth > MAX_DEPTH) return ANY_SCALAR;
  const view = viewSchema(node, root);
  const described = (shape: JsonSchema): JsonSchema => (view.description ? { ...shape, description: view.description } : shape);
  const enumValues = view.enumValues?.filter((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
  if (enumValues && enumValues.length > 0) {
    return described({ enum: nullable && !enumValues.includes(null) ? [...enumValues, null] : enumValues });
  }
  const types = view.types.filter((t) => t !== 'null' && t !== 'never');
  const options: JsonSchema[] = [];
  if (types.includes('object') || (types.length === 0 && Object.keys(view.properties).length > 0)) options.push(objectShape(view, root, depth));
  // a missing list is an empty list, never null: callers iterate over it
  if (types.includes('array')) options.push({ type: 'array', items: valueShape(view.items ?? true, root, depth + 1, false) });
  const scalars = types.filter((t) => SCALAR_TYPES.includes(t));
  if (scalars.length > 0) options.push({ type: nullable ? [...scalars, 'null'] : scalars.length === 1 ? scalars[0] : scalars });
  if (options.length === 0) return described(nullable ? ANY_SCALAR : { type: ['string', 'number', 'boolean'] });
  if (nullable && scalars.length === 0 && !types.includes('array')) options.push({ type: 'null' });
  return described(options.length === 1 ? options[0]! : { oneOf: options });
}
