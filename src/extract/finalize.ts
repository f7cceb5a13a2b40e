/**
 * The last stage before the response, the same for every engine: shapes an
 * engine's candidate to the caller's schema (types, dates, missing values),
 * guarantees the result passes the schema's nullable variant, and carries
 * where each value was read along to its final place. The language-model
 * engine asks answerProblems() what is wrong with an answer, so that its
 * retries are judged by the same shaping and the same compiled validator.
 */
import { AppError } from '../errors.js';
import { joinPointer } from '../util/json-pointer.js';
import { isDayFirst, type DateOrder } from './date-order.js';
import type { Extraction } from './engine.js';
import { keepPresent, PointerMoves, removeListItem } from './provenance.js';
import { describeAjvErrors, repairUntilValid } from './repair.js';
import type { CompiledSchema } from './schema.js';
import { isSchemaObject } from './schema-walk.js';
import { shapeValue } from './shape.js';

export interface FinalizeOptions {
  /** How to read 03/04/2024 (settled once per request, see date-order.ts). */
  dateOrder: DateOrder;
}

/** The candidate with every value in the type and form its schema asks for; provenance follows the values. */
export function shapeCandidate(extraction: Extraction, compiled: CompiledSchema, options: FinalizeOptions): Extraction {
  const moves = new PointerMoves();
  const value = shapeValue(extraction.value, compiled.schema, { root: compiled.schema, dayFirst: isDayFirst(options.dateOrder), trace: moves.move });
  return { value, provenance: moves.apply(extraction.provenance) };
}

/** The answer an engine gives back: shaped, valid against the nullable schema, with the provenance of every value it still has. */
export function finalize(extraction: Extraction, compiled: CompiledSchema, options: FinalizeOptions): Extraction & { value: Record<string, unknown> } {
  if (!isSchemaObject(extraction.value)) throw notAnObject();
  const shaped = shapeCandidate(extraction, compiled, options);
  if (!isSchemaObject(shaped.value)) throw notAnObject();
  let provenance = shaped.provenance;
  const value = repairUntilValid(shaped.value, compiled.validateNullable, (list, index) => {
    provenance = removeListItem(provenance, joinPointer(list), index);
  });
  return { value, provenance: keepPresent(provenance, value) };
}

/** What the caller's schema says about a candidate once shaped (types coerced, missing values null): the problems worth a model retry. */
export function answerProblems(candidate: unknown, compiled: CompiledSchema, options: FinalizeOptions): string[] {
  if (!isSchemaObject(candidate)) return ['the answer must be a JSON object'];
  const shaped = shapeValue(candidate, compiled.schema, { root: compiled.schema, dayFirst: isDayFirst(options.dateOrder) });
  if (compiled.validateNullable(shaped)) return [];
  return describeAjvErrors(compiled.validateNullable.errors ?? []);
}

function notAnObject(): AppError {
  return new AppError('engine_failed', 'the engine did not return a JSON object');
}
