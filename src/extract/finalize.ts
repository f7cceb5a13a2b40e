/**
 * The last stage before the response: shapes an engine's candidate to the
 * caller's schema (types, dates, missing values) and guarantees the result
 * passes the schema's nullable variant.
 */
import { AppError } from '../errors.js';
import type { CompiledSchema } from './schema.js';
import { isSchemaObject } from './schema-walk.js';
import { shapeValue } from './shape.js';
import { repairUntilValid } from './repair.js';

export interface FinalizeOptions {
  /** Read 03/04/2024 as 3 April (true, most of the world) or as March 4 (false). */
  dayFirst?: boolean;
}

export function finalize(candidate: unknown, compiled: CompiledSchema, options: FinalizeOptions = {}): unknown {
  if (!isSchemaObject(candidate)) {
    throw new AppError('engine_failed', 'the engine did not return a JSON object');
  }
  const shaped = shapeValue(candidate, compiled.schema, { root: compiled.schema, dayFirst: options.dayFirst ?? true });
  if (!isSchemaObject(shaped)) {
    throw new AppError('engine_failed', 'the engine did not return a JSON object');
  }
  return repairUntilValid(shaped, compiled.validateNullable);
}
