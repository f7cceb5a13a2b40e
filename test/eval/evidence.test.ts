import { expect } from 'chai';
import { bestApproximateMatch, buildEvidenceIndex, fieldEvidence } from '../../scripts/eval/evidence.js';
import { renderLayoutText } from '../../src/ingest/layout.js';
import { buildDocument } from '../helpers/document-builder.js';

const RECEIPT = [
  'AEON CO. (M) BHD',
  '3RD FLR, AEON TAMAN MALURI SD JLN JEJAKA, TAMAN MALURI',
  'CHERAS, 55100 KUALA LUMPUR',
  'DATE: 2018-03-06   TIME 10:15',
  'SUBTOTAL      RM 71.50',
  'TOTAL         RM 75.00',
  'CASH          RM 100.00',
];

/** The evidence index of lines as the pipeline renders them (file "r.jpg", page marker included). */
function indexOf(lines: string[]) {
  return buildEvidenceIndex(renderLayoutText(buildDocument(lines, { filename: 'r.jpg' })));
}

describe('eval evidence recall', () => {
  const index = indexOf(RECEIPT);

  it('finds an amount despite the RM prefix and missing decimals in the label', () => {
    expect(fieldEvidence(index, 'total', 'amount', '75.00', 'day-first')[0]?.found).to.equal(true);
    expect(fieldEvidence(index, 'total', 'amount', 'RM75', 'day-first')[0]?.found).to.equal(true);
  });

  it('misses an absent amount and shows the closest ones', () => {
    const [item] = fieldEvidence(index, 'total', 'amount', '75.60', 'day-first');
    expect(item?.found).to.equal(false);
    expect(item?.context).to.contain('75.00');
  });

  it('does not take a bare integer (a quantity, a page number) as a two-decimal amount', () => {
    expect(fieldEvidence(indexOf(['QTY 9  ITEM']), 'total', 'amount', '9.00', 'day-first')[0]?.found).to.equal(false);
  });

  it('finds a date printed in a different format', () => {
    expect(fieldEvidence(index, 'date', 'date', '06/03/2018', 'day-first')[0]?.found).to.equal(true);
    expect(fieldEvidence(index, 'date', 'date', '6 Mar 2018', 'day-first')[0]?.found).to.equal(true);
  });

  it('misses a date that is not there', () => {
    expect(fieldEvidence(index, 'date', 'date', '07/03/2018', 'day-first')[0]?.found).to.equal(false);
  });

  it('finds strings regardless of spacing and punctuation', () => {
    expect(fieldEvidence(index, 'company', 'name', 'AEON CO (M) BHD', 'day-first')[0]?.found).to.equal(true);
  });

  it('finds long strings approximately, across lines, but not short ones', () => {
    const address = '3RD FLR, AEON TAMAN MALURI SD JLN JEJAKA, TAMAN MALURI CHERAS, 55100 KUALA LUMPUR';
    const [exact] = fieldEvidence(index, 'address', 'name', address, 'day-first');
    expect(exact?.found).to.equal(true);
    const [fuzzy] = fieldEvidence(index, 'address', 'name', address.replace('MALURI SD', 'MALURl 5D').replace('KUALA', 'KUALLA'), 'day-first');
    expect(fuzzy?.found).to.equal(true);
    const [short] = fieldEvidence(index, 'company', 'name', 'AEQN CO', 'day-first');
    expect(short?.found).to.equal(false);
  });

  it('misses an absent string and ignores the page marker', () => {
    expect(fieldEvidence(index, 'company', 'name', 'MR D.I.Y. (JOHOR) SDN BHD', 'day-first')[0]?.found).to.equal(false);
    expect(fieldEvidence(index, 'file', 'text', 'file 1', 'day-first')[0]?.found).to.equal(false);
    expect(fieldEvidence(index, 'file', 'text', 'r.jpg', 'day-first')[0]?.found).to.equal(false);
  });

  it('checks list items one by one', () => {
    const items = fieldEvidence(indexOf(['between Perceptron, Inc. and the investor']), 'party', 'name-list', ['Perceptron Inc.', 'Harbert Discovery Fund LP'], 'day-first');
    expect(items.map((item) => item.found)).to.deep.equal([true, false]);
  });

  it('finds a credit whatever its sign is printed like', () => {
    for (const printed of ['-8,79', '8,79-', '8,79 €']) {
      expect(fieldEvidence(indexOf([`Bruttosumme   ${printed}`]), 'total', 'amount', '-8.79', 'day-first')[0]?.found, printed).to.equal(true);
    }
    expect(fieldEvidence(indexOf(['Bruttosumme   8,97']), 'total', 'amount', '-8.79', 'day-first')[0]?.found).to.equal(false);
  });

  it('locates the best approximate window', () => {
    const best = bestApproximateMatch('kualalumpur', 'xxxxkualalumpxrxxxx');
    expect(best.distance).to.equal(1);
    expect('xxxxkualalumpxrxxxx'.slice(best.start, best.end)).to.equal('kualalumpxr');
  });
});
