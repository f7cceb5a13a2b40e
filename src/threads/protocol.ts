/**
 * What a pool's thread (task-thread.ts on the pool's side, serve-tasks.ts in
 * the thread) say to each other. Kept apart from both so neither imports the
 * other's runtime.
 */

/** The pool's own part of a thread's workerData, beside the data its tasks need. */
export interface PoolThreadData {
  /** What the thread's module reads with poolThreadData(). */
  data: unknown;
  /** Int32 slot holding the id of the task the pool gave up on (TaskControl.checkpoint reads it). */
  abandoned: SharedArrayBuffer;
}

/** The key of PoolThreadData in a pool thread's workerData: a module imported in any other thread serves nothing. */
export const POOL_THREAD_KEY = 'docshapePoolThread';

export type ToThread = { type: 'task'; id: number; task: unknown } | { type: 'stop' };

/** An error as it crosses: its class does not survive the structured clone. */
export interface ErrorData {
  name: string;
  message: string;
}

export type FromThread =
  | { type: 'ready' }
  /** permanent: a start that no retry can mend (a model file that cannot be used). */
  | { type: 'failed'; error: ErrorData; permanent: boolean }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'error'; id: number; error: ErrorData }
  | { type: 'abandoned'; id: number };

export function errorData(error: unknown): ErrorData {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}
