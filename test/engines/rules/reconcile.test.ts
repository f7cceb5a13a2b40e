import { expect } from 'chai';
import { RulesEngine } from '../../../src/engines/rules/index.js';
import type { JsonSchema } from '../../../src/schema/schema.js';
import { buildDocument } from '../../helpers/document-builder.js';
import { extractFinal } from '../../helpers/extraction.js';

const engine = new RulesEngine();
const schema: JsonSchema = { type: 'object', properties: { net_total: { type: 'number' }, vat: { type: 'number' }, gross_total: { type: 'number' } } };

async function totals(lines: string[]): Promise<Record<string, unknown>> {
  return (await extractFinal(engine, buildDocument(lines), schema)).value;
}

describe('rules engine: totals that reconcile (net + VAT = gross)', () => {
  it('takes the printed VAT that makes the sum, not the net amount printed beside the VAT label', async () => {
    // the VAT line names its base; the tax stands on the line below
    const lines = ['Leasing GmbH', 'Summe Positionen 376,37', 'Nettobetrag 376,37', 'MwSt. 19 % aus 376,37', '71,51', 'Gesamt 447,88'];
    expect(await totals(lines)).to.deep.equal({ net_total: 376.37, vat: 71.51, gross_total: 447.88 });
  });

  it('leaves amounts that already add up as they are', async () => {
    const lines = ['Acme Ltd', 'Net total 100.00', 'VAT 20% 20.00', 'Total 120.00', 'Paid 50.00'];
    expect(await totals(lines)).to.deep.equal({ net_total: 100, vat: 20, gross_total: 120 });
  });

  it('never computes a missing amount, and keeps what it read when no printed amount makes the sum', async () => {
    expect(await totals(['Acme Ltd', 'Net total 100.00', 'Total 120.00'])).to.deep.equal({ net_total: 100, vat: null, gross_total: 120 });
    // a document whose own figures do not add up: nothing else printed makes them, so they stand as printed
    expect(await totals(['Acme Ltd', 'Net total 100.00', 'VAT 20% 21.00', 'Total 120.00'])).to.deep.equal({ net_total: 100, vat: 21, gross_total: 120 });
  });

  it('reads the VAT by the sum in a German schema too (the roles come from the meaning of the names)', async () => {
    const german: JsonSchema = { type: 'object', properties: { Nettobetrag: { type: 'number' }, Mehrwertsteuer: { type: 'number' }, Bruttobetrag: { type: 'number' } } };
    const lines = ['Leasing GmbH', 'Nettobetrag 376,37', 'MwSt. 19 % aus 376,37', '71,51', 'Bruttobetrag 447,88'];
    expect((await extractFinal(engine, buildDocument(lines), german)).value).to.deep.equal({ Nettobetrag: 376.37, Mehrwertsteuer: 71.51, Bruttobetrag: 447.88 });
  });
});
