import { once } from 'node:events';
import { expect } from 'chai';
import { collectGarbage } from '../../src/util/collect-garbage.js';
import { deadline } from '../../src/util/deadline.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Full collections every few milliseconds until `signal` aborts: what lost AbortSignal.any's timeout on Node 20. */
async function collectingUntil(signal: AbortSignal): Promise<void> {
  const collector = setInterval(collectGarbage, 5);
  try {
    if (!signal.aborted) await once(signal, 'abort');
  } finally {
    clearInterval(collector);
  }
}

describe('deadline', () => {
  it('aborts when its time runs out, with garbage collections running all the while', async () => {
    for (let i = 0; i < 5; i++) {
      // mocha's timeout is the failure when one never aborts
      const limit = deadline(40, [new AbortController().signal]);
      await collectingUntil(limit.signal);
      expect(limit.expired()).to.equal(true);
      expect((limit.signal.reason as DOMException).name).to.equal('TimeoutError');
    }
  });

  it('aborts at once with the reason of another signal that aborts first, and then has not expired', () => {
    const caller = new AbortController();
    const limit = deadline(60_000, [caller.signal]);
    caller.abort(new Error('client left'));
    expect(limit.signal.aborted).to.equal(true);
    expect((limit.signal.reason as Error).message).to.equal('client left');
    expect(limit.expired()).to.equal(false);
    limit.clear();
  });

  it('aborts with the reason it was given', async () => {
    const limit = deadline(10, [], () => new Error('the job exceeded its time limit'));
    await collectingUntil(limit.signal);
    expect((limit.signal.reason as Error).message).to.equal('the job exceeded its time limit');
  });

  it('never aborts once cleared', async () => {
    const limit = deadline(10);
    limit.clear();
    await sleep(50);
    expect(limit.signal.aborted).to.equal(false);
  });
});
