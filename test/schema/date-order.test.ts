import { expect } from 'chai';
import { resolveDateOrder, resolvingDateOrder } from '../../src/schema/date-order.js';
import { findDates, findDateSpans } from '../../src/schema/dates.js';
import { buildDocument } from '../helpers/document-builder.js';

describe('resolveDateOrder', () => {
  const ambiguous = ['Date: 03/04/2024', 'Paid 05.06.24'];

  it('takes an explicit order as it is', () => {
    expect(resolveDateOrder('mdy', 'dmy', buildDocument(['Date: 25/03/2024']))).to.equal('mdy');
    expect(resolveDateOrder('dmy', 'mdy', buildDocument(['Date: 03/25/2024']))).to.equal('dmy');
  });

  it('auto: a date that can only be read one way settles the order for the document', () => {
    expect(resolveDateOrder('auto', 'dmy', buildDocument([...ambiguous, 'Due 03/25/2024']))).to.equal('mdy');
    expect(resolveDateOrder('auto', 'mdy', buildDocument([...ambiguous, 'Due 25-03-2024']))).to.equal('dmy');
    // on another page, in a two-digit year form
    expect(resolveDateOrder('auto', 'dmy', buildDocument([ambiguous, ['12/31/19']]))).to.equal('mdy');
  });

  it('auto: the fallback when nothing settles it, or as much points either way', () => {
    expect(resolveDateOrder('auto', 'dmy', buildDocument(ambiguous))).to.equal('dmy');
    expect(resolveDateOrder('auto', 'mdy', buildDocument(ambiguous))).to.equal('mdy');
    expect(resolveDateOrder('auto', 'mdy', buildDocument(['25/03/2024', '03/25/2024']))).to.equal('mdy');
  });

  it('auto: is not fooled by what only looks like a date (impossible days, ISO dates, amounts)', () => {
    expect(resolveDateOrder('auto', 'dmy', buildDocument(['2024-03-25', '31/02/2024 is no date', 'Total 13.25.2024x']))).to.equal('dmy');
    expect(resolveDateOrder('auto', 'dmy', buildDocument(['Ref 13/13/2024']))).to.equal('dmy');
  });
});

describe('findDates and findDateSpans', () => {
  const text = 'Issued 03/04/2024, due 25.04.24, delivered March 5, 2024 and 13/13/2024 is none';

  it('findDates reads a date both ways of which are days in the order it is given, and the others as their numbers settle', () => {
    const days = (dayFirst: boolean) => findDates(text, { dayFirst }).map(({ parts }) => `${parts.year}-${parts.month}-${parts.day}`);
    expect(days(true)).to.deep.equal(['2024-4-3', '2024-4-25', '2024-3-5']);
    expect(days(false)).to.deep.equal(['2024-3-4', '2024-4-25', '2024-3-5']);
  });

  it('findDateSpans finds where dates are printed, the same whichever the order', () => {
    const spans = findDateSpans(text);
    expect(spans.map((span) => span.text)).to.deep.equal(['03/04/2024', '25.04.24', 'March 5, 2024']);
    for (const dayFirst of [true, false]) expect(findDates(text, { dayFirst }).map(({ text: printed, index }) => ({ text: printed, index }))).to.deep.equal(spans);
  });

  it('reads a document\'s dates a line per unit, so that a long one gives the loop back (n vs 4n)', () => {
    const unitsOf = (lines: number) => {
      const document = buildDocument([...Array.from({ length: lines }, (_, i) => `x ${i}`), 'Due 03/25/2024']);
      const work = resolvingDateOrder('auto', 'dmy', document);
      let units = 0;
      let step = work.next();
      for (; !step.done; step = work.next()) units++;
      expect(step.value).to.equal('mdy');
      return units;
    };
    expect(unitsOf(1000)).to.equal(1001);
    expect(unitsOf(4000)).to.equal(4001);
  });
});
