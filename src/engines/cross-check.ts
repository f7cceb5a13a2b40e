import type { Engine } from '../schema/engine.js';
import { ThreadedRulesEngine } from './rules/threaded.js';

/**
 * The independent second reader of an answer, for its evidence: the rules
 * engine reads what a language model answered (without a model call), on
 * threads of its own so that a long document does not block the event loop;
 * an answer of the rules engine itself has none.
 */
export function crossCheckerFor(engine: Engine, threads: number): Engine | undefined {
  return engine.name === 'rules' ? undefined : new ThreadedRulesEngine(threads, { onDemand: true });
}
