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
  /** Why probes failed (status, error or timeout) and what was in flight, the first 20. */
  failureReasons: string[];
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
  private readonly failureReasons: string[] = [];
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
      failureReasons: [...this.failureReasons],
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
      const failure = await this.once();
      const ok = failure === undefined;
      const ms = this.now() - started;
      if (ok) this.latencies.push(ms);
      else {
        this.failures++;
        if (this.failureReasons.length < 20) this.failureReasons.push(`${failure} after ${Math.round(ms)} ms, during: ${[...new Set([...before, ...this.inFlight()])].join(' | ') || 'nothing'}`);
      }
      if (ms > 100 || !ok) this.slow.push({ ms, at: Date.now(), during: [...new Set([...before, ...this.inFlight()])] });
      if (this.slow.length > 200) this.slow.sort((a, b) => b.ms - a.ms).splice(100);
      await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
    }
  }

  /** Undefined when /healthz answered 200, else why not. */
  private once(): Promise<string | undefined> {
    return new Promise((resolve) => {
      const started = this.now();
      // the timeout runs on this.now(), like the latency: a socket timer would fire on the runner's own stalls
      const watch = setInterval(() => {
        if (this.now() - started > this.timeoutMs) request.destroy(new Error('timeout'));
      }, 50);
      const settle = (failure: string | undefined) => {
        clearInterval(watch);
        resolve(failure);
      };
      const request = http.get(`${this.url()}/healthz`, { agent: this.agent }, (response) => {
        response.resume();
        response.on('end', () => settle(response.statusCode === 200 ? undefined : `status ${response.statusCode}`));
        response.on('error', (error) => settle(`response: ${error.message}`));
      });
      request.on('error', (error) => settle(`request: ${error.message}`));
    });
  }
}
