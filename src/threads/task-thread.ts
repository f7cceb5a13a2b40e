/**
 * A worker thread that runs a module serving tasks (serve-tasks.ts), seen
 * from the pool: started once the module says "ready", one task at a time,
 * a task given up told to the thread through a shared flag, a death
 * reported to the pool (which fails the task it ran and starts another).
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { PoolThread, ThreadStarter } from './pool.js';
import { POOL_THREAD_KEY, type ErrorData, type FromThread, type PoolThreadData, type ToThread } from './protocol.js';

/** A thread that could not start; `permanent` when the thread said no retry can mend it. */
export class ThreadStartError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'ThreadStartError';
  }
}

/** A task the thread's code threw on (the thread is fine); the message is the thread's error's. */
export class TaskFailed extends Error {
  /** The name of the error the thread threw (its class does not cross). */
  readonly threadErrorName: string;
  constructor(error: ErrorData) {
    super(error.message);
    this.name = 'TaskFailed';
    this.threadErrorName = error.name;
  }
}

/** A task the thread stopped early because the pool gave it up (TaskControl.checkpoint). */
export class TaskAbandoned extends Error {
  constructor() {
    super('task abandoned');
    this.name = 'TaskAbandoned';
  }
}

/** What is posted to the thread for a task, and the buffers in it that are moved rather than copied. */
export interface TaskMessage {
  task: unknown;
  transfer?: ArrayBufferLike[];
}

export interface TaskThreadOptions<Task> {
  /** What the thread's module reads with poolThreadData(). */
  data?: unknown;
  resourceLimits?: ResourceLimits;
  /**
   * How the thread ends: 'terminate' at once, or 'ask' (it releases what it
   * holds and exits; terminated only if it has not within STOP_GRACE_MS):
   * terminating a thread inside ONNX Runtime can abort the whole process.
   */
  stop?: 'ask' | 'terminate';
  /** A thread that has not said "ready" by then has failed (default 60 s). */
  startTimeoutMs?: number;
  /** The message for a task, when it is more than the task (moved buffers, a copy made in turns of the loop). */
  prepare?(task: Task, signal: AbortSignal | undefined): TaskMessage | Promise<TaskMessage>;
}

const DEFAULT_START_TIMEOUT_MS = 60_000;
/** How long a thread asked to stop may take (it ends its current step first) before it is terminated. */
const STOP_GRACE_MS = 10_000;

interface Running<Result> {
  id: number;
  resolve(value: Result): void;
  reject(error: unknown): void;
  detach(): void;
}

/** Starts threads of `module` (a file that calls serveTasks) for a ThreadPool. */
export function taskThreads<Task, Result>(module: URL, options: TaskThreadOptions<Task> = {}): ThreadStarter<Task, Result> {
  return (died) => TaskThread.start<Task, Result>(module, options, died);
}

export class TaskThread<Task, Result> implements PoolThread<Task, Result> {
  private nextId = 1;
  private current: Running<Result> | undefined;
  /** Set once the thread is asked to stop, found dead, or failed to start: its exit is no news. */
  private ending = false;
  private gone = false;
  private readonly exited: Promise<void>;

  private constructor(
    /** The thread (for diagnostics and tests: its resourceLimits, a simulated crash). */
    readonly worker: Worker,
    private readonly abandoned: Int32Array,
    private readonly options: TaskThreadOptions<Task>,
  ) {
    this.exited = new Promise((resolve) =>
      worker.once('exit', () => {
        this.gone = true;
        resolve();
      }),
    );
  }

  static start<Task, Result>(module: URL, options: TaskThreadOptions<Task>, died: (cause: Error) => void): Promise<TaskThread<Task, Result>> {
    const abandoned = new Int32Array(new SharedArrayBuffer(4));
    const pool: PoolThreadData = { data: options.data, abandoned: abandoned.buffer as SharedArrayBuffer };
    const worker = new Worker(module, { workerData: { [POOL_THREAD_KEY]: pool }, ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}) });
    return new TaskThread<Task, Result>(worker, abandoned, options).started(died);
  }

  /** Resolves once the thread said "ready"; rejects (never hangs) once a thread that did not is gone. */
  private started(died: (cause: Error) => void): Promise<this> {
    const timeoutMs = this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      let starting = true;
      // After "failed" the thread exits by itself (see `stop`); one that never answered is terminated.
      const fail = (error: Error, stop: 'wait' | 'terminate') => {
        if (!starting) return;
        starting = false;
        this.ending = true;
        clearTimeout(timeout);
        const stuck = setTimeout(() => void this.worker.terminate(), stop === 'terminate' ? 0 : STOP_GRACE_MS);
        void this.exited.then(() => {
          clearTimeout(stuck);
          reject(error);
        });
      };
      const timeout = setTimeout(() => fail(new Error(`worker thread did not start within ${timeoutMs} ms`), 'terminate'), timeoutMs);
      this.worker.on('message', (message: FromThread) => {
        if (!starting) return this.onMessage(message);
        if (message.type === 'ready') {
          starting = false;
          clearTimeout(timeout);
          // an idle thread does not keep the process alive; one running a task does (run)
          this.worker.unref();
          resolve(this);
        } else if (message.type === 'failed') {
          fail(new ThreadStartError(message.error.message, message.permanent), 'wait');
        }
      });
      const onDeath = (cause: Error) => {
        if (starting) return fail(cause, 'wait');
        if (this.ending) return;
        this.ending = true;
        // the pool first, so that it takes the thread out before the task's failure reaches it
        died(cause);
        if (this.current) this.settle(this.current, undefined, cause);
      };
      this.worker.on('error', onDeath);
      this.worker.on('exit', (code) => onDeath(new Error(`worker thread exited with code ${code}`)));
    });
  }

  run(task: Task, signal?: AbortSignal): Promise<Result> {
    if (this.ending) return Promise.reject(new Error('worker thread is not running'));
    const id = this.nextId++;
    return new Promise<Result>((resolve, reject) => {
      // a task the pool gave up: the thread stops at its next checkpoint and answers "abandoned"
      const onAbort = () => Atomics.store(this.abandoned, 0, id);
      signal?.addEventListener('abort', onAbort, { once: true });
      const running: Running<Result> = { id, resolve, reject, detach: () => signal?.removeEventListener('abort', onAbort) };
      this.current = running;
      this.worker.ref();
      void this.send(running, task, signal);
    });
  }

  private async send(running: Running<Result>, task: Task, signal: AbortSignal | undefined): Promise<void> {
    let message: TaskMessage;
    try {
      message = this.options.prepare ? await this.options.prepare(task, signal) : { task };
    } catch (error) {
      if (this.current === running) this.settle(running, undefined, error);
      return;
    }
    if (this.current !== running) return; // the thread died or was stopped meanwhile
    // given up while being prepared: the thread never saw it and is free
    if (signal?.aborted) return this.settle(running, undefined, new TaskAbandoned());
    this.worker.postMessage({ type: 'task', id: running.id, task: message.task } satisfies ToThread, (message.transfer ?? []) as ArrayBuffer[]);
  }

  private onMessage(message: FromThread): void {
    const running = this.current;
    if (!running || !('id' in message) || message.id !== running.id) return;
    if (message.type === 'done') this.settle(running, message.value as Result);
    else if (message.type === 'error') this.settle(running, undefined, new TaskFailed(message.error));
    else this.settle(running, undefined, new TaskAbandoned());
  }

  private settle(running: Running<Result>, value: Result | undefined, error?: unknown): void {
    if (this.current !== running) return;
    this.current = undefined;
    running.detach();
    if (!this.gone) this.worker.unref();
    if (error === undefined) running.resolve(value as Result);
    else running.reject(error);
  }

  async stop(): Promise<void> {
    this.ending = true;
    const running = this.current;
    if (running) {
      Atomics.store(this.abandoned, 0, running.id);
      this.settle(running, undefined, new Error('worker thread stopped'));
    }
    if (this.options.stop === 'ask' && !this.gone) {
      this.worker.postMessage({ type: 'stop' } satisfies ToThread);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)))]);
      clearTimeout(timer);
    }
    // resolves at once for a thread that has already exited
    await this.worker.terminate();
  }
}
