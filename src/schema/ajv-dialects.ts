/**
 * One long-lived Ajv instance per JSON Schema dialect, which turns a caller's
 * schema into validator source (Ajv's standalone code): it runs on the
 * schema-compile thread, since generating it takes 0.5-1 ms of CPU per
 * property, and validator-source.ts makes the functions where they run.
 * Caller schemas are removed again right after, so that equal `$id`s from
 * different callers never collide and the instances do not grow.
 */
import { Ajv, type Options, type ErrorObject } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import formatsModule from 'ajv-formats';
import draft06MetaSchema from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import { badRequest } from '../errors.js';
import { splitPointer } from '../util/json-pointer.js';
import { generatedLinearRegExp } from './linear-regexp.js';
import type { JsonSchema } from './json-schema.js';

export type Dialect = '2020-12' | '2019-09' | 'draft-07' | 'draft-06';

const CANONICAL_META: Record<Dialect, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
};

const DIALECT_PATTERNS: Array<[RegExp, Dialect]> = [
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, '2020-12'],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, '2019-09'],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, 'draft-07'],
  [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, 'draft-06'],
];

const OPTIONS: Options = {
  strict: false, // callers use keywords Ajv does not know
  allErrors: true, // finalize() repairs every failing value, not only the first
  logger: false,
  ownProperties: true,
  validateFormats: true,
  // A caller's pattern must never backtrack on the event loop (linear-regexp.ts); `source` keeps what standaloneCode writes.
  code: { regExp: generatedLinearRegExp, source: true },
};

type AjvInstance = Ajv | Ajv2019 | Ajv2020;
const instances = new Map<Dialect, AjvInstance>();

function instanceFor(dialect: Dialect): AjvInstance {
  let ajv = instances.get(dialect);
  if (ajv) return ajv;
  if (dialect === '2020-12') ajv = new Ajv2020(OPTIONS);
  else if (dialect === '2019-09') ajv = new Ajv2019(OPTIONS);
  else ajv = new Ajv(OPTIONS);
  if (dialect === 'draft-06') ajv.addMetaSchema(draft06MetaSchema);
  formatsModule.default(ajv);
  instances.set(dialect, ajv);
  return ajv;
}

/** The dialects to try, in order: the declared one, or 2020-12 then draft-07 when `$schema` is absent. */
export function dialectsFor(schema: JsonSchema, field: string): Dialect[] {
  const declared = schema['$schema'];
  if (declared === undefined) return ['2020-12', 'draft-07'];
  if (typeof declared !== 'string') throw badRequest(`${field}.$schema must be a string`);
  for (const [pattern, dialect] of DIALECT_PATTERNS) if (pattern.test(declared.trim())) return [dialect];
  throw badRequest(
    `${field}.$schema: unsupported JSON Schema version "${declared}"; use draft-07 or 2020-12 (2019-09 and draft-06 also work), or omit $schema`,
  );
}

export class SchemaCompileError extends Error {
  readonly details: string[];
  constructor(message: string, details: string[] = []) {
    super(message);
    this.name = 'SchemaCompileError';
    this.details = details;
  }
}

/** The validator's source (a CommonJS module body) after the dialect's meta-schema check; throws SchemaCompileError with a caller-readable reason. */
export function validatorSource(schema: JsonSchema, dialect: Dialect, field: string): string {
  const ajv = instanceFor(dialect);
  const copy: JsonSchema = { ...schema, $schema: CANONICAL_META[dialect] };
  if (!ajv.validateSchema(copy)) {
    const details = describeSchemaErrors(ajv.errors ?? [], field);
    throw new SchemaCompileError(details.join('; ') || 'it does not match the JSON Schema meta-schema', details);
  }
  const knownRefs = new Set(Object.keys(ajv.refs));
  try {
    return standaloneModule.default(ajv, ajv.compile(copy));
  } catch (error) {
    throw new SchemaCompileError(error instanceof Error ? error.message : String(error));
  } finally {
    ajv.removeSchema(copy);
    // embedded `$id`s are registered instance-wide; forget them with their schema
    for (const ref of Object.keys(ajv.refs)) if (!knownRefs.has(ref)) delete ajv.refs[ref];
  }
}

function describeSchemaErrors(errors: ErrorObject[], field: string): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const path = splitPointer(error.instancePath);
    const line = `${[field, ...path].join('.')}: ${error.message ?? 'is invalid'}`;
    if (!lines.includes(line)) lines.push(line);
  }
  return lines.slice(0, 10);
}
