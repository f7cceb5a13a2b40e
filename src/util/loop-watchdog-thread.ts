/**
 * The watchdog's thread (loop-watchdog.ts). It cannot use the main thread's
 * logger or streams (they need the blocked loop), so it writes its last log
 * line with a direct write and ends the process with SIGKILL.
 */
import { writeSync } from 'node:fs';
import { workerData } from 'node:worker_threads';

const { heartbeat, stallLimitMs } = workerData as { heartbeat: Float64Array; stallLimitMs: number };
const checkEveryMs = Math.max(50, Math.min(1000, Math.floor(stallLimitMs / 4)));
const now = () => performance.timeOrigin + performance.now();
let lastCheck = now();

setInterval(() => {
  const at = now();
  // This thread was late as well: the whole process was paused (SIGSTOP, a suspended VM), not just its loop.
  const paused = at - lastCheck > checkEveryMs + stallLimitMs / 2;
  lastCheck = at;
  const stalledMs = at - (heartbeat[0] ?? at);
  if (paused || stalledMs <= stallLimitMs) return;
  const line = JSON.stringify({
    level: 60,
    time: Date.now(),
    service: 'docshape',
    stalledMs: Math.round(stalledMs),
    msg: `event loop blocked for ${Math.round(stalledMs)} ms (over EVENT_LOOP_STALL_LIMIT_MS=${stallLimitMs}); ending the process so that it can be restarted`,
  });
  writeSync(1, `${line}\n`);
  process.kill(process.pid, 'SIGKILL');
}, checkEveryMs);
