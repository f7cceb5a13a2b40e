import { expect } from 'chai';
import { RulesEngine } from '../../../src/engines/rules/index.js';
import { hintStats } from '../../../src/engines/rules/core/labels.js';
import { tokenRunStats } from '../../../src/engines/rules/core/fuzzy.js';
import type { JsonSchema } from '../../../src/schema/schema.js';
import type { Document } from '../../../src/document/document.js';
import { buildDocument, type LineSpec } from '../../helpers/document-builder.js';
import { engineInput, extractFinal } from '../../helpers/extraction.js';

const engine = new RulesEngine();

/** The engine's candidate, finalized as the pipeline does. */
async function extract(document: Document, schema: JsonSchema): Promise<Record<string, unknown>> {
  return (await extractFinal(engine, document, schema)).value;
}

const invoiceLines = [
  'Acme Tools Ltd',
  'Invoice number: INV-2024-0042',
  'Invoice date: 14/03/2024',
  '',
  'Description       Quantity   Unit price   Amount',
  'Steel hammer             2        14.50    29.00',
  'Box of nails            10         2.25    22.50',
  'Safety gloves            3         4.00    12.00',
  'Subtotal                                   63.50',
  'VAT 20%                                    12.70',
  'Total due                                  76.20',
];

const invoiceSchema: JsonSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', description: 'Date of the invoice, YYYY-MM-DD' },
    total: { type: 'number' },
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { description: { type: 'string' }, quantity: { type: 'number' }, amount: { type: 'number' } },
      },
    },
  },
  required: ['invoice_number', 'invoice_date', 'total', 'line_items'],
};

const invoiceExpected = {
  invoice_number: 'INV-2024-0042',
  invoice_date: '2024-03-14',
  total: 76.2,
  line_items: [
    { description: 'Steel hammer', quantity: 2, amount: 29 },
    { description: 'Box of nails', quantity: 10, amount: 22.5 },
    { description: 'Safety gloves', quantity: 3, amount: 12 },
  ],
};

describe('RulesEngine', () => {
  it('is always ready and named rules', async () => {
    expect(engine.name).to.equal('rules');
    expect((await engine.status()).ready).to.equal(true);
  });

  it('takes an unlabelled invoice date from the title line with its number, not from an earlier date of a form version', async () => {
    const schema: JsonSchema = { type: 'object', properties: { invoice_date: { type: 'string', format: 'date' } } };
    const pages: Array<[string[], string]> = [
      [['Formular-Version 2.1 vom 24.03.2020', 'Lieferant GmbH', 'Handelsrechnung Nr. 471102 vom 05.03.2020', 'Rechnung gemäß Bestellung vom 01.03.2020.'], '2020-03-05'],
      [['Template v3 of 02/01/2019', 'Invoice 2024-17 dated 14/03/2024', 'Order of 10/03/2024'], '2024-03-14'],
      [['Modèle du 02/01/2019', 'Facture n° F-88 du 14/03/2024'], '2024-03-14'],
      // no title line with its number: the first date stands
      [['Acme Ltd 02/01/2019', 'Invoice according to the order of 10/03/2024'], '2019-01-02'],
    ];
    for (const [lines, date] of pages) expect(await extract(buildDocument(lines), schema), lines.join(' / ')).to.deep.equal({ invoice_date: date });
  });

  it('extracts an invoice: labelled fields, reformatted date, total (not subtotal) and the item table', async () => {
    expect(await extract(buildDocument(invoiceLines), invoiceSchema)).to.deep.equal(invoiceExpected);
  });

  it("leaves the document's title, printed beside the name on the same line, out of the seller's name", async () => {
    const schema: JsonSchema = { type: 'object', properties: { seller: { type: 'string', description: 'Name of the company that issued the invoice' } } };
    for (const title of ['INVOICE', 'TAX INVOICE', 'Receipt']) {
      const document = buildDocument([`Acme Tools Ltd                          ${title}`, '1 Forge Lane, Sheffield S1 2AB', 'Invoice number: INV-2024-0042', 'Total due   76.20']);
      expect(await extract(document, schema), title).to.deep.equal({ seller: 'Acme Tools Ltd' });
    }
  });

  it('reads table columns by position when a row leaves a cell empty and a description wraps', async () => {
    const document = buildDocument([
      'Item                         Qty      Price',
      'Cordless drill 18V             1     129.00',
      '  with two batteries',
      'Gift wrapping                          2.50',
      'Total                                131.50',
    ]);
    const result = await extract(document, {
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string', description: 'Item' }, qty: { type: 'integer' }, price: { type: 'number' } } } },
      },
    });
    expect(result['items']).to.deep.equal([
      { name: 'Cordless drill 18V with two batteries', qty: 1, price: 129 },
      { name: 'Gift wrapping', qty: null, price: 2.5 },
    ]);
  });

  describe('receipt', () => {
    const receipt: Array<string | LineSpec> = [
      { text: 'MR D.I.Y. (JOHOR) SDN BHD (CO. REG: 860671-D)', size: 12 },
      'LOT 1851-A & 1851-B, JALAN KPB 6,',
      'KAWASAN PERINDUSTRIAN BALAKONG,',
      '43300 SERI KEMBANGAN, SELANGOR',
      'TEL: 03-8961 2345    GST ID: 000306020352',
      'TAX INVOICE',
      'Date: 15-03-18       Time: 19:20',
      'ITEM             QTY      AMOUNT',
      'WASHER 5PC         1        3.80',
      'TAPE 24MM          2        9.20',
      'SUB-TOTAL                  13.00',
      'GST 6%                      0.78',
      'ROUNDING                    0.02',
      'TOTAL                      13.80',
      'CASH                       20.00',
      'CHANGE                      6.20',
      'THANK YOU. PLEASE COME AGAIN.',
    ];

    it('takes the company from the header, the address lines below it, the printed date and the total', async () => {
      const result = await extract(buildDocument(receipt), {
        type: 'object',
        properties: {
          company: { type: 'string', description: 'Name of the business that issued the receipt, without the company registration number.' },
          date: { type: 'string', description: 'Date of the transaction exactly as printed on the receipt, keeping its original format.' },
          address: { type: 'string', description: 'Postal address of the business, lines joined by a single space.' },
          total: { type: 'string', description: 'Final total amount payable, as a plain number without currency symbol.' },
        },
        required: ['company', 'date', 'address', 'total'],
        additionalProperties: false,
      });
      expect(result).to.deep.equal({
        company: 'MR D.I.Y. (JOHOR) SDN BHD',
        date: '15-03-18',
        address: 'LOT 1851-A & 1851-B, JALAN KPB 6, KAWASAN PERINDUSTRIAN BALAKONG, 43300 SERI KEMBANGAN, SELANGOR',
        total: '13.80',
      });
    });

    it('tells total, subtotal, tax, phone and time apart', async () => {
      const result = await extract(buildDocument(receipt), {
        type: 'object',
        properties: {
          store_name: { type: 'string' },
          phone: { type: ['string', 'null'] },
          time: { type: ['string', 'null'] },
          subtotal: { type: ['number', 'null'] },
          tax: { type: ['number', 'null'] },
          total: { type: 'number' },
          date: { type: 'string', format: 'date' },
        },
      });
      expect(result).to.deep.equal({
        store_name: 'MR D.I.Y. (JOHOR) SDN BHD',
        phone: '03-8961 2345',
        time: '19:20',
        subtotal: 13,
        tax: 0.78,
        total: 13.8,
        date: '2018-03-15',
      });
    });
  });

  describe('parties and contact details', () => {
    const letterhead = buildDocument([
      { text: 'Northwind Supplies Inc.', size: 14 },
      '500 Market Street, Suite 2',
      'San Francisco, CA 94105',
      'Invoice # 10023          Date: March 4, 2024',
      '',
      'Bill to:                          Ship to:',
      'Jane Doe                          Acme Warehouse',
      '12 High Street                    77 Dock Road',
      'Springfield, IL 62701             Portland, OR 97201',
      '',
      'Payment method: Credit card',
      'Paid: Yes',
      'Contact: billing@northwind.example, help@northwind.example',
      'Tel: +1 415 555 0100     Fax: +1 415 555 0101',
    ]);

    it('fills nested objects from the header and from labelled blocks side by side', async () => {
      const party = { type: 'object', properties: { name: { type: 'string' }, address: { type: 'string' } } };
      const result = await extract(letterhead, {
        type: 'object',
        properties: { vendor: party, customer: party, ship_to: party, invoice_number: { type: 'string' }, invoice_date: { type: 'string', format: 'date' } },
      });
      expect(result).to.deep.equal({
        vendor: { name: 'Northwind Supplies Inc.', address: '500 Market Street, Suite 2 San Francisco, CA 94105' },
        customer: { name: 'Jane Doe', address: '12 High Street Springfield, IL 62701' },
        ship_to: { name: 'Acme Warehouse', address: '77 Dock Road Portland, OR 97201' },
        invoice_number: '10023',
        invoice_date: '2024-03-04',
      });
    });

    it('reads enums, booleans, emails and phones, and leaves what is not there null', async () => {
      const result = await extract(letterhead, {
        type: 'object',
        properties: {
          payment_method: { type: 'string', enum: ['cash', 'credit_card', 'bank_transfer'] },
          paid: { type: 'boolean' },
          email: { type: 'string', format: 'email' },
          emails: { type: 'array', items: { type: 'string', format: 'email' } },
          phone: { type: 'string' },
          fax: { type: 'string' },
          po_number: { type: 'string', description: 'Purchase order number' },
          due_date: { type: 'string', format: 'date' },
          notes: { type: 'array', items: { type: 'string' } },
        },
      });
      expect(result).to.deep.equal({
        payment_method: 'credit_card',
        paid: true,
        email: 'billing@northwind.example',
        emails: ['billing@northwind.example', 'help@northwind.example'],
        phone: '+1 415 555 0100',
        fax: '+1 415 555 0101',
        po_number: null,
        due_date: null,
        notes: [],
      });
    });
  });

  it('finds labels despite OCR noise and missing spaces', async () => {
    const document = buildDocument([
      'CAFE LUNA',
      'lnvoice No. : 4471',
      'SubTotal            10.00',
      'Serv1ce Charge       1.00',
      'T0TAL            RM 12.00',
    ]);
    const result = await extract(document, {
      type: 'object',
      properties: { invoice_number: { type: 'string' }, subtotal: { type: 'number' }, service_charge: { type: 'number' }, total: { type: 'number' } },
    });
    expect(result).to.deep.equal({ invoice_number: '4471', subtotal: 10, service_charge: 1, total: 12 });
  });

  it('fills a grouping object from the whole document and stops a recursive schema where it repeats', async () => {
    const result = await extract(buildDocument(invoiceLines), {
      type: 'object',
      properties: {
        totals: { type: 'object', properties: { subtotal: { type: 'number' }, vat: { type: 'number' }, total: { type: 'number' } } },
        previous: { $ref: '#' },
      },
    });
    expect(result).to.deep.equal({ totals: { subtotal: 63.5, vat: 12.7, total: 76.2 }, previous: null });
  });

  it('does not take the value of the next label on the same line', async () => {
    const document = buildDocument(['Order date:                Delivery date: 02/05/2024']);
    const result = await extract(document, {
      type: 'object',
      properties: { order_date: { type: 'string', format: 'date' }, delivery_date: { type: 'string', format: 'date' } },
    });
    expect(result).to.deep.equal({ order_date: null, delivery_date: '2024-05-02' });
  });

  it('does not read free text out of prose', async () => {
    const document = buildDocument([
      'This agreement is governed by the laws of the jurisdiction where the party resides.',
      'Each party shall keep the terms confidential for the term of this agreement.',
    ]);
    const result = await extract(document, {
      type: 'object',
      properties: { jurisdiction: { type: 'string' }, party: { type: 'array', items: { type: 'string' } }, term: { type: 'string' } },
    });
    expect(result).to.deep.equal({ jurisdiction: null, party: [], term: null });
  });

  it("works out a schema's label hints once, not on every request, and answers the same", async () => {
    const schema: JsonSchema = { ...invoiceSchema, properties: { ...(invoiceSchema.properties as Record<string, JsonSchema>), reference_code: { type: 'string', description: 'Order reference printed by the seller' } } };
    const first = await extract(buildDocument(invoiceLines), schema);
    const computed = hintStats.computed;
    expect(await extract(buildDocument(invoiceLines), schema)).to.deep.equal(first);
    expect(hintStats.computed).to.equal(computed);
  });

  it("matches every label of every field on a line's tokens prepared once: the preparing grows with the lines, not with the fields", async () => {
    const prepared = async (schema: JsonSchema): Promise<number> => {
      const before = tokenRunStats.prepared;
      await extract(buildDocument(invoiceLines), schema);
      return tokenRunStats.prepared - before;
    };
    const scalar = (names: string[]): JsonSchema => ({ type: 'object', properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])) });
    const few = await prepared(scalar(['invoice_number', 'total']));
    const many = await prepared(scalar(['invoice_number', 'total', 'subtotal', 'tax', 'invoice_date', 'due_date', 'order_number', 'customer_number', 'discount', 'currency']));
    expect(few).to.be.at.most(invoiceLines.length);
    expect(many).to.equal(few);
  });

  it('stops when the request is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    let failed = false;
    await engine.extract(engineInput(buildDocument(invoiceLines), invoiceSchema, { signal: controller.signal })).catch(() => {
      failed = true;
    });
    expect(failed).to.equal(true);
  });
});
