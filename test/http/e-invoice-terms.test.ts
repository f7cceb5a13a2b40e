import { expect } from 'chai';
import type { PipelineDeps } from '../../src/pipeline.js';
import { ciiXml, fullInvoice, sampleCreditNote, sampleInvoice, ublXml } from '../fixtures/einvoices.js';
import { closeSharedServices, content, postJson, sharedServices, startTestServer, type RunningServer } from '../helpers/test-server.js';

/** A schema as a user writes it: their own names (short, camelCase, nested), few descriptions. */
const USER_SCHEMA = {
  type: 'object',
  properties: {
    invoiceNo: { type: 'string' },
    inv_date: { type: 'string', description: 'Invoice date, YYYY-MM-DD' },
    due_date: { type: 'string' },
    ccy: { type: 'string' },
    seller_name: { type: 'string' },
    seller_vat_id: { type: 'string', description: "Seller's VAT identification number" },
    sellerTradingName: { type: 'string' },
    buyer: {
      type: 'object',
      properties: { name: { type: 'string' }, vatNumber: { type: 'string' }, email: { type: 'string' }, city: { type: 'string' } },
    },
    purchase_order: { type: 'string' },
    delivery_date: { type: 'string' },
    iban: { type: 'string' },
    bic: { type: 'string' },
    payment_terms: { type: 'string' },
    lines_total: { type: 'number', description: 'Sum of the line net amounts' },
    net_amount: { type: 'number', description: 'Total without VAT' },
    vat_total: { type: 'number' },
    gross_total: { type: 'number' },
    prepaid: { type: 'number' },
    amount_due: { type: 'number' },
    vat_breakdown: {
      type: 'array',
      items: { type: 'object', properties: { rate: { type: 'number' }, taxable_amount: { type: 'number' }, vat_amount: { type: 'number' }, category: { type: 'string' } } },
    },
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { description: { type: 'string' }, article_number: { type: 'string' }, qty: { type: 'number' }, unit: { type: 'string' }, unit_price: { type: 'number' }, net_amount: { type: 'number' }, vat_rate: { type: 'number' } },
      },
    },
  },
};

/** The answer every syntax of fullInvoice() gives: the XML's values as written, dates and amounts normalised. */
const FULL_ANSWER = {
  invoiceNo: 'RE 2024 0815',
  inv_date: '2024-03-15',
  due_date: '2024-04-14',
  ccy: 'EUR',
  seller_name: '[Seller name]',
  seller_vat_id: 'DE123456789',
  sellerTradingName: 'Nordlicht',
  // the name as the XML writes it, salutation line included
  buyer: { name: 'Herrn Max Mustermann', vatNumber: 'DE987654321', email: 'max@mustermann.example', city: 'Berlin' },
  purchase_order: 'PO 4711',
  delivery_date: '2024-03-10',
  iban: 'DE02200505501015871393',
  bic: 'HASPDEHHXXX',
  payment_terms: 'Zahlbar innerhalb von 30 Tagen ohne Abzug',
  lines_total: 1000,
  net_amount: 995,
  vat_total: 172.85,
  gross_total: 1167.85,
  prepaid: 100,
  amount_due: 1067.86,
  vat_breakdown: [
    { rate: 19, taxable_amount: 795, vat_amount: 151.05, category: 'S' },
    { rate: 7, taxable_amount: 200, vat_amount: 14, category: 'S' },
    { rate: 0, taxable_amount: 0, vat_amount: 0, category: 'E' },
  ],
  line_items: [
    { description: 'Akkuschrauber 18 V', article_number: 'AS-18', qty: 8, unit: 'C62', unit_price: 105, net_amount: 800, vat_rate: 19 },
    { description: 'Fachbuch Schrauben', article_number: 'FB-1', qty: 4, unit: 'H87', unit_price: 50, net_amount: 200, vat_rate: 7 },
  ],
};

interface Evidence {
  source?: string;
  confidence: number;
  eInvoice?: { term: string; normalized?: string; printed: string };
}

describe('e-invoice terms asked by meaning: any user\'s names, the XML\'s values exactly', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let pipeline: PipelineDeps;

  before(async () => {
    pipeline = await sharedServices();
    server = await startTestServer(pipeline);
  });
  after(async () => {
    await server.close();
    await closeSharedServices();
  });

  const ask = async (schema: unknown, xml: string, options?: Record<string, unknown>) => {
    const response = await postJson(`${server.url}/v1/`, { schema, contents: [content(Buffer.from(xml), 'application/xml', 'invoice.xml')], ...(options ? { options } : {}) });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body as Record<string, unknown>;
  };

  it('answers user-named terms of CII, ZUGFeRD 1.0 and UBL alike: parties, payment, totals, the VAT breakdown and the lines', async () => {
    expect(await ask(USER_SCHEMA, ciiXml(fullInvoice()))).to.deep.equal(FULL_ANSWER);
    expect(await ask(USER_SCHEMA, ublXml(fullInvoice()))).to.deep.equal(FULL_ANSWER);
    // ZUGFeRD 1.0 has no element for some terms (the tax representative, a line's third address line...), none asked here but the trading name
    const zugferd1 = await ask(USER_SCHEMA, ciiXml(fullInvoice(), '1'));
    expect(zugferd1).to.deep.include({ invoiceNo: 'RE 2024 0815', seller_vat_id: 'DE123456789', lines_total: 1000, net_amount: 995, gross_total: 1167.85, amount_due: 1067.86 });
  });

  it('answers null for a term the XML does not state, never a neighbouring term', async () => {
    // sampleInvoice() states no delivery date, no BIC, no trading name, no payment terms and no VAT breakdown rates of its own
    const answer = await ask(USER_SCHEMA, ciiXml(sampleInvoice()));
    expect(answer).to.deep.include({ invoiceNo: 'RE-2025-0042', seller_vat_id: 'DE123456789', delivery_date: null, bic: null, sellerTradingName: null, payment_terms: null, purchase_order: 'PO-7781', lines_total: 300, net_amount: 290 });
    expect(answer['buyer']).to.deep.equal({ name: 'Atelier Dupont SARL', vatNumber: 'FR44732829320', email: null, city: 'Lyon' });
  });

  it('reads a UBL credit note: its number, totals and the invoice it credits', async () => {
    const schema = { type: 'object', properties: { credit_note_number: { type: 'string' }, original_invoice: { type: 'string' }, total: { type: 'number' }, vat: { type: 'number' } } };
    expect(await ask(schema, ublXml(sampleCreditNote()))).to.deep.equal({ credit_note_number: 'GS-2025-0007', original_invoice: 'RE-2025-0042', total: 59.5, vat: 9.5 });
  });

  it('answers names in German, French and Spanish the same way', async () => {
    const schema = {
      type: 'object',
      properties: {
        Rechnungsnummer: { type: 'string' }, 'USt-IdNr_Verkäufer': { type: 'string' }, Nettobetrag: { type: 'number' },
        montant_ttc: { type: 'number' }, date_echeance: { type: 'string' }, importe_iva: { type: 'number' },
      },
    };
    expect(await ask(schema, ciiXml(fullInvoice()))).to.deep.equal({
      Rechnungsnummer: 'RE 2024 0815', 'USt-IdNr_Verkäufer': 'DE123456789', Nettobetrag: 995, montant_ttc: 1167.85, date_echeance: '2024-04-14', importe_iva: 172.85,
    });
  });

  it('gives a value its confidence by how sure the property -> term mapping is, and says when a value was normalised', async () => {
    const schema = { type: 'object', properties: { seller_vat_id: { type: 'string' }, vat_id: { type: 'string' }, invoice_date: { type: 'string' } } };
    const body = await ask(schema, ciiXml(fullInvoice()), { evidence: true });
    const evidence = body['evidence'] as Record<string, Evidence>;
    expect(body['data']).to.deep.equal({ seller_vat_id: 'DE123456789', vat_id: 'DE123456789', invoice_date: '2024-03-15' });
    expect(evidence['/seller_vat_id']!.confidence).to.be.at.least(0.9);
    // whose VAT id "vat_id" asks for is a guess (the issuer's, as documents print most): less sure
    expect(evidence['/vat_id']!.confidence).to.be.below(0.9);
    expect(evidence['/invoice_date']!.eInvoice).to.include({ term: 'BT-2' });
    expect(evidence['/invoice_date']!.eInvoice!.normalized).to.match(/YYYY-MM-DD/);
    expect(evidence['/seller_vat_id']!.eInvoice).to.include({ term: 'BT-31' }).and.not.have.property('normalized');
  });

  it('answers the first of two payment accounts, less sure than of a term the XML states once', async () => {
    const xml = ciiXml(fullInvoice());
    const means = /<ram:SpecifiedTradeSettlementPaymentMeans>[\s\S]*?<\/ram:SpecifiedTradeSettlementPaymentMeans>/.exec(xml)![0];
    const twoAccounts = xml.replace(means, `${means}${means.replace('DE02200505501015871393', 'DE89370400440532013000')}`);
    const schema = { type: 'object', properties: { iban: { type: 'string' }, seller_vat_id: { type: 'string' } } };
    const one = (await ask(schema, xml, { evidence: true }))['evidence'] as Record<string, Evidence>;
    const two = await ask(schema, twoAccounts, { evidence: true });
    const evidence = two['evidence'] as Record<string, Evidence>;
    expect(two['data']).to.deep.equal({ iban: 'DE02200505501015871393', seller_vat_id: 'DE123456789' });
    expect(one['/iban']!.confidence).to.be.at.least(0.9);
    expect(evidence['/iban']!.confidence).to.be.below(0.9);
    expect(evidence['/seller_vat_id']!.confidence).to.equal(one['/seller_vat_id']!.confidence);
  });
});
