/**
 * A queue that hands tasks to workers: at least once, with retries after a
 * backoff and a way to hand a task back. One interface, two
 * implementations: in this process (memory-queue.ts) and BullMQ on Redis
 * (bullmq-queue.ts), where a task whose worker died is run again elsewhere.
 * Extraction jobs and webhook deliveries each have a queue of their own.
 */

export interface Task<T> {
  id: string;
  data: T;
  /** This run's number among the runs a failure caused (1-based); a worker that died does not count. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the queue takes the task back: this worker is stopping, or lost its hold on the task. */
  signal: AbortSignal;
}

export type TaskHandler<T> = (task: Task<T>) => Promise<void>;

/** Thrown by a handler: run the task again after the backoff (while attempts remain). */
export class RetryLater extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryLater';
  }
}

/** Why a task's signal aborted: handed back to the queue, to run again (here or elsewhere). */
export class HandedBack extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'HandedBack';
  }
}

export type TaskState = 'waiting' | 'active' | 'failed' | 'missing';

export interface QueueOptions {
  /** Runs of a task at most (RetryLater counts). */
  attempts: number;
  /** The first retry's delay; each further retry waits twice as long. */
  backoffMs: number;
}

export interface WorkQueue<T> {
  /** Adds a task; adding an id that is already queued or running does nothing. */
  add(id: string, data: T): Promise<void>;
  /** Removes a task that has not started; a running one is left alone. */
  remove(id: string): Promise<void>;
  /** Where a task is; 'failed' for one the queue gave up by itself (its workers kept dying), with the reason. */
  state(id: string): Promise<{ state: TaskState; reason?: string }>;
  counts(): Promise<{ waiting: number; active: number }>;
  /** Starts `concurrency` workers on this queue in this process. */
  process(handler: TaskHandler<T>, concurrency: number): void;
  /**
   * Takes no more tasks; waits up to `graceMs` for the running ones, then
   * aborts them (HandedBack) and hands them back to the queue.
   */
  close(graceMs: number): Promise<void>;
}
