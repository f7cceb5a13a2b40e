import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { badRequest } from '../errors.js';
import { compileWithDialect, dialectsFor, SchemaCompileError, type Dialect } from './ajv-dialects.js';
import { makeNullable } from './nullable.js';
import { checkNoRemoteRefs, checkPatterns, checkSchemaSize, MAX_SCHEMA_BYTES } from './schema-guards.js';
import { viewSchema } from './schema-view.js';
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
}

const CACHE_LIMIT = 100;
const compiledByHash = new Map<string, CompiledSchema>();

/**
 * Checks and compiles the caller's schema; throws 400 (badRequest) naming `field`
 * when it is not an object schema, refers outside itself, is absurdly large or
 * does not compile. Nothing is ever fetched over the network.
 */
export function compileCallerSchema(schema: unknown, field = 'schema'): CompiledSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw badRequest(`${field} must be a JSON Schema object`);
  }
  const callerSchema = schema as JsonSchema;
  checkSchemaSize(callerSchema, field);
  const serialized = JSON.stringify(callerSchema);
  if (serialized.length > MAX_SCHEMA_BYTES) {
    throw badRequest(`${field} is too large (${serialized.length} characters as JSON; the limit is ${MAX_SCHEMA_BYTES})`);
  }
  const key = createHash('sha256').update(serialized).digest('hex');
  const cached = compiledByHash.get(key);
  if (cached) {
    compiledByHash.delete(key);
    compiledByHash.set(key, cached);
    return cached;
  }
  const compiled = compileFresh(callerSchema, field);
  compiledByHash.set(key, compiled);
  if (compiledByHash.size > CACHE_LIMIT) compiledByHash.delete(compiledByHash.keys().next().value!);
  return compiled;
}

function compileFresh(schema: JsonSchema, field: string): CompiledSchema {
  checkNoRemoteRefs(schema, field);
  checkPatterns(schema, field);
  const root = viewSchema(schema, schema);
  // viewSchema already infers 'object' for a root that only lists properties.
  if (!root.types.includes('object')) {
    throw badRequest(`${field}: the root must be an object schema (type: "object" with properties)`);
  }
  const nullableSchema = makeNullable(schema);
  let firstError: SchemaCompileError | undefined;
  for (const dialect of dialectsFor(schema, field)) {
    try {
      const validate = compileWithDialect(schema, dialect, field);
      const validateNullable = compileWithDialect(nullableSchema, dialect, field);
      return { schema, dialect, validate, nullableSchema, validateNullable };
    } catch (error) {
      if (!(error instanceof SchemaCompileError)) throw error;
      firstError ??= error;
    }
  }
  throw badRequest(`${field} is not a usable JSON Schema: ${firstError?.message ?? 'it does not compile'}`, firstError?.details);
}
