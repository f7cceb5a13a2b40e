import { expect } from 'chai';
import { ContainingLines } from '../../src/util/containing-lines.js';
import { runSync } from '../../src/util/paced.js';
import { expectLinearGrowth } from '../helpers/growth.js';
import { seededRandom } from '../helpers/seeded-random.js';

function counted(texts: string[], lines: string[], cap: number): ContainingLines {
  const index = runSync(ContainingLines.building(texts, cap, { keepLines: true }));
  for (const line of lines) index.read(line);
  return index;
}

describe('ContainingLines', () => {
  it('counts the lines that contain each text, and keeps which, as a search of every line for it does, up to the cap', () => {
    const next = seededRandom(7);
    // a small alphabet makes texts that contain each other, overlap and repeat within a line; one of many letters makes a node of many children
    const word = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let round = 0; round < 40; round++) {
      const alphabet = round % 4 === 3 ? 'abcdefghijklmnopqrstuvwxyzäöüß0123456789' : 'ab1';
      const texts = Array.from({ length: 30 }, () => word(alphabet, 1 + Math.floor(next() * 5)));
      const lines = Array.from({ length: 60 }, () => word(alphabet, Math.floor(next() * 30)));
      const cap = 1 + Math.floor(next() * 70);
      const index = counted(texts, lines, cap);
      for (const text of texts) {
        const containing = lines.flatMap((line, place) => (line.includes(text) ? [place] : []));
        expect(index.count(text), `"${text}" in ${JSON.stringify(lines)}, cap ${cap}`).to.equal(Math.min(cap, containing.length));
        expect(index.lines(text)).to.deep.equal(containing.slice(0, cap));
      }
    }
  });

  it('counts a line once however often it holds a text, and knows only the texts it was given', () => {
    const index = counted(['aa', 'a', 'abc', 'bc', 'c', '€€'], ['aaaa', 'xabcx', 'cbc', '', 'x€€€x'], 10);
    expect(['aa', 'a', 'abc', 'bc', 'c', '€€'].map((text) => index.count(text))).to.deep.equal([1, 2, 1, 2, 2, 1]);
    expect(index.count('b')).to.equal(undefined);
  });

  it('grows linearly with the lines and the texts, even when every line holds every text (n vs 4n)', async () => {
    const table = (rows: number) => ({ texts: Array.from({ length: rows }, (_, i) => `article${i + 1}`), lines: Array.from({ length: rows }, (_, i) => `article${i + 1}${1 + (i % 5)}500${i % 7}000pcs`) });
    // every line the same 120 letters, and the texts as many different pieces of them: without the cap, rows times rows counts
    const next = seededRandom(11);
    const print = Array.from({ length: 120 }, () => 'abcd'[Math.floor(next() * 4)]).join('');
    const pieces = [...new Set(Array.from({ length: 118 }, (_, from) => Array.from({ length: 120 - from - 2 }, (_, extra) => print.slice(from, from + 3 + extra))).flat())];
    const samePrint = (rows: number) => ({ texts: pieces.slice(0, rows), lines: Array.from({ length: rows }, () => print) });
    expect(pieces.length).to.be.above(4000);
    for (const shape of [table, samePrint]) {
      const inputs = new Map([1000, 4000].map((rows) => [rows, shape(rows)]));
      await expectLinearGrowth((rows) => {
        const { texts, lines } = inputs.get(rows)!;
        return counted(texts, lines, 64);
      }, 1000);
    }
  });
});
