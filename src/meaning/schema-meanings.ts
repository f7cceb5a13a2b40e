/**
 * The meaning of every value a schema asks for, walked once: the leaves of
 * its objects and of its lists' items, each with its JSON Pointer pattern
 * ("/line_items/*\/quantity" for a list's items) and what it asks for. The
 * language model's field notes and the e-invoice mapping read a schema
 * this way; the walk is bounded like every walk over a caller's schema.
 */
import type { JsonSchema } from '../schema/json-schema.js';
import { viewSchema, type SchemaView } from '../schema/schema-view.js';
import { childPointer } from '../util/json-pointer.js';
import { meaningOf, type PropertyMeaning } from './meaning.js';

export interface PropertyAt {
  /** JSON Pointer of the value; a list's items are "*": "/line_items/*\/quantity". */
  pointer: string;
  name: string;
  view: SchemaView;
  meaning: PropertyMeaning;
  /** Names of the enclosing properties, outermost first. */
  path: string[];
  inItems: boolean;
}

/** Bounds of the walk: a schema's real values are far fewer (the schema checks bound a caller's schema too). */
const MAX_DEPTH = 8;
const MAX_VALUES = 2000;

/** Every scalar value the schema asks for (and every list of scalars), in the schema's order. */
export function schemaMeanings(schema: JsonSchema): PropertyAt[] {
  const found: PropertyAt[] = [];
  const visit = (node: unknown, pointer: string, name: string, path: string[], inItems: boolean, depth: number): void => {
    if (found.length >= MAX_VALUES || depth > MAX_DEPTH) return;
    const view = viewSchema(node, schema);
    const properties = Object.keys(view.properties);
    if (view.types.includes('object') && properties.length > 0) {
      const enclosing = name ? [...path, name] : path;
      for (const property of properties) visit(view.properties[property], childPointer(pointer, property), property, enclosing, inItems, depth + 1);
      return;
    }
    if (view.types.includes('array') && view.items !== undefined) {
      const items = viewSchema(view.items, schema);
      if (items.types.includes('object') && Object.keys(items.properties).length > 0) {
        visit(view.items, childPointer(pointer, '*'), name, path, true, depth + 1);
        return;
      }
    }
    if (!name) return;
    const meaning = meaningOf({ name, description: view.description, types: view.types, format: view.format, enumValues: view.enumValues, examples: view.examples, path, inItems });
    found.push({ pointer, name, view, meaning, path, inItems });
  };
  visit(schema, '', '', [], false, 0);
  return found;
}
