/**
 * A pool thread for test/threads/pool.test.ts: tasks that answer, throw,
 * end the thread or keep it busy, so that the pool's crash containment and
 * abort can be seen on real threads.
 */
import { threadId } from 'node:worker_threads';
import { poolThreadData, serveTasks } from '../../src/threads/serve-tasks.js';

export type ProbeTask =
  | { kind: 'echo'; value: string }
  | { kind: 'throw'; message: string }
  | { kind: 'exit'; code: number }
  /** Busy for `ms`, looking up at every turn of its loop when `checkpoints`. */
  | { kind: 'spin'; ms: number; checkpoints: boolean };

export interface ProbeReply {
  threadId: number;
  value: string;
}

export interface ProbeThreadData {
  /** The thread fails its start with this message. */
  failStart?: string;
}

const data = poolThreadData<ProbeThreadData>();

serveTasks<ProbeTask>({
  start() {
    if (data?.failStart) throw new Error(data.failStart);
  },
  run(task, control): ProbeReply {
    switch (task.kind) {
      case 'echo':
        return { threadId, value: task.value };
      case 'throw':
        throw new RangeError(task.message);
      case 'exit':
        process.exit(task.code);
      // eslint-disable-next-line no-fallthrough
      case 'spin': {
        const end = performance.now() + task.ms;
        while (performance.now() < end) if (task.checkpoints) control.checkpoint();
        return { threadId, value: 'spun' };
      }
    }
  },
  permanent: () => true,
});
