/**
 * Checks a caller's schema and generates its validators' source: the part of
 * compiling that costs (0.5-1 ms of CPU per property, re2js for patterns),
 * run on the schema-compile thread (schema-compile-worker.ts) for the
 * service, or in place for the CLI's check. Throws 400 (badRequest).
 */
import { badRequest } from '../errors.js';
import { dialectsFor, SchemaCompileError, validatorSource, type Dialect } from './ajv-dialects.js';
import { makeNullable } from './nullable.js';
import { checkNoRemoteRefs, checkPatterns } from './schema-guards.js';
import { viewSchema } from './schema-view.js';
import type { JsonSchema } from './json-schema.js';

export interface SchemaSources {
  dialect: Dialect;
  /** makeNullable(schema): every property may be null, lists may be empty. */
  nullableSchema: JsonSchema;
  validateSource: string;
  validateNullableSource: string;
  /** The distinct patterns the validators run, to compile in turns before they do. */
  patterns: string[];
}

/** The size checks (checkSchemaSize, MAX_SCHEMA_BYTES) come first, where the schema arrives (schema.ts). */
export function checkedSchemaSources(schema: JsonSchema, field: string): SchemaSources {
  checkNoRemoteRefs(schema, field);
  const patterns = checkPatterns(schema, field);
  const root = viewSchema(schema, schema);
  // viewSchema already infers 'object' for a root that only lists properties.
  if (!root.types.includes('object')) {
    throw badRequest(`${field}: the root must be an object schema (type: "object" with properties)`);
  }
  const nullableSchema = makeNullable(schema);
  let firstError: SchemaCompileError | undefined;
  for (const dialect of dialectsFor(schema, field)) {
    try {
      const validateSource = validatorSource(schema, dialect, field);
      const validateNullableSource = validatorSource(nullableSchema, dialect, field);
      return { dialect, nullableSchema, validateSource, validateNullableSource, patterns };
    } catch (error) {
      if (!(error instanceof SchemaCompileError)) throw error;
      firstError ??= error;
    }
  }
  throw badRequest(`${field} is not a usable JSON Schema: ${firstError?.message ?? 'it does not compile'}`, firstError?.details);
}
