import { expect } from 'chai';
import { collectGarbage } from '../../src/util/collect-garbage.js';

/** What the main thread sleeps on between reads: made once, so that it is not itself counted and freed between them. */
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * 64 MB of buffers, referred to by no frame once this returns; the process's buffer memory while they were
 * held. (Not checked against a count taken earlier: on a busy CI machine V8's helper thread swept another
 * test's garbage between the two reads, and the difference came out below 64 MB.)
 */
function allocateAndDrop(): number {
  const buffers = Array.from({ length: 8 }, () => new Uint8Array(8 << 20).fill(1));
  expect(buffers).to.have.length(8);
  return process.memoryUsage().arrayBuffers;
}

/**
 * Buffer memory held beyond `before`, once V8's helper thread has swept what the last collection freed:
 * CI on a busy machine once read all 64 MB still held right after it. The main thread sleeps between
 * reads (Atomics.wait) and runs no JavaScript, so nothing else can start a collection meanwhile.
 */
function heldBeyondAfterSweeping(before: number): number {
  for (let wait = 0; wait < 200 && process.memoryUsage().arrayBuffers - before >= 8 << 20; wait++) Atomics.wait(sleeper, 0, 0, 5);
  return process.memoryUsage().arrayBuffers - before;
}

/** The process's buffer memory once it stops changing: V8's helper thread has swept what a collection freed. */
function settledArrayBuffers(): number {
  let last = -1;
  for (let wait = 0; wait < 200 && process.memoryUsage().arrayBuffers !== last; wait++) {
    last = process.memoryUsage().arrayBuffers;
    Atomics.wait(sleeper, 0, 0, 5);
  }
  return process.memoryUsage().arrayBuffers;
}

describe('collectGarbage', () => {
  it('frees buffers nothing refers to any more each time it is called, without waiting for more allocation', () => {
    for (let round = 0; round < 2; round++) {
      collectGarbage();
      // what that collection freed is swept too before the count starts, or its sweep lowers the count later
      const before = settledArrayBuffers();
      const whileHeld = allocateAndDrop();
      expect(whileHeld - before, `round ${round}: allocated`).to.be.above(32 << 20);
      collectGarbage();
      const heldAfter = heldBeyondAfterSweeping(before);
      expect(heldAfter, `round ${round}`).to.be.below(8 << 20);
      expect(whileHeld - before - heldAfter, `round ${round}: freed`).to.be.above(32 << 20);
    }
  });
});
