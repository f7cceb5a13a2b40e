import { expect } from 'chai';
import { jsonFitsIn } from '../../src/util/json-fits.js';

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('jsonFitsIn', () => {
  const samples: unknown[] = [
    { ticket: 'A-1', tags: ['x', 'ÿ€😀'], nested: { n: 12.5, ok: true, none: null, skipped: undefined }, list: [1, undefined, 'z'] },
    [],
    {},
    'plain',
    { 'ke"y': 'va\nlue', date: new Date(0) },
  ];
  for (const [i, sample] of samples.entries()) {
    it(`agrees with Buffer.byteLength(JSON.stringify(...)) at the exact limit, sample ${i}`, () => {
      const size = bytesOf(sample);
      expect(jsonFitsIn(sample, size)).to.equal(true);
      expect(jsonFitsIn(sample, size - 1)).to.equal(false);
    });
  }

  it('stops reading a huge value soon after the limit: 1,000,000 values read no more than a limit\'s worth', () => {
    let reads = 0;
    const values = new Array(1_000_000).fill(7);
    const counted = new Proxy(values, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    expect(jsonFitsIn({ values: counted }, 16 * 1024)).to.equal(false);
    // "7," is two bytes a value: ~8,192 values fill 16 KB.
    expect(reads).to.be.within(8_000, 8_300);
  });

  it('refuses a string longer than the limit, as a value or as a key, without measuring it', () => {
    expect(jsonFitsIn({ note: 'x'.repeat(40_000_000) }, 16 * 1024)).to.equal(false);
    expect(jsonFitsIn({ ['k'.repeat(40_000_000)]: 1 }, 16 * 1024)).to.equal(false);
  });

  it('counts what JSON.stringify writes for values it leaves out or writes as null', () => {
    for (const sample of [undefined, [undefined, () => 1, Symbol('s')], { a: undefined, b: () => 1 }, { d: { toJSON: () => undefined } }]) {
      const text = JSON.stringify(sample) ?? 'null';
      expect(jsonFitsIn(sample, Buffer.byteLength(text)), text).to.equal(true);
      expect(jsonFitsIn(sample, Buffer.byteLength(text) - 1), text).to.equal(false);
    }
  });
});
