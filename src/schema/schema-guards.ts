/**
 * Refuses caller schemas that would be expensive to compile or that point
 * outside themselves. Ajv never fetches without `loadSchema`, but a clear 400
 * naming the offending `$ref` is better than a compile error.
 */
import { badRequest } from '../errors.js';
import { runSync, type PacedWork } from '../util/paced.js';
import { compileLinear, UnsupportedPatternError } from './linear-regexp.js';
import type { JsonSchema } from './json-schema.js';
import { childSchemas, formatSchemaPath, isSchemaObject } from './schema-walk.js';

/*
 * Ajv compiles a schema on the event loop (a compiled validator cannot cross
 * threads), in time that grows faster than the schema: 2,000 properties took
 * 2-5 s, 500 about 0.3 s, measured by the hostile-input corpus. Compiled
 * schemas are cached, so the bounds below cap what a new schema can cost.
 */
export const MAX_SCHEMA_DEPTH = 32;
export const MAX_SCHEMA_PROPERTIES = 500;
/** Serialized size: bounds `required`, `enum`, descriptions and the rest alike. */
export const MAX_SCHEMA_BYTES = 512 * 1024;
/** A caller's pattern is compiled by re2js on the event loop; 100,000 characters took 2 s. */
export const MAX_PATTERN_LENGTH = 1000;
/** Raw JSON nesting, including data keywords; keeps later recursive code off the stack limit. */
const MAX_JSON_DEPTH = 128;

const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'];
/** Only used to resolve relative `$id`s; nothing is ever fetched from it. */
const PLACEHOLDER_BASE = 'https://docshape.invalid/schema.json';

/** The size checks below, at once (the CLI, tests). */
export function checkSchemaSize(schema: JsonSchema, field: string): void {
  runSync(schemaSizeWork(schema, field));
}

/**
 * Refuses a schema nested or wide beyond the limits, as paced work (a unit
 * per value visited): the schema is as large as the body lets it be (an
 * `enum` of a million values walked in one piece held the loop 0.3 s), and
 * the service gives the loop back between turns.
 */
export function* schemaSizeWork(schema: JsonSchema, field: string): PacedWork<void> {
  yield* checkJsonDepth(schema, field);
  let properties = 0;
  function* visit(node: JsonSchema, depth: number): PacedWork<void> {
    yield;
    if (depth > MAX_SCHEMA_DEPTH) {
      throw badRequest(`${field} is nested too deeply (more than ${MAX_SCHEMA_DEPTH} levels)`);
    }
    if (isSchemaObject(node['properties'])) properties += Object.keys(node['properties']).length;
    if (properties > MAX_SCHEMA_PROPERTIES) throw tooManyProperties(field);
    for (const child of childSchemas(node)) {
      if (isSchemaObject(child.schema)) yield* visit(child.schema, depth + 1);
    }
  }
  yield* visit(schema, 1);
}

function tooManyProperties(field: string): Error {
  return badRequest(`${field} has too many properties (more than ${MAX_SCHEMA_PROPERTIES})`);
}

/**
 * Also refuses, as soon as it meets one, a `properties` object with more
 * names than a whole schema may have: walking all of a 100,000-property schema
 * before the count took the event loop 0.1-0.9 s (the corpus, seed 1 case 25).
 */
function* checkJsonDepth(value: unknown, field: string): PacedWork<void> {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    yield;
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > MAX_JSON_DEPTH) throw badRequest(`${field} is nested too deeply (more than ${MAX_JSON_DEPTH} levels of JSON)`);
    const properties = (current as Record<string, unknown>)['properties'];
    if (isSchemaObject(properties) && Object.keys(properties).length > MAX_SCHEMA_PROPERTIES) throw tooManyProperties(field);
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
}

interface RefSite {
  path: string[];
  ref: string;
  base: URL;
}

/** Rejects every reference that does not resolve inside the schema itself. */
export function checkNoRemoteRefs(schema: JsonSchema, field: string): void {
  const embedded = new Set<string>();
  const refs: RefSite[] = [];
  const visit = (node: JsonSchema, path: string[], parentBase: URL): void => {
    const base = withId(node, parentBase, path, field);
    if (base !== parentBase) embedded.add(withoutFragment(base));
    for (const keyword of REF_KEYWORDS) {
      const ref = node[keyword];
      if (ref === undefined) continue;
      if (typeof ref !== 'string') throw badRequest(`${formatSchemaPath(field, [...path, keyword])} must be a string`);
      refs.push({ path: [...path, keyword], ref, base });
    }
    for (const child of childSchemas(node)) {
      if (isSchemaObject(child.schema)) visit(child.schema, [...path, ...child.path], base);
    }
  };
  const root = new URL(PLACEHOLDER_BASE);
  embedded.add(withoutFragment(root));
  visit(schema, [], root);
  for (const site of refs) {
    if (site.ref.startsWith('#')) continue;
    const target = resolveUrl(site.ref, site.base);
    if (target && embedded.has(withoutFragment(target))) continue;
    throw badRequest(`${formatSchemaPath(field, site.path)}: remote references are not allowed`);
  }
}

function withId(node: JsonSchema, base: URL, path: string[], field: string): URL {
  const id = node['$id'];
  if (id === undefined) return base;
  if (typeof id !== 'string') throw badRequest(`${formatSchemaPath(field, [...path, '$id'])} must be a string`);
  // draft-07 style `$id: "#name"` is an anchor, not a new base
  if (id.startsWith('#')) return base;
  const resolved = resolveUrl(id, base);
  if (!resolved) throw badRequest(`${formatSchemaPath(field, [...path, '$id'])} is not a valid URI reference`);
  return resolved;
}

function resolveUrl(reference: string, base: URL): URL | undefined {
  try {
    return new URL(reference, base);
  } catch {
    return undefined;
  }
}

function withoutFragment(url: URL): string {
  return url.href.replace(/#.*$/, '');
}

/**
 * Instructions one pattern may compile to. RE2 writes counted repeats out:
 * "a{1,100}" repeated 100 times is 800 characters and 19,902 instructions,
 * and re2js compiled it in 0.2-0.5 s; "^.{0,1000}$" is 2,004.
 */
export const MAX_PATTERN_PROGRAM = 2500;
/**
 * Instructions all of a schema's patterns may compile to. They compile on the
 * event loop, in turns, at about 10-25 µs an instruction: this bounds a new
 * schema's patterns to well under a second of the loop's time in all.
 */
export const MAX_SCHEMA_PATTERN_PROGRAM = 20_000;

/**
 * Compiles every `pattern` and `patternProperties` key with the linear-time
 * engine Ajv will use, so a pattern it cannot run, or one that costs too much
 * to compile, is a 400 naming its place. Returns the distinct patterns.
 */
export function checkPatterns(schema: JsonSchema, field: string): string[] {
  const patterns = new Set<string>();
  let program = 0;
  const check = (pattern: string, path: string[]): void => {
    if (patterns.has(pattern)) return;
    const where = formatSchemaPath(field, path);
    if (pattern.length > MAX_PATTERN_LENGTH) {
      throw badRequest(`${where}: the pattern is ${pattern.length} characters long; the limit is ${MAX_PATTERN_LENGTH}`);
    }
    let size: number;
    try {
      size = compileLinear(pattern).programSize;
    } catch (error) {
      if (error instanceof UnsupportedPatternError) throw badRequest(`${where}: ${error.message}`);
      throw error;
    }
    if (size > MAX_PATTERN_PROGRAM) {
      throw badRequest(
        `${where}: the pattern compiles to ${size} instructions (counted repeats such as {1,100} are written out); the limit is ${MAX_PATTERN_PROGRAM} per pattern`,
      );
    }
    program += size;
    if (program > MAX_SCHEMA_PATTERN_PROGRAM) {
      throw badRequest(`${field}: its patterns compile to more than ${MAX_SCHEMA_PATTERN_PROGRAM} instructions in all (at ${where}); use fewer or simpler patterns`);
    }
    patterns.add(pattern);
  };
  const visit = (node: JsonSchema, path: string[]): void => {
    const pattern = node['pattern'];
    if (typeof pattern === 'string') check(pattern, [...path, 'pattern']);
    const patternProperties = node['patternProperties'];
    if (isSchemaObject(patternProperties)) {
      for (const key of Object.keys(patternProperties)) check(key, [...path, 'patternProperties', key]);
    }
    for (const child of childSchemas(node)) {
      if (isSchemaObject(child.schema)) visit(child.schema, [...path, ...child.path]);
    }
  };
  visit(schema, []);
  return [...patterns];
}
