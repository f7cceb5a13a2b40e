import { expect } from 'chai';
import { RulesEngine } from '../../../src/engines/rules/index.js';
import { findCurrencies } from '../../../src/engines/rules/core/parsers.js';
import type { JsonSchema } from '../../../src/schema/schema.js';
import { buildDocument } from '../../helpers/document-builder.js';
import { extractFinal } from '../../helpers/extraction.js';

const engine = new RulesEngine();
const codeSchema: JsonSchema = {
  type: 'object',
  properties: { currency: { type: 'string', description: 'Currency code, e.g. EUR, USD, GBP' }, total: { type: 'number' } },
};

async function extract(lines: string[], schema: JsonSchema = codeSchema): Promise<Record<string, unknown>> {
  return (await extractFinal(engine, buildDocument(lines), schema)).value;
}

describe('rules engine: the currency of a document', () => {
  it('reads a labelled currency', async () => {
    expect(await extract(['Acme Tools Ltd', 'Currency: EUR', 'Total due   76.20'])).to.deep.equal({ currency: 'EUR', total: 76.2 });
  });

  it('reads the currency stated in a sentence ("All amounts in GBP.")', async () => {
    expect(await extract(['Acme Tools Ltd', 'Total due   76.20', 'All amounts in GBP. Payment within 30 days.'])).to.deep.equal({ currency: 'GBP', total: 76.2 });
  });

  it('without a label, takes the currency the amounts carry, a sign that names one currency as its code', async () => {
    const lines = ['Corner Cafe', 'Latte        €3.50', 'Croissant    €2.20', 'Total        €5.70'];
    expect(await extract(lines)).to.deep.equal({ currency: 'EUR', total: 5.7 });
  });

  it('never turns a sign that names several currencies into a code by guess, and keeps it when no code is asked for', async () => {
    const lines = ['Corner Cafe', 'Latte        $3.50', 'Total        $3.50'];
    expect((await extract(lines))['currency']).to.equal(null);
    const plain: JsonSchema = { type: 'object', properties: { currency: { type: 'string' } } };
    expect(await extract(lines, plain)).to.deep.equal({ currency: '$' });
  });

  it('answers null when the document names two currencies about as often', async () => {
    const lines = ['Exchange desk', 'Sold     100.00 EUR', 'Bought   108.00 USD', 'Fee        2.00 EUR', 'Rate       1.08 USD'];
    expect((await extract(lines))['currency']).to.equal(null);
  });

  it('leaves words in capitals alone: "THE", "TAX", and codes that are words unless beside an amount', () => {
    expect(findCurrencies('THANK YOU, ALL PRICES INCLUDE TAX. TOP UP AT THE DESK').map((f) => f.value)).to.deep.equal([]);
    expect(findCurrencies('Total 1,200 ALL').map((f) => f.value)).to.deep.equal(['ALL']);
    expect(findCurrencies('RM 12.50, US$ 3, RMB 4, EURO 5').map((f) => f.value)).to.deep.equal(['MYR', 'USD']);
  });

  it('takes no legal form or place for a currency ("SDN BHD" is no Bahraini dinar, "Hong Kong SAR" no riyal), unless beside an amount', async () => {
    expect(findCurrencies('AEON CO. (M) BHD (126926-H)').map((f) => f.value)).to.deep.equal([]);
    expect(findCurrencies('MR. D.I.Y. (M) SDN BHD').map((f) => f.value)).to.deep.equal([]);
    expect(findCurrencies('Causeway Bay, Hong Kong SAR').map((f) => f.value)).to.deep.equal([]);
    expect(findCurrencies('Total BHD 12.500, fee 2.00 SAR').map((f) => f.value)).to.deep.equal(['BHD', 'SAR']);
    const receipt = ['AEON CO. (M) BHD', '(126926-H)', 'AEON TAMAN MALURI SC', 'SDN BHD', 'TOTAL RM 75.00', 'CASH RM 80.00', 'CHANGE RM 5.00'];
    expect(await extract(receipt)).to.deep.equal({ currency: 'MYR', total: 75 });
  });

  it('still reads an amount that asks for its currency as an amount', async () => {
    const schema: JsonSchema = { type: 'object', properties: { total_with_currency: { type: 'string', description: 'Total including the currency' } } };
    expect(await extract(['Corner Cafe', 'Total        €5.70'], schema)).to.deep.equal({ total_with_currency: '€5.70' });
  });
});
