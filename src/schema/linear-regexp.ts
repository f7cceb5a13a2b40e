/**
 * The regular-expression engine Ajv uses for a caller's `pattern` and
 * `patternProperties`. JavaScript's own RegExp backtracks: `^(a+)+$` against
 * forty `a`s and a `!` runs for minutes on the event loop, and no timeout or
 * signal handler can interrupt it. RE2 (here its pure-JS port re2js, so
 * nothing native has to build on install) matches in time linear in the text.
 * It has no lookarounds or backreferences; a pattern that needs them is
 * refused as a 400 naming the pattern, instead of being run unsafely.
 */
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';
import type { PacedWork } from '../util/paced.js';

/** A pattern RE2 cannot run; schema-guards.ts names where it sits in the caller's schema. */
export class UnsupportedPatternError extends Error {
  constructor(pattern: string, reason: string) {
    const shown = pattern.length > 80 ? `${pattern.slice(0, 77)}...` : pattern;
    super(
      `"${shown}" cannot be used (${reason}): docshape runs patterns with a linear-time engine (RE2) ` +
        'so that no pattern can stall the service, and it has no lookarounds (?=, ?!, ?<=, ?<!) or backreferences (\\1)',
    );
    this.name = 'UnsupportedPatternError';
  }
}

/** A pattern compiled by RE2; `programSize` counts its instructions (counted repeats such as {1,100} are written out). */
export interface LinearPattern {
  test(text: string): boolean;
  toString(): string;
  programSize: number;
}

export function compileLinear(pattern: string): LinearPattern {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp:\s*/, '') : String(error);
    throw new UnsupportedPatternError(pattern, reason);
  }
  return { test: (text: string) => compiled.test(text), toString: () => patternKey(pattern), programSize: compiled.programSize() };
}

/** Ajv caches compiled patterns per instance under toString(): it must differ per pattern, as RegExp's does. */
function patternKey(pattern: string): string {
  return `/${pattern}/u`;
}

/** The module a generated validator's source requires for its pattern engine (validator-source.ts provides it). */
export const PATTERN_ENGINE_MODULE = 'docshape/linear-regexp';

/**
 * Ajv's `code.regExp` option where validators are generated as source (the
 * schema-compile thread). A caller's patterns were compiled and measured by
 * checkPatterns already and run where the source is instantiated, so here
 * they compile only if tested: the meta-schema's own patterns are, when a
 * schema is checked against it. `code` is what the source calls instead.
 */
export const generatedLinearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    let compiled: LinearPattern | undefined;
    return { toString: () => patternKey(pattern), test: (text: string) => (compiled ??= compileLinear(pattern)).test(text) };
  },
  { code: `require(${JSON.stringify(PATTERN_ENGINE_MODULE)})` },
);

/**
 * One compiled schema's patterns, for its validators on the event loop: each
 * is compiled once, in turns before the validators first run (`compiling`),
 * or else at its first test. A pattern of up to MAX_PATTERN_PROGRAM
 * instructions took up to ~50 ms to compile; compiling all of a schema's at
 * once would hold the loop for their sum.
 */
export class SchemaPatterns {
  private readonly compiled = new Map<string, LinearPattern>();

  /** The engine the generated source calls: a pattern that compiles when first tested. */
  readonly engine = (pattern: string): Pick<LinearPattern, 'test' | 'toString'> => ({
    test: (text: string) => this.compiledPattern(pattern).test(text),
    toString: () => patternKey(pattern),
  });

  private compiledPattern(pattern: string): LinearPattern {
    let compiled = this.compiled.get(pattern);
    if (!compiled) {
      compiled = compileLinear(pattern);
      this.compiled.set(pattern, compiled);
    }
    return compiled;
  }

  /** Compiles `patterns`, one unit each. */
  *compiling(patterns: readonly string[]): PacedWork<void> {
    for (const pattern of patterns) {
      this.compiledPattern(pattern);
      yield;
    }
  }

  /** Patterns compiled so far. */
  get size(): number {
    return this.compiled.size;
  }
}
