import { expect } from 'chai';
import { ClientClock } from '../../scripts/fuzz/client-clock.js';

function blockLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 60));

/**
 * The fuzz client's deadlines count only the time its own loop was free, so a
 * case generated for seconds on that loop (a 300 MB LZW bomb) no longer makes
 * the answers in flight look late.
 */
describe('fuzz ClientClock', () => {
  it('leaves out the time the client\'s own loop was blocked', async () => {
    const clock = new ClientClock(20);
    try {
      await tick();
      const from = clock.now();
      const wallFrom = performance.now();
      blockLoop(600);
      const duringBlock = clock.now() - from; // read right after the block, before any tick has run
      await tick();
      const free = clock.now() - from;
      const wall = performance.now() - wallFrom;
      expect(duringBlock, `wall ${wall.toFixed(0)} ms`).to.be.below(100);
      expect(free, `wall ${wall.toFixed(0)} ms`).to.be.below(wall - 400);
    } finally {
      clock.stop();
    }
  });

  it('a deadline aborts with a TimeoutError after that much free time, not during a block', async () => {
    const clock = new ClientClock(20);
    try {
      const deadline = clock.timeout(200);
      blockLoop(500);
      await tick();
      expect(deadline.signal.aborted).to.equal(false);
      await new Promise<void>((resolve) => deadline.signal.addEventListener('abort', () => resolve(), { once: true }));
      expect((deadline.signal.reason as DOMException).name).to.equal('TimeoutError');
      const cleared = clock.timeout(50);
      cleared.clear();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(cleared.signal.aborted).to.equal(false);
    } finally {
      clock.stop();
    }
  });
});
