import { expect } from 'chai';
import { repairConfusables } from '../../../src/ingest/ocr/confusables.js';

describe('repairConfusables', () => {
  it('reads a zero among letters as the letter O, in the case of its neighbours', () => {
    expect(['Y0RK', 'Dieg0', 'CAD0RNA', 'Ass0c', 'FL0OR', 'C0.', 'B00K'].map((word) => repairConfusables(word))).to.deep.equal(['YORK', 'Diego', 'CADORNA', 'Assoc', 'FLOOR', 'CO.', 'BOOK']);
  });

  it('reads an O among digits as a zero', () => {
    expect(['475OO', '1O.50', 'O6/03/2018', '$2O.00', '-1O.5O'].map((word) => repairConfusables(word))).to.deep.equal(['47500', '10.50', '06/03/2018', '$20.00', '-10.50']);
  });

  it('reads ones after lower-case letters as l', () => {
    expect(['Mi11', 'Detai1#', 'Ca1if.'].map((word) => repairConfusables(word))).to.deep.equal(['Mill', 'Detail#', 'Calif.']);
  });

  it('reads PH/AH after a clock time as PM/AM', () => {
    expect(repairConfusables('PH', '2:21')).to.equal('PM');
    expect(repairConfusables('ah', '07:05')).to.equal('am');
    expect(repairConfusables('12:18:24PH')).to.equal('12:18:24PM');
    expect(repairConfusables('PH', 'Tel')).to.equal('PH');
    expect(repairConfusables('PH')).to.equal('PH');
  });

  it('reads an S glued before a price as a dollar sign', () => {
    expect(['S4.50', 'AMOUNT:S50.25', 's12,99'].map((word) => repairConfusables(word))).to.deep.equal(['$4.50', 'AMOUNT:$50.25', '$12,99']);
    // not after a letter, not before a count or a long number
    expect(['BUS12.50', 'S4', 'S12.5', 'S1234567.00', 'SALE'].map((word) => repairConfusables(word))).to.deep.equal(['BUS12.50', 'S4', 'S12.5', 'S1234567.00', 'SALE']);
  });

  it('leaves numbers, codes and words without a mix-up alone', () => {
    const untouched = ['2018', '100AM', 'B4-03/04', 'V3S', '3R0', 'INV00', 'RM10.00', '0.00', 'NO.', 'OK', '1st', '1kg', 'x1', 'TOTAL', '6.25', '#03-15', 'SS15/4B'];
    expect(untouched.map((word) => repairConfusables(word))).to.deep.equal(untouched);
  });
});
