import { expect } from 'chai';

/**
 * Probes /healthz every 20 ms while `work` runs and returns the slowest
 * answer in ms. With an in-process server the probe shares the event loop
 * with the server, so a probe sent after a stall began never sees it: the
 * gaps between 5 ms timer ticks are measured as well, and the larger counts.
 */
export async function slowestHealthzDuring(url: string, work: Promise<unknown>): Promise<{ slowest: number; probes: number }> {
  let settled = false;
  void work.then(
    () => (settled = true),
    () => (settled = true),
  );
  const longestGap = watchLoopGaps();
  let slowest = 0;
  let probes = 0;
  try {
    while (!settled) {
      const started = performance.now();
      const response = await fetch(`${url}/healthz`);
      expect(response.status).to.equal(200);
      slowest = Math.max(slowest, performance.now() - started);
      probes++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    slowest = Math.max(slowest, longestGap());
  }
  return { slowest, probes };
}

/** Starts 5 ms timer ticks; the returned function stops them and gives the longest gap between two, in ms: how long the event loop was blocked. */
export function watchLoopGaps(): () => number {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  return () => {
    clearInterval(ticker);
    return Math.max(longest, performance.now() - last);
  };
}

/** The longest event-loop stall while `work` runs. */
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
