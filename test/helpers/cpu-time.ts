/**
 * CPU time, which other processes on the machine do not inflate the way they
 * inflate wall-clock time: tests that judge how much work something did, or
 * how long it kept the event loop, count CPU milliseconds.
 */
import { readFileSync } from 'node:fs';

/** CPU time (user + system, every thread of this process) in ms. */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The CPU time of one call of `work` (every thread of this process), in ms. */
export async function cpuMsOf(work: () => unknown): Promise<number> {
  const before = processCpuMs();
  await work();
  return processCpuMs() - before;
}

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/**
 * CPU time of this process's main thread (the event loop's) in ms, from
 * Linux's per-thread accounting (nanoseconds); undefined where there is none.
 */
export function mainThreadCpuMs(): number | undefined {
  try {
    return Number(readFileSync(SCHEDSTAT, 'latin1').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}
