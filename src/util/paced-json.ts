/**
 * JSON.parse in slices, for a text of millions of small values: JSON.parse of
 * a 2.7 MB schema of 100,000 properties held the event loop 150-250 ms in one
 * piece. The same value as JSON.parse (duplicate keys: the last wins in the
 * first one's place; "__proto__" an own data property; numbers by Number, so
 * -0 and 1e400 as JSON.parse reads them; escapes decoded to the same UTF-16
 * code units, lone surrogates kept) and the same SyntaxError messages as V8's
 * JSON.parse, at the same positions. No recursion: any depth JSON.parse takes.
 * Optionally refuses an object of more than `maxKeys` keys (JsonWidthError):
 * an object is made in slices, but whatever lists its keys later (Object.keys,
 * a walk, JSON.stringify, a copy to a thread) does so in one piece, and for
 * 100,000 keys that held the loop 45-165 ms.
 */
import type { PacedWork } from './paced.js';

/** Most tokens (values and keys) parsed in one slice: 1-4 ms of work (16,384 made slices of 20-35 ms on a busy machine). */
export const TOKENS_PER_SLICE = 4 * 1024;
/** Most characters read in one slice (a long string, a long number, whitespace). */
export const CHARS_PER_SLICE = 1024 * 1024;

/** JSON's own characters, the same in UTF-8 bytes and UTF-16 code units (http/json-body.ts scans bytes with them). */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
const COMMA = 0x2c;
export const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** What the parser expects next. */
type Expect = 'value' | 'first-item' | 'first-key' | 'key' | 'colon' | 'after-value' | 'end';

interface Frame {
  container: unknown[] | Record<string, unknown>;
  isArray: boolean;
  key: string;
  /** Keys read so far: V8 words a missing colon after the first one differently. */
  keys: number;
}

/** A string literal being read, kept across slices. */
interface OpenString {
  /** Where its text starts (after the opening quote), or where the last escape ended. */
  segment: number;
  /** The text so far: pieces joined every PIECES_PER_PART (a string of millions of escapes made 40 million pieces). */
  parts: string[];
  pieces: string[];
  isKey: boolean;
}

const ESCAPES: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };

/**
 * Characters of a slice one escape in a string uses up: an escape costs
 * 50-200 ns (its piece kept, the text before it cut out), a plain character
 * found by the native search ~4 ns. A slice of escapes alone is then ~16,000
 * of them, a few ms.
 */
export const ESCAPE_WEIGHT = 64;

/** What ends a plain run in a string literal: its closing quote, an escape, or a raw control character (an error). */
// eslint-disable-next-line no-control-regex
const STRING_SPECIAL = /["\\\u0000-\u001f]/;

/** Pieces of an escaped string joined into one part at a time. */
const PIECES_PER_PART = 4096;

/** Whole texts V8 names in its error rather than a token of them. */
const SPECIAL_TEXTS = new Set(['undefined', 'NaN', 'Infinity', '[object Object]']);

/** An object of more keys than the parser was asked to take; `position` is the key past the limit. */
export class JsonWidthError extends Error {
  constructor(
    readonly maxKeys: number,
    readonly position: number,
  ) {
    super(`an object has more than ${maxKeys} keys (at position ${position})`);
    this.name = 'JsonWidthError';
  }
}

/** JSON's four whitespace characters; undefined (past the end of a buffer) is none. */
export function isJsonWhitespace(code: number | undefined): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}

/** Sets a key as JSON.parse does (CreateDataProperty): "__proto__" too is an own property, not the prototype. */
function setProperty(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/**
 * A resumable parser of one JSON text: `step` parses at most a slice's worth
 * and says whether the text is done; `tokens` and `position` count the work
 * (the tests check each slice's share by these counts).
 */
export class PacedJsonParser {
  /** Values, keys and container ends parsed so far: the work done. */
  tokens = 0;
  /** Characters read so far. */
  position = 0;
  private expect: Expect = 'value';
  private readonly stack: Frame[] = [];
  private root: unknown;
  private open: OpenString | undefined;
  /** Where the current slice must stop reading. */
  private charLimit = 0;

  constructor(
    private readonly text: string,
    private readonly maxKeys = Infinity,
  ) {}

  /** The parsed value, once `step` said done. */
  get value(): unknown {
    return this.root;
  }

  /** Parses up to `maxTokens` tokens and about `maxChars` characters; true when the whole text is parsed. Throws JSON.parse's SyntaxError. */
  step(maxTokens = TOKENS_PER_SLICE, maxChars = CHARS_PER_SLICE): boolean {
    const tokenLimit = this.tokens + maxTokens;
    this.charLimit = this.position + maxChars;
    const text = this.text;
    const length = text.length;
    if (this.open && !this.readString()) return false;
    while (this.tokens < tokenLimit) {
      const stop = Math.min(length, this.charLimit);
      let at = this.position;
      while (at < stop && isJsonWhitespace(text.charCodeAt(at))) at++;
      this.position = at;
      if (at >= stop && at < length) return false;
      if (this.expect === 'end') {
        if (at < length) throw new SyntaxError(`Unexpected non-whitespace character after JSON at position ${at}`);
        return true;
      }
      // NaN at the end: a value is then "Unexpected end", anything else V8's message for what was expected, at the end
      const code = text.charCodeAt(at);
      switch (this.expect) {
        case 'value':
        case 'first-item':
          if (this.expect === 'first-item' && code === CLOSE_BRACKET) {
            this.position = at + 1;
            this.close();
            break;
          }
          if (!this.readValue(code)) return false;
          break;
        case 'first-key':
        case 'key':
          if (code === QUOTE) {
            if (this.stack[this.stack.length - 1]!.keys >= this.maxKeys) throw new JsonWidthError(this.maxKeys, at);
            this.position = at + 1;
            this.open = { segment: at + 1, parts: [], pieces: [], isKey: true };
            if (!this.readString()) return false;
          } else if (this.expect === 'first-key' && code === CLOSE_BRACE) {
            this.position = at + 1;
            this.close();
          } else {
            throw this.error(this.expect === 'first-key' ? "Expected property name or '}'" : 'Expected double-quoted property name', at);
          }
          break;
        case 'colon':
          if (code !== COLON) throw this.stack[this.stack.length - 1]!.keys === 1 ? this.error("Expected ':' after property name", at) : this.unexpectedToken(code, at);
          this.position = at + 1;
          this.expect = 'value';
          break;
        case 'after-value': {
          const frame = this.stack[this.stack.length - 1]!;
          if (code === COMMA) {
            this.position = at + 1;
            this.expect = frame.isArray ? 'value' : 'key';
          } else if (code === (frame.isArray ? CLOSE_BRACKET : CLOSE_BRACE)) {
            this.position = at + 1;
            this.close();
          } else {
            throw this.error(frame.isArray ? "Expected ',' or ']' after array element" : "Expected ',' or '}' after property value", at);
          }
          break;
        }
      }
    }
    return false;
  }

  /** A value starting with `code` at the position: false when a long string or number did not end in this slice. */
  private readValue(code: number): boolean {
    const at = this.position;
    if (at >= this.text.length) throw this.endError();
    if (code === QUOTE) {
      this.position = at + 1;
      this.open = { segment: at + 1, parts: [], pieces: [], isKey: false };
      return this.readString();
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      this.tokens++;
      const isArray = code === OPEN_BRACKET;
      this.stack.push({ container: isArray ? [] : {}, isArray, key: '', keys: 0 });
      this.position = at + 1;
      this.expect = isArray ? 'first-item' : 'first-key';
      return true;
    }
    if (code === MINUS || isDigit(code)) {
      this.done(this.readNumber(at));
      return true;
    }
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (code !== word.charCodeAt(0)) continue;
      for (let i = 1; i < word.length; i++) {
        if (this.text.charCodeAt(at + i) !== word.charCodeAt(i)) throw this.unexpectedToken(this.text.charCodeAt(at + i), at + i);
      }
      this.position = at + word.length;
      this.done(value);
      return true;
    }
    throw this.unexpected(at);
  }

  /** A number by JSON's grammar, converted by Number as JSON.parse does. */
  private readNumber(start: number): number {
    const text = this.text;
    let at = start;
    if (text.charCodeAt(at) === MINUS) {
      at++;
      if (!isDigit(text.charCodeAt(at))) throw this.error('No number after minus sign', at);
    }
    if (text.charCodeAt(at) === ZERO) {
      at++;
      if (isDigit(text.charCodeAt(at))) throw this.error('Unexpected number', at);
    } else {
      while (isDigit(text.charCodeAt(at))) at++;
    }
    if (text.charCodeAt(at) === DOT) {
      at++;
      if (!isDigit(text.charCodeAt(at))) throw this.error('Unterminated fractional number', at);
      while (isDigit(text.charCodeAt(at))) at++;
    }
    const exponent = text.charCodeAt(at);
    if (exponent === 0x65 || exponent === 0x45) {
      at++;
      const sign = text.charCodeAt(at);
      if (sign === PLUS || sign === MINUS) at++;
      if (!isDigit(text.charCodeAt(at))) throw this.error('Exponent part is missing a number', at);
      while (isDigit(text.charCodeAt(at))) at++;
    }
    this.position = at;
    return Number(text.slice(start, at));
  }

  /**
   * Reads the open string literal on to its closing quote, or to the slice's
   * end (false). The plain runs between escapes are found by a native search
   * (a loop over each character cost 13-50 ns a character: 1 MB of base64
   * holding one escape took a slice 15-50 ms), and each escape uses up
   * ESCAPE_WEIGHT characters of the slice: a million escaped newlines in a
   * file's data held the loop 90-280 ms in one slice.
   */
  private readString(): boolean {
    const open = this.open!;
    const text = this.text;
    const length = text.length;
    let stop = Math.min(length, this.charLimit);
    let at = this.position;
    for (;;) {
      if (at >= stop) {
        if (at >= length) throw this.error('Unterminated string', at);
        this.position = at;
        return false;
      }
      // escapes in a row need no search
      if (text.charCodeAt(at) !== BACKSLASH) {
        const found = STRING_SPECIAL.exec(text.slice(at, stop));
        if (!found) {
          at = stop;
          continue;
        }
        at += found.index;
      }
      const code = text.charCodeAt(at);
      if (code === QUOTE) break;
      if (code < 0x20) throw this.error('Bad control character in string literal', at);
      // a backslash
      if (at + 1 >= length) throw this.endError();
      if (at > open.segment) open.pieces.push(text.slice(open.segment, at));
      if (open.pieces.length >= PIECES_PER_PART) open.parts.push(open.pieces.splice(0).join(''));
      const escape = text.charCodeAt(at + 1);
      if (escape === 0x75) {
        let unit = 0;
        for (let i = 2; i < 6; i++) {
          const digit = hexValue(text.charCodeAt(at + i));
          if (digit < 0) throw this.error('Bad Unicode escape', at + i);
          unit = unit * 16 + digit;
        }
        open.pieces.push(String.fromCharCode(unit));
        at += 6;
      } else {
        const decoded = ESCAPES[escape];
        if (decoded === undefined) throw this.error('Bad escaped character', at + 1);
        open.pieces.push(decoded);
        at += 2;
      }
      open.segment = at;
      this.charLimit -= ESCAPE_WEIGHT;
      stop = Math.max(at, Math.min(length, this.charLimit));
    }
    const last = text.slice(open.segment, at);
    const value = open.pieces.length === 0 && open.parts.length === 0 ? last : open.parts.join('') + open.pieces.join('') + last;
    this.open = undefined;
    this.position = at + 1;
    if (open.isKey) {
      this.tokens++;
      const frame = this.stack[this.stack.length - 1]!;
      frame.key = value;
      frame.keys++;
      this.expect = 'colon';
    } else {
      this.done(value);
    }
    return true;
  }

  /** A value is complete: it goes into its container, or is the result. */
  private done(value: unknown): void {
    this.tokens++;
    const frame = this.stack[this.stack.length - 1];
    if (!frame) {
      this.root = value;
      this.expect = 'end';
    } else {
      if (frame.isArray) (frame.container as unknown[]).push(value);
      else setProperty(frame.container as Record<string, unknown>, frame.key, value);
      this.expect = 'after-value';
    }
  }

  /** A container's end counts as a token of its own: 200,000 closing brackets in a row were read in one slice (70-90 ms). */
  private close(): void {
    const frame = this.stack.pop()!;
    this.done(frame.container);
  }

  private error(what: string, at: number): SyntaxError {
    return new SyntaxError(`${what} in JSON at position ${at}`);
  }

  /** V8 shows an excerpt of the text here; the position says more about a body of megabytes. */
  private unexpected(at: number): SyntaxError {
    if (SPECIAL_TEXTS.has(this.text)) return new SyntaxError(`"${this.text}" is not valid JSON`);
    return new SyntaxError(`Unexpected token '${this.text[at]}' in JSON at position ${at}`);
  }

  /** V8's words for a token where none of its kind may be. */
  private unexpectedToken(code: number, at: number): SyntaxError {
    if (at >= this.text.length) return this.endError();
    if (code === MINUS || isDigit(code)) return this.error('Unexpected number', at);
    if (code === QUOTE) return this.error('Unexpected string', at);
    return this.unexpected(at);
  }

  private endError(): SyntaxError {
    return new SyntaxError('Unexpected end of JSON input');
  }
}

/** JSON.parse(text) as paced work: one unit per slice (util/paced.ts's runPaced gives the loop back between them). */
export function* pacedJsonParse(text: string, maxKeys = Infinity, maxTokens = TOKENS_PER_SLICE, maxChars = CHARS_PER_SLICE): PacedWork<unknown> {
  const parser = new PacedJsonParser(text, maxKeys);
  while (!parser.step(maxTokens, maxChars)) yield;
  return parser.value;
}
