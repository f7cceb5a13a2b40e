/**
 * Work that grows with what a caller sends and runs on the event loop, in
 * turns. The work is written once, as a generator that yields after each
 * unit (a list item, an answer's value, a document line); `runSync` runs it
 * through, `runPaced` gives the loop back (setImmediate) every
 * `unitsPerTurn` units, so that /healthz and other requests wait at most one
 * turn whatever the size of the answer.
 */

/** A step of paced work: yields (nothing) after each unit, returns the result. */
export type PacedWork<T> = Generator<void, T, void>;

/** The whole work at once, for small inputs and for callers that cannot wait. */
export function runSync<T>(work: PacedWork<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Units of work per turn by default: a list item or a value of an answer costs tens of microseconds. */
export const UNITS_PER_TURN = 200;
/** A turn also ends after this long, for units that cost more than usual (a machine at full load, a long document to compare a value with). */
export const MAX_TURN_MS = 10;

/**
 * Counts units and gives the loop back every `unitsPerTurn` of them, or
 * sooner when a turn has lasted `maxTurnMs`; one pacer can run several
 * pieces of work in a row.
 */
export class Pacer {
  /** Times the loop was given back so far. */
  turns = 0;
  /** Units done so far. */
  units = 0;
  /** The most units done in one turn. */
  longestTurn = 0;
  private sinceTurn = 0;
  private turnStarted = performance.now();

  constructor(
    private readonly signal?: AbortSignal,
    private readonly unitsPerTurn = UNITS_PER_TURN,
    private readonly maxTurnMs = MAX_TURN_MS,
  ) {}

  /** After one unit: a promise when it is time to give the loop back, else undefined (no microtask per unit). */
  step(): Promise<void> | undefined {
    this.units++;
    this.longestTurn = Math.max(this.longestTurn, ++this.sinceTurn);
    if (this.sinceTurn < this.unitsPerTurn && performance.now() - this.turnStarted < this.maxTurnMs) return undefined;
    this.sinceTurn = 0;
    this.turns++;
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.turnStarted = performance.now();
      this.signal?.throwIfAborted();
    });
  }
}

/** The work in turns of at most the pacer's `unitsPerTurn` units; an aborted signal ends it at the next turn. */
export async function runPaced<T>(work: PacedWork<T>, pacer: Pacer): Promise<T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    const turn = pacer.step();
    if (turn) await turn;
  }
}

/** Bytes copied in one unit of copyingBytes: 1-4 ms of the loop. */
export const COPY_BYTES_PER_UNIT = 4 * 1024 * 1024;

/**
 * A copy of `bytes` in an ordinary buffer of its own, one postMessage can
 * move to a thread without copying again, made a unit of `bytesPerUnit` at a
 * time. A buffer made by a native addon (sharp's) is copied by postMessage
 * even when listed to be moved: a 35 MB OCR raster so held the loop 30-60 ms.
 */
export function* copyingBytes(bytes: Uint8Array, bytesPerUnit = COPY_BYTES_PER_UNIT): PacedWork<Uint8Array<ArrayBuffer>> {
  const copy = new Uint8Array(bytes.length);
  yield* copyingInto(copy, 0, bytes, bytesPerUnit);
  return copy;
}

/** `bytes` copied into `target` from `offset` on, `bytesPerUnit` a unit (a buffer made for a thread: copyingBytes, tesseract's shared image). */
export function* copyingInto(target: Uint8Array, offset: number, bytes: Uint8Array, bytesPerUnit = COPY_BYTES_PER_UNIT): PacedWork<void> {
  for (let at = 0; at < bytes.length; at += bytesPerUnit) {
    target.set(bytes.subarray(at, at + bytesPerUnit), offset + at);
    yield;
  }
}

/**
 * JSON.stringify(value) in steps: the text of an answer of 5,000 rows with
 * evidence took the loop 0.15 s in one call. Plain JSON data (what an answer
 * is); a value with toJSON (a Date) is written by JSON.stringify itself, as
 * is every number, every string up to STRING_CHARS_PER_UNIT characters (a
 * longer one a piece per unit) and every small container (a row, a value's
 * evidence: at most SMALL_NODES values and SMALL_CHARS characters) in one
 * unit. The pieces are joined a chunk at a time as they come: one join of
 * the millions of pieces of 5,000 rows with evidence held the loop 40-90 ms.
 */
export function* jsonText(value: unknown): PacedWork<string> {
  const text = new ChunkedText();
  yield* writeJson(value, text.write);
  return text.joined();
}

/** Pieces joined into one chunk at a time: a join of this many short pieces takes tens of microseconds. */
const PIECES_PER_CHUNK = 4096;

/** A text written piece by piece, held as a few chunks rather than millions of pieces. */
class ChunkedText {
  private readonly chunks: string[] = [];
  private pieces: string[] = [];

  readonly write = (piece: string): void => {
    this.pieces.push(piece);
    if (this.pieces.length < PIECES_PER_CHUNK) return;
    this.chunks.push(this.pieces.join(''));
    this.pieces = [];
  };

  /** The whole text: one copy of its characters. */
  joined(): string {
    return this.chunks.concat(this.pieces).join('');
  }
}

/**
 * The length of jsonText(value), counted without making the text: joining
 * two million pieces of a schema's enum held the loop 0.1 s in one call.
 */
export function* jsonLength(value: unknown): PacedWork<number> {
  let length = 0;
  yield* writeJson(value, (text) => (length += text.length));
  return length;
}

/**
 * JSON.stringify(value) as pieces handed to `write`, a unit per value (a long
 * string a unit per piece), so that a caller can stop as soon as it has seen
 * enough (util/json-fits.ts). False when the value writes nothing (undefined).
 */
export function jsonPieces(value: unknown, write: (text: string) => void): PacedWork<boolean> {
  return writeJson(value, write);
}

/** What writeJson makes of a value: JSON.stringify's text for a leaf (undefined: written as nothing), or CONTAINER to walk. */
const CONTAINER = Symbol('container');

/** A long string is written this many characters a unit: an 8,000,000-character schema string held the loop 20 ms in one JSON.stringify. */
export const STRING_CHARS_PER_UNIT = 16 * 1024;

/** A long string's own marker: written in pieces by writeString, never stringified whole. */
const LONG_STRING = Symbol('long string');

function leafText(value: unknown): string | undefined | typeof CONTAINER | typeof LONG_STRING {
  if (typeof value === 'string' && value.length > STRING_CHARS_PER_UNIT) return LONG_STRING;
  if (value === null || typeof value !== 'object' || hasToJson(value) || isSmall(value)) return JSON.stringify(value) as string | undefined;
  return CONTAINER;
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** Values (containers, members, items) a container written in one unit may hold: a row of an answer, a value's evidence. */
export const SMALL_NODES = 64;
/** Characters of strings and keys a container written in one unit may hold. */
export const SMALL_CHARS = STRING_CHARS_PER_UNIT;

/**
 * Whether `container` is small enough for one JSON.stringify to write it as
 * one unit: at most SMALL_NODES values and SMALL_CHARS characters, counted
 * only until either is passed (a container that is not small costs this
 * check SMALL_NODES values at most, beyond listing its keys).
 */
function isSmall(container: object): boolean {
  let nodes = 0;
  let chars = 0;
  const fits = (value: unknown): boolean => {
    if (++nodes > SMALL_NODES) return false;
    if (typeof value === 'string') return (chars += value.length) <= SMALL_CHARS;
    if (value === null || typeof value !== 'object' || hasToJson(value)) return true;
    if (Array.isArray(value)) {
      if (value.length > SMALL_NODES) return false;
      for (let index = 0; index < value.length; index++) if (!fits(value[index])) return false;
      return true;
    }
    const keys = Object.keys(value);
    if (keys.length > SMALL_NODES) return false;
    for (const key of keys) {
      if ((chars += key.length) > SMALL_CHARS || !fits((value as Record<string, unknown>)[key])) return false;
    }
    return true;
  };
  return fits(container);
}

/**
 * JSON.stringify(text) a piece of STRING_CHARS_PER_UNIT characters a unit.
 * JSON.stringify escapes a character at a time, so the pieces' texts joined
 * are the whole's, as long as no piece ends between the two halves of a
 * surrogate pair (each half alone would be escaped as a lone surrogate).
 */
function* writeString(text: string, write: (text: string) => void): Generator<void, void, void> {
  write('"');
  for (let from = 0; from < text.length; ) {
    let to = Math.min(text.length, from + STRING_CHARS_PER_UNIT);
    if (to < text.length && isHighSurrogate(text.charCodeAt(to - 1)) && isLowSurrogate(text.charCodeAt(to))) to++;
    write(JSON.stringify(text.slice(from, to)).slice(1, -1));
    from = to;
    yield;
  }
  write('"');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** A value that is no container, written (`leaf`: its leafText); one unit, or a unit per piece of a long string. */
function* writeLeaf(value: unknown, leaf: string | typeof LONG_STRING, write: (text: string) => void): Generator<void, void, void> {
  if (leaf === LONG_STRING) return yield* writeString(value as string, write);
  write(leaf);
  yield;
}

/** Writes `value` as JSON.stringify would in a list, piece by piece; false when it writes nothing (undefined, a function, a symbol). */
function* writeJson(value: unknown, write: (text: string) => void): Generator<void, boolean, void> {
  const leaf = leafText(value);
  if (leaf === undefined) return false;
  if (leaf === CONTAINER) yield* writeContainer(value as object, write);
  else yield* writeLeaf(value, leaf, write);
  return true;
}

function* writeContainer(value: object, write: (text: string) => void): Generator<void, void, void> {
  if (Array.isArray(value)) {
    write('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) write(',');
      if (!(yield* writeJson(value[index], write))) write('null');
    }
    write(']');
    return;
  }
  write('{');
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    const leaf = leafText(item);
    if (leaf === undefined) continue; // a member JSON.stringify leaves out
    if (!first) write(',');
    first = false;
    // a key can be as long as a value (a property named with 8,000,000 characters)
    if (key.length > STRING_CHARS_PER_UNIT) yield* writeString(key, write);
    else write(JSON.stringify(key));
    write(':');
    if (leaf === CONTAINER) yield* writeContainer(item as object, write);
    else yield* writeLeaf(item, leaf, write);
  }
  write('}');
}
