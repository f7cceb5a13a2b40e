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

export function compileLinear(pattern: string): { test(text: string): boolean; toString(): string } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp:\s*/, '') : String(error);
    throw new UnsupportedPatternError(pattern, reason);
  }
  // Ajv caches compiled patterns per instance under toString(): it must differ per pattern, as RegExp's does.
  return { test: (text: string) => compiled.test(text), toString: () => `/${pattern}/u` };
}

/** Ajv's `code.regExp` option; `code` names it for Ajv's standalone output, which docshape does not use. */
export const linearRegExp: RegExpEngine = Object.assign(compileLinear, { code: 'linearRegExp' });
