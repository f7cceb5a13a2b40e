import { expect } from 'chai';
import { collectGarbage } from '../../src/util/collect-garbage.js';

describe('collectGarbage', () => {
  it('frees buffers nothing refers to any more, at once, each time it is called', () => {
    collectGarbage();
    collectGarbage();
    const before = process.memoryUsage().arrayBuffers;
    let buffers: Uint8Array[] | undefined = Array.from({ length: 8 }, () => new Uint8Array(8 << 20).fill(1));
    expect(process.memoryUsage().arrayBuffers - before).to.be.at.least(64 << 20);
    buffers = undefined;
    collectGarbage();
    expect(buffers).to.equal(undefined);
    expect(process.memoryUsage().arrayBuffers - before).to.be.below(8 << 20);
  });
});
