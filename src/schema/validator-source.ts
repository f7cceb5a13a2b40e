/**
 * Makes validator functions from the source Ajv generated (ajv-dialects.ts),
 * on the thread that validates. Evaluating the source costs the loop a few
 * milliseconds where generating it took hundreds (0.5-1 ms per property);
 * the source only requires Ajv's runtime helpers, ajv-formats' formats and
 * the schema's own pattern engine, and nothing else is given to it.
 */
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { PATTERN_ENGINE_MODULE, type SchemaPatterns } from './linear-regexp.js';

const requireFromHere = createRequire(import.meta.url);

/** What generated validator source may require: Ajv's runtime (equal, ucs2length, uri, validation_error, ...) and the formats. */
function allowedModule(name: string): boolean {
  return /^ajv\/dist\/runtime\/[a-z0-9_]+$/.test(name) || name === 'ajv-formats/dist/formats';
}

/** The validator `source` (standaloneCode's CommonJS module body) defines, its patterns run by `patterns`. */
export function validatorFromSource(source: string, patterns: SchemaPatterns): ValidateFunction {
  const requireForSource = (name: string): unknown => {
    if (name === PATTERN_ENGINE_MODULE) return patterns.engine;
    if (!allowedModule(name)) throw new Error(`generated validator source asked for "${name}"`);
    return requireFromHere(name);
  };
  const module: { exports: unknown } = { exports: {} };
  // as Ajv itself makes its validators (new Function), from the same generated code
  new Function('module', 'exports', 'require', source)(module, module.exports, requireForSource);
  if (typeof module.exports !== 'function') throw new Error('generated validator source did not define a function');
  return module.exports as ValidateFunction;
}
