import { expect } from 'chai';
import { combineSources, competitionAmong, PointerMoves, type Provenance, type ValueSource } from '../../src/extract/provenance.js';

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

    it('weighs 100,000 candidates of distinct values at once (comparing each with each rival was quadratic: minutes for a long document)', () => {
      const many = Array.from({ length: 100_000 }, (_, i) => ({ value: `2024-01-${i}`, score: i / 100_000 }));
      const started = performance.now();
      const competition = competitionAmong(many[99_999]!, many, (c) => c.score, (c) => c.value);
      expect(performance.now() - started).to.be.below(1000);
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

    it('moves 100,000 list items, each a subtree, and joins 100,000 values into one at once (each pointer tried every subtree, each join copied all words)', () => {
      const items = 100_000;
      const subtrees = new PointerMoves();
      const joined = new PointerMoves();
      const provenance: Provenance = new Map();
      for (let i = 0; i < items; i++) {
        subtrees.move(`/rows/${i}`, `/items/${i}`, true);
        joined.move('/text', `/items/${i}/name`);
        provenance.set(`/items/${i}/name`, { words: [word(i)] });
      }
      const started = performance.now();
      const moved = subtrees.apply(provenance);
      const text = joined.apply(provenance).get('/text');
      // about a second here; the pairwise versions take hours
      expect(performance.now() - started).to.be.below(5000);
      expect(moved.get('/rows/99999/name')).to.deep.equal({ words: [word(99_999)] });
      expect(text?.words).to.have.length(items);
    });
  });

  it('combineSources joins two readings of one value', () => {
    expect(combineSources([{ words: [word(1)] }, { words: [word(1), word(2)], score: 0.5 }])).to.deep.equal({ words: [word(1), word(2)], score: 0.5 });
  });
});
