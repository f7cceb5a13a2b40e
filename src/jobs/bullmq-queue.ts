import { Queue, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { HandedBack, RetryLater, type QueueOptions, type TaskHandler, type TaskState, type WorkQueue } from './work-queue.js';

export interface BullQueueOptions extends QueueOptions {
  name: string;
  /** Prefix of BullMQ's keys, e.g. "docshape". */
  prefix: string;
  /** For adding and reading tasks (redis.ts queueConnection). */
  client: Redis;
  /** For workers: waits for Redis to come back (BullMQ opens its blocking connection from it). */
  workerClient: () => Redis;
  /** A worker holds a task this long between renewals; a worker gone for longer loses it and the task runs elsewhere. */
  lockMs: number;
  logger: Logger;
}

/**
 * A WorkQueue on BullMQ. Delivery is at least once: a worker holds a lock on
 * each task it runs and renews it every lockMs/2; a worker that dies (kill
 * -9, out of memory, a drained node) stops renewing, and BullMQ's stalled
 * check, run by every worker every lockMs, moves the task back to waiting.
 * A task stalled twice is failed (maxStalledCount 1): a document that kills
 * its worker does not go on killing workers. Finished tasks are removed at
 * once (the job store keeps what callers read); failed ones are kept a day
 * for the store's repair pass to read their reason.
 */
export class BullWorkQueue<T> implements WorkQueue<T> {
  private opened: Queue | undefined;
  private worker: Worker | undefined;
  private readonly holds = new Map<string, AbortController>();

  constructor(private readonly options: BullQueueOptions) {}

  /**
   * BullMQ's Queue, opened on first use with Redis there: a Queue opened while
   * Redis is away keeps its failed start-up check and fails every command
   * even after Redis returns.
   */
  private get queue(): Queue {
    if (!this.opened) {
      if (this.options.client.status !== 'ready') throw new Error('Redis is not reachable');
      this.opened = new Queue(this.options.name, { connection: this.options.client, prefix: this.options.prefix });
      this.opened.on('error', (error) => this.options.logger.warn({ queue: this.options.name, err: error.message }, 'job queue: Redis error'));
    }
    return this.opened;
  }

  async add(id: string, data: T): Promise<void> {
    await this.queue.add(this.options.name, data, {
      jobId: id,
      attempts: this.options.attempts,
      backoff: { type: 'exponential', delay: this.options.backoffMs },
      removeOnComplete: true,
      removeOnFail: { age: 24 * 3600 },
    });
  }

  async remove(id: string): Promise<void> {
    // a task that is running is locked: BullMQ refuses, and the worker's store.start() finds the job canceled or ended
    await this.queue.remove(id).catch(() => 0);
  }

  async state(id: string): Promise<{ state: TaskState; reason?: string }> {
    const state = await this.queue.getJobState(id);
    if (state === 'active') return { state: 'active' };
    if (state === 'waiting' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') return { state: 'waiting' };
    if (state === 'failed') {
      const job = await this.queue.getJob(id);
      return { state: 'failed', reason: job?.failedReason ?? 'failed' };
    }
    return { state: 'missing' };
  }

  async counts(): Promise<{ waiting: number; active: number }> {
    const counts = await this.queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active');
    return { waiting: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0), active: counts.active ?? 0 };
  }

  process(handler: TaskHandler<T>, concurrency: number): void {
    const { logger, name } = this.options;
    const processor = async (job: Job, token?: string): Promise<void> => {
      const id = job.id as string;
      const hold = new AbortController();
      this.holds.set(id, hold);
      try {
        await handler({ id, data: job.data as T, attempt: job.attemptsMade + 1, maxAttempts: this.options.attempts, signal: hold.signal });
      } catch (error) {
        if (hold.signal.reason instanceof HandedBack && hold.signal.reason.message === STOPPING) {
          await job.moveToWait(token);
          throw new WaitingError();
        }
        if (error instanceof RetryLater) throw error;
        throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
      } finally {
        this.holds.delete(id);
      }
    };
    this.worker = new Worker(name, processor, {
      connection: this.options.workerClient(),
      prefix: this.options.prefix,
      concurrency,
      lockDuration: this.options.lockMs,
      stalledInterval: this.options.lockMs,
      maxStalledCount: 1,
    });
    this.worker.on('error', (error) => logger.warn({ queue: name, err: error.message }, 'job worker: Redis error'));
    // Another worker may already run it: stop, and leave the job to that run.
    this.worker.on('lockRenewalFailed', (ids) => {
      for (const id of ids) this.holds.get(id)?.abort(new HandedBack('this worker lost its hold on the job'));
    });
  }

  async close(graceMs: number): Promise<void> {
    if (this.worker) {
      const closed = this.worker.close();
      const late = await Promise.race([closed.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref())]);
      if (late) {
        for (const hold of this.holds.values()) hold.abort(new HandedBack(STOPPING));
        await closed;
      }
    }
    await this.opened?.close();
  }
}

const STOPPING = 'the worker is stopping';
