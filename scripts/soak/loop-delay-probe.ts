/**
 * Loaded into the service process by the soak (node --import): samples the
 * event-loop delay and answers the soak's "sample" message over IPC with the
 * delay since the last one. Nothing of it is in the service itself.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoopDelaySample {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();

if (process.send) {
  process.on('message', (message) => {
    if (message !== 'sample') return;
    const sample: LoopDelaySample = {
      p50Ms: histogram.percentile(50) / 1e6,
      p99Ms: histogram.percentile(99) / 1e6,
      maxMs: histogram.max / 1e6,
    };
    histogram.reset();
    process.send?.({ loopDelay: sample });
  });
  // the channel must not keep the service alive on its own
  process.channel?.unref();
}
