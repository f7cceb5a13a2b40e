import { expect } from 'chai';
import { AppError } from '../../src/errors.js';
import { Admission } from '../../src/http/admission.js';

describe('Admission', () => {
  it('runs up to maxActive at once and hands the slot to the oldest waiter', async () => {
    const admission = new Admission({ maxActiveRequests: 1, maxQueuedRequests: 2, maxQueueWaitMs: 1000 });
    const releaseFirst = await admission.acquire();
    const order: string[] = [];
    const second = admission.acquire().then((release) => { order.push('second'); return release; });
    const third = admission.acquire().then((release) => { order.push('third'); return release; });
    expect(admission.snapshot()).to.include({ active: 1, queued: 2 });
    releaseFirst();
    (await second)();
    (await third)();
    expect(order).to.deep.equal(['second', 'third']);
    expect(admission.snapshot()).to.include({ active: 0, queued: 0 });
  });

  it('refuses with 503 and Retry-After when the queue is full', async () => {
    const admission = new Admission({ maxActiveRequests: 1, maxQueuedRequests: 0, maxQueueWaitMs: 1000 });
    await admission.acquire();
    const error = await admission.acquire().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(AppError);
    expect((error as AppError).status).to.equal(503);
    expect((error as AppError).retryAfterSeconds).to.be.greaterThan(0);
  });

  it('gives up on a waiter after maxQueueWaitMs and frees its queue place', async () => {
    const admission = new Admission({ maxActiveRequests: 1, maxQueuedRequests: 1, maxQueueWaitMs: 20 });
    await admission.acquire();
    const error = await admission.acquire().catch((e: unknown) => e);
    expect((error as AppError).status).to.equal(503);
    expect(admission.snapshot().queued).to.equal(0);
  });

  it('drops a waiter whose request is aborted', async () => {
    const admission = new Admission({ maxActiveRequests: 1, maxQueuedRequests: 1, maxQueueWaitMs: 1000 });
    await admission.acquire();
    const controller = new AbortController();
    const waiting = admission.acquire(controller.signal).catch((e: unknown) => e);
    controller.abort();
    expect(((await waiting) as AppError).status).to.equal(504);
    expect(admission.snapshot().queued).to.equal(0);
  });

  it('ignores a second release of the same slot', async () => {
    const admission = new Admission({ maxActiveRequests: 2, maxQueuedRequests: 0, maxQueueWaitMs: 10 });
    const release = await admission.acquire();
    await admission.acquire();
    release();
    release();
    expect(admission.snapshot().active).to.equal(1);
  });
});
