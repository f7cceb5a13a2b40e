/**
 * A flattened reading of one schema node: local `$ref`s followed, `allOf`
 * merged, `anyOf`/`oneOf` unioned. finalize() and the rules engine use it to
 * ask "what type, which properties, which description" without each of them
 * re-implementing JSON Schema composition.
 */
import type { JsonSchema } from './json-schema.js';
import { isSchemaObject } from './schema-walk.js';
import { splitPointer } from '../util/json-pointer.js';

export interface SchemaView {
  /** Declared JSON types ('integer' kept apart from 'number'); empty when unconstrained. */
  types: string[];
  properties: Record<string, JsonSchema | boolean>;
  required: string[];
  /** False when some merged part forbids extra properties. */
  closed: boolean;
  items: JsonSchema | boolean | undefined;
  enumValues: unknown[] | undefined;
  format: string | undefined;
  /** The schema's `examples` (the first node that gives some). */
  examples: unknown[] | undefined;
  /** Descriptions and titles of the node and of what it refers to, most specific first. */
  description: string;
}

const MAX_REF_HOPS = 16;
/** Examples kept of a schema node: enough to tell what they look like, whatever a caller sends. */
const MAX_EXAMPLES = 8;

export function viewSchema(node: unknown, root: JsonSchema): SchemaView {
  const view: SchemaView = {
    // no prototype: a property may be called "constructor" or "__proto__"
    types: [], properties: Object.create(null) as SchemaView['properties'], required: [], closed: false,
    items: undefined, enumValues: undefined, format: undefined, examples: undefined, description: '',
  };
  const descriptions: string[] = [];
  const alternatives: SchemaView[] = [];
  const typeSets: string[][] = [];
  // a Set, not view.required.includes(): a caller's `required` may list 100,000 names
  const required = new Set<string>();

  const absorb = (part: unknown, hops: number): void => {
    if (part === false) { typeSets.push(['never']); return; }
    if (!isSchemaObject(part) || hops > MAX_REF_HOPS) return;
    for (const key of ['description', 'title']) {
      const text = part[key];
      if (typeof text === 'string' && text.trim() && !descriptions.includes(text.trim())) descriptions.push(text.trim());
    }
    const type = part['type'];
    if (typeof type === 'string') typeSets.push([type]);
    else if (Array.isArray(type)) typeSets.push(type.filter((t): t is string => typeof t === 'string'));
    if (isSchemaObject(part['properties'])) {
      for (const [name, schema] of Object.entries(part['properties'])) {
        if (!Object.hasOwn(view.properties, name) && (isSchemaObject(schema) || typeof schema === 'boolean')) view.properties[name] = schema;
      }
    }
    if (Array.isArray(part['required'])) {
      for (const name of part['required']) {
        if (typeof name === 'string' && !required.has(name)) {
          required.add(name);
          view.required.push(name);
        }
      }
    }
    if (part['additionalProperties'] === false || part['unevaluatedProperties'] === false) view.closed = true;
    if (view.items === undefined) view.items = itemsOf(part);
    if (view.enumValues === undefined) {
      if (Array.isArray(part['enum'])) view.enumValues = [...part['enum']];
      else if ('const' in part) view.enumValues = [part['const']];
    }
    if (view.format === undefined && typeof part['format'] === 'string') view.format = part['format'];
    if (view.examples === undefined && Array.isArray(part['examples'])) view.examples = part['examples'].slice(0, MAX_EXAMPLES);
    if (typeof part['$ref'] === 'string') absorb(resolveLocalRef(root, part['$ref']), hops + 1);
    if (Array.isArray(part['allOf'])) for (const branch of part['allOf']) absorb(branch, hops + 1);
    for (const keyword of ['anyOf', 'oneOf']) {
      const branches = part[keyword];
      if (Array.isArray(branches)) for (const branch of branches) alternatives.push(viewSchema(branch, root));
    }
  };
  absorb(node, 0);

  view.types = combineTypes(typeSets, alternatives);
  mergeAlternatives(view, alternatives, descriptions);
  if (view.types.length === 0) view.types = inferTypes(view);
  view.description = descriptions.join('. ');
  return view;
}

function itemsOf(part: JsonSchema): JsonSchema | boolean | undefined {
  const items = part['items'];
  if (isSchemaObject(items) || typeof items === 'boolean') return items;
  // tuple forms: describe the list by its first position
  const tuple = Array.isArray(items) ? items : part['prefixItems'];
  if (Array.isArray(tuple) && (isSchemaObject(tuple[0]) || typeof tuple[0] === 'boolean')) return tuple[0];
  return undefined;
}

function combineTypes(typeSets: string[][], alternatives: SchemaView[]): string[] {
  let types: string[] | undefined;
  for (const set of typeSets) {
    const widened = set.includes('number') ? [...set, 'integer'] : set;
    types = types === undefined ? [...set] : types.filter((t) => widened.includes(t) || (t === 'number' && set.includes('integer')));
  }
  if (types !== undefined) return types;
  if (alternatives.length === 0 || alternatives.some((alt) => alt.types.length === 0)) return [];
  const union: string[] = [];
  for (const alt of alternatives) for (const t of alt.types) if (!union.includes(t)) union.push(t);
  return union;
}

function mergeAlternatives(view: SchemaView, alternatives: SchemaView[], descriptions: string[]): void {
  for (const alt of alternatives) {
    for (const [name, schema] of Object.entries(alt.properties)) if (!Object.hasOwn(view.properties, name)) view.properties[name] = schema;
    if (view.items === undefined) view.items = alt.items;
    if (view.format === undefined) view.format = alt.format;
    if (alt.description && !descriptions.includes(alt.description)) descriptions.push(alt.description);
  }
  if (view.enumValues === undefined && alternatives.length > 0) {
    const meaningful = alternatives.filter((alt) => !(alt.types.length === 1 && alt.types[0] === 'null'));
    if (meaningful.length > 0 && meaningful.every((alt) => alt.enumValues !== undefined)) {
      view.enumValues = meaningful.flatMap((alt) => alt.enumValues ?? []);
    }
  }
}

function inferTypes(view: SchemaView): string[] {
  if (Object.keys(view.properties).length > 0) return ['object'];
  if (view.items !== undefined) return ['array'];
  if (view.enumValues !== undefined) {
    const types = new Set(view.enumValues.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)));
    return [...types];
  }
  if (view.format !== undefined) return ['string'];
  return [];
}

/** Resolves `#`, `#/json/pointer` and `#anchor` inside the caller's schema; undefined otherwise. */
export function resolveLocalRef(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const fragment = safeDecode(ref.slice(1));
  if (fragment === '') return root;
  if (fragment.startsWith('/')) {
    let target: unknown = root;
    for (const key of splitPointer(fragment)) {
      if (typeof target !== 'object' || target === null || !Object.prototype.hasOwnProperty.call(target, key)) return undefined;
      target = (target as Record<string, unknown>)[key];
    }
    return target;
  }
  return findAnchor(root, fragment, 0);
}

function findAnchor(node: unknown, anchor: string, depth: number): JsonSchema | undefined {
  if (!isSchemaObject(node) || depth > 64) return undefined;
  if (node['$anchor'] === anchor || node['$dynamicAnchor'] === anchor || node['$id'] === `#${anchor}`) return node;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      const found = findAnchor(child, anchor, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function allowsType(view: SchemaView, type: string): boolean {
  return view.types.length === 0 || view.types.includes(type) || (type === 'integer' && view.types.includes('number'));
}
