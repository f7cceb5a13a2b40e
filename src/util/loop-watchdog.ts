/**
 * Ends the process when its event loop has been blocked for longer than a
 * limit. A blocked loop answers nothing (/healthz included), cannot fire the
 * request time limit and never handles SIGTERM; such a process is worth less
 * than a restart. The main thread writes a heartbeat into shared memory; a
 * worker thread, which keeps running while the main thread is stuck, checks it.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** How often the main thread beats; the limit is measured against the last beat. */
const HEARTBEAT_MS = 250;

export interface LoopWatchdog {
  stop(): Promise<void>;
}

/** Starts the watchdog; `stallLimitMs` 0 turns it off. */
export function startLoopWatchdog(stallLimitMs: number): LoopWatchdog | undefined {
  if (stallLimitMs <= 0) return undefined;
  const heartbeat = new Float64Array(new SharedArrayBuffer(8));
  const beat = () => {
    heartbeat[0] = performance.timeOrigin + performance.now();
  };
  beat();
  const timer = setInterval(beat, HEARTBEAT_MS);
  timer.unref();
  const thread = new Worker(fileURLToPath(new URL('./loop-watchdog-thread.js', import.meta.url)), {
    workerData: { heartbeat, stallLimitMs },
    // the watchdog needs none of the process's flags (e.g. --import preloads)
    execArgv: [],
  });
  thread.unref();
  // a failing watchdog must not take the service down with an unhandled 'error' event
  thread.on('error', () => undefined);
  return {
    stop: async () => {
      clearInterval(timer);
      await thread.terminate();
    },
  };
}
