/**
 * The last stage before the response, the same for every engine: shapes an
 * engine's candidate to the caller's schema (types, dates, missing values),
 * guarantees the result passes the schema's nullable variant, and carries
 * where each value was read along to its final place. The language-model
 * engine asks answerProblems() what is wrong with an answer, so that its
 * retries are judged by the same shaping and the same compiled validator.
 */
import { AppError } from '../errors.js';
import { isDayFirst, type DateOrder } from './date-order.js';
import type { Extraction } from './engine.js';
import { repairedAnswer } from './answer-repair-thread.js';
import { keepingPresent, PointerMoves, RemovedListItems, type Provenance } from './provenance.js';
import { describeAjvErrors, repairUntilValid } from './repair.js';
import type { CompiledSchema } from './schema.js';
import { isSchemaObject } from './schema-walk.js';
import { shapeValue, shaping } from './shape.js';
import { Pacer, runPaced, runSync, type PacedWork } from '../util/paced.js';

export interface FinalizeOptions {
  /** How to read 03/04/2024 (settled once per request, see date-order.ts). */
  dateOrder: DateOrder;
}

/** The candidate with every value in the type and form its schema asks for; provenance follows the values. */
export function shapeCandidate(extraction: Extraction, compiled: CompiledSchema, options: FinalizeOptions): Extraction {
  return runSync(shapingCandidate(extraction, compiled, options));
}

function* shapingCandidate(extraction: Extraction, compiled: CompiledSchema, options: FinalizeOptions): PacedWork<Extraction> {
  const moves = new PointerMoves();
  const value = yield* shaping(extraction.value, compiled.schema, { root: compiled.schema, dayFirst: isDayFirst(options.dateOrder), trace: moves.move });
  return { value, provenance: yield* moves.applying(extraction.provenance) };
}

export type FinalAnswer = Extraction & { value: Record<string, unknown> };

/** The answer an engine gives back: shaped, valid against the nullable schema, with the provenance of every value it still has. */
export function finalize(extraction: Extraction, compiled: CompiledSchema, options: FinalizeOptions): FinalAnswer {
  return runSync(finalizing(extraction, compiled, options));
}

/**
 * finalize on the event loop in turns of `pacer` (util/paced.ts): an answer
 * of 5,000 rows held the loop 0.4 s in one piece. Validation and repair are
 * one piece each: a large answer's run on a thread (answer-repair-thread.ts),
 * since some of Ajv's checks grow faster than the answer.
 */
export async function finalizePaced(extraction: Extraction, compiled: CompiledSchema, options: FinalizeOptions, pacer: Pacer, signal?: AbortSignal): Promise<FinalAnswer> {
  if (!isSchemaObject(extraction.value)) throw notAnObject();
  const shaped = await runPaced(shapingCandidate(extraction, compiled, options), pacer);
  if (!isSchemaObject(shaped.value)) throw notAnObject();
  const { value, removed } = await repairedAnswer(shaped.value, compiled, signal);
  return { value, provenance: await runPaced(keptWhereValues(removed, shaped.provenance, value), pacer) };
}

function* finalizing(extraction: Extraction, compiled: CompiledSchema, options: FinalizeOptions): PacedWork<FinalAnswer> {
  if (!isSchemaObject(extraction.value)) throw notAnObject();
  const shaped = yield* shapingCandidate(extraction, compiled, options);
  if (!isSchemaObject(shaped.value)) throw notAnObject();
  const removed = new RemovedListItems();
  const value = repairUntilValid(shaped.value, compiled.validateNullable, (list, index) => removed.record(list, index));
  return { value, provenance: yield* keptWhereValues(removed, shaped.provenance, value) };
}

/** The shaped answer's provenance for the repaired `value`: moved past the removed list items, and only where a value is left. */
function* keptWhereValues(removed: RemovedListItems, provenance: Provenance, value: Record<string, unknown>): PacedWork<Provenance> {
  return yield* keepingPresent(yield* removed.remapping(provenance, value), value);
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
