/**
 * The thread new caller schemas are compiled on (schema-compile-worker.ts).
 * Generating a validator took the event loop 0.5-1 ms per property (150
 * properties: 80-230 ms; a pattern with counted repeats alone up to 0.5 s),
 * so /healthz waited for as long. One thread, started for a new schema and
 * ended 5 s after the last: a schema is compiled once and then cached
 * (schema.ts), so the thread is idle nearly always, and its ~20 MB of RSS
 * would otherwise sit beside the OCR's working memory at the service's peak.
 * A new schema after that pays the thread's start (~0.1-0.3 s, off the loop).
 */
import { ThreadPool } from '../threads/pool.js';
import { taskThreads } from '../threads/task-thread.js';
import type { SchemaCompileReply, SchemaCompileTask } from './schema-compile-worker.js';

const IDLE_THREAD_EXIT_MS = 5_000;

let pool: ThreadPool<SchemaCompileTask, SchemaCompileReply> | undefined;

function compilePool(): ThreadPool<SchemaCompileTask, SchemaCompileReply> {
  pool ??= new ThreadPool({
    label: 'schema-compile',
    start: taskThreads(new URL('./schema-compile-worker.js', import.meta.url)),
    maxThreads: 1,
    idleMs: IDLE_THREAD_EXIT_MS,
    // requests that send the same schema share its compile (schema.ts): none gives it up alone
    runningAbort: 'wait',
  });
  return pool;
}

/** Runs the task on the thread. Not abortable: requests that send the same schema share its compile (schema.ts). */
export function compileOnThread(task: SchemaCompileTask): Promise<SchemaCompileReply> {
  return compilePool().run(task);
}

/** Schemas compiled on the thread so far (for tests that check the loop did not do it). */
export function schemasCompiledOnThread(): number {
  return pool?.status().tasksDone ?? 0;
}
