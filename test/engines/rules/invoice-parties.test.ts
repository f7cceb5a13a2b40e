/**
 * The seller and the buyer of invoices laid out as producers print them,
 * none of them from the dev sets: a letter's window under a one-line sender
 * reference, a letterhead at the left or the right with the title beside it,
 * the seller named only in the footer's imprint, "Bill to / Ship to" blocks
 * side by side, a letterhead beside a branch office, "From: / To:" columns,
 * a person as the buyer and a credit note. The PDFs are drawn here
 * (test/fixtures/invoice-layouts.ts) in several languages and read from their
 * text layer through the whole pipeline; a user's schema asks for the two
 * names (flat) or for each party's name and address (nested).
 */
import { expect } from 'chai';
import { runExtraction, type PipelineDeps } from '../../../src/pipeline.js';
import type { JsonSchema } from '../../../src/schema/schema.js';
import { makeLayoutInvoice, type LayoutFamily, type LayoutLanguage } from '../../fixtures/invoice-layouts.js';
import { repairLegalForm } from '../../../src/engines/rules/receipts/company.js';
import { content, sharedServices } from '../../helpers/test-server.js';

const FLAT: JsonSchema = {
  type: 'object',
  properties: {
    seller: { type: 'string', description: 'Name of the company or person that issued the invoice (the supplier), without its address.' },
    buyer: { type: 'string', description: 'Name of the customer the invoice is addressed to, without its address.' },
  },
};

const party = (description: string): JsonSchema => ({
  type: 'object',
  description,
  properties: { name: { type: 'string' }, address: { type: 'string', description: 'Postal address: street and town, on one line.' } },
});

const NESTED: JsonSchema = {
  type: 'object',
  properties: { seller: party('The supplier that issued the invoice.'), buyer: party('The customer the invoice is addressed to.') },
};

/** Letters and digits only: the address's commas and line breaks are the reader's choice. */
const folded = (value: unknown): string => String(value).normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

async function read(services: PipelineDeps, pdf: Buffer, schema: JsonSchema): Promise<Record<string, unknown>> {
  const outcome = await runExtraction(services, { schema, contents: [content(pdf, 'application/pdf')], options: { eInvoice: 'ignore' } }, AbortSignal.timeout(120_000));
  return outcome.result as Record<string, unknown>;
}

/** Each family in the languages it is checked in. */
const CASES: ReadonlyArray<[LayoutFamily, readonly LayoutLanguage[], string]> = [
  ['window', ['de', 'fr', 'es', 'nl'], 'the recipient in the window under a one-line sender reference, the letterhead at the top right'],
  ['letterhead-left', ['de', 'es', 'it'], 'the letterhead at the left with the document title printed beside the name'],
  ['letterhead-right', ['de', 'fr', 'en', 'nl'], 'the letterhead at the right, the recipient at the left'],
  ['footer-only', ['de', 'fr', 'it'], 'no letterhead: the seller only in the footer imprint, the recipient at the top'],
  ['bill-ship', ['de', 'en', 'nl'], 'labelled billing and delivery blocks side by side'],
  ['office-beside', ['de', 'fr', 'en', 'it'], 'the seller and its branch office side by side, the recipient to someone\'s attention'],
  ['from-to', ['de', 'es', 'nl'], '"From:" and "To:" columns'],
  ['person', ['de', 'fr', 'en'], 'a person as the buyer, after a salutation'],
  ['credit-note', ['de', 'it'], 'a credit note with the customer after an inline label'],
];

describe('rules engine: the parties of invoices by their layout', function () {
  this.timeout(120_000);
  let services: PipelineDeps;

  before(async () => {
    services = await sharedServices();
  });

  it('spells a legal form whose small l OCR read as a capital I as the tables write it', () => {
    expect(repairLegalForm('Officine Rossi S.r.I.')).to.equal('Officine Rossi S.r.l.');
    expect(repairLegalForm('Panificio Esposito SrI')).to.equal('Panificio Esposito Srl');
    expect(repairLegalForm('Studio IBI')).to.equal('Studio IBI');
  });

  it('reads a VAT id printed in groups of digits after its label ("VAT Reg. No. GB 100 0079 19") as one id', async () => {
    const invoice = await makeLayoutInvoice('window', 'en');
    const schema: JsonSchema = { type: 'object', properties: { seller: { type: 'object', properties: { name: { type: 'string' }, vat_id: { type: 'string', description: 'VAT identification number.' } } } } };
    const result = await read(services, invoice.pdf, schema);
    expect((result['seller'] as Record<string, unknown>)['vat_id']).to.equal(invoice.truth.seller.vatId);
  });

  for (const [family, languages, what] of CASES) {
    describe(`${family}: ${what}`, () => {
      for (const language of languages) {
        it(`reads the seller's and the buyer's names and addresses (${language})`, async () => {
          const invoice = await makeLayoutInvoice(family, language);
          const { seller, buyer } = invoice.truth;
          const flat = await read(services, invoice.pdf, FLAT);
          expect({ seller: folded(flat['seller']), buyer: folded(flat['buyer']) }).to.deep.equal({ seller: folded(seller.name), buyer: folded(buyer.name) });
          const nested = await read(services, invoice.pdf, NESTED);
          const of = (role: 'seller' | 'buyer', field: 'name' | 'address'): string => folded((nested[role] as Record<string, unknown> | null)?.[field]);
          expect(of('seller', 'name')).to.equal(folded(seller.name));
          expect(of('buyer', 'name')).to.equal(folded(buyer.name));
          expect(of('buyer', 'address')).to.equal(folded(buyer.address));
          // the seller's address is checked where the layout prints it whole in one place
          if (family !== 'credit-note' && family !== 'person') expect(of('seller', 'address')).to.equal(folded(seller.address));
        });
      }
    });
  }
});
