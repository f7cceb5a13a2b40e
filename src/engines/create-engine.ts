import type { Config } from '../config.js';
import type { Engine } from '../extract/engine.js';
import { RulesEngine } from './rules/index.js';

/** The one place an engine is chosen from config. */
export function createEngine(config: Pick<Config, 'extractor'>): Engine {
  switch (config.extractor) {
    case 'rules':
      return new RulesEngine();
  }
}
