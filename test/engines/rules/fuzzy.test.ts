import { expect } from 'chai';
import { levenshtein, matchPhraseAll, tokenRunStats, wordSimilarity, type PhraseMatch } from '../../../src/engines/rules/core/fuzzy.js';
import { tokenize, type Token } from '../../../src/meaning/words.js';
import { expectLinearGrowth } from '../../helpers/growth.js';

/** The textbook edit distance, the full table: what the banded one must agree with. */
function referenceDistance(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      table[i]![j] = Math.min(table[i - 1]![j]! + 1, table[i]![j - 1]! + 1, table[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return table[a.length]![b.length]!;
}

/** A fixed sequence of pseudo-random numbers (a test that fails fails again). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

describe('fuzzy label matching: edit distance', () => {
  it('agrees with the full table wherever the distance is within the limit, and says "beyond" otherwise', () => {
    const next = random(7);
    // a small alphabet makes near words common, so every band edge is crossed
    const word = () => Array.from({ length: Math.floor(next() * 12) }, () => 'abcd'[Math.floor(next() * 4)]).join('');
    for (let n = 0; n < 3000; n++) {
      const a = word();
      const b = word();
      const limit = Math.floor(next() * 6);
      const exact = referenceDistance(a, b);
      expect(levenshtein(a, b, limit), `${a} / ${b} within ${limit}`).to.equal(exact <= limit ? exact : limit + 1);
      expect(levenshtein(a, b), `${a} / ${b}`).to.equal(exact);
    }
  });

  it('word similarity is unchanged at and above the 0.75 every label match asks for, and 0 below', () => {
    expect(wordSimilarity('total', 't0tal')).to.equal(0.8);
    expect(wordSimilarity('rechnungsnummer', 'rechnungsnumer')).to.be.closeTo(1 - 1 / 15, 1e-9);
    expect(wordSimilarity('invoice', 'lnvoice')).to.be.closeTo(1 - 1 / 7, 1e-9);
    expect(wordSimilarity('abcdefgh', 'abcdefxy')).to.equal(0.75); // 2 of 8: just within
    expect(wordSimilarity('abcdefgh', 'abcdexyz')).to.equal(0); // 3 of 8: 0.625, below
  });

  it("word similarity is the edit distance's wherever it is 0.75 or more, and 0 elsewhere, also for words with digits and accents (the letter-kind bound rejects no near pair)", () => {
    const next = random(11);
    // letters that share a kind (a: 97, A-like 65, digit 1: 49 -> 1 and 17) and accented ones, so that the bound meets collisions
    const alphabet = 'abcqr1257éü';
    const word = () => Array.from({ length: 4 + Math.floor(next() * 9) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    let near = 0;
    for (let n = 0; n < 4000; n++) {
      const a = word();
      // half the pairs a few edits apart, so that similar pairs are common
      const b = n % 2 === 0 ? word() : a.slice(0, Math.floor(next() * a.length)) + alphabet[Math.floor(next() * alphabet.length)] + a.slice(Math.floor(next() * a.length) + 1);
      const longest = Math.max(a.length, b.length);
      const similarity = a === b ? 1 : 1 - referenceDistance(a, b) / longest;
      const contained = a !== b && (a.includes(b) || b.includes(a));
      if (contained || Math.min(a.length, b.length) < 4) continue;
      if (similarity >= 0.75) near++;
      expect(wordSimilarity(a, b), `${a} ${b}`).to.be.closeTo(similarity >= 0.75 ? similarity : 0, 1e-9);
    }
    expect(near).to.be.greaterThan(200);
  });

  it('a distance with a small limit costs time linear in the words\' length (was their product)', async () => {
    const word = (n: number, letter: string) => 'ab'.repeat(n / 2) + letter;
    // two long words, far apart: the band stops the search within a few rows
    await expectLinearGrowth((n) => {
      for (let i = 0; i < 20; i++) levenshtein(word(n, 'x'), word(n, 'y').split('').reverse().join(''), 3);
    }, 2_000);
  });
});

/** Phrase matching as written before its shortcuts (phrase shapes, letter kinds, the line's letters): every word, every run. */
function referenceMatches(tokens: readonly Token[], phrase: readonly string[]): PhraseMatch[] {
  const word = (printed: string, label: string): number => (/^(\p{L}{3,})\d$/u.exec(printed)?.[1] === label ? 0.95 : wordSimilarity(printed, label));
  const matches: PhraseMatch[] = [];
  for (let first = 0; first + phrase.length <= tokens.length; first++) {
    const similarities = phrase.map((label, k) => word(tokens[first + k]!.norm, label));
    if (similarities.every((similarity) => similarity >= 0.75)) matches.push({ score: similarities.reduce((a, b) => a + b, 0) / phrase.length, first, last: first + phrase.length });
  }
  const joinedPhrase = phrase.join('');
  if (joinedPhrase.length >= 5) {
    for (let size = Math.max(1, phrase.length - 1); size <= phrase.length + (joinedPhrase.length >= 8 ? 2 : 1); size++) {
      if (size === phrase.length) continue;
      for (let first = 0; first + size <= tokens.length; first++) {
        const joined = tokens.slice(first, first + size).map((token) => token.norm).join('');
        if (Math.abs(joined.length - joinedPhrase.length) > 0.25 * joinedPhrase.length) continue;
        const similarity = wordSimilarity(joined, joinedPhrase);
        if (similarity >= 0.85) matches.push({ score: similarity * 0.97, first, last: first + size });
      }
    }
  }
  return matches.sort((a, b) => b.score - a.score || a.first - b.first);
}

describe('fuzzy label matching: phrases', () => {
  it('finds the same matches as matching every word and every run would, on random lines and near phrases', () => {
    const next = random(5);
    // few letters (no label word of the tables is made of them), so that near words and broken words are common
    const letters = 'abcdor1';
    const word = () => Array.from({ length: 1 + Math.floor(next() * 8) }, () => letters[Math.floor(next() * letters.length)]).join('');
    let found = 0;
    for (let n = 0; n < 1500; n++) {
      const tokens = tokenize(Array.from({ length: 2 + Math.floor(next() * 8) }, word).join(' '));
      const from = Math.floor(next() * tokens.length);
      // a phrase from the line with a letter changed, or words of its own
      const phrase = n % 3 === 2
        ? [word(), word()]
        : tokens.slice(from, from + 1 + Math.floor(next() * 3)).map((token) => (next() < 0.5 ? token.norm : token.norm.slice(1) + letters[Math.floor(next() * letters.length)]));
      const expected = referenceMatches(tokens, phrase);
      found += expected.length;
      expect(matchPhraseAll(tokens, phrase), `${tokens.map((token) => token.norm).join(' ')} / ${phrase.join(' ')}`).to.deep.equal(expected);
    }
    expect(found).to.be.greaterThan(300);
  });


  it('prepares a token sequence once for every phrase matched on it, not once per phrase', () => {
    const tokens = tokenize('Rechnungs nummer: 4471   Sub total 9.00   Total due 12.00');
    const phrases = [['rechnungsnummer'], ['subtotal'], ['total', 'due'], ['invoice', 'number'], ['amount', 'due']];
    const before = tokenRunStats.prepared;
    const found = phrases.map((phrase) => matchPhraseAll(tokens, phrase)[0]);
    expect(tokenRunStats.prepared - before).to.equal(1);
    // across missing and extra spaces, as before
    expect(found.map((match) => match && [match.first, match.last])).to.deep.equal([[0, 2], [3, 5], [7, 9], undefined, undefined]);
  });
});
