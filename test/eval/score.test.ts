import { expect } from 'chai';
import { classifyField, classifyFields, matchSets, microAverage, nullMeaningFromReadme, pairF1, scoreDocument, scoreField, summariseField, type FieldKind } from '../../scripts/eval/score.js';

const options = { dateOrder: 'day-first' as const };

describe('eval scoring', () => {
  it('reads from a dataset README whether a null label is a fact or a gap', () => {
    expect(nullMeaningFromReadme('Some printed fields were simply not annotated.')).to.equal('not-annotated');
    expect(nullMeaningFromReadme('one pair of labels was removed (null = not labelled).')).to.equal('not-annotated');
    expect(nullMeaningFromReadme('A key missing from the line becomes null; hallucinated values count as errors.')).to.equal('absent');
  });


  describe('field kinds', () => {
    it('follows field names first', () => {
      expect(classifyField('total', { type: 'string' }, ['9.00'])).to.equal('amount');
      expect(classifyField('subtotal', { type: ['string', 'null'] }, [])).to.equal('amount');
      expect(classifyField('date', { type: 'string' }, ['06/03/2018'])).to.equal('date');
      expect(classifyField('store_name', { type: 'string' }, ['CHIPOTLE'])).to.equal('name');
      expect(classifyField('address', { type: 'string' }, [])).to.equal('name');
    });

    it('compares identifiers strictly even when their description mentions the store', () => {
      expect(classifyField('phone', { type: ['string', 'null'], description: 'Telephone number of the store as printed' }, ['415-507-0493'])).to.equal('text');
      expect(classifyField('time', { type: ['string', 'null'], description: 'Transaction time' }, ['8:35PM'])).to.equal('text');
      expect(classifyField('hotel_name', { type: 'string' }, [])).to.equal('name');
    });

    it('uses format: date, descriptions and, last, the ground truth values', () => {
      expect(classifyField('effective', { type: ['string', 'null'], format: 'date' }, [])).to.equal('date');
      expect(classifyField('jurisdiction', { type: ['string', 'null'], description: 'US state whose law governs, name only' }, [])).to.equal('name');
      expect(classifyField('due', { type: 'string' }, ['$5.00', 'RM 3.20'])).to.equal('amount');
      expect(classifyField('term', { type: ['string', 'null'], description: 'Duration of the agreement' }, ['2 years'])).to.equal('text');
    });

    it('classifies arrays of strings as lists, name-like when the field is about parties', () => {
      expect(classifyField('party', { type: 'array', items: { type: 'string' } }, [['A Inc.']])).to.equal('name-list');
      expect(classifyField('tags', { type: 'array', items: { type: 'string' } }, [])).to.equal('text-list');
    });

    it('lists every schema property in order', () => {
      const kinds = classifyFields({ properties: { company: { type: 'string' }, total: { type: 'string' } } }, [{ company: 'X', total: '1.00' }]);
      expect([...kinds.keys()]).to.deep.equal(['company', 'total']);
    });
  });

  describe('scalars', () => {
    it('matches amounts and dates by value', () => {
      expect(scoreField('total', 'amount', 'RM9.00', '9.00', false, options).correct).to.equal(true);
      expect(scoreField('total', 'amount', '9.00', '90.0', false, options).correct).to.equal(false);
      expect(scoreField('date', 'date', '06/03/2018', '2018-03-06', false, options).correct).to.equal(true);
      expect(scoreField('date', 'date', '06/03/2018', '2018-06-03', false, options).correct).to.equal(false);
    });

    it('matches strings after normalisation', () => {
      const score = scoreField('store_address', 'name', '5800NorthgateDrive,Sui', '5800 Northgate Drive, Sui', false, options);
      expect(score.strict).to.equal(true);
      expect(score.anls).to.equal(1);
    });

    it('accepts names at ANLS >= 0.5 but reports them as strict misses', () => {
      const close = scoreField('company', 'name', 'abcdefghij', 'abcdexxxxx', false, options);
      expect(close.strict).to.equal(false);
      expect(close.correct).to.equal(true);
      const far = scoreField('company', 'name', 'abcdefghij', 'abcdxxxxxx', false, options);
      expect(far.correct).to.equal(false);
      expect(far.anls).to.equal(0);
    });

    it('does not accept near misses for plain text fields', () => {
      const score = scoreField('phone', 'text', '415-507-0493', '415-507-0498', false, options);
      expect(score.correct).to.equal(false);
      expect(score.anls).to.be.greaterThan(0.5);
    });
  });

  describe('nulls', () => {
    it('leaves null ground truth out of the accuracy, whatever was predicted', () => {
      const scores = [
        scoreField('tax', 'amount', null, '1.32', false, options),
        scoreField('tax', 'amount', null, null, false, options),
        scoreField('tax', 'amount', '2.00', '2.00', false, options),
      ];
      const summary = summariseField('tax', 'amount', scores);
      expect(summary.expected).to.equal(1);
      expect(summary.accuracy).to.equal(1);
      expect(summary.nullGt).to.deep.equal({ total: 2, predictedNull: 1, predictedValue: 1 });
    });

    it('counts a missing prediction for a labelled value as wrong', () => {
      const score = scoreField('tax', 'amount', '1.32', null, false, options);
      expect(score.correct).to.equal(false);
      expect(summariseField('tax', 'amount', [score]).accuracy).to.equal(0);
    });

    it('scores failed documents 0 and keeps them out of the null-GT counts', () => {
      const kinds = new Map<string, FieldKind>([
        ['total', 'amount'],
        ['tax', 'amount'],
      ]);
      const scores = scoreDocument(kinds, { total: '5.00', tax: null }, undefined, options);
      expect(scores.map((score) => score.correct)).to.deep.equal([false, undefined]);
      expect(summariseField('tax', 'amount', [scores[1]!]).nullGt.total).to.equal(0);
    });

    it('makes a value against an "absent" null a false positive only when null means absent', () => {
      const scores = [scoreField('term', 'text', null, '2 years', false, options), scoreField('jurisdiction', 'name', 'Delaware', 'Delaware', false, options)];
      expect(pairF1(scores, 'absent').fp).to.equal(1);
      expect(pairF1(scores, 'not-annotated').fp).to.equal(0);
      expect(pairF1(scores, 'not-annotated').f1).to.equal(1);
    });
  });

  describe('sets', () => {
    it('scores a missing and an extra item as one FN and one FP', () => {
      const counts = matchSets(['Perceptron Inc.', 'Someone Else LLC'], ['Perceptron Inc.', 'Harbert Discovery Fund LP'], true);
      expect(counts).to.deep.equal({ tp: 1, fp: 1, fn: 1 });
    });

    it('ignores order and punctuation', () => {
      const score = scoreField('party', 'name-list', ['Ii-Vi Inc.', 'Anadigics Inc.'], ['ANADIGICS, Inc.', 'II-VI Inc'], false, options);
      expect(score.set).to.deep.equal({ tp: 2, fp: 0, fn: 0 });
      expect(score.strict).to.equal(true);
    });

    it('matches one to one: a duplicate prediction does not match twice', () => {
      expect(matchSets(['Acme Inc.', 'Acme Inc'], ['Acme Inc.'], true)).to.deep.equal({ tp: 1, fp: 1, fn: 0 });
    });

    it('accepts close names in name lists but not in strict matching', () => {
      const score = scoreField('party', 'name-list', ['Genesis Bioventures Inc.'], ['Genesis Bioventures Incorporated'], false, options);
      expect(score.set?.tp).to.equal(1);
      expect(score.correct).to.equal(true);
      expect(score.strict).to.equal(false);
    });

    it('summarises set precision, recall and F1 over documents', () => {
      // scoreField(field, kind, expected, predicted, ...)
      const summary = summariseField('party', 'name-list', [
        scoreField('party', 'name-list', ['A Corp'], ['A Corp', 'Beta Holdings'], false, options),
        scoreField('party', 'name-list', ['C Corp', 'Zed Holdings'], ['C Corp', 'Delta Partners'], false, options),
      ]);
      expect(summary.set).to.include({ tp: 2, fp: 2, fn: 1 });
      expect(summary.set?.precision).to.equal(2 / 4);
      expect(summary.set?.recall).to.equal(2 / 3);
      expect(summary.set?.f1).to.be.closeTo((2 * 0.5 * (2 / 3)) / (0.5 + 2 / 3), 1e-12);
      expect(summary.accuracy).to.equal(0);
    });
  });

  it('micro-averages over all labelled fields', () => {
    const a = summariseField('x', 'text', [scoreField('x', 'text', 'a', 'a', false, options), scoreField('x', 'text', 'b', 'c', false, options)]);
    const b = summariseField('y', 'text', [scoreField('y', 'text', 'a', 'a', false, options)]);
    expect(microAverage([a, b]).accuracy).to.equal(2 / 3);
  });
});
