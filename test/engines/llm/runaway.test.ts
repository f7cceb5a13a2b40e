import { expect } from 'chai';
import { loops, RunawayWatch } from '../../../src/engines/llm/backends/runaway.js';

describe('RunawayWatch: an answer stuck in a loop', () => {
  it('notices one character or a short piece repeated over a long stretch, as it is written', () => {
    const watch = new RunawayWatch();
    expect(watch.push('{"total": "100100000035-')).to.equal(false);
    let looped = false;
    for (let i = 0; i < 300 && !looped; i++) looped = watch.push('1');
    expect(looped).to.equal(true);
    expect(loops(`{"name": "${'Kuala Lumpur '.repeat(20)}`)).to.equal(true);
  });

  it('lets real answers through: long values, lists of similar rows, ordinary JSON', () => {
    const items = Array.from({ length: 30 }, (_, i) => `{"name": "Item ${i + 1}", "price": ${(i * 1.25).toFixed(2)}}`).join(', ');
    expect(loops(`{"items": [${items}]}`)).to.equal(false);
    expect(loops(`{"address": "${'12 Jalan Tampoi 7/4, Kawasan Perindustrian Tampoi, 81200 Johor Bahru, Johor. '.repeat(2)}"}`)).to.equal(false);
    expect(loops('0'.repeat(150))).to.equal(false);
  });
});
