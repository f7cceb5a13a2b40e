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
const NO_REQUIRE_ESM = '--no-experimental-require-module';

/** The flag is added only where this Node knows it: a Worker refuses a flag it does not know, and a Node without it has no require(esm) to turn off. */
export const ESM_WORKER_EXEC_ARGV: readonly string[] = process.allowedNodeEnvironmentFlags.has(NO_REQUIRE_ESM) ? [...process.execArgv, NO_REQUIRE_ESM] : [...process.execArgv];
