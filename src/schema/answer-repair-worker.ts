/**
 * The answer-repair thread's task (answer-repair-thread.ts): a shaped answer
 * validated against the nullable schema and repaired (repair.ts), with the
 * validator made here from its source. The list items repair removed come
 * back by the pointer of their list; an unsatisfiable schema comes back as
 * data, since an AppError loses its class crossing threads.
 */
import type { ValidateFunction } from 'ajv';
import { AppError } from '../errors.js';
import { serveTasks } from '../threads/serve-tasks.js';
import { SchemaPatterns } from './linear-regexp.js';
import { RemovedListItems } from './provenance.js';
import { repairUntilValid } from './repair.js';
import type { ValidatorSource } from './schema.js';
import { validatorFromSource } from './validator-source.js';

export interface AnswerRepairTask {
  validator: ValidatorSource;
  value: Record<string, unknown>;
}

export type AnswerRepairReply = { value: Record<string, unknown>; removals: Array<[string, number[]]> } | { unsatisfiable: { message: string; details: string[] } };

/** Validators kept made, by their source: a caller sends the same schema again and again. */
const VALIDATORS_KEPT = 20;
const validators = new Map<string, ValidateFunction>();

function validatorFor({ code }: ValidatorSource): ValidateFunction {
  let validate = validators.get(code);
  if (validate) validators.delete(code);
  // (a pattern compiles when the validator first tests it)
  else validate = validatorFromSource(code, new SchemaPatterns());
  validators.set(code, validate);
  if (validators.size > VALIDATORS_KEPT) validators.delete(validators.keys().next().value!);
  return validate;
}

export function repairAnswerTask(task: AnswerRepairTask): AnswerRepairReply {
  const removed = new RemovedListItems();
  try {
    const value = repairUntilValid(task.value, validatorFor(task.validator), (list, index) => removed.record(list, index));
    return { value, removals: removed.atPointers(value) };
  } catch (error) {
    if (error instanceof AppError && error.code === 'unsatisfiable_schema') return { unsatisfiable: { message: error.message, details: error.details ?? [] } };
    throw error;
  }
}

serveTasks<AnswerRepairTask>({ run: repairAnswerTask });
