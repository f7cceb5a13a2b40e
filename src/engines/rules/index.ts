/**
 * The rules engine: extraction without a language model, driven only by the
 * caller's schema (property names, descriptions, types, formats, enums) and
 * the document's words and positions. It never invents a value: what it
 * cannot find is null. Useful offline, as a baseline, and in tests.
 */
import type { Engine, EngineStatus, ExtractionInput } from '../../extract/engine.js';
import { viewSchema } from '../../extract/schema-view.js';
import { readLines } from './core/lines.js';
import { extractObject } from './objects.js';

export interface RulesEngineOptions {
  /** How to read 03/04/2024 when neither part exceeds 12 (finalize re-reads dates with its own setting). */
  dayFirst?: boolean;
}

export class RulesEngine implements Engine {
  readonly name = 'rules';
  private readonly dayFirst: boolean;

  constructor(options: RulesEngineOptions = {}) {
    this.dayFirst = options.dayFirst ?? true;
  }

  async extract(input: ExtractionInput): Promise<unknown> {
    input.signal.throwIfAborted();
    const lines = readLines(input.document, input.layoutText);
    const root = viewSchema(input.schema, input.schema);
    return extractObject(root, lines, { root: input.schema, dayFirst: this.dayFirst, signal: input.signal });
  }

  async status(): Promise<EngineStatus> {
    return { ready: true, detail: 'rules engine: labels, positions and tables; no model' };
  }

  async close(): Promise<void> {}
}
