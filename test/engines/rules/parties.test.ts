import { expect } from 'chai';
import { readLines } from '../../../src/engines/rules/core/lines.js';
import { isNameLike, nameRuns } from '../../../src/engines/rules/prose/names.js';
import { readParties } from '../../../src/engines/rules/prose/parties.js';
import { buildDocument, type LineSpec } from '../../helpers/document-builder.js';

function parties(lines: Array<string | LineSpec>): string[] {
  return readParties(readLines(buildDocument(lines))).map((party) => String(party.value));
}

describe('rules engine: parties of an agreement', () => {
  it('reads the "by and between" clause without descriptions, addresses and role labels', () => {
    expect(parties([
      'THIS AGREEMENT (the "Agreement") is made by and between Shore Pharmaceuticals, Inc., a Delaware corporation having its office at',
      '725 Main Boulevard, Wayne, PA 19087 ("SHORE"), K.L.M. Advisory LLC, 28 State Street, Boston, Massachusetts 02109 ("KLM"), and',
      'Joseph Carter, a resident of Westmount, Quebec ("Executive") (each a "Party" and together the "Parties").',
    ])).to.deep.equal(['Shore Pharmaceuticals, Inc.', 'K.L.M. Advisory LLC', 'Joseph Carter']);
  });

  it('skips "on the one hand" and a blank party of a form', () => {
    expect(parties(['This Agreement is entered into between Redwood Coffee, Inc. ("Redwood"), on the one hand, and Green Valley Roasters, Inc. ("Green"), on the other.'])).to.deep.equal([
      'Redwood Coffee, Inc.',
      'Green Valley Roasters, Inc.',
    ]);
    expect(parties(['AGREEMENT made this day of 20 , between Delta Systems, Inc., and its affiliates and assigns (the "Company"), and , residing at ("Employee").'])).to.deep.equal([
      'Delta Systems, Inc.',
    ]);
  });

  it('reads a plain "between X and Y" / "entered into by X and Y" list', () => {
    expect(parties(['This letter sets out the understanding between Acme Corp. and Jane Q. Public regarding the project.'])).to.deep.equal(['Acme Corp.', 'Jane Q. Public']);
    expect(parties(['This Agreement is dated 1st June 2011 and is entered into by Orion Labs Corp. and Maria Lopez.'])).to.deep.equal(['Orion Labs Corp.', 'Maria Lopez']);
  });

  it('prefers the clause with role labels over a title that cites another contract', () => {
    expect(parties([
      'EMPLOYMENT CONTRACT BETWEEN ORBIT SOLAR, INC. AND BOB SMITH, DATED JULY 10, 2006',
      'This Agreement is entered into by and between Orbit Solar, Inc. ("Company") and Robert Smith ("Recipient").',
    ])).to.deep.equal(['Orbit Solar, Inc.', 'Robert Smith']);
  });

  it('falls back on signature blocks, column by column, without the signatories', () => {
    expect(parties([
      'We look forward to working with you on the proposed transaction and to receiving your response.',
      'Very truly yours,',
      'ENPATH MEDICAL, INC.',
      'By: /s/ James Hartman',
      'Name: James Hartman',
      { cells: [{ text: 'EMPLOYEE', x: 40 }, { text: 'IDEX CORPORATION', x: 300 }] },
      { cells: [{ text: 'By:', x: 300 }] },
    ])).to.deep.equal(['ENPATH MEDICAL, INC.', 'IDEX CORPORATION']);
  });

  it('reads names introduced with a role label when there is no "between"', () => {
    expect(parties([
      'The Regents of The University of Michigan, a constitutional corporation of The State of Michigan (hereinafter referred to as "MICHIGAN") and',
      'Genesis Bioventures, Inc., with offices located at 1A 3033 King George Hwy, Surrey, BC (hereinafter referred to as "COMPANY") each possess',
      'certain information relating to MICHIGAN research (hereinafter referred to as "Confidential Information").',
    ])).to.deep.equal(['The Regents of The University of Michigan', 'Genesis Bioventures, Inc.']);
  });

  it('returns each party once', () => {
    expect(parties(['Agreement between ACME, INC. ("Acme") and Beta LLC ("Beta").', 'ACME INC.', 'By: /s/ J. Doe'])).to.deep.equal(['ACME, INC.', 'Beta LLC']);
  });
});

describe('rules engine: names in prose', () => {
  it('keeps legal forms and initials, stops at descriptions, quotes and sentence ends', () => {
    const runs = nameRuns('with Sun Energy Solar, Inc., a Delaware company, and L.E.K. Consulting LLC ("LEK"). Then Mr. John F. Bryant signed.');
    expect(runs.filter(isNameLike).map((r) => r.text)).to.deep.equal(['Sun Energy Solar, Inc.', 'L.E.K. Consulting LLC', 'Mr. John F. Bryant']);
  });

  it('does not take role labels for names', () => {
    expect(nameRuns('the Receiving Party and The Company and Executive').filter(isNameLike)).to.deep.equal([]);
  });
});
