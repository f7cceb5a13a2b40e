/**
 * Whether JSON.stringify(value) would take at most `limit` UTF-8 bytes,
 * found by writing the value's JSON piece by piece (util/paced.ts) only until
 * the limit is passed: bounded work whatever the value's size (a caller's
 * 40 MB metadata was stringified on the event loop just to be refused).
 * Plain JSON data: a value with toJSON is measured by JSON.stringify itself.
 */
import { jsonPieces } from './paced.js';

export function jsonFitsIn(value: unknown, limit: number): boolean {
  let bytes = 0;
  const work = jsonPieces(value, (text) => (bytes += Buffer.byteLength(text)));
  for (let step = work.next(); ; step = work.next()) {
    if (bytes > limit) return false;
    // a value JSON.stringify writes nothing for is "null" in a list, as JSON.stringify([undefined]) says
    if (step.done) return bytes + (step.value ? 0 : 4) <= limit;
  }
}
