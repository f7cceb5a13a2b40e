/**
 * Time as the fuzz client itself could use it. Cases are generated on the
 * client's event loop (a 300 MB LZW bomb takes seconds there), and while it is
 * blocked no answer can be read: the other cases in flight then looked
 * unanswered for as long, whatever the service did. A case's deadline counts
 * only the time this process's loop was free.
 */
export class ClientClock {
  private stalledMs = 0;
  private last = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly tickMs = 50) {
    this.timer = setInterval(() => {
      const now = performance.now();
      this.stalledMs += Math.max(0, now - this.last - this.tickMs);
      this.last = now;
    }, tickMs);
    this.timer.unref();
  }

  /** Milliseconds of free loop time since some fixed point: differences of two readings are what a deadline counts. */
  now(): number {
    const pending = Math.max(0, performance.now() - this.last - this.tickMs);
    return performance.now() - this.stalledMs - pending;
  }

  /** A signal that aborts (TimeoutError) after `ms` of free loop time. */
  timeout(ms: number): { signal: AbortSignal; clear: () => void } {
    const controller = new AbortController();
    const from = this.now();
    const check = setInterval(() => {
      if (this.now() - from >= ms) {
        clearInterval(check);
        controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError'));
      }
    }, Math.min(100, ms));
    return { signal: controller.signal, clear: () => clearInterval(check) };
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
