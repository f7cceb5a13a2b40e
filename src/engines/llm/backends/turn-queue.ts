/**
 * One model call at a time, in the order they were asked for. A context
 * evaluates one sequence: a second call at once would only contend for the
 * same threads and throw away the first call's evaluated prefix. First come,
 * first served is fair between requests: a long document asks for its
 * windows a few at a time (LLM_CHUNK_CONCURRENCY), so other requests' calls
 * get their turn between them. A caller that gives up (its signal aborts)
 * while waiting leaves the queue at once, so nobody waits behind it.
 */
export class TurnQueue {
  private readonly waiting: Array<{ start: () => void; forget: () => void }> = [];
  private busy = false;
  private idle: Array<() => void> = [];

  /** How many calls wait for their turn (not counting the one running). */
  get length(): number {
    return this.waiting.length;
  }

  run<T>(signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.waiting.indexOf(entry);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal.reason);
      };
      const entry = {
        forget: () => signal.removeEventListener('abort', onAbort),
        start: () => {
          Promise.resolve().then(task).then(resolve, reject).finally(() => this.next());
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      if (!this.busy) this.next();
    });
  }

  /** Resolves when no call runs or waits. */
  drained(): Promise<void> {
    if (!this.busy && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private next(): void {
    const entry = this.waiting.shift();
    if (!entry) {
      this.busy = false;
      const idle = this.idle;
      this.idle = [];
      for (const resolve of idle) resolve();
      return;
    }
    this.busy = true;
    entry.forget();
    entry.start();
  }
}
