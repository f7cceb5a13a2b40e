/**
 * The table reader on documents built line by line: headings in every
 * language of the tables, headings and rows printed over several lines,
 * cells read like top-level values, the sums as evidence, tables without a
 * heading, and the rows of a table of thousands read in linear time.
 */
import { expect } from 'chai';
import { RulesEngine } from '../../../src/engines/rules/index.js';
import { readLines } from '../../../src/engines/rules/core/lines.js';
import { extractTable } from '../../../src/engines/rules/tables/tables.js';
import { viewSchema } from '../../../src/schema/schema-view.js';
import type { JsonSchema } from '../../../src/schema/schema.js';
import type { Document } from '../../../src/document/document.js';
import { buildDocument, type LineSpec } from '../../helpers/document-builder.js';
import { extractFinal } from '../../helpers/extraction.js';
import { expectLinearGrowth } from '../../helpers/growth.js';

const engine = new RulesEngine();

function listOf(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties } } } };
}

const lineProperties: Record<string, JsonSchema> = { description: { type: 'string' }, quantity: { type: 'number' }, unit_price: { type: 'number' }, amount: { type: 'number' } };
const lineSchema = listOf(lineProperties);
const lineItem: JsonSchema = { type: 'object', properties: lineProperties };

async function items(document: Document, schema: JsonSchema = lineSchema): Promise<unknown> {
  return (await extractFinal(engine, document, schema)).value['items'];
}

/** A line of cells at given x positions (points; a character is 6 points wide). */
function at(...cells: Array<[number, string]>): LineSpec {
  return { cells: cells.map(([x, text]) => ({ x, text })) };
}

describe('table reader', () => {
  describe('headings in every language of the tables', () => {
    const headings: Array<[string, string, string, string, string, string]> = [
      ['en', 'Invoice', 'Description', 'Qty', 'Unit price', 'Amount'],
      ['de', 'Rechnung', 'Bezeichnung', 'Menge', 'Einzelpreis', 'Betrag'],
      ['fr', 'Facture', 'Désignation', 'Qté', 'Prix unitaire', 'Montant'],
      ['es', 'Factura', 'Descripción', 'Cantidad', 'Precio unitario', 'Importe'],
      ['it', 'Fattura', 'Descrizione', 'Quantità', 'Prezzo unitario', 'Importo'],
      ['nl', 'Factuur', 'Omschrijving', 'Aantal', 'Prijs', 'Bedrag'],
      ['pl', 'Faktura', 'Nazwa towaru', 'Ilość', 'Cena jedn.', 'Wartość'],
      ['pt', 'Fatura', 'Descrição', 'Quantidade', 'Preço unitário', 'Valor'],
    ];
    for (const [code, title, name, quantity, price, amount] of headings) {
      it(`reads an English schema's columns from a ${code} heading, with decimal commas`, async () => {
        const document = buildDocument([
          title,
          at([40, name], [220, quantity], [300, price], [420, amount]),
          at([40, 'Widget A'], [250, '3'], [330, '12,50'], [440, '37,50']),
          at([40, 'Widget B'], [250, '1'], [330, '4,00'], [446, '4,00']),
        ]);
        expect(await items(document)).to.deep.equal([
          { description: 'Widget A', quantity: 3, unit_price: 12.5, amount: 37.5 },
          { description: 'Widget B', quantity: 1, unit_price: 4, amount: 4 },
        ]);
      });
    }
  });

  it('splits a heading printed as one cell into its labels, and the row cells printed as one at the columns\' edges', async () => {
    // one printed cell each: the words a little more than a space apart
    const document = buildDocument([
      at([40, 'Pos'], [66, 'Art.-Nr.'], [124, 'Bezeichnung'], [300, 'Menge'], [380, 'Preis'], [460, 'Betrag']),
      at([52, '1'], [66, 'AB-47110'], [124, 'Bohrer'], [306, '2'], [380, '5,00'], [466, '10,00']),
    ]);
    expect(await items(document)).to.deep.equal([{ description: 'Bohrer', quantity: 2, unit_price: 5, amount: 10 }]);
  });

  it('reads a row whose amount is printed a line below its other figures, and a name wrapped onto that line', async () => {
    const document = buildDocument([
      at([40, 'Pos'], [70, 'Beschreibung'], [260, 'Nettopreis'], [340, 'Menge'], [420, 'Nettobetrag']),
      at([40, '1'], [70, 'Kfz-Haftpflicht SF25'], [266, '67,2244'], [346, '1']),
      at([70, 'Regio R9'], [430, '80,00']),
      at([40, '2'], [70, 'Vollkasko'], [266, '117,6471'], [346, '1']),
      at([424, '140,00']),
    ]);
    expect(await items(document)).to.deep.equal([
      { description: 'Kfz-Haftpflicht SF25 Regio R9', quantity: 1, unit_price: 67.2244, amount: 80 },
      { description: 'Vollkasko', quantity: 1, unit_price: 117.6471, amount: 140 },
    ]);
  });

  it('reads names printed above their figures, a row to a block of lines', async () => {
    const document = buildDocument([
      at([40, 'Description'], [260, 'Qty'], [330, 'Price'], [430, 'Amount']),
      at([40, 'Consulting services, March']),
      at([266, '2'], [330, '100.00'], [436, '200.00']),
      '',
      at([40, 'Travel expenses']),
      at([266, '1'], [336, '45.00'], [442, '45.00']),
      '',
      at([40, 'Total'], [436, '245.00']),
    ]);
    expect(await items(document)).to.deep.equal([
      { description: 'Consulting services, March', quantity: 2, unit_price: 100, amount: 200 },
      { description: 'Travel expenses', quantity: 1, unit_price: 45, amount: 45 },
    ]);
  });

  it('reads credits with the sign before or after, units printed with the quantity, a VAT rate column, and gives null for a column the table lacks', async () => {
    const schema = listOf({
      description: { type: 'string' },
      quantity: { type: 'number' },
      uom: { type: 'string', description: 'Unit of measure' },
      vat_rate: { type: 'number', description: 'VAT rate in percent' },
      amount: { type: 'number' },
      gtin: { type: 'string' },
    });
    const document = buildDocument([
      at([40, 'Artikel'], [250, 'Menge'], [330, 'MwSt %'], [430, 'Betrag']),
      at([40, 'Kabel 3x1,5'], [250, '10 m'], [336, '19 %'], [436, '25,00']),
      at([40, 'Gutschrift Retoure'], [250, '-2 Stk'], [342, '7 %'], [442, '5,00-']),
      at([40, 'Pfand'], [256, '1 Stk'], [336, '19 %'], [436, '-0,25']),
    ]);
    expect(await items(document, schema)).to.deep.equal([
      { description: 'Kabel 3x1,5', quantity: 10, uom: 'm', vat_rate: 19, amount: 25, gtin: null },
      { description: 'Gutschrift Retoure', quantity: -2, uom: 'Stk', vat_rate: 7, amount: -5, gtin: null },
      { description: 'Pfand', quantity: 1, uom: 'Stk', vat_rate: 19, amount: -0.25, gtin: null },
    ]);
  });

  describe('a quantity run into the VAT column a space apart, as one printed cell', () => {
    // each table's first row prints its quantity and its rate half a character apart: one printed cell over two columns; the second a column gap apart
    it('reads a German table: "20 Stk 19 % VAT (S)" under "Menge" and "Steuer"', async () => {
      const schema = listOf({ description: { type: 'string' }, quantity: { type: 'number' }, uom: { type: 'string', description: 'Unit of measure' }, unit_price: { type: 'number' }, amount: { type: 'number' }, article_number: { type: 'string' } });
      const document = buildDocument([
        'Rechnung 4711',
        at([40, 'Pos'], [70, 'Beschreibung'], [230, 'Nettopreis'], [310, 'Menge'], [370, 'Steuer'], [470, 'Entgelt']),
        at([46, '1'], [70, 'Trennblätter'], [266, '9,90'], [304, '20 Stk'], [343, '19 % VAT (S)'], [476, '198,00']),
        at([46, '2'], [70, 'Joghurt'], [266, '5,50'], [304, '50 Stk'], [376, '7 % VAT (S)'], [476, '275,00']),
        '',
        at([370, 'Summe netto'], [476, '473,00']),
      ]);
      expect(await items(document, schema)).to.deep.equal([
        { description: 'Trennblätter', quantity: 20, uom: 'Stk', unit_price: 9.9, amount: 198, article_number: null },
        { description: 'Joghurt', quantity: 50, uom: 'Stk', unit_price: 5.5, amount: 275, article_number: null },
      ]);
    });

    it('reads a French table: "20 pce 20 %" under "Qté" and "Taux TVA"', async () => {
      const schema = listOf({ description: { type: 'string' }, quantity: { type: 'number' }, uom: { type: 'string', description: 'Unit of measure' }, unit_price: { type: 'number' }, vat_rate: { type: 'number', description: 'VAT rate in percent' }, amount: { type: 'number' }, gtin: { type: 'string' } });
      const document = buildDocument([
        'Facture 2024-117',
        at([40, 'N°'], [70, 'Désignation'], [220, 'Prix unitaire'], [330, 'Qté'], [380, 'Taux TVA'], [470, 'Montant HT']),
        at([46, '1'], [70, 'Intercalaires'], [274, '9,90'], [314, '20 pce'], [353, '20 %'], [500, '198,00']),
        at([46, '2'], [70, 'Yaourt nature'], [274, '5,50'], [314, '50 pce'], [386, '5,5 %'], [500, '275,00']),
        '',
        at([380, 'Total HT'], [500, '473,00']),
      ]);
      expect(await items(document, schema)).to.deep.equal([
        { description: 'Intercalaires', quantity: 20, uom: 'pce', unit_price: 9.9, vat_rate: 20, amount: 198, gtin: null },
        { description: 'Yaourt nature', quantity: 50, uom: 'pce', unit_price: 5.5, vat_rate: 5.5, amount: 275, gtin: null },
      ]);
    });
  });

  describe('a quantity run into a column of codes, read where the row\'s product confirms it', () => {
    // the first row's quantity runs, a space apart, into the tax code printed after it: the whole lands under the codes
    const schema = listOf({ description: { type: 'string' }, quantity: { type: 'number' }, uom: { type: 'string', description: 'Unit of measure' }, unit_price: { type: 'number' }, amount: { type: 'number' }, article_number: { type: 'string' } });
    const table = (heading: string[], rows: Array<[string, string, string, string, string]>): LineSpec[] => [
      at([40, heading[0]!], [70, heading[1]!], [230, heading[2]!], [310, heading[3]!], [370, heading[4]!], [490, heading[5]!]),
      ...rows.map(([pos, name, price, quantityAndCode, amount], k) =>
        k === 0 ? at([46, pos], [70, name], [266, price], [304, quantityAndCode], [496, amount]) : at([46, pos], [70, name], [266, price], [304, quantityAndCode.split(' ').slice(0, 2).join(' ')], [376, quantityAndCode.split(' ').slice(2).join(' ')], [496, amount]),
      ),
    ];

    it('reads an English table: "20 pcs Standard rated" under "Qty" and "Tax code"', async () => {
      const document = buildDocument([
        'Invoice 4711',
        ...table(['No.', 'Description', 'Unit price', 'Qty', 'Tax code', 'Amount'], [['1', 'Dividers', '9.90', '20 pcs Standard rated', '198.00'], ['2', 'Yoghurt', '5.50', '50 pcs Reduced rate', '275.00']]),
      ]);
      expect(await items(document, schema)).to.deep.equal([
        { description: 'Dividers', quantity: 20, uom: 'pcs', unit_price: 9.9, amount: 198, article_number: null },
        { description: 'Yoghurt', quantity: 50, uom: 'pcs', unit_price: 5.5, amount: 275, article_number: null },
      ]);
    });

    it('reads a German table: "20 Stk Normalsatz S" under "Menge" and "Kennz.", and takes no figure the product does not confirm', async () => {
      const document = buildDocument([
        'Rechnung 4711',
        ...table(['Pos', 'Beschreibung', 'Nettopreis', 'Menge', 'Kennz.', 'Entgelt'], [['1', 'Trennblätter', '9,90', '20 Stk Normalsatz S', '198,00'], ['2', 'Joghurt', '5,50', '50 Stk ermäßigt E', '275,00']]),
      ]);
      expect(await items(document, schema)).to.deep.equal([
        { description: 'Trennblätter', quantity: 20, uom: 'Stk', unit_price: 9.9, amount: 198, article_number: null },
        { description: 'Joghurt', quantity: 50, uom: 'Stk', unit_price: 5.5, amount: 275, article_number: null },
      ]);
      // 20 x 9,90 is not 190,00: the quantity stays unread, the printed amount as printed
      const differs = buildDocument(['Rechnung 4711', ...table(['Pos', 'Beschreibung', 'Nettopreis', 'Menge', 'Kennz.', 'Entgelt'], [['1', 'Trennblätter', '9,90', '20 Stk Normalsatz S', '190,00']])]);
      expect(await items(differs, schema)).to.deep.equal([{ description: 'Trennblätter', quantity: null, uom: null, unit_price: 9.9, amount: 190, article_number: null }]);
    });
  });

  it('goes on over a page break without a repeated heading, past the next page\'s letterhead, and ends at the totals', async () => {
    const document = buildDocument([
      ['Invoice 2024-17', at([40, 'Description'], [260, 'Qty'], [330, 'Price'], [430, 'Amount']), at([40, 'Cable ties'], [266, '5'], [336, '2.00'], [436, '10.00']), at([40, 'Wall plugs'], [266, '2'], [336, '4.50'], [442, '9.00'])],
      ['Acme Supplies Ltd - page 2', at([40, 'Screws 4x40'], [266, '3'], [336, '6.00'], [436, '18.00']), at([40, 'Subtotal'], [436, '37.00']), at([40, 'Shipping'], [442, '5.00'])],
    ]);
    expect(await items(document)).to.deep.equal([
      { description: 'Cable ties', quantity: 5, unit_price: 2, amount: 10 },
      { description: 'Wall plugs', quantity: 2, unit_price: 4.5, amount: 9 },
      { description: 'Screws 4x40', quantity: 3, unit_price: 6, amount: 18 },
    ]);
  });

  it('follows columns that drift to the right down a scanned page', async () => {
    const lines: LineSpec[] = [at([40, 'Description'], [260, 'Qty'], [330, 'Price'], [430, 'Amount'])];
    const expected = [];
    // each row 5 points further right: the last price ends where the amounts begin at the heading
    for (let row = 0; row < 16; row++) {
      const dx = 5 * row;
      lines.push(at([40 + dx, `Item ${row + 1}`], [266 + dx, '2'], [336 + dx, '1.50'], [436 + dx, '3.00']));
      expected.push({ description: `Item ${row + 1}`, quantity: 2, unit_price: 1.5, amount: 3 });
    }
    expect(await items(buildDocument(lines))).to.deep.equal(expected);
  });

  it('leaves out a total carried over a page break, at the foot of one page and the head of the next', async () => {
    const document = buildDocument([
      [at([40, 'Description'], [260, 'Qty'], [330, 'Price'], [430, 'Amount']), at([40, 'Cable ties'], [266, '5'], [336, '2.00'], [436, '10.00']), at([40, 'Wall plugs'], [266, '2'], [336, '4.50'], [442, '9.00']), at([40, 'Carried forward'], [436, '19.00'])],
      [at([40, 'Brought forward'], [436, '19.00']), at([40, 'Screws 4x40'], [266, '3'], [336, '6.00'], [436, '18.00']), at([40, 'Subtotal'], [436, '37.00'])],
    ]);
    expect(await items(document)).to.deep.equal([
      { description: 'Cable ties', quantity: 5, unit_price: 2, amount: 10 },
      { description: 'Wall plugs', quantity: 2, unit_price: 4.5, amount: 9 },
      { description: 'Screws 4x40', quantity: 3, unit_price: 6, amount: 18 },
    ]);
  });

  describe('the sums as evidence', () => {
    it('takes, of the figures a price column prints for a row, the one that makes quantity times price the amount', async () => {
      // the list price on the row's line, the net price below it
      const document = buildDocument([
        at([40, 'Description'], [260, 'Qty'], [330, 'Unit price'], [430, 'Amount']),
        at([40, 'Printer paper'], [266, '3'], [336, '31.00'], [436, '90.00']),
        at([336, '30.00']),
      ]);
      expect(await items(document)).to.deep.equal([{ description: 'Printer paper', quantity: 3, unit_price: 30, amount: 90 }]);
    });

    it('leaves out rows below the lines that print no quantity nor price when the printed total of the lines leaves them out', async () => {
      const document = buildDocument([
        at([40, 'Description'], [260, 'Qty'], [330, 'Price'], [430, 'Amount']),
        at([40, 'Widget'], [266, '2'], [330, '10.00'], [436, '20.00']),
        at([40, 'Gadget'], [266, '1'], [330, '15.00'], [436, '15.00']),
        at([40, 'Freight charge'], [442, '5.00']),
        '',
        at([40, 'Lines total'], [436, '35.00']),
        at([40, 'Invoice total'], [436, '40.00']),
      ]);
      expect(await items(document)).to.deep.equal([
        { description: 'Widget', quantity: 2, unit_price: 10, amount: 20 },
        { description: 'Gadget', quantity: 1, unit_price: 15, amount: 15 },
      ]);
    });

    it('scores each cell, lower where the row\'s product does not hold, and keeps the words it was read from', () => {
      const document = buildDocument([
        at([40, 'Description'], [260, 'Qty'], [330, 'Price'], [430, 'Amount']),
        at([40, 'Widget'], [266, '2'], [330, '10.00'], [436, '20.00']),
        at([40, 'Gadget'], [266, '2'], [330, '15.00'], [436, '15.00']),
      ]);
      const { items: read, provenance } = extractTable(viewSchema(lineItem, lineSchema), lineSchema, readLines(document));
      expect(read).to.have.length(2);
      const score = (pointer: string): number => provenance.get(pointer)!.score!;
      expect(score('/0/amount')).to.be.greaterThan(score('/1/amount'));
      expect(score('/0/description')).to.equal(score('/1/description'));
      expect(provenance.get('/1/unit_price')!.words).to.deep.equal([{ file: 0, page: 0, line: 2, word: 2 }]);
    });
  });

  describe('any list of objects', () => {
    it('reads a payment schedule: due dates in the caller\'s form, a status as the enum spells it, the total line not a row', async () => {
      const instalment = { due_date: { type: 'string', format: 'date' }, amount: { type: 'number' }, status: { type: 'string', enum: ['paid', 'open'] } };
      const schema = { type: 'object', properties: { instalments: { type: 'array', items: { type: 'object', properties: instalment } } } };
      const document = buildDocument([
        'Payment schedule',
        at([40, 'Instalment'], [160, 'Due date'], [330, 'Amount'], [420, 'Status']),
        at([40, '1'], [160, '15/04/2024'], [330, '1,000.00'], [420, 'PAID']),
        at([40, '2'], [160, '15/05/2024'], [330, '1,000.00'], [420, 'Open']),
        at([40, '3'], [160, '15/06/2024'], [342, '500.00'], [420, 'Open']),
        at([40, 'Total'], [330, '2,500.00']),
      ]);
      expect((await extractFinal(engine, document, schema)).value['instalments']).to.deep.equal([
        { due_date: '2024-04-15', amount: 1000, status: 'paid' },
        { due_date: '2024-05-15', amount: 1000, status: 'open' },
        { due_date: '2024-06-15', amount: 500, status: 'open' },
      ]);
    });

    it('reads a receipt\'s items without a heading when their amounts add up to the printed subtotal, and its payment lines not', async () => {
      const schema = listOf({ name: { type: 'string' }, quantity: { type: 'integer' }, price: { type: 'number' } });
      const receipt = ['HARDWARE CORNER', 'WASHER 5PC          1      3.80', 'TAPE 24MM           2      9.20', 'SUB-TOTAL                 13.00', 'CASH                      20.00', 'CHANGE                     6.80'];
      expect(await items(buildDocument(receipt), schema)).to.deep.equal([
        { name: 'WASHER 5PC', quantity: 1, price: 3.8 },
        { name: 'TAPE 24MM', quantity: 2, price: 9.2 },
      ]);
      // the same shape of lines that add up to no printed total are no items
      expect(await items(buildDocument(['HARDWARE CORNER', 'CASH                      20.00', 'CHANGE                     6.80', 'THANK YOU']), schema)).to.deep.equal([]);
    });
  });

  it('reads a table of thousands of rows in time linear in their number', async function () {
    this.timeout(120_000);
    const table = (rows: number): Document => {
      const lines: LineSpec[] = [at([40, 'Description'], [260, 'Qty'], [330, 'Price'], [430, 'Amount'])];
      for (let i = 0; i < rows; i++) {
        lines.push(at([40, `Part ${i} steel bracket`], [266, '2'], [330, '1.50'], [436, '3.00']));
        if (i % 3 === 0) lines.push(at([40, `Art.-Nr. A-${100000 + i}`]));
      }
      return buildDocument(lines, { pageHeight: 20 * rows + 200 });
    };
    const read = (rows: number) => extractTable(viewSchema(lineItem, lineSchema), lineSchema, readLines(table(rows)));
    expect(read(200).items).to.have.length(200);
    await expectLinearGrowth((rows) => read(rows), 1250);
  });
});
