import { expect } from 'chai';
import type { Extraction } from '../../src/schema/engine.js';
import { packExtraction, unpackExtraction, unpackingExtraction } from '../../src/schema/extraction-pack.js';
import type { Provenance, ValueSource } from '../../src/schema/provenance.js';

const ref = (line: number, word: number, page = 0, file = 0) => ({ file, page, line, word });

/** Through a thread's message (structured clone), as the rules engine's answer comes back. */
function roundTrip(extraction: Extraction): Extraction {
  return unpackExtraction(structuredClone(packExtraction(extraction)));
}

/** Each pointer with its source's keys in order: what deep.equal does not compare. */
function keyOrders(provenance: Provenance): Array<[string, string[]]> {
  return [...provenance].map(([pointer, source]) => [pointer, [...Object.keys(source), ...source.words.flatMap((word) => Object.keys(word))]]);
}

describe('packExtraction', () => {
  it('unpacks to the same answer and provenance: words, scores, competitions and roles, in the same order', () => {
    const provenance: Provenance = new Map<string, ValueSource>([
      ['/invoice_number', { words: [ref(0, 1)], score: 1 }],
      ['/seller', { words: [ref(0, 0), ref(1, 0), ref(1, 1)], score: 0.75, competition: { rivals: 2, margin: 0.125 }, role: 'business-name' }],
      ['/address', { words: [ref(2, 0, 1, 3), ref(3, 2, 1, 3)], role: 'address' }],
      ['/total', { words: [ref(14, 2)], competition: { rivals: 0, margin: 1 } }],
      ['/note', { words: [] }],
      ['/line_items/0/amount', { words: [ref(20, 3)], score: Number.NaN }],
      ['/a~1b/~0', { words: [ref(2_000_000_000, 1)], score: -0 }],
    ]);
    const extraction: Extraction = { value: { invoice_number: 'RE-7', total: '76,20', line_items: [{ amount: undefined }], nested: { list: [1, null] } }, provenance };
    const back = roundTrip(extraction);
    expect(back.value).to.deep.equal(extraction.value);
    expect([...back.provenance]).to.deep.equal([...provenance]);
    expect(keyOrders(back.provenance)).to.deep.equal(keyOrders(provenance));
    expect(Object.is(back.provenance.get('/a~1b/~0')!.score, -0)).to.equal(true);
    expect(roundTrip({ value: {}, provenance: new Map() })).to.deep.equal({ value: {}, provenance: new Map() });
  });

  it('keeps a source of any other shape as it is: a field it does not know, keys in another order, an odd word', () => {
    const odd = [
      { words: [ref(1, 1)], score: 0.5, reason: 'a field added later' },
      { score: 0.5, words: [ref(1, 1)] },
      { words: [ref(1, 1)], score: undefined },
      { words: [{ ...ref(1, 1), note: 'x' }] },
      { words: [{ file: 0, page: 0, line: 1.5, word: 0 }] },
      { words: [{ file: 0, page: 0, line: -0, word: 0 }] },
      { words: [ref(1, 1)], competition: { margin: 0.5, rivals: 1 } },
      { words: [ref(1, 1)], competition: { rivals: 1, margin: 0.5, best: 2 } },
      { words: [ref(1, 1)], role: 7 },
    ] as unknown as ValueSource[];
    const provenance: Provenance = new Map([['/usual', { words: [ref(0, 0)], score: 0.9 }], ...odd.map((source, i): [string, ValueSource] => [`/odd/${i}`, source]), ['/after', { words: [ref(3, 0)], role: 'address' }]]);
    const back = roundTrip({ value: null, provenance });
    expect([...back.provenance]).to.deep.equal([...provenance]);
    expect(keyOrders(back.provenance)).to.deep.equal(keyOrders(provenance));
    expect(Object.is(back.provenance.get('/odd/5')!.words[0]!.line, -0)).to.equal(true);
    expect(back.provenance.get('/odd/2')).to.have.property('score');
  });

  it('unpacks a value of the provenance per step', () => {
    const provenance: Provenance = new Map(Array.from({ length: 300 }, (_, i): [string, ValueSource] => [`/rows/${i}`, { words: [ref(i, 0)] }]));
    const work = unpackingExtraction(packExtraction({ value: {}, provenance }));
    let steps = 0;
    let step = work.next();
    for (; !step.done; step = work.next()) steps++;
    expect(steps).to.equal(300);
    expect(step.value.provenance.get('/rows/299')).to.deep.equal({ words: [ref(299, 0)] });
  });
});
