import { expect } from 'chai';
import { hintsFor, splitName } from '../../../src/engines/rules/core/labels.js';
import { RulesEngine } from '../../../src/engines/rules/index.js';
import { parseNumber } from '../../../src/extract/coerce.js';
import { buildDocument } from '../../helpers/document-builder.js';
import { extractFinal } from '../../helpers/extraction.js';

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
  ['Corp', 'city-and-postcode patterns rescanning a run of letters from each letter'],
  ['x', 'the e-mail pattern rescanning a run of name characters'],
  ['Inc. ', 'the sentence splitter rereading everything since the last sentence end'],
  ['No. ', 'the sentence splitter, through "No." abbreviations'],
  ['12:00 ', 'times compared pairwise for ranges'],
  ['Reg No ', 'tokens before each label found by filtering the whole line'],
  ['for a period of two (2) years ', 'every duration of a sentence weighed against every cue in it, counting the words between by filtering all of them'],
  ['effective as of June 3, 2011 ', 'every date of a sentence weighed against every cue in it, and the sentence before each searched for a cited document'],
  ['governed by the laws of ', 'the rest of the sentence read for a place name after every cue'],
];

describe('rules engine on very long lines', function () {
  const LENGTH = 100_000;
  /** Four times the text may take at most this many times as long: linear is 4, the quadratic versions were 16 and more. */
  const MAX_GROWTH = 10;

  /** Milliseconds to read three lines of `token` repeated to `length` characters. */
  async function readingTime(token: string, length: number): Promise<number> {
    const text = token.repeat(Math.ceil(length / token.length)).slice(0, length);
    const document = buildDocument([text, `Total: ${text}`, `This Agreement is governed by the laws of ${text}`]);
    const started = performance.now();
    await extractFinal(new RulesEngine(), document, SCHEMA);
    return performance.now() - started;
  }

  for (const [token, cause] of TOKENS) {
    it(`reads three ${LENGTH}-character lines of ${JSON.stringify(token)} in linear time (was: ${cause})`, async function () {
      this.timeout(120_000);
      // the quarter length twice, the faster counting: a busy machine slows a run, never speeds it up
      const quarter = Math.min(await readingTime(token, LENGTH / 4), await readingTime(token, LENGTH / 4));
      const full = await readingTime(token, LENGTH);
      expect(full / quarter, `${Math.round(quarter)} ms for a quarter, ${Math.round(full)} ms for all`).to.be.below(MAX_GROWTH);
    });
  }
});

describe('rules engine on a long run of quotes', () => {
  it('reads the parties of a 300,000-character opening clause with an unclosed bracket of quotes in linear time (the role-label pattern backtracked over every quote: a minute)', async function () {
    this.timeout(120_000);
    const document = buildDocument([`This Agreement is made between Acme Inc. (${'"'.repeat(300_000)}`]);
    const schema = { type: 'object', properties: { parties: SCHEMA.properties.parties } };
    const started = performance.now();
    const { value } = await extractFinal(new RulesEngine(), document, schema);
    expect(performance.now() - started).to.be.below(10_000);
    expect(value.parties).to.deep.equal(['Acme Inc.']);
  });
});

describe('rules engine on very long schema text', () => {
  it('reads hints from a name and a description of 200,000 capitals in linear time (splitting "HTMLParser" was quadratic)', function () {
    this.timeout(60_000);
    const long = 'Q'.repeat(200_000);
    const started = performance.now();
    const hints = hintsFor(long, `${long} with ${'with '.repeat(40_000)}`);
    expect(performance.now() - started).to.be.below(2000);
    expect(hints.nameWords).to.have.length(1);
    expect(splitName('XMLHttpRequest')).to.deep.equal(['xml', 'http', 'request']);
  });
});

describe('parseNumber on long text', () => {
  it('answers null for 100,000 digits and an "e" at once (the scientific-notation pattern was quadratic)', function () {
    this.timeout(60_000);
    const started = performance.now();
    expect(parseNumber(`${'1'.repeat(100_000)}e`)).to.equal(null);
    expect(parseNumber(`${'1 '.repeat(50_000)}x`)).to.equal(null);
    expect(performance.now() - started).to.be.below(1000);
    expect(parseNumber('RM 1,234.50')).to.equal(1234.5);
    expect(parseNumber('1.5e3')).to.equal(1500);
  });
});
