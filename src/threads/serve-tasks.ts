/**
 * The thread's side of a pool thread (task-thread.ts starts it): the module
 * the pool names calls serveTasks() once it has loaded; the thread then
 * starts (loads, warms up), says "ready" or why it could not start, and runs
 * one task at a time, its messages queueing in the port meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorData, POOL_THREAD_KEY, type FromThread, type PoolThreadData, type ToThread } from './protocol.js';

export interface TaskControl {
  /** Throws when the pool gave this task up (its request aborted): call it between long steps, the thread takes the next task sooner. */
  checkpoint(): void;
}

export interface TaskService<Task> {
  /** Before the first task: load, warm up. A throw is a failed start (the thread then exits by itself). */
  start?(): Promise<void> | void;
  /** One task; its value crosses by structured clone, or moved with transferred(). */
  run(task: Task, control: TaskControl): unknown;
  /** Before the thread ends when the pool asks it to (stop: 'ask'): release what it holds. */
  stop?(): Promise<void> | void;
  /** A start failure that no retry can mend (a file that cannot be used fails the same way every time). */
  permanent?(error: unknown): boolean;
}

/** A value whose typed arrays are handed to the pool without a copy. */
export class Transferred<T> {
  constructor(
    readonly value: T,
    readonly buffers: ArrayBufferLike[],
  ) {}
}

export function transferred<T>(value: T, buffers: ArrayBufferLike[]): Transferred<T> {
  return new Transferred(value, buffers);
}

class Abandoned extends Error {}

function poolData(): PoolThreadData | undefined {
  return parentPort ? ((workerData as Record<string, unknown> | null)?.[POOL_THREAD_KEY] as PoolThreadData | undefined) : undefined;
}

/** The data the pool started this thread with (TaskThreadOptions.data); undefined in a thread no pool started. */
export function poolThreadData<T>(): T | undefined {
  return poolData()?.data as T | undefined;
}

/** Serves the pool's tasks on this thread; does nothing in a thread no pool started (a module imported elsewhere). */
export function serveTasks<Task>(service: TaskService<Task>): void {
  const pool = poolData();
  const port = parentPort;
  if (!pool || !port) return;
  const abandoned = new Int32Array(pool.abandoned);
  const send = (message: FromThread, transfer: ArrayBufferLike[] = []) => port.postMessage(message, transfer as ArrayBuffer[]);

  const runTask = async (id: number, task: Task): Promise<void> => {
    const control: TaskControl = {
      checkpoint() {
        if (Atomics.load(abandoned, 0) === id) throw new Abandoned();
      },
    };
    try {
      const outcome = await service.run(task, control);
      if (outcome instanceof Transferred) send({ type: 'done', id, value: outcome.value }, outcome.buffers);
      else send({ type: 'done', id, value: outcome });
    } catch (error) {
      if (error instanceof Abandoned) send({ type: 'abandoned', id });
      else send({ type: 'error', id, error: errorData(error) });
    }
  };

  void (async () => {
    try {
      await service.start?.();
    } catch (error) {
      send({ type: 'failed', error: errorData(error), permanent: service.permanent?.(error) ?? false });
      await Promise.resolve(service.stop?.()).catch(() => undefined);
      // exits by itself (nothing left on its loop): terminating a thread inside native code (ONNX Runtime) can abort the process
      port.close();
      return;
    }
    let queue = Promise.resolve();
    port.on('message', (message: ToThread) => {
      queue = queue.then(async () => {
        if (message.type === 'task') return runTask(message.id, message.task as Task);
        await service.stop?.();
        port.close();
      });
    });
    send({ type: 'ready' });
  })();
}
