import { expect } from 'chai';
import { AppError } from '../../src/errors.js';
import { finalize as finalizeExtraction, type FinalizeOptions } from '../../src/schema/finalize.js';
import type { ValueSource } from '../../src/schema/provenance.js';
import { compileCallerSchema, type CompiledSchema, type JsonSchema } from '../../src/schema/schema.js';
import { expectLinearGrowth } from '../helpers/growth.js';

/** finalize() on a bare candidate: the object a caller gets. */
function finalize(candidate: unknown, compiled: CompiledSchema, options: FinalizeOptions = { dateOrder: 'dmy' }): Record<string, unknown> {
  return finalizeExtraction({ value: candidate, provenance: new Map() }, compiled, options).value;
}

/** Finalizes one value under one property schema and checks the result against the nullable validator. */
function one(propertySchema: JsonSchema, value: unknown, options?: FinalizeOptions): unknown {
  const compiled = compileCallerSchema({ type: 'object', properties: { v: propertySchema } });
  const result = finalize({ v: value }, compiled, options);
  expect(compiled.validateNullable(result), JSON.stringify(result)).to.equal(true);
  return result['v'];
}

function expectCases(propertySchema: JsonSchema, cases: Array<[unknown, unknown]>, options?: FinalizeOptions): void {
  for (const [input, expected] of cases) {
    expect(one(propertySchema, input, options), `${JSON.stringify(input)} under ${JSON.stringify(propertySchema)}`).to.deep.equal(expected);
  }
}

describe('finalize: coercion', () => {
  it('reads numbers as printed', () => {
    expectCases({ type: 'number' }, [
      ['1,234.56', 1234.56],
      ['1.234,56', 1234.56],
      ['RM 12.50', 12.5],
      ['$60.44', 60.44],
      ['£23.95', 23.95],
      ['Eur154,40', 154.4],
      ['(12.00)', -12],
      ['12.50-', -12.5],
      ['-$5.00', -5],
      ['1 234,56', 1234.56],
      ['1,234', 1234],
      ['0,5', 0.5],
      // the cents of a till that prints no zero before the point (it was read as 78)
      ['.78', 0.78],
      ['$.99', 0.99],
      ['-.25', -0.25],
      ['20%', 20],
      [42, 42],
      ['2 x 14.50', null],
      ['14/03/2024', null],
      ['12 50', null],
      ['abc', null],
      ['1e400', null],
      [Infinity, null],
    ]);
  });

  it('reads integers and refuses fractions', () => {
    expectCases({ type: 'integer' }, [['12', 12], ['1,000', 1000], [3.0, 3], ['12.5', null], [12.5, null], ['qty 4', 4]]);
  });

  it('reads booleans from yes/no, checkmarks and words', () => {
    expectCases({ type: 'boolean' }, [
      ['Yes', true], ['no', false], ['x', true], ['checked', true], ['☐', false], ['TRUE', true], [1, true], [0, false], ['maybe', null],
    ]);
  });

  it('turns numbers into strings and lists into single values', () => {
    expectCases({ type: 'string' }, [[42, '42'], ['  padded  ', 'padded'], [['only'], 'only'], ['', null], ['N/A', null], [{ a: 1 }, null]]);
  });

  it('wraps a single value where a list is wanted and drops empty items', () => {
    expectCases({ type: 'array', items: { type: 'string' } }, [['one', ['one']], [['a', null, '', 'b'], ['a', 'b']], [null, []]]);
    expectCases({ type: 'array', items: { type: 'number' } }, [[['1,5', 'x', 3], [1.5, 3]]]);
  });

  it('matches enums ignoring case, spaces and punctuation, else null', () => {
    const schema = { type: 'string', enum: ['credit_card', 'cash', 'bank transfer'] };
    expectCases(schema, [['Credit Card', 'credit_card'], ['CASH', 'cash'], ['bank-transfer', 'bank transfer'], ['bitcoin', null]]);
    expectCases({ enum: [1, 2, 3] }, [['2', 2], [4, null]]);
  });

  it('follows $ref and anyOf with null (Optional fields)', () => {
    const compiled = compileCallerSchema({
      type: 'object',
      properties: {
        amount: { anyOf: [{ type: 'number' }, { type: 'null' }] },
        vendor: { $ref: '#/$defs/Vendor' },
      },
      $defs: { Vendor: { type: 'object', properties: { zip: { type: 'integer' } } } },
    });
    expect(finalize({ amount: '$1,200.00', vendor: { zip: '90210' } }, compiled)).to.deep.equal({ amount: 1200, vendor: { zip: 90210 } });
  });
});

describe('finalize: shape', () => {
  const schema = {
    type: 'object',
    properties: {
      invoice_number: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      vendor: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false },
    },
    required: ['invoice_number'],
    additionalProperties: false,
  };

  it('fills missing values with null and missing lists with []', () => {
    expect(finalize({}, compileCallerSchema(schema))).to.deep.equal({ invoice_number: null, tags: [], vendor: null });
    expect(finalize({ vendor: {} }, compileCallerSchema(schema))).to.deep.equal({ invoice_number: null, tags: [], vendor: { name: null } });
  });

  it('drops properties the schema closes out, keeps them when it does not', () => {
    const closed = finalize({ invoice_number: 'A1', extra: 1, vendor: { name: 'X', vat: '1' } }, compileCallerSchema(schema));
    expect(closed).to.deep.equal({ invoice_number: 'A1', tags: [], vendor: { name: 'X' } });
    const open = finalize({ a: '1', extra: 1 }, compileCallerSchema({ type: 'object', properties: { a: { type: 'number' } } }));
    expect(open).to.deep.equal({ a: 1, extra: 1 });
  });

  it('finds a property a model spelled differently', () => {
    expect(finalize({ 'Invoice Number': 'A1' }, compileCallerSchema(schema))).to.deep.include({ invoice_number: 'A1' });
  });

  it('keeps a property named __proto__ as data', () => {
    const compiled = compileCallerSchema({ type: 'object', properties: { __proto__: { type: 'string' } } });
    const result = finalize(JSON.parse('{"__proto__": "x"}'), compiled);
    expect(Object.getPrototypeOf(result)).to.equal(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).to.equal('x');
  });

  it('refuses a candidate that is not an object', () => {
    for (const candidate of [null, 'text', [1]]) {
      expect(() => finalize(candidate, compileCallerSchema(schema))).to.throw(AppError).with.property('code', 'engine_failed');
    }
  });
});

describe('finalize: dates and times', () => {
  it('re-prints format: date as YYYY-MM-DD from many printed forms', () => {
    expectCases({ type: 'string', format: 'date' }, [
      ['14/03/2024', '2024-03-14'],
      ['14-03-24', '2024-03-14'],
      ['2024-03-14', '2024-03-14'],
      ['14 Mar 2024', '2024-03-14'],
      ['March 14, 2024', '2024-03-14'],
      ['14th of March 2024', '2024-03-14'],
      ['10.07.13', '2013-07-10'],
      ['20180306', '2018-03-06'],
      ['Feb11.2012', '2012-02-11'],
      ['30-DEC-2016', '2016-12-30'],
      ['15MAR18', '2018-03-15'],
      ['1. März 2024', '2024-03-01'],
      ['Date: 25/12/2018 10:22', '2018-12-25'],
      ['31/02/2024', null],
      ['soon', null],
    ]);
  });

  it('reads day first by default, month first when asked, and either when one part exceeds 12', () => {
    expectCases({ type: 'string', format: 'date' }, [['03/04/2024', '2024-04-03'], ['12/30/2016', '2016-12-30'], ['30/12/2016', '2016-12-30']]);
    expectCases({ type: 'string', format: 'date' }, [['03/04/2024', '2024-03-04'], ['30/12/2016', '2016-12-30']], { dateOrder: 'mdy' });
  });

  it('uses the format the description asks for', () => {
    expectCases({ type: 'string', description: 'Invoice date, DD/MM/YYYY' }, [['2024-03-14', '14/03/2024'], ['March 4, 2024', '04/03/2024']]);
    expectCases({ type: 'string', description: 'in MM/DD/YYYY format' }, [['14.03.2024', '03/14/2024']]);
    expectCases({ type: 'string', description: 'formatted DD.MM.YYYY' }, [['2024-03-14', '14.03.2024']]);
    expectCases({ type: 'string', description: 'normalised to yyyy-mm-dd' }, [['14 Mar 2024', '2024-03-14']]);
    expectCases({ type: 'string', description: 'The date in ISO 8601' }, [['14/03/2024', '2024-03-14']]);
  });

  it('keeps the printed form when the description says so', () => {
    expectCases({ type: 'string', description: 'Date exactly as printed on the receipt, keeping its original format' }, [['15 MAR 2018', '15 MAR 2018'], ['12-01-19', '12-01-19']]);
    expectCases({ type: 'string', description: 'Transaction date as printed' }, [['03/04/2024', '03/04/2024']]);
  });

  it('does not touch strings that ask for no date form', () => {
    expectCases({ type: 'string', description: 'Invoice number' }, [['14/03/2024', '14/03/2024']]);
  });

  it('prints date-time and time in RFC 3339 form', () => {
    expectCases({ type: 'string', format: 'date-time' }, [
      ['14/03/2024 10:22', '2024-03-14T10:22:00Z'],
      ['2024-03-14T10:22:00+01:00', '2024-03-14T10:22:00+01:00'],
      ['March 14, 2024 8:35PM', '2024-03-14T20:35:00Z'],
    ]);
    expectCases({ type: 'string', format: 'time' }, [['8:35PM', '20:35:00Z'], ['19:19', '19:19:00Z'], ['late', null]]);
    expectCases({ type: 'string', description: 'Time as HH:MM (24-hour)' }, [['09:47:16PM', '21:47'], ['5:59P', '17:59'], ['02:37a', '02:37'], ['05:10:PM', '17:10']]);
  });
});

describe('finalize: validation', () => {
  it('nulls values that break their own constraints and keeps the rest', () => {
    const compiled = compileCallerSchema({
      type: 'object',
      properties: {
        total: { type: 'number', minimum: 0 },
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        note: { type: 'string' },
      },
    });
    expect(finalize({ total: '-5', code: 'usd', note: 'kept' }, compiled)).to.deep.equal({ total: null, code: null, note: 'kept' });
  });

  it('drops failing list items, truncates overlong lists, removes duplicates', () => {
    const compiled = compileCallerSchema({
      type: 'object',
      properties: {
        rows: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } }, required: ['qty'] } },
        codes: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 2, uniqueItems: true },
      },
    });
    const result = finalize({ rows: [{ qty: '2' }, { qty: 'x' }, { qty: 0 }, { qty: 3 }], codes: ['ab', 'ab', 'toolong', 'cd', 'ef'] }, compiled);
    expect(result).to.deep.equal({ rows: [{ qty: 2 }, { qty: 3 }], codes: ['ab', 'cd'] });
  });

  it('drops rows with no value at all', () => {
    const compiled = compileCallerSchema({ type: 'object', properties: { rows: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } } } });
    expect(finalize({ rows: [{ a: 'x' }, { a: '' }, {}] }, compiled)).to.deep.equal({ rows: [{ a: 'x' }] });
  });

  it('fails as unsatisfiable_schema (422), with details, when the object itself cannot pass', () => {
    const compiled = compileCallerSchema({ type: 'object', properties: { a: { type: 'string' } }, minProperties: 3 });
    try {
      finalize({ a: 'x' }, compiled);
      expect.fail('expected finalize to throw');
    } catch (error) {
      expect(error).to.be.instanceOf(AppError);
      const appError = error as AppError;
      expect(appError.code).to.equal('unsatisfiable_schema');
      expect(appError.status).to.equal(422);
      expect(appError.message).to.match(/^no answer can fit the schema/);
      expect(appError.details).to.deep.equal(['/ must NOT have fewer than 3 properties']);
    }
  });
});

describe('finalize: where each value was read follows it', () => {
  /** A source naming one word, so that each can be told apart. */
  const at = (word: number): ValueSource => ({ words: [{ file: 0, page: 0, line: 0, word }] });

  function provenanceAfter(schema: JsonSchema, value: unknown, provenance: Array<[string, ValueSource]>): Array<[string, ValueSource]> {
    const final = finalizeExtraction({ value, provenance: new Map(provenance) }, compileCallerSchema(schema), { dateOrder: 'dmy' });
    return [...final.provenance].sort(([a], [b]) => a.localeCompare(b));
  }

  it('moves with a key the model spelled loosely, and a value coerced or re-printed keeps its words', () => {
    const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' }, date: { type: 'string', format: 'date' } } };
    expect(provenanceAfter(schema, { 'Invoice Number': 'A1', total: '1,200.00', date: '14/03/2024' }, [['/Invoice Number', at(1)], ['/total', at(2)], ['/date', at(3)]])).to.deep.equal([
      ['/date', at(3)],
      ['/invoice_number', at(1)],
      ['/total', at(2)],
    ]);
  });

  it('follows list items when empty rows are dropped, and leaves out dropped and nulled values', () => {
    const schema = {
      type: 'object',
      properties: {
        rows: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 }, name: { type: 'string' } } } },
        code: { type: 'string', maxLength: 2 },
      },
    };
    const value = { rows: [{ qty: null, name: '' }, { qty: '0', name: 'bad qty' }, { qty: '3', name: 'Nails' }], code: 'toolong' };
    const provenance: Array<[string, ValueSource]> = [['/rows/1/qty', at(1)], ['/rows/1/name', at(2)], ['/rows/2/qty', at(3)], ['/rows/2/name', at(4)], ['/code', at(5)]];
    // row 0 is empty and dropped by shaping; row 1 breaks minimum, so its qty is nulled and its name kept; the code is nulled
    expect(provenanceAfter(schema, value, provenance)).to.deep.equal([
      ['/rows/0/name', at(2)],
      ['/rows/1/name', at(4)],
      ['/rows/1/qty', at(3)],
    ]);
  });

  it('follows list items that repair removes (duplicates, too many)', () => {
    const schema = { type: 'object', properties: { codes: { type: 'array', items: { type: 'string' }, maxItems: 2, uniqueItems: true } } };
    const value = { codes: ['ab', 'ab', 'cd', 'ef'] };
    expect(provenanceAfter(schema, value, [['/codes/0', at(0)], ['/codes/1', at(1)], ['/codes/2', at(2)], ['/codes/3', at(3)]])).to.deep.equal([
      ['/codes/0', at(0)],
      ['/codes/1', at(2)],
    ]);
  });

  it('follows removals from nested lists: rows removed, and items removed from the rows that stay', () => {
    const schema = {
      type: 'object',
      properties: { rows: { type: 'array', items: { type: 'object', properties: { name: { type: 'string', pattern: '^[A-Z]+$' }, tags: { type: 'array', items: { type: 'string', maxLength: 3 } } } } } },
    };
    const value = { rows: [{ name: 'bad' }, { name: 'GOOD', tags: ['toolong', 'ab'] }, { name: 'bad' }, { name: 'FINE', tags: ['x', 'toolong', 'yy'] }] };
    const provenance: Array<[string, ValueSource]> = [
      ['/rows/0/name', at(0)],
      ['/rows/1/name', at(1)],
      ['/rows/1/tags/0', at(2)],
      ['/rows/1/tags/1', at(3)],
      ['/rows/2/name', at(4)],
      ['/rows/3/name', at(5)],
      ['/rows/3/tags/0', at(6)],
      ['/rows/3/tags/1', at(7)],
      ['/rows/3/tags/2', at(8)],
    ];
    // rows 0 and 2 lose their only value and go; a tag over 3 characters goes from its row's list
    expect(provenanceAfter(schema, value, provenance)).to.deep.equal([
      ['/rows/0/name', at(1)],
      ['/rows/0/tags/0', at(3)],
      ['/rows/1/name', at(5)],
      ['/rows/1/tags/0', at(6)],
      ['/rows/1/tags/1', at(8)],
    ]);
  });

  it('follows list items removed from a long answer in time linear in their number (each removal moved every pointer: 36 s for 4,000 rows)', async () => {
    const schema = compileCallerSchema({ type: 'object', properties: { rows: { type: 'array', items: { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]+$' }, note: { type: 'string' } } } } } });
    // every other row's only value fails its pattern: half the rows are removed, the others move up
    const extractionOf = (rows: number) => {
      const value = { rows: Array.from({ length: rows }, (_, i) => (i % 2 === 0 ? { code: `bad${i}` } : { code: 'OK', note: `row ${i}` })) };
      const provenance = new Map<string, ValueSource>();
      for (let i = 0; i < rows; i++) provenance.set(`/rows/${i}/${i % 2 === 0 ? 'code' : 'note'}`, at(i));
      return { value, provenance };
    };
    await expectLinearGrowth((rows) => finalizeExtraction(extractionOf(rows), schema, { dateOrder: 'dmy' }), 1_000);
    const final = finalizeExtraction(extractionOf(4_000), schema, { dateOrder: 'dmy' });
    expect(final.value['rows']).to.have.length(2_000);
    expect(final.provenance.get('/rows/1999/note')).to.deep.equal(at(3_999));
  });

  it('puts a one-item list read as one value at the value, and a list read as text gets the words of every item', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, total: { type: 'number' } } };
    expect(provenanceAfter(schema, { name: ['ACME', 'Ltd'], total: ['9.00'] }, [['/name/0', at(0)], ['/name/1', at(1)], ['/total/0', at(2)]])).to.deep.equal([
      ['/name', { words: [...at(0).words, ...at(1).words] }],
      ['/total', at(2)],
    ]);
  });
});
