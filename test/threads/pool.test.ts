import { expect } from 'chai';
import { ThreadPool, type PoolThread, type ThreadPoolOptions } from '../../src/threads/pool.js';
import { TaskFailed, taskThreads, ThreadStartError } from '../../src/threads/task-thread.js';
import type { ProbeReply, ProbeTask, ProbeThreadData } from '../helpers/pool-probe-thread.js';
import { rejectionOf } from '../helpers/rejection.js';

const PROBE = new URL('../helpers/pool-probe-thread.js', import.meta.url);

function probePool(options: Partial<ThreadPoolOptions<ProbeTask, ProbeReply>> & { data?: ProbeThreadData } = {}): ThreadPool<ProbeTask, ProbeReply> {
  const { data, ...rest } = options;
  return new ThreadPool<ProbeTask, ProbeReply>({ label: 'probe', start: taskThreads(PROBE, { data }), minThreads: 1, maxThreads: 1, runningAbort: 'stop', ...rest });
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Threads that run in this thread: each answers its number and the task, and counts its starts and stops. */
function countingThreads(failFrom = Infinity) {
  const counts = { starts: 0, stops: 0 };
  const deaths: Array<(cause: Error) => void> = [];
  const start = async (died: (cause: Error) => void): Promise<PoolThread<number, string>> => {
    const number = ++counts.starts;
    if (number >= failFrom) throw new Error(`start ${number} failed`);
    deaths.push(died);
    return {
      run: async (task) => `${number}:${task}`,
      stop: async () => {
        counts.stops++;
      },
    };
  };
  return { counts, deaths, start };
}

describe('ThreadPool', function () {
  this.timeout(60_000);

  it('recycles a thread after recycleAfterTasks tasks and keeps minThreads', async () => {
    const threads = countingThreads();
    const pool = new ThreadPool({ label: 'test', start: threads.start, minThreads: 1, maxThreads: 1, recycleAfterTasks: 2, runningAbort: 'stop' });
    try {
      const answers: string[] = [];
      for (let task = 1; task <= 5; task++) answers.push(await pool.run(task));
      expect(answers).to.deep.equal(['1:1', '1:2', '2:3', '2:4', '3:5']);
      expect(threads.counts).to.deep.equal({ starts: 3, stops: 2 });
      expect(pool.status()).to.include({ workers: 1, busy: 0, queued: 0, tasksDone: 5 });
    } finally {
      await pool.close();
    }
  });

  it('starts threads above minThreads for waiting tasks and ends them when idle', async () => {
    const threads = countingThreads();
    const pool = new ThreadPool({ label: 'test', start: threads.start, minThreads: 0, maxThreads: 3, idleMs: 1, runningAbort: 'stop' });
    try {
      expect(pool.status().workers).to.equal(0);
      const answers = await Promise.all([1, 2, 3, 4].map((task) => pool.run(task)));
      expect(answers.map((answer) => answer.split(':')[1])).to.deep.equal(['1', '2', '3', '4']);
      expect(threads.counts.starts).to.equal(3);
      await until(() => pool.status().workers === 0);
      expect(threads.counts.stops).to.equal(3);
    } finally {
      await pool.close();
    }
  });

  it('gives up a kept thread that cannot be started again, and refuses tasks once none is left', async () => {
    const messages: string[] = [];
    const logger = { info: (_: object, message?: string) => messages.push(message ?? ''), warn: (_: object, message?: string) => messages.push(message ?? '') };
    const threads = countingThreads(3);
    const pool = new ThreadPool({ label: 'test', start: threads.start, minThreads: 2, maxThreads: 2, runningAbort: 'stop', logger });
    try {
      await pool.started();
      threads.deaths[0]!(new Error('gone'));
      await until(() => pool.status().workers === 1);
      // three tries (starts 3 to 5), then the slot is given up
      expect(threads.counts.starts).to.equal(5);
      expect(pool.status()).to.include({ ready: true, workers: 1 });
      expect(await pool.run(7)).to.equal('2:7');
      threads.deaths[1]!(new Error('gone'));
      await until(() => !pool.status().ready);
      expect((await rejectionOf(pool.run(8))).message).to.equal('test pool has no working threads');
      expect(messages).to.include.members(['test worker thread died', 'test worker could not be restarted']);
    } finally {
      await pool.close();
    }
  });

  it('tries a start that failed permanently once, and started() closes the pool with its reason', async () => {
    let attempts = 0;
    const pool = new ThreadPool<number, string>({
      label: 'test',
      start: async () => {
        attempts++;
        throw new ThreadStartError('the model file cannot be used', true);
      },
      minThreads: 1,
      maxThreads: 1,
      runningAbort: 'stop',
      isPermanent: (error) => error instanceof ThreadStartError && error.permanent,
    });
    expect((await rejectionOf(pool.started())).message).to.equal('the model file cannot be used');
    expect(attempts).to.equal(1);
    expect(pool.status().ready).to.equal(false);
    expect((await rejectionOf(pool.run(1))).message).to.equal('test pool is closed');
  });

  describe('on threads', () => {
    it('fails the task of a thread that dies, not the process, and runs the next on a fresh thread', async () => {
      const pool = probePool();
      try {
        const before = await pool.run({ kind: 'echo', value: 'a' });
        expect((await rejectionOf(pool.run({ kind: 'exit', code: 3 }))).message).to.include('exited with code 3');
        const after = await pool.run({ kind: 'echo', value: 'b' });
        expect(after.value).to.equal('b');
        expect(after.threadId).to.not.equal(before.threadId);
        expect(pool.status()).to.include({ workers: 1, busy: 0, tasksDone: 3 });
      } finally {
        await pool.close();
      }
    });

    it("keeps a thread whose task threw, with the thread's message", async () => {
      const pool = probePool();
      try {
        const before = await pool.run({ kind: 'echo', value: 'a' });
        const error = await rejectionOf(pool.run({ kind: 'throw', message: 'no such page' }));
        expect(error).to.be.instanceOf(TaskFailed);
        expect(error.message).to.equal('no such page');
        expect((error as TaskFailed).threadErrorName).to.equal('RangeError');
        expect((await pool.run({ kind: 'echo', value: 'b' })).threadId).to.equal(before.threadId);
      } finally {
        await pool.close();
      }
    });

    const aborts = [
      ['stop', "ends its thread at once, and the next task gets a fresh one", false],
      ['wait', "is given up at once, and its thread, stopping at its next checkpoint, takes the next task", true],
    ] as const;
    for (const [runningAbort, what, sameThread] of aborts) {
      it(`'${runningAbort}': an aborted task ${what}`, async () => {
        const pool = probePool({ runningAbort });
        try {
          const before = await pool.run({ kind: 'echo', value: 'a' });
          const controller = new AbortController();
          // busy far longer than the test may take; it looks up only where the pool waits for it to
          const running = pool.run({ kind: 'spin', ms: 600_000, checkpoints: runningAbort === 'wait' }, controller.signal);
          const reason = new Error('client gone');
          controller.abort(reason);
          expect(await rejectionOf(running)).to.equal(reason);
          const after = await pool.run({ kind: 'echo', value: 'b' });
          expect(after.threadId === before.threadId).to.equal(sameThread);
          expect(pool.status()).to.include({ workers: 1, busy: 0, queued: 0 });
        } finally {
          await pool.close();
        }
      });
    }

    it('drops a waiting task whose signal aborts, and refuses one whose signal already has', async () => {
      const pool = probePool({ runningAbort: 'wait' });
      try {
        await pool.started();
        const controller = new AbortController();
        const running = pool.run({ kind: 'spin', ms: 50, checkpoints: false });
        const waiting = pool.run({ kind: 'echo', value: 'late' }, controller.signal);
        expect(pool.status()).to.include({ busy: 1, queued: 1 });
        controller.abort(new Error('gone'));
        expect((await rejectionOf(waiting)).message).to.equal('gone');
        expect(pool.status().queued).to.equal(0);
        expect((await running).value).to.equal('spun');
        expect((await rejectionOf(pool.run({ kind: 'echo', value: 'x' }, AbortSignal.abort(new Error('already'))))).message).to.equal('already');
      } finally {
        await pool.close();
      }
    });

    it("reports a thread's failed start with its message", async () => {
      const pool = probePool({ data: { failStart: 'cannot load the model' }, isPermanent: (error) => error instanceof ThreadStartError && error.permanent });
      expect((await rejectionOf(pool.started())).message).to.equal('cannot load the model');
    });
  });
});
