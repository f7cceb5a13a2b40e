/**
 * Complexity guards that do not depend on how busy the machine is. A test
 * times `work(n)` and `work(4n)` side by side in one run, in CPU time of this
 * process (time other processes take from it is not counted), best of a few
 * rounds each, and judges the growth: a linear piece of work grows about 4
 * times (less with fixed costs), a quadratic one 16 times.
 */
import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { cpuMsOf } from './cpu-time.js';

/**
 * A full garbage collection before each measurement, so that one does not
 * fall inside the small or the large one by chance: in a whole test run the
 * heap is large and a major collection costs more than the work measured.
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Above this, `work(4n)` cost more than twice what linear growth allows: 8 lies halfway (geometrically) between linear 4 and quadratic 16. */
export const LINEAR_GROWTH_LIMIT = 8;

export interface Growth {
  n: number;
  /** Best CPU ms of `work(n)` and of `work(4n)`. */
  small: number;
  large: number;
  ratio: number;
}

/** Enough CPU time for one measurement that timer resolution and a stray garbage collection do not decide the ratio. */
const MEASURED_MS = 25;

/**
 * `work(n)` once to warm up (compiled code, caches) and once more to see how
 * many calls make MEASURED_MS; then that many calls of `work(n)` and of `work(4n)`,
 * alternately `rounds` times, the best of each.
 */
export async function cpuGrowth(work: (n: number) => unknown, n: number, rounds = 3): Promise<Growth> {
  await work(n);
  const once = await cpuMsOf(() => work(n));
  const calls = Math.min(1000, Math.max(1, Math.ceil(MEASURED_MS / Math.max(once, 0.01))));
  const timed = (size: number) => {
    collectGarbage();
    return cpuMsOf(async () => {
      for (let call = 0; call < calls; call++) await work(size);
    });
  };
  let small = Infinity;
  let large = Infinity;
  for (let round = 0; round < rounds; round++) {
    small = Math.min(small, await timed(n));
    large = Math.min(large, await timed(4 * n));
  }
  return { n, small, large, ratio: large / small };
}

/** Fails when `work(4n)` costs more than LINEAR_GROWTH_LIMIT times `work(n)`. */
export async function expectLinearGrowth(work: (n: number) => unknown, n: number, rounds = 3): Promise<Growth> {
  const growth = await cpuGrowth(work, n, rounds);
  expect(growth.ratio, `CPU ${growth.small.toFixed(0)} ms for n = ${n}, ${growth.large.toFixed(0)} ms for 4n`).to.be.below(LINEAR_GROWTH_LIMIT);
  return growth;
}
