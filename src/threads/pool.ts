/**
 * One pool of worker threads for every kind of work the event loop must not
 * do (OCR, pdf.js, the rules engine, schema compiles, large base64): tasks
 * wait in one queue, each runs on one thread, and the pool keeps the
 * threads as its options say.
 *
 * - Threads: `minThreads` started with the pool and kept; more, up to
 *   `maxThreads`, started when tasks wait, and ended after `idleMs` without
 *   work.
 * - Recycling: a thread ends after `recycleAfterTasks` tasks, or after a
 *   task that failed with `replaceAfterFailure`; a kept one is replaced.
 * - Crashes: a thread that dies fails the task it ran, never the process;
 *   a kept one is replaced, and the next task gets a fresh thread. A start
 *   is tried `startAttempts` times (once for a permanent failure); a kept
 *   thread that cannot be started again is given up, and with the last one
 *   the pool refuses tasks.
 * - Abort: a waiting task leaves the queue; a running one is settled at once
 *   with the signal's reason, and its thread is stopped (`runningAbort:
 *   'stop'`: its work is lost, a fresh thread takes the next task) or left to
 *   notice and stop early (`'wait'`: TaskControl.checkpoint in the thread).
 * - status(): threads, busy, queued, tasks done, for /readyz and /metrics.
 *
 * What a thread is stays outside: `start` makes one (task-thread.ts for a
 * module that calls serveTasks; tesseract.js makes its own).
 */

/** One thread as the pool sees it: one task at a time. */
export interface PoolThread<Task, Result> {
  /** Runs one task. Settles when the thread is free again (a task given up may settle later, as it stops). */
  run(task: Task, signal?: AbortSignal): Promise<Result>;
  /** Ends the thread; what it ran is given up. */
  stop(): Promise<void>;
}

/** Starts a thread and resolves once it can take tasks; calls `died` if it dies later (not when stopped). */
export type ThreadStarter<Task, Result> = (died: (cause: Error) => void) => Promise<PoolThread<Task, Result>>;

export interface PoolLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ThreadPoolOptions<Task, Result> {
  /** Names the pool in its log lines and errors ("OCR" -> "OCR worker replaced", "OCR pool is closed"). */
  label: string;
  start: ThreadStarter<Task, Result>;
  /** Threads started with the pool and kept (default 0). */
  minThreads?: number;
  maxThreads: number;
  /** A thread above minThreads ends after this long without a task (default: never). */
  idleMs?: number;
  /** A thread ends after this many tasks (default: never). */
  recycleAfterTasks?: number;
  /** A thread whose task failed ends: whatever failed may have left it broken (default false). */
  replaceAfterFailure?: boolean;
  /** What an abort does to a running task's thread (see above). */
  runningAbort: 'stop' | 'wait';
  /** Tries of one start (default 3). */
  startAttempts?: number;
  /** A start failure no retry can mend. */
  isPermanent?(error: unknown): boolean;
  logger?: PoolLogger;
  /** Extra fields of every log line (e.g. { engine: 'paddle' }). */
  logFields?: object;
}

export interface PoolStatus {
  /** Tasks are taken: not closed, and a thread is alive or can be started. */
  ready: boolean;
  /** Threads alive or starting (one being replaced still counts: waiting tasks run as soon as it is back). */
  workers: number;
  busy: number;
  queued: number;
  /** Tasks settled on threads so far (succeeded, failed or given up). */
  tasksDone: number;
}

interface Waiting<Task, Result> {
  task: Task;
  signal: AbortSignal | undefined;
  resolve(value: Result): void;
  reject(error: unknown): void;
  settled: boolean;
  detach(): void;
}

interface Member<Task, Result> {
  thread: PoolThread<Task, Result> | undefined;
  state: 'starting' | 'idle' | 'busy';
  tasks: number;
  current: Waiting<Task, Result> | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

/** Why a thread ended, in the "replaced" log line. */
type EndReason = 'crashed' | 'recycled' | 'failed' | 'aborted';

const DEFAULT_START_ATTEMPTS = 3;

export class ThreadPool<Task, Result> {
  private readonly members: Member<Task, Result>[] = [];
  private readonly waiting: Waiting<Task, Result>[] = [];
  /** Threads kept and the most threads; both lose one for each kept thread given up. */
  private keep: number;
  private capacity: number;
  private closed = false;
  private tasksDone = 0;
  private readonly starts = new Set<Promise<unknown>>();
  private readonly initial: Promise<PromiseSettledResult<unknown>[]>;

  constructor(private readonly options: ThreadPoolOptions<Task, Result>) {
    this.keep = Math.min(options.minThreads ?? 0, options.maxThreads);
    this.capacity = options.maxThreads;
    this.initial = Promise.allSettled(Array.from({ length: this.keep }, () => this.startMember('initial')));
  }

  /**
   * Resolves once the threads started with the pool are up. When one could
   * not start, closes the pool and rejects with its failure, once every start
   * has settled (a thread torn down while it loads native code can abort the
   * process).
   */
  async started(): Promise<void> {
    const failure = (await this.initial).find((start): start is PromiseRejectedResult => start.status === 'rejected');
    if (!failure) return;
    await this.close();
    throw failure.reason;
  }

  /** Runs the task on a thread; rejects at once when the pool is closed or without threads, or the signal has aborted. */
  run(task: Task, signal?: AbortSignal): Promise<Result> {
    if (this.closed) return Promise.reject(new Error(`${this.options.label} pool is closed`));
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.capacity === 0) return Promise.reject(this.noThreads());
    return new Promise<Result>((resolve, reject) => {
      const onAbort = () => this.abort(entry);
      const entry: Waiting<Task, Result> = { task, signal, resolve, reject, settled: false, detach: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      this.dispatch();
    });
  }

  status(): PoolStatus {
    return {
      ready: !this.closed && this.capacity > 0,
      workers: this.members.length,
      busy: this.members.filter((member) => member.state === 'busy').length,
      queued: this.waiting.length,
      tasksDone: this.tasksDone,
    };
  }

  /** The threads alive now (for diagnostics and tests). */
  get threads(): PoolThread<Task, Result>[] {
    return this.members.flatMap((member) => (member.thread ? [member.thread] : []));
  }

  /** Fails what waits and runs, stops every thread (and any still starting) and refuses tasks from now on. */
  async close(): Promise<void> {
    this.closed = true;
    const closing = new Error(`${this.options.label} pool is closed`);
    this.rejectWaiting(closing);
    const members = this.members.splice(0);
    for (const member of members) {
      clearTimeout(member.idleTimer);
      if (member.current) this.settle(member.current, undefined, closing);
    }
    await Promise.all([...members.map((member) => member.thread?.stop().catch(() => undefined)), ...[...this.starts].map((start) => start.catch(() => undefined))]);
  }

  private noThreads(): Error {
    return new Error(`${this.options.label} pool has no working threads`);
  }

  private log(level: 'info' | 'warn', fields: object, message: string): void {
    this.options.logger?.[level]({ ...this.options.logFields, ...fields }, `${this.options.label} ${message}`);
  }

  private settle(entry: Waiting<Task, Result>, value: Result | undefined, error?: unknown): void {
    if (entry.settled) return;
    entry.settled = true;
    entry.detach();
    if (error === undefined) entry.resolve(value as Result);
    else entry.reject(error);
  }

  private rejectWaiting(error: Error): void {
    for (const entry of this.waiting.splice(0)) this.settle(entry, undefined, error);
  }

  private abort(entry: Waiting<Task, Result>): void {
    const at = this.waiting.indexOf(entry);
    if (at >= 0) {
      this.waiting.splice(at, 1);
      this.settle(entry, undefined, entry.signal?.reason);
      return;
    }
    const member = this.members.find((candidate) => candidate.current === entry);
    if (!member) return;
    this.tasksDone++;
    this.settle(entry, undefined, entry.signal?.reason);
    // 'wait': the thread saw the signal (PoolThread.run) and is free once its run settles
    if (this.options.runningAbort === 'stop') this.retire(member, 'aborted');
  }

  /** Hands waiting tasks to idle threads, then starts the threads still wanted. */
  private dispatch(): void {
    for (const member of this.members) {
      if (this.waiting.length === 0) break;
      if (member.state === 'idle' && member.thread) this.runOn(member, this.waiting.shift()!);
    }
    this.startWanted();
  }

  /** Kept threads missing, and one more per task no idle or starting thread will take, within capacity. */
  private startWanted(reason?: EndReason): void {
    if (this.closed) return;
    while (this.members.length < this.keep) void this.startMember('kept', reason).catch(() => undefined);
    let unserved = this.waiting.length - this.members.filter((member) => member.state !== 'busy').length;
    while (unserved-- > 0 && this.members.length < this.capacity) void this.startMember('demand').catch(() => undefined);
  }

  private runOn(member: Member<Task, Result>, entry: Waiting<Task, Result>): void {
    clearTimeout(member.idleTimer);
    member.state = 'busy';
    member.current = entry;
    member.tasks++;
    member.thread!.run(entry.task, entry.signal).then(
      (value) => this.finish(member, entry, value),
      (error: unknown) => this.finish(member, entry, undefined, error ?? new Error('task failed')),
    );
  }

  private finish(member: Member<Task, Result>, entry: Waiting<Task, Result>, value: Result | undefined, error?: unknown): void {
    if (member.current !== entry) return; // the thread was taken out (died, stopped) and the task settled then
    member.current = undefined;
    if (!entry.settled) this.tasksDone++;
    this.settle(entry, value, error);
    if (!this.members.includes(member)) return;
    const recycle = this.options.recycleAfterTasks !== undefined && member.tasks >= this.options.recycleAfterTasks;
    if (error !== undefined && this.options.replaceAfterFailure) this.retire(member, 'failed');
    else if (recycle) this.retire(member, 'recycled');
    else this.idle(member);
    this.dispatch();
  }

  private idle(member: Member<Task, Result>): void {
    member.state = 'idle';
    const idleMs = this.options.idleMs;
    if (idleMs === undefined || !Number.isFinite(idleMs) || this.members.length <= this.keep) return;
    member.idleTimer = setTimeout(() => {
      if (member.state === 'idle' && this.members.length > this.keep) this.retire(member);
    }, idleMs);
    member.idleTimer.unref();
  }

  /** Takes the thread out and stops it; a kept one is replaced. */
  private retire(member: Member<Task, Result>, reason?: EndReason): void {
    const at = this.members.indexOf(member);
    if (at < 0) return;
    this.members.splice(at, 1);
    clearTimeout(member.idleTimer);
    void member.thread?.stop().catch(() => undefined);
    this.startWanted(reason);
  }

  private died(member: Member<Task, Result>, cause: Error): void {
    const at = this.members.indexOf(member);
    if (at < 0 || this.closed) return;
    this.members.splice(at, 1);
    clearTimeout(member.idleTimer);
    this.log('warn', { err: cause.message }, 'worker thread died');
    if (member.current) {
      this.tasksDone++;
      this.settle(member.current, undefined, cause);
      member.current = undefined;
    }
    this.startWanted('crashed');
    this.dispatch();
  }

  /**
   * Starts one thread, trying again up to startAttempts. `purpose`: one of
   * the pool's first, a kept one that replaces one that ended (`reason`), or
   * one for waiting tasks.
   */
  private startMember(purpose: 'initial' | 'kept' | 'demand', reason?: EndReason): Promise<void> {
    const member: Member<Task, Result> = { thread: undefined, state: 'starting', tasks: 0, current: undefined, idleTimer: undefined };
    this.members.push(member);
    const start = this.startThread(member).then(
      (thread) => {
        const at = this.members.indexOf(member);
        if (this.closed || at < 0) {
          if (at >= 0) this.members.splice(at, 1);
          return thread.stop();
        }
        member.thread = thread;
        if (purpose === 'kept') this.log('info', { reason: reason ?? 'crashed' }, 'worker replaced');
        this.idle(member);
        this.dispatch();
      },
      (error: unknown) => {
        const at = this.members.indexOf(member);
        if (at >= 0) this.members.splice(at, 1);
        if (this.closed) throw error;
        if (purpose !== 'demand') {
          // a kept thread that cannot be started is given up
          this.keep--;
          this.capacity--;
          if (purpose === 'kept') this.log('warn', { err: error instanceof Error ? error.message : String(error) }, 'worker could not be restarted');
        }
        // nothing left to take the waiting tasks: they fail rather than wait for a start that keeps failing
        if (this.members.length === 0) this.rejectWaiting(this.capacity === 0 ? this.noThreads() : error instanceof Error ? error : new Error(String(error)));
        throw error;
      },
    );
    this.starts.add(start);
    void start.finally(() => this.starts.delete(start)).catch(() => undefined);
    return start;
  }

  private async startThread(member: Member<Task, Result>): Promise<PoolThread<Task, Result>> {
    const attempts = this.options.startAttempts ?? DEFAULT_START_ATTEMPTS;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts && !this.closed; attempt++) {
      try {
        return await this.options.start((cause) => this.died(member, cause));
      } catch (error) {
        lastError = error;
        if (this.options.isPermanent?.(error)) break;
      }
    }
    throw lastError ?? new Error(`${this.options.label} pool is closed`);
  }
}
