import { expect } from 'chai';
import { resolveDateOrder } from '../../src/extract/date-order.js';
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
