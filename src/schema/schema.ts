import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { badRequest } from '../errors.js';
import { jsonLength, Pacer, runPaced, runSync, type PacedWork } from '../util/paced.js';
import { untilAborted } from '../util/until-aborted.js';
import type { Dialect } from './ajv-dialects.js';
import { SchemaPatterns } from './linear-regexp.js';
import { compileOnThread } from './schema-compile-thread.js';
import { MAX_SCHEMA_BYTES, schemaSizeWork } from './schema-guards.js';
import { checkedSchemaSources, type SchemaSources } from './schema-sources.js';
import { validatorFromSource } from './validator-source.js';
import type { JsonSchema } from './json-schema.js';

export type { JsonSchema } from './json-schema.js';

export { makeNullable } from './nullable.js';

/** A caller's schema, checked and compiled once, shared by every request that sends the same schema. */
export interface CompiledSchema {
  /** The caller's schema as sent. */
  schema: JsonSchema;
  dialect: Dialect;
  /** Validates against the caller's schema as is. */
  validate: ValidateFunction;
  /** makeNullable(schema): every property may be null, lists may be empty. */
  nullableSchema: JsonSchema;
  validateNullable: ValidateFunction;
  /** What validateNullable is made from, for a thread that checks a large answer (answer-repair-thread.ts). */
  nullableSource: ValidatorSource;
}

/** A validator's generated source and the patterns it runs: validatorFromSource makes the same function on any thread. */
export interface ValidatorSource {
  code: string;
  patterns: string[];
}

const CACHE_LIMIT = 100;
const compiledByHash = new Map<string, CompiledSchema>();
/** Schemas being compiled on the thread: a second request with the same schema waits for the first's. */
const compiling = new Map<string, Promise<CompiledSchema>>();

interface Arrival {
  schema: JsonSchema;
  key: string;
}

/** Values of a schema checked between two turns of the loop when it arrives: about a millisecond's work. */
const ARRIVAL_UNITS_PER_TURN = 2048;

/**
 * The checks every schema passes where it arrives, bounded by the body's
 * size and paced (a unit per value): an object, not nested or wide beyond the
 * limits, at most MAX_SCHEMA_BYTES as JSON. The key names it in the cache.
 */
function* arrival(schema: unknown, field: string): PacedWork<Arrival> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw badRequest(`${field} must be a JSON Schema object`);
  }
  const callerSchema = schema as JsonSchema;
  yield* schemaSizeWork(callerSchema, field);
  // counted in turns first: the text of a schema as large as the body lets it be is made only once it is known to be small
  const length = yield* jsonLength(callerSchema);
  if (length > MAX_SCHEMA_BYTES) {
    throw badRequest(`${field} is too large (${length} characters as JSON; the limit is ${MAX_SCHEMA_BYTES})`);
  }
  const serialized = JSON.stringify(callerSchema);
  return { schema: callerSchema, key: createHash('sha256').update(serialized).digest('hex') };
}

function cachedSchema(key: string): CompiledSchema | undefined {
  const cached = compiledByHash.get(key);
  if (cached) {
    compiledByHash.delete(key);
    compiledByHash.set(key, cached);
  }
  return cached;
}

function remember(key: string, compiled: CompiledSchema): CompiledSchema {
  compiledByHash.set(key, compiled);
  if (compiledByHash.size > CACHE_LIMIT) compiledByHash.delete(compiledByHash.keys().next().value!);
  return compiled;
}

/** The validators made from their source, here; their patterns are compiled by the caller (`patterns.compiling`). */
function instantiated(schema: JsonSchema, sources: SchemaSources): { compiled: CompiledSchema; patterns: SchemaPatterns } {
  const patterns = new SchemaPatterns();
  const validate = validatorFromSource(sources.validateSource, patterns);
  const validateNullable = validatorFromSource(sources.validateNullableSource, patterns);
  const nullableSource = { code: sources.validateNullableSource, patterns: sources.patterns };
  return { compiled: { schema, dialect: sources.dialect, validate, nullableSchema: sources.nullableSchema, validateNullable, nullableSource }, patterns };
}

/**
 * Checks and compiles the caller's schema in place; throws 400 (badRequest)
 * naming `field` when it is not an object schema, refers outside itself, is
 * absurdly large or does not compile. Nothing is ever fetched over the
 * network. For the CLI and tests: the service compiles off the event loop
 * (compileCallerSchemaOffThread).
 */
export function compileCallerSchema(schema: unknown, field = 'schema'): CompiledSchema {
  const { schema: callerSchema, key } = runSync(arrival(schema, field));
  const cached = cachedSchema(key);
  if (cached) return cached;
  const sources = checkedSchemaSources(callerSchema, field);
  const { compiled, patterns } = instantiated(callerSchema, sources);
  runSync(patterns.compiling(sources.patterns));
  return remember(key, compiled);
}

/**
 * compileCallerSchema for the service: a schema not yet cached is checked and
 * its validators generated on the schema-compile thread; here the loop only
 * makes the functions from their source and compiles the patterns, in turns.
 */
export async function compileCallerSchemaOffThread(schema: unknown, field = 'schema', signal?: AbortSignal): Promise<CompiledSchema> {
  const { schema: callerSchema, key } = await runPaced(arrival(schema, field), new Pacer(signal, ARRIVAL_UNITS_PER_TURN));
  const cached = cachedSchema(key);
  if (cached) return cached;
  // a refusal names the field, so only requests that name it alike share a compile
  const inFlight = `${field}\n${key}`;
  let pending = compiling.get(inFlight);
  if (!pending) {
    pending = compileFreshOffThread(callerSchema, key, field).finally(() => compiling.delete(inFlight));
    compiling.set(inFlight, pending);
  }
  return signal ? untilAborted(pending, signal) : pending;
}

/** Not aborted by one request's signal: another request may be waiting for the same schema. */
async function compileFreshOffThread(schema: JsonSchema, key: string, field: string): Promise<CompiledSchema> {
  const reply = await compileOnThread({ schema, field });
  if ('refused' in reply) throw badRequest(reply.refused.message, reply.refused.details);
  const { compiled, patterns } = instantiated(schema, reply.sources);
  await runPaced(patterns.compiling(reply.sources.patterns), new Pacer());
  return remember(key, compiled);
}
