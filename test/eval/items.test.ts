import { expect } from 'chai';
import { cellsEqual, itemColumns, roundCents, scoreItems, summariseItems } from '../../scripts/eval/items.js';
import { classifyField, microAverage, pairF1, scoreDocument, summariseField } from '../../scripts/eval/score.js';

const COLUMNS = ['description', 'quantity', 'unit_price', 'net_amount'];

function line(description: string | null, quantity: number | null, unitPrice: number | null, netAmount: number | null) {
  return { description, quantity, unit_price: unitPrice, net_amount: netAmount };
}

describe('eval scoring of arrays of objects', () => {
  describe('cells', () => {
    it('compares numbers at two decimals and reads a string answer as an amount', () => {
      expect(cellsEqual(0.05, 0.052)).to.equal(true);
      expect(cellsEqual(0.06, 0.052)).to.equal(false);
      expect(cellsEqual('1.234,50', 1234.5)).to.equal(true);
      expect(cellsEqual('1,234.50', 1234.5)).to.equal(true);
      expect(cellsEqual('160,00 €', 160)).to.equal(true);
      expect(cellsEqual('-5', -5)).to.equal(true);
      expect(cellsEqual('5', -5)).to.equal(false);
      expect(cellsEqual('five', 5)).to.equal(false);
      expect(roundCents(1.005)).to.equal(1.01);
      expect(roundCents(-1.005)).to.equal(-1.01);
    });

    it('compares strings with whitespace collapsed and case folded, and never matches a blank', () => {
      expect(cellsEqual('  Fournitures\n papier ', 'FOURNITURES PAPIER')).to.equal(true);
      expect(cellsEqual('Fournitures papier A4', 'FOURNITURES PAPIER')).to.equal(false);
      expect(cellsEqual(12, '12')).to.equal(true);
      expect(cellsEqual('', '')).to.equal(false);
      expect(cellsEqual(null, 3)).to.equal(false);
    });
  });

  describe('one document', () => {
    it('matches items whatever their order', () => {
      const label = [line('Apple', 2, 1.5, 3), line('Pear', 1, 4, 4)];
      const score = scoreItems(label, [line('pear', 1, 4, 4), line('apple', 2, 1.5, 3)], false, COLUMNS);
      expect(score.matches).to.deep.equal([1, 0]);
      expect([score.labelled, score.answered, score.equal]).to.deep.equal([8, 8, 8]);
      expect(score.sameCount).to.equal(true);
    });

    it('leaves null label cells out on both sides', () => {
      const score = scoreItems([line(null, 2, null, 3)], [line('Wrapped name', 2, 1.5, 3)], false, COLUMNS);
      expect([score.labelled, score.answered, score.equal]).to.deep.equal([2, 2, 2]);
      expect(score.columns.description).to.deep.equal({ labelled: 0, answered: 0, equal: 0 });
    });

    it('counts every filled cell of an answer item that matched nothing against precision', () => {
      const score = scoreItems([line('Apple', 2, 1.5, 3)], [line('Apple', 2, 1.5, 3), line('Discount', null, null, -5)], false, COLUMNS);
      expect([score.labelled, score.answered, score.equal]).to.deep.equal([4, 6, 4]);
      expect(score.sameCount).to.equal(false);
    });

    it('pairs by the most equal cells first, then the nearer position, then the earlier label item', () => {
      // label 0 shares two cells with answer 1, label 1 one cell with answer 0
      expect(scoreItems([line('A', 1, 2, 2), line('B', 1, 9, 9)], [line('X', 1, 7, 7), line('A', 1, 5, 5)], false, COLUMNS).matches).to.deep.equal([1, 0]);
      // one equal cell each: answer 0 goes to label 0, which sits at its position
      expect(scoreItems([line('A', 1, 2, 2), line('B', 1, 3, 3)], [line('C', 1, 8, 8)], false, COLUMNS).matches).to.deep.equal([0, null]);
      // labels 0 and 2 both one position away from answer 1: the earlier label item wins
      expect(scoreItems([line('A', 1, 2, 2), line('B', 5, 3, 3), line('C', 1, 4, 4)], [line('Z', 7, 8, 8), line('D', 1, 6, 6)], false, COLUMNS).matches).to.deep.equal([1, null, null]);
    });

    it('pairs nothing that shares no equal cell', () => {
      const score = scoreItems([line('Apple', 2, 1.5, 3)], [line('Pear', 1, 4, 4)], false, COLUMNS);
      expect(score.matches).to.deep.equal([null]);
      expect([score.labelled, score.answered, score.equal]).to.deep.equal([4, 4, 0]);
    });

    it('scores a failed request as no answer, never the right item count', () => {
      const score = scoreItems([], [], true, COLUMNS);
      expect(score.sameCount).to.equal(false);
      expect(scoreItems([line('Apple', 2, 1.5, 3)], undefined, true, COLUMNS)).to.include({ labelled: 4, answered: 0, equal: 0 });
    });

    it('judges the label items\' keys when the schema names no columns', () => {
      const score = scoreItems([{ sku: 'A-1', qty: 2 }], [{ sku: 'a-1', qty: 3, note: 'extra' }], false);
      expect(Object.keys(score.columns)).to.deep.equal(['sku', 'qty']);
      expect([score.labelled, score.answered, score.equal]).to.deep.equal([2, 2, 1]);
    });
  });

  it('pools cells over documents into precision, recall, F1, per-column accuracy and the share of right item counts', () => {
    const first = scoreItems([line('Apple', 2, 1.5, 3), line('Pear', 1, 4, 4)], [line('Apple', 2, 1.5, 3.5), line('Pear', 1, 4, 4)], false, COLUMNS);
    const second = scoreItems([line(null, 10, 1, 10)], [line('Box', 10, 1, 10), line('Deposit', 1, 0.5, 0.5)], false, COLUMNS);
    const summary = summariseItems([first, second], COLUMNS);
    expect(summary).to.include({ documents: 2, labelledCells: 11, answeredCells: 15, equalCells: 10, sameCount: 1, sameCountShare: 0.5 });
    expect(summary.precision).to.be.closeTo(10 / 15, 1e-9);
    expect(summary.recall).to.be.closeTo(10 / 11, 1e-9);
    expect(summary.f1).to.be.closeTo((2 * (10 / 15) * (10 / 11)) / (10 / 15 + 10 / 11), 1e-9);
    expect(summary.columns.find((column) => column.column === 'net_amount')).to.deep.equal({ column: 'net_amount', labelled: 3, equal: 2, accuracy: 2 / 3 });
    expect(summary.columns.find((column) => column.column === 'description')).to.deep.equal({ column: 'description', labelled: 2, equal: 2, accuracy: 1 });
  });

  it('finds the arrays of objects of a schema and their columns', () => {
    const schema = {
      type: 'object',
      properties: {
        invoice_number: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' } } } },
      },
    };
    expect([...itemColumns(schema)]).to.deep.equal([['line_items', ['description', 'quantity']]]);
    expect(classifyField('line_items', schema.properties.line_items, [])).to.equal('items');
    expect(classifyField('rows', { type: 'array' }, [[{ a: 1 }]])).to.equal('items');
    expect(classifyField('tags', schema.properties.tags, [])).to.equal('text-list');
  });

  it('keeps item cells out of the scalar accuracy and the pair F1, and scores them by columns', () => {
    const kinds = new Map([['invoice_number', 'text' as const], ['line_items', 'items' as const]]);
    const options = { dateOrder: 'day-first' as const, itemColumns: new Map([['line_items', COLUMNS]]) };
    const expected = { invoice_number: 'F-1', line_items: [line('Apple', 2, 1.5, 3)] };
    const scores = scoreDocument(kinds, expected, { invoice_number: 'F-1', line_items: [line('Apple', 2, 1.5, 4)] }, options);
    const fields = [...kinds].map(([field, kind]) => summariseField(field, kind, scores.filter((score) => score.field === field)));
    expect(microAverage(fields)).to.include({ expected: 1, strictCorrect: 1 });
    expect(pairF1(scores, 'absent')).to.include({ tp: 1, fp: 0, fn: 0 });
    expect(fields[1]?.items).to.include({ labelledCells: 4, equalCells: 3 });
    // a null label (not annotated) is not scored at all
    expect(scoreDocument(kinds, { invoice_number: 'F-1', line_items: null }, { line_items: [line('x', 1, 1, 1)] }, options)[1]?.items).to.equal(undefined);
  });
});
