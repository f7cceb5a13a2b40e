import { expect } from 'chai';
import { durationInUnit, findDurations, wantsNumberUnit } from '../../../src/engines/rules/prose/durations.js';
import { numberFromWords } from '../../../src/util/number-words.js';

describe('rules engine: durations', () => {
  it('reads spelled-out, bracketed and digit counts with the unit as written', () => {
    const text = 'for two (2) years, then eighteen months, a 12-month period, twenty-four (24) months and 3 weeks';
    expect(findDurations(text).map((d) => d.value)).to.deep.equal(['2 years', '18 months', '12 months', '24 months', '3 weeks']);
  });

  it('trusts the digits in brackets over the words', () => {
    expect(findDurations('a period of three (5) years')[0]?.value).to.equal('5 years');
  });

  it('uses the singular for one', () => {
    expect(findDurations('for one (1) year')[0]?.value).to.equal('1 year');
  });

  it('does not read a number word inside another word', () => {
    expect(findDurations('someone years ago')).to.deep.equal([]);
    expect(findDurations('eighteen months')[0]?.count).to.equal(18);
  });

  it('keeps a business-day qualifier', () => {
    expect(findDurations('within five business days of the request')[0]).to.include({ value: '5 business days', role: 'deadline' });
  });

  it('tells notice periods apart from periods', () => {
    expect(findDurations("upon thirty (30) days' prior written notice")[0]?.role).to.equal('notice');
    expect(findDurations('on 60 days notice to the other party')[0]?.role).to.equal('notice');
    expect(findDurations('for a period of three (3) years')[0]?.role).to.equal('period');
  });

  it('reads an anniversary as a count of years', () => {
    expect(findDurations('will terminate on the second anniversary of the date hereof')[0]).to.include({ value: '2 years', count: 2, unit: 'year' });
  });

  it('spells numbers only up to ninety-nine', () => {
    expect(numberFromWords('twenty-four')).to.equal(24);
    expect(numberFromWords('ninety nine')).to.equal(99);
    expect(numberFromWords('many')).to.equal(undefined);
  });

  it('converts to the unit a numeric property asks for, only exactly', () => {
    const [twoYears] = findDurations('two (2) years');
    expect(durationInUnit(twoYears!, 'Term in months')).to.equal(24);
    expect(durationInUnit(twoYears!, 'Term in years')).to.equal(2);
    expect(durationInUnit(twoYears!, 'Term in days')).to.equal(undefined);
  });

  it('knows when a description asks for "<number> <unit>"', () => {
    expect(wantsNumberUnit("normalised to '<number> <unit>'")).to.equal(true);
    expect(wantsNumberUnit("e.g. '3 years', '12 months'")).to.equal(true);
    expect(wantsNumberUnit('Payment terms as printed')).to.equal(false);
  });
});
