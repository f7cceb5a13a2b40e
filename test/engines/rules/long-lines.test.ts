import { expect } from 'chai';
import { hintsFor } from '../../../src/engines/rules/core/labels.js';
import { splitName } from '../../../src/meaning/words.js';
import { RulesEngine } from '../../../src/engines/rules/index.js';
import { parseNumber } from '../../../src/schema/coerce.js';
import { buildDocument } from '../../helpers/document-builder.js';
import { extractFinal } from '../../helpers/extraction.js';
import { expectLinearGrowth } from '../../helpers/growth.js';

/** Every kind of value the rules engine looks for, so that every one of its patterns reads the long lines. */
const SCHEMA = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string', description: 'Invoice number' },
    date: { type: 'string', description: 'Invoice date as YYYY-MM-DD' },
    time: { type: 'string', format: 'time' },
    email: { type: 'string', format: 'email' },
    website: { type: 'string', format: 'uri' },
    phone: { type: 'string', description: 'Phone number' },
    total: { type: 'number', description: 'Total amount' },
    company: { type: 'string', description: 'Company name' },
    address: { type: 'string', description: 'Store address' },
    disclosing_party: { type: 'string', description: 'The disclosing party' },
    governing_law: { type: 'string', description: 'State whose laws govern the agreement' },
    term: { type: 'string', description: 'Term duration' },
    effective_date: { type: 'string', format: 'date', description: 'Date from which the agreement is effective' },
    parties: { type: 'array', items: { type: 'string' }, description: 'Names of all parties to the agreement' },
    items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } },
  },
};

/** Tokens that made a pattern or a loop of the engine quadratic in the length of a line, each named after what it hit. */
const TOKENS: Array<[string, string]> = [
  ['Corp', 'the two-word legal-form repair rescanning the rest of a line without spaces from each letter: 34 s for 100,000 characters'],
  ['x', 'the two-word legal-form repair, as for "Corp"; before that the e-mail pattern rescanning a run of name characters'],
  ['Inc. ', 'the sentence splitter rereading everything since the last sentence end'],
  ['No. ', 'the sentence splitter, through "No." abbreviations'],
  ['12:00 ', 'times compared pairwise for ranges'],
  ['Reg No ', 'tokens before each label found by filtering the whole line'],
  ['for a period of two (2) years ', 'every duration of a sentence weighed against every cue in it, counting the words between by filtering all of them'],
  ['effective as of June 3, 2011 ', 'every date of a sentence weighed against every cue in it, and the sentence before each searched for a cited document'],
  ['governed by the laws of ', 'the rest of the sentence read for a place name after every cue'],
];

/** Three lines of `length` characters of `token`: alone, after a total label and in a governing-law clause. */
function longLines(token: string, length: number) {
  const text = token.repeat(Math.ceil(length / token.length)).slice(0, length);
  return buildDocument([text, `Total: ${text}`, `This Agreement is governed by the laws of ${text}`]);
}

// Each test compares the CPU time of the engine on lines of n and of 4n characters in one run: linear work grows
// about 4 times, the quadratic versions 12 to 19 times at these lengths (with the repair's pattern: 158 -> 2956 ms).
describe('rules engine on very long lines', function () {
  this.timeout(180_000);
  const LENGTH = 20_000;

  for (const [token, cause] of TOKENS) {
    it(`reads three lines of ${JSON.stringify(token)} in time linear in their length (was: ${cause})`, async () => {
      await expectLinearGrowth((length) => extractFinal(new RulesEngine(), longLines(token, length), SCHEMA), LENGTH);
    });
  }
});

describe('rules engine on a long run of quotes', () => {
  it('reads the parties of an opening clause with an unclosed bracket of quotes in time linear in their number (the role-label pattern backtracked over every quote: a minute for 300,000)', async function () {
    this.timeout(180_000);
    const schema = { type: 'object', properties: { parties: SCHEMA.properties.parties } };
    const opening = (quotes: number) => buildDocument([`This Agreement is made between Acme Inc. (${'"'.repeat(quotes)}`]);
    await expectLinearGrowth((quotes) => extractFinal(new RulesEngine(), opening(quotes), schema), 20_000);
    const { value } = await extractFinal(new RulesEngine(), opening(1000), schema);
    expect(value.parties).to.deep.equal(['Acme Inc.']);
  });
});

describe('rules engine on very long schema text', () => {
  it('reads hints from a name and a description of capitals in time linear in their length (splitting "HTMLParser" was quadratic)', async function () {
    this.timeout(60_000);
    const hintsOfLength = (length: number) => {
      const long = 'Q'.repeat(length);
      return hintsFor(long, `${long} with ${'with '.repeat(length / 5)}`);
    };
    await expectLinearGrowth(hintsOfLength, 10_000);
    expect(hintsOfLength(1000).nameWords).to.have.length(1);
    expect(splitName('XMLHttpRequest')).to.deep.equal(['xml', 'http', 'request']);
  });
});

describe('parseNumber on long text', () => {
  it('answers null for long runs of digits before an "e" or an "x" in time linear in their length (the scientific-notation pattern was quadratic)', async function () {
    this.timeout(60_000);
    const parseLong = (length: number) => {
      expect(parseNumber(`${'1'.repeat(length)}e`)).to.equal(null);
      expect(parseNumber(`${'1 '.repeat(length / 2)}x`)).to.equal(null);
    };
    await expectLinearGrowth(parseLong, 5000);
    expect(parseNumber('RM 1,234.50')).to.equal(1234.5);
    expect(parseNumber('1.5e3')).to.equal(1500);
  });
});
