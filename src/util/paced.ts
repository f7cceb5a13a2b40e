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
  for (let at = 0; at < bytes.length; at += bytesPerUnit) {
    copy.set(bytes.subarray(at, at + bytesPerUnit), at);
    yield;
  }
  return copy;
}

/**
 * JSON.stringify(value) in steps (one per value written): the text of an
 * answer of 5,000 rows with evidence took the loop 0.15 s in one call.
 * Plain JSON data (what an answer is); a value with toJSON (a Date) is
 * written by JSON.stringify itself, as is every string and number.
 */
export function* jsonText(value: unknown): PacedWork<string> {
  const parts: string[] = [];
  yield* writeJson(value, (text) => parts.push(text));
  return parts.join('');
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

/** What writeJson makes of a value: JSON.stringify's text for a leaf (undefined: written as nothing), or CONTAINER to walk. */
const CONTAINER = Symbol('container');

function leafText(value: unknown): string | undefined | typeof CONTAINER {
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value) as string | undefined;
  return CONTAINER;
}

/** Writes `value` as JSON.stringify would in a list, piece by piece; false when it writes nothing (undefined, a function, a symbol). */
function* writeJson(value: unknown, write: (text: string) => void): Generator<void, boolean, void> {
  const leaf = leafText(value);
  if (leaf === undefined) return false;
  if (leaf === CONTAINER) yield* writeContainer(value as object, write);
  else {
    write(leaf);
    yield;
  }
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
    write(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (leaf === CONTAINER) yield* writeContainer(item as object, write);
    else {
      write(leaf);
      yield;
    }
  }
  write('}');
}
