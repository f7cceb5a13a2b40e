import type { Engine } from '../extract/engine.js';
import { RulesEngine } from './rules/index.js';

const rules = new RulesEngine();

/**
 * The independent second reader of an answer, for its evidence: the rules
 * engine reads what a language model answered (in milliseconds, without a
 * model call); an answer of the rules engine itself has none.
 */
export function crossCheckerFor(engine: Engine): Engine | undefined {
  return engine.name === rules.name ? undefined : rules;
}
