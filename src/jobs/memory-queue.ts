import { HandedBack, RetryLater, type QueueOptions, type Task, type TaskHandler, type TaskState, type WorkQueue } from './work-queue.js';

interface Entry<T> {
  id: string;
  data: T;
  attempt: number;
}

/**
 * Tasks in this process: a FIFO, `concurrency` lanes, retries after an
 * exponential backoff on a timer. Nothing survives the process: that is
 * what REDIS_URL is for.
 */
export class MemoryWorkQueue<T> implements WorkQueue<T> {
  private readonly waiting: Entry<T>[] = [];
  private readonly delayed = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, AbortController>();
  private handler: TaskHandler<T> | undefined;
  private concurrency = 0;
  private closing = false;
  private idle: (() => void) | undefined;

  constructor(private readonly options: QueueOptions) {}

  async add(id: string, data: T): Promise<void> {
    if (this.running.has(id) || this.delayed.has(id) || this.waiting.some((entry) => entry.id === id)) return;
    this.waiting.push({ id, data, attempt: 1 });
    this.pump();
  }

  async remove(id: string): Promise<void> {
    const index = this.waiting.findIndex((entry) => entry.id === id);
    if (index >= 0) this.waiting.splice(index, 1);
    clearTimeout(this.delayed.get(id));
    this.delayed.delete(id);
  }

  async state(id: string): Promise<{ state: TaskState }> {
    if (this.running.has(id)) return { state: 'active' };
    if (this.delayed.has(id) || this.waiting.some((entry) => entry.id === id)) return { state: 'waiting' };
    return { state: 'missing' };
  }

  async counts(): Promise<{ waiting: number; active: number }> {
    return { waiting: this.waiting.length + this.delayed.size, active: this.running.size };
  }

  process(handler: TaskHandler<T>, concurrency: number): void {
    this.handler = handler;
    this.concurrency = concurrency;
    this.pump();
  }

  async close(graceMs: number): Promise<void> {
    this.closing = true;
    for (const timer of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    if (this.running.size === 0) return;
    const drained = new Promise<void>((resolve) => (this.idle = resolve));
    const grace = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref());
    if ((await Promise.race([drained, grace])) === 'late') {
      for (const controller of this.running.values()) controller.abort(new HandedBack('the worker is stopping'));
      await drained;
    }
  }

  private pump(): void {
    while (this.handler && !this.closing && this.running.size < this.concurrency && this.waiting.length > 0) {
      void this.run(this.waiting.shift()!);
    }
  }

  private async run(entry: Entry<T>): Promise<void> {
    const controller = new AbortController();
    this.running.set(entry.id, controller);
    const task: Task<T> = { id: entry.id, data: entry.data, attempt: entry.attempt, maxAttempts: this.options.attempts, signal: controller.signal };
    try {
      await this.handler!(task);
    } catch (error) {
      if (error instanceof RetryLater && entry.attempt < this.options.attempts && !this.closing) {
        const delay = this.options.backoffMs * 2 ** (entry.attempt - 1);
        const timer = setTimeout(() => {
          this.delayed.delete(entry.id);
          this.waiting.push({ ...entry, attempt: entry.attempt + 1 });
          this.pump();
        }, delay);
        timer.unref();
        this.delayed.set(entry.id, timer);
      }
      // any other failure was the handler's to record; a task handed back at exit is lost with the process
    } finally {
      this.running.delete(entry.id);
      if (this.running.size === 0) this.idle?.();
      this.pump();
    }
  }
}
