import { expect } from 'chai';
import { combineSources, competitionAmong, PointerMoves, type Provenance, type ValueSource } from '../../src/schema/provenance.js';
import { expectLinearGrowth, LINEAR_GROWTH_LIMIT } from '../helpers/growth.js';

const word = (line: number, w = 0) => ({ file: 0, page: 0, line, word: w });

describe('provenance', () => {
  describe('competitionAmong', () => {
    const candidates = [
      { value: '9.00', score: 0.9 },
      { value: '9.00', score: 0.7 },
      { value: '12.00', score: 0.6 },
      { value: '3.00', score: 0.3 },
    ];

    it('counts distinct rival values and the margin to the strongest of them', () => {
      expect(competitionAmong(candidates[0]!, candidates, (c) => c.score, (c) => c.value)).to.deep.equal({ rivals: 2, margin: 0.9 - 0.6 });
      expect(competitionAmong(candidates[0]!, candidates.slice(0, 2), (c) => c.score, (c) => c.value)).to.deep.equal({ rivals: 0, margin: 1 });
    });

    it('weighs candidates of distinct values with work linear in their number (comparing each with each rival was quadratic: minutes for a long document)', () => {
      const candidates = (count: number) => Array.from({ length: count }, (_, i) => ({ value: `2024-01-${i}`, score: i / count }));
      // the work counted is the calls of the two callbacks (the quadratic version called its comparison for every pair);
      // CPU time here moved with V8's heap (a Set of 100,000 keys) more than with the algorithm: 6-10x for 4x the values
      let calls = 0;
      const weigh = (many: ReturnType<typeof candidates>) =>
        competitionAmong(many[many.length - 1]!, many, (c) => (calls++, c.score), (c) => (calls++, c.value));
      const workFor = (count: number) => {
        calls = 0;
        weigh(candidates(count));
        return calls;
      };
      const small = workFor(25_000);
      const large = workFor(100_000);
      expect(large / small, `callback calls ${small} for 25,000 values, ${large} for 100,000`).to.be.below(LINEAR_GROWTH_LIMIT);
      const competition = weigh(candidates(100_000));
      expect(competition.rivals).to.equal(99_999);
      expect(competition.margin).to.be.closeTo(0.00001, 1e-9);
    });
  });

  describe('PointerMoves', () => {
    it('moves a value with its own move, and what lies under a subtree move along with it', () => {
      const moves = new PointerMoves();
      moves.move('/total', '/Total');
      moves.move('/extra', '/loose', true);
      const provenance: Provenance = new Map([
        ['/Total', { words: [word(1)] }],
        ['/loose/a/b', { words: [word(2)] }],
        ['/gone', { words: [word(3)] }],
      ]);
      expect([...moves.apply(provenance)]).to.deep.equal([
        ['/total', { words: [word(1)] }],
        ['/extra/a/b', { words: [word(2)] }],
      ]);
    });

    it('keeps the words of every value that became one, once each, and the weakest score', () => {
      const moves = new PointerMoves();
      moves.move('/names', '/names/0');
      moves.move('/names', '/names/1');
      const provenance: Provenance = new Map<string, ValueSource>([
        ['/names/0', { words: [word(1), word(2)], score: 0.9 }],
        ['/names/1', { words: [word(2), word(3)], score: 0.6 }],
      ]);
      expect(moves.apply(provenance).get('/names')).to.deep.equal({ words: [word(1), word(2), word(3)], score: 0.6 });
    });

    it('moves list items, each a subtree, and joins values into one in time linear in their number (each pointer tried every subtree, each join copied all words)', async () => {
      const movesOf = (items: number) => {
        const subtrees = new PointerMoves();
        const joined = new PointerMoves();
        const provenance: Provenance = new Map();
        for (let i = 0; i < items; i++) {
          subtrees.move(`/rows/${i}`, `/items/${i}`, true);
          joined.move('/text', `/items/${i}/name`);
          provenance.set(`/items/${i}/name`, { words: [word(i)] });
        }
        return { subtrees, joined, provenance };
      };
      const sizes = new Map([10_000, 40_000].map((items) => [items, movesOf(items)]));
      const apply = ({ subtrees, joined, provenance }: ReturnType<typeof movesOf>) => ({ moved: subtrees.apply(provenance), text: joined.apply(provenance).get('/text') });
      // the pairwise versions take hours for 100,000 items
      await expectLinearGrowth((items) => apply(sizes.get(items)!), 10_000);
      const { moved, text } = apply(sizes.get(40_000)!);
      expect(moved.get('/rows/39999/name')).to.deep.equal({ words: [word(39_999)] });
      expect(text?.words).to.have.length(40_000);
    });
  });

  it('combineSources joins two readings of one value', () => {
    expect(combineSources([{ words: [word(1)] }, { words: [word(1), word(2)], score: 0.5 }])).to.deep.equal({ words: [word(1), word(2)], score: 0.5 });
  });
});
