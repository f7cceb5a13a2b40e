import { expect } from 'chai';
import { TurnQueue } from '../../../src/engines/llm/backends/turn-queue.js';

/** A task the test finishes by hand, recording when it started. */
function gate(log: string[], name: string): { task: () => Promise<string>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    open: () => open(),
    task: async () => {
      log.push(`start ${name}`);
      await opened;
      log.push(`end ${name}`);
      return name;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnQueue: one model call at a time, first come first served', () => {
  it('runs calls one after the other, in the order they came', async () => {
    const queue = new TurnQueue();
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => gate(log, name));
    const results = [a, b, c].map((g) => queue.run(new AbortController().signal, g!.task));
    await tick();
    expect(log).to.deep.equal(['start a']);
    expect(queue.length).to.equal(2);
    c!.open();
    b!.open();
    a!.open();
    expect(await Promise.all(results)).to.deep.equal(['a', 'b', 'c']);
    expect(log).to.deep.equal(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('lets a waiting call that is aborted leave the queue at once, with its reason; the others keep their turn', async () => {
    const queue = new TurnQueue();
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => gate(log, name));
    const leaving = new AbortController();
    const first = queue.run(new AbortController().signal, a!.task);
    const second = queue.run(leaving.signal, b!.task);
    const third = queue.run(new AbortController().signal, c!.task);
    await tick();
    leaving.abort(new Error('client went away'));
    await second.then(
      () => expect.fail('an aborted call must not run'),
      (error: Error) => expect(error.message).to.equal('client went away'),
    );
    expect(queue.length).to.equal(1);
    a!.open();
    c!.open();
    expect(await Promise.all([first, third])).to.deep.equal(['a', 'c']);
    expect(log).not.to.include('start b');
  });

  it('refuses a call whose signal is already aborted, and a failing call does not stop the next', async () => {
    const queue = new TurnQueue();
    const gone = new AbortController();
    gone.abort(new Error('too late'));
    await queue.run(gone.signal, async () => 'never').then(
      () => expect.fail('must reject'),
      (error: Error) => expect(error.message).to.equal('too late'),
    );
    const failing = queue.run(new AbortController().signal, async () => {
      throw new Error('model crashed');
    });
    const next = queue.run(new AbortController().signal, async () => 'next');
    await failing.catch((error: Error) => expect(error.message).to.equal('model crashed'));
    expect(await next).to.equal('next');
    await queue.drained();
    expect(queue.length).to.equal(0);
  });
});
