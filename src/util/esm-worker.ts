/**
 * Thread options for a Piscina pool whose task file is an ES module.
 * Piscina loads the file with require() and falls back to import(). With
 * Node's require(esm) (20.19 and later) a require() that meets the same
 * module still being loaded by import() in that thread aborts the whole
 * process ("FATAL ERROR: v8::Module::IsGraphAsync ... must be used on an
 * instantiated module"; once in a CI run, as a pool's thread started).
 * With require(esm) off in the pool's threads the require() fails at once
 * and every load goes through import(), which loads a module once however
 * often it is asked for.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

const NO_REQUIRE_ESM = '--no-experimental-require-module';

/** The flag is added only where this Node knows it: a Worker refuses a flag it does not know, and a Node without it has no require(esm) to turn off. */
export const ESM_WORKER_EXEC_ARGV: readonly string[] = process.allowedNodeEnvironmentFlags.has(NO_REQUIRE_ESM) ? [...process.execArgv, NO_REQUIRE_ESM] : [...process.execArgv];

/**
 * A pool of one thread for the ES-module task file `taskFile`, started by
 * its first task and ended `idleMs` after its last: for work that comes
 * seldom (a new schema, a large answer), so that no thread sits idle beside
 * the OCR's working memory.
 */
export function onDemandThread(taskFile: URL, idleMs: number): Piscina {
  const pool = new Piscina({ filename: fileURLToPath(taskFile), minThreads: 0, maxThreads: 1, idleTimeout: idleMs, concurrentTasksPerWorker: 1, execArgv: [...ESM_WORKER_EXEC_ARGV] });
  // a thread dying between tasks is replaced by Piscina; without a listener the 'error' event would end the process
  pool.on('error', () => undefined);
  return pool;
}
