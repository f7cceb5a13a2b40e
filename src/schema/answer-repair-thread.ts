/**
 * Validation and repair of a large answer, on a thread (answer-repair-worker.ts).
 * Ajv's validation of an answer runs in one piece, and some of its checks
 * grow faster than the answer: uniqueItems over a list of objects compares
 * every pair (5,000 rows: 0.6 s of the event loop per validation, and repair
 * validates twice at least), an enum is searched for every value it applies
 * to (a schema's tens of thousands of values times an answer's thousands).
 * An answer whose size times its validator's is small (a one-page invoice:
 * 30-60 values, 2-10 KB of generated code) is checked on the calling thread:
 * a millisecond at most, less than the trip to a thread and back.
 */
import { AppError } from '../errors.js';
import { ThreadPool } from '../threads/pool.js';
import { taskThreads } from '../threads/task-thread.js';
import type { AnswerRepairReply, AnswerRepairTask } from './answer-repair-worker.js';
import { RemovedListItems } from './provenance.js';
import { repairUntilValid } from './repair.js';
import type { CompiledSchema } from './schema.js';

/**
 * Values of the answer times characters of the validator's code up to which
 * the answer is checked on the calling thread. Near this bound a validation
 * took 1.2 ms of CPU for 4 values against an enum of 20,000 strings (a 300
 * KB validator) and 3.9 ms for uniqueItems over 380 rows of objects (1,000
 * rows: 24 ms); 1,300 rows of a plain schema, past it, 0.1 ms.
 */
export const INLINE_VALIDATION_WORK = 4_000_000;

/** The thread ends after this long without an answer to check. */
const IDLE_THREAD_EXIT_MS = 60_000;

let pool: ThreadPool<AnswerRepairTask, AnswerRepairReply> | undefined;

function repairPool(): ThreadPool<AnswerRepairTask, AnswerRepairReply> {
  pool ??= new ThreadPool({
    label: 'answer-repair',
    start: taskThreads(new URL('./answer-repair-worker.js', import.meta.url)),
    maxThreads: 1,
    idleMs: IDLE_THREAD_EXIT_MS,
    // an aborted request's check is of no use to anyone: its thread goes, a fresh one takes the next
    runningAbort: 'stop',
  });
  return pool;
}

export interface RepairedAnswer {
  value: Record<string, unknown>;
  removed: RemovedListItems;
}

/**
 * `value` made valid against the nullable schema (repair.ts: failing values
 * given up), and the list items that took: on the calling thread when small
 * (`inlineWork`, INLINE_VALIDATION_WORK), else on the answer-repair thread,
 * which an abort of `signal` ends.
 */
export async function repairedAnswer(value: Record<string, unknown>, compiled: CompiledSchema, signal?: AbortSignal, inlineWork = INLINE_VALIDATION_WORK): Promise<RepairedAnswer> {
  if (runsInline(value, compiled, inlineWork)) {
    const removed = new RemovedListItems();
    return { value: repairUntilValid(value, compiled.validateNullable, (list, index) => removed.record(list, index)), removed };
  }
  const task: AnswerRepairTask = { validator: compiled.nullableSource, value };
  let reply: AnswerRepairReply;
  try {
    reply = await repairPool().run(task, signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
  if ('unsatisfiable' in reply) throw new AppError('unsatisfiable_schema', reply.unsatisfiable.message, { details: reply.unsatisfiable.details });
  return { value: reply.value, removed: RemovedListItems.atLists(reply.value, reply.removals) };
}

/** Whether the values of `value` times the characters of its validator's code are at most `inlineWork`: values counted only that far. */
function runsInline(value: unknown, compiled: CompiledSchema, inlineWork: number): boolean {
  const mostValues = Math.floor(inlineWork / Math.max(1, compiled.nullableSource.code.length));
  let values = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (++values > mostValues) return false;
    if (typeof node !== 'object' || node === null) continue;
    const children = Array.isArray(node) ? node : Object.values(node);
    // (pushed one by one: no answer-sized array spread into arguments)
    for (let index = 0; index < children.length && index <= mostValues; index++) stack.push(children[index]);
  }
  return true;
}

/** Answers checked on the thread so far (for tests that check the loop did not do it). */
export function answersRepairedOnThread(): number {
  return pool?.status().tasksDone ?? 0;
}
