/**
 * Asks /healthz every `intervalMs` on a connection of its own while the
 * corpus or the load runs, and keeps the latencies: the event loop is free
 * only if these stay short. A slow answer remembers what was in flight.
 */
import http from 'node:http';

export interface SlowProbe {
  ms: number;
  at: number;
  /** Labels of the work in flight when the probe was sent or answered. */
  during: string[];
}

export interface ProbeSummary {
  probes: number;
  failures: number;
  slowestMs: number;
  p50Ms: number;
  p99Ms: number;
  over100Ms: number;
  over1000Ms: number;
  slow: SlowProbe[];
}

export class HealthProbe {
  private readonly latencies: number[] = [];
  private readonly slow: SlowProbe[] = [];
  private failures = 0;
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    private url: () => string,
    private readonly inFlight: () => string[] = () => [],
    private readonly intervalMs = 50,
    private readonly timeoutMs = 5000,
    /** The clock latencies are read on: the runner passes its ClientClock's, which leaves out its own loop's stalls. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<ProbeSummary> {
    this.running = false;
    await this.loop;
    this.agent.destroy();
    return this.summary();
  }

  summary(): ProbeSummary {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return {
      probes: sorted.length,
      failures: this.failures,
      slowestMs: sorted[sorted.length - 1] ?? 0,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      over100Ms: sorted.filter((ms) => ms > 100).length,
      over1000Ms: sorted.filter((ms) => ms > 1000).length,
      slow: [...this.slow].sort((a, b) => b.ms - a.ms).slice(0, 20),
    };
  }

  private async run(): Promise<void> {
    while (this.running) {
      const before = this.inFlight();
      const started = this.now();
      const ok = await this.once();
      const ms = this.now() - started;
      if (ok) this.latencies.push(ms);
      else this.failures++;
      if (ms > 100 || !ok) this.slow.push({ ms, at: Date.now(), during: [...new Set([...before, ...this.inFlight()])] });
      if (this.slow.length > 200) this.slow.sort((a, b) => b.ms - a.ms).splice(100);
      await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
    }
  }

  private once(): Promise<boolean> {
    return new Promise((resolve) => {
      const request = http.get(`${this.url()}/healthz`, { agent: this.agent, timeout: this.timeoutMs }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode === 200));
        response.on('error', () => resolve(false));
      });
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => resolve(false));
    });
  }
}
