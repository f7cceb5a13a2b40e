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
  let last = performance.now();
  let maxGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 5);
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
    clearInterval(ticker);
  }
  return { slowest: Math.max(slowest, maxGap), probes };
}
