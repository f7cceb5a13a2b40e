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
