import { expect } from 'chai';
import { mainThreadCpuMs } from './cpu-time.js';

/**
 * How long the event loop was held, measured so that a busy machine does not
 * change it: a 5 ms timer reads the main thread's CPU time at every tick, and
 * the most CPU time spent between two ticks is the longest stretch the loop
 * worked without coming back to its timers (a /healthz request waits at most
 * that long for its turn). Time the operating system gave to other processes
 * is not counted, as it is in a wall-clock gap. Where the platform keeps no
 * per-thread CPU time (not Linux), wall-clock gaps stand in.
 * Returns a function that stops the ticks and gives the longest stall in ms.
 */
export function watchLoopGaps(): () => number {
  const clock = mainThreadCpuMs() === undefined ? () => performance.now() : () => mainThreadCpuMs()!;
  let last = clock();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = clock();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  return () => {
    clearInterval(ticker);
    return Math.max(longest, clock() - last);
  };
}

/** The longest event-loop stall (see watchLoopGaps) while `work` runs. */
export async function longestStall(work: () => Promise<unknown>): Promise<number> {
  const stop = watchLoopGaps();
  try {
    await work();
  } catch (error) {
    stop();
    throw error;
  }
  return stop();
}

/**
 * Asks /healthz every 20 ms while `work` runs (every answer must be a 200)
 * and gives the longest event-loop stall meanwhile (see watchLoopGaps): with
 * an in-process server the probe shares the loop with the server, so a probe
 * waits as long as the loop is held.
 */
export async function healthzDuring(url: string, work: Promise<unknown>): Promise<{ longestStallMs: number; probes: number }> {
  let settled = false;
  void work.then(
    () => (settled = true),
    () => (settled = true),
  );
  const stop = watchLoopGaps();
  let probes = 0;
  let longestStallMs = 0;
  try {
    while (!settled) {
      const response = await fetch(`${url}/healthz`);
      expect(response.status).to.equal(200);
      probes++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    longestStallMs = stop();
  }
  return { longestStallMs, probes };
}

/**
 * The least of `attempts` longest stalls, each measured while `work()` runs
 * with /healthz asked throughout (healthzDuring). A stall the code under test
 * causes is there every time; one that a busy machine adds to a garbage
 * collection (its helper threads starved, the main thread does the marking)
 * comes now and then (a full run at load ~6 once measured 103 ms on a check
 * that passes alone).
 * `check` runs on each attempt's answer.
 */
export async function leastStallDuring<T>(url: string, attempts: number, work: () => Promise<T>, check: (answer: T) => void): Promise<number> {
  let least = Infinity;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const running = work();
    const { longestStallMs } = await healthzDuring(url, running);
    check(await running);
    least = Math.min(least, longestStallMs);
  }
  return least;
}

/** The longest event-loop stall while a request ran, and the CPU time the loop spent in all meanwhile (both in ms). */
export interface LoopShare<T> {
  answer: T;
  longestStallMs: number;
  loopMs: number;
}

/**
 * Runs `send` (a request to an in-process server) with /healthz asked
 * throughout (healthzDuring), and measures the loop's CPU time over it on
 * the same clock as the stalls: a loop that gives way in turns holds it a
 * small part of the whole at a time, one piece of work nearly all of it.
 * `send` should read the answer as bytes and leave parsing them to the
 * caller, after: a client's JSON.parse of thousands of rows is no stall of
 * the server's.
 */
export async function loopShareOf<T>(url: string, send: () => Promise<T>): Promise<LoopShare<T>> {
  const clock = mainThreadCpuMs() === undefined ? () => performance.now() : () => mainThreadCpuMs()!;
  const started = clock();
  const running = send();
  const { longestStallMs } = await healthzDuring(url, running);
  const answer = await running;
  return { answer, longestStallMs, loopMs: clock() - started };
}

/**
 * loopShareOf, once more when the first run's longest stall is not below
 * `share` of the loop's time: a garbage collection that a busy machine
 * drags out (its helper threads starved) can land in any one run, while a
 * stall the code under test causes is there every time. The run with the
 * smaller share.
 */
export async function leastLoopShare<T>(url: string, share: number, send: () => Promise<T>): Promise<LoopShare<T>> {
  const first = await loopShareOf(url, send);
  if (first.longestStallMs < share * first.loopMs) return first;
  const second = await loopShareOf(url, send);
  return second.longestStallMs / second.loopMs < first.longestStallMs / first.loopMs ? second : first;
}
