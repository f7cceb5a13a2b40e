import { expect } from 'chai';
import { RulesEngine } from '../../../src/engines/rules/index.js';
import { phoneShaped } from '../../../src/engines/rules/receipts/phones.js';
import { stripRegistration } from '../../../src/engines/rules/receipts/company.js';
import type { JsonSchema } from '../../../src/schema/schema.js';
import type { Document } from '../../../src/document/document.js';
import { buildDocument, type LineSpec } from '../../helpers/document-builder.js';
import { extractFinal } from '../../helpers/extraction.js';

const engine = new RulesEngine();

async function extract(document: Document, schema: JsonSchema): Promise<Record<string, unknown>> {
  return (await extractFinal(engine, document, schema)).value;
}

function schemaOf(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

const nullableString = (description: string): JsonSchema => ({ type: ['string', 'null'], description });
const finalTotal = { type: 'string', description: 'Final total amount payable (after tax and rounding), as a plain number without currency symbol.' };
const firstTotal = { type: 'string', description: 'Final total amount as printed, including currency symbol if printed next to it. If printed more than once, the first (top-most) occurrence.' };

async function totalOf(lines: Array<string | LineSpec>, property: JsonSchema = finalTotal): Promise<unknown> {
  return (await extract(buildDocument(lines), schemaOf({ total: property }))).total;
}

describe('rules engine on receipts', () => {
  describe('the final total', () => {
    it('takes the rounded total after a rounding adjustment, also when rounding down', async () => {
      const total = await totalOf([
        'Total Sales (Inclusive GST)      72.74',
        'Rounding Adjustment              -0.04',
        'Rounding                         72.70',
        'CASH                            100.00',
        'CHANGE                           27.30',
      ]);
      expect(total).to.equal('72.70');
    });

    it('adds a printed rounding adjustment when the rounded total is not legible and the description asks for it', async () => {
      const lines = ['Total (Incl GST)       RM14.18', 'Rounding               RM0.02', 'grand Tota lRM 14, 20', 'Total Paid             RM20.20'];
      expect(await totalOf(lines)).to.equal('14.20');
      // without "rounding" in the description the printed total stands
      expect(await totalOf(lines, { type: 'string', description: 'Total amount as a plain number.' })).to.equal('14.18');
      // an adjustment that does not give a cash-rounded amount is no rounding
      expect(await totalOf(['Total       14.18', 'Rounding     0.03'])).to.equal('14.18');
    });

    it('takes the rounded total printed after the rounding line, whatever its label, even when OCR garbled the adjustment', async () => {
      // the adjustment lost its decimal point: the rounded total below it still fits (within cents, a multiple of 0.05)
      expect(await totalOf(['Grand Total :            87.08', 'Rounding Adjustment:       002', 'Net Total :              87.10', 'CASH                    100.00'])).to.equal('87.10');
      // a legible adjustment must give the amount below; a discount and a tax line may come between total and rounding
      expect(await totalOf(['Total :                  25.44', 'Discount:                 0.00', 'GST 0%:                   0.00', 'Rounding Adj:             0.01', 'Amount To Be Paid :      25.45'])).to.equal('25.45');
      const plainTotal = { type: 'string', description: 'Total amount as a plain number.' };
      expect(await totalOf(['Total :                  25.44', 'Rounding Adj:             0.01', 'Amount To Be Paid :      25.40'], plainTotal)).to.equal('25.44');
      // a total already in multiples of 0.05 needs no rounding: the cash below is not the total
      expect(await totalOf(['Total :                  25.45', 'Rounding:                 0.00', 'Cash :                   25.50'])).to.equal('25.45');
    });

    it('reads an amount whose decimal point OCR set apart from its digits, and prefers one printed whole', async () => {
      expect(await totalOf(['Item Count 3', 'Total After Rounding 100. 60', 'Card No 46 xxxx 1819'])).to.equal('100.60');
      expect(await totalOf(['TOTAL : $48 .40'], firstTotal)).to.equal('$48.40');
      // a section number or a count with a full stop is not split cents: "Qty 2. 5 items" has one digit after it
      expect(await totalOf(['Qty 2. 5 items', 'TOTAL     12.50'])).to.equal('12.50');
    });

    it('reads cents printed without a zero before the point (".00"), and not the cents of an amount set apart', async () => {
      const schema = schemaOf({ tax: { type: ['string', 'null'], description: 'Tax amount' }, total: finalTotal });
      const { tax, total } = await extract(buildDocument(['SUBTOTAL              2.00', 'TAX .00', 'TOTAL                 2.00']), schema);
      expect(tax).to.equal('.00');
      expect(total).to.equal('2.00');
      expect(await totalOf(['TOTAL .82'])).to.equal('.82');
      // the nearest amount right of the label, as for any other amount: "TAX .00 BAL 2.00" prints no tax and a balance
      expect((await extract(buildDocument(['** TAX .00 BAL 2.00']), schema)).tax).to.equal('.00');
      // a tax of some cents is less than the total, not 78 (".78" was read as 78 and dropped as larger than the total)
      expect(await extract(buildDocument(['SUBTOTAL 16.50', 'TAX 3.25% .54', 'TOTAL 17.04']), schema)).to.deep.equal({ tax: '.54', total: '17.04' });
      // "48 .40" stays one amount; ".5 kg" is no amount of cents
      expect(await totalOf(['TOTAL : $48 .40'], firstTotal)).to.equal('$48.40');
      expect(await totalOf(['Apples .5 kg', 'TOTAL     1.20'])).to.equal('1.20');
    });

    it('does not take what the customer saved for the total ("TOTAL SAVED", "You save")', async () => {
      expect(await totalOf(['SUBTOTAL        11.20', 'TAX              0.73', 'TOTAL          $11.93', 'AMEX            11.93', 'TOTAL SAVED:   $44.80'], firstTotal)).to.equal('$11.93');
      expect(await totalOf(['TOTAL           20.00', 'You save total  5.00'])).to.equal('20.00');
    });

    it('reads an amount after a dot leader, and takes a dash glued to the label for no minus', async () => {
      expect(await totalOf(['2 CANAS 3,00', 'TOTAL...16,70', 'EFECTIVO... 20,00'])).to.equal('16,70');
      expect(await totalOf(['Total.. .24,80'])).to.equal('24,80');
      expect(await totalOf(['Total- 24.80', 'EFECTIVO 30.00'])).to.equal('24.80');
      // a minus the amount carries stays
      expect(await totalOf(['Refund total -5.00'])).to.equal('-5.00');
    });

    it('takes a total that says the tax is included ("Total Include GST", "Total Includes GST 0%")', async () => {
      expect(await totalOf(['(GST) 14.01', 'Rounding 0.00', 'Total Include GST 247.55', 'Cash 300.00', 'Change 52.45'])).to.equal('247.55');
      expect(await totalOf(['*Total Qty: 4.00 8.20', 'Total Includes GST 0% 8.20', 'Cash 20.20'])).to.equal('8.20');
    });

    it('prefers a payable total to a larger total of part of the items', async () => {
      const total = await totalOf([
        'Total 6% supplies (excl. GST):     27.68',
        'Total 6% supplies (Inc. GST):      29.33',
        'Total 0% supplies:                 -2.13',
        'Total Payable:                     27.20',
      ]);
      expect(total).to.equal('27.20');
    });

    it('takes a nett total over a plain one, but not a gift card balance', async () => {
      expect(await totalOf(['Total Sales (Excl GST)   13.02', 'GST 6%    0.78', 'Nett Total     13.80'])).to.equal('13.80');
      expect(await totalOf(['TOTAL            10.00', 'GIFT CARD        10.00', 'Card balance     45.00'])).to.equal('10.00');
    });

    it('ignores a zero balance printed after payment', async () => {
      const total = await totalOf(['Subtotal            40.00', 'Total               43.20', 'Visa                43.20', 'Balance due          0.00']);
      expect(total).to.equal('43.20');
    });

    it('returns the first printed occurrence of the total, with its currency, when the description asks for it', async () => {
      const total = await totalOf(
        ['SUBTOTAL                  $14.81', 'TOTAL                     $14.81', 'AMEX                      $14.81', 'CARD # XXXXXXXX1007', 'Total:               USD$ 14.81'],
        firstTotal,
      );
      expect(total).to.equal('$14.81');
    });

    it('does not take a discount line whose label OCR misspelled', async () => {
      const total = await totalOf(['Tatal Item Digcount:          0.00', 'Total Sales Inclusive GST:    4.70', 'Cash Received:                10.00']);
      expect(total).to.equal('4.70');
    });

    it('reads a total whose line has a tax column after the label', async () => {
      const total = await totalOf(['ITEMS          14', 'NET TOTAL          VAT 0          197,70'], firstTotal);
      expect(total).to.equal('197,70');
    });

    it('accepts "To pay" as the label of the amount payable', async () => {
      expect(await totalOf(['BUY HONKONG DOLLAR     1,050.00', 'To pay SGD             1,050.00'])).to.equal('1,050.00');
    });

    it('reads a total under its heading in a summary row of figures', async () => {
      expect(await totalOf(['Item A      2     10.00', 'Subtotal      Tax      Total', '10.00         0.80     10.80'])).to.equal('10.80');
    });

    it('does not read a total out of text below its label, nor a column under a table heading', async () => {
      const total = await totalOf([
        'Product        Quantity     Price     Total',
        'Oolong Tea            1      5.00      500',
        'Total (AED)',
        'Payment method >5>cccc',
      ]);
      expect(total).to.equal(null);
    });
  });

  describe('tax', () => {
    it('takes the tax, not the taxable amount, from a tax line with several columns', async () => {
      const schema = schemaOf({ tax: nullableString('Tax amount as printed. If several tax lines are printed, the first (top-most) one.') });
      const result = await extract(buildDocument(['CASH      £60.00', 'VAT A 15.0%     £46.08    £6.01', 'VAT B 5.0%      51.86     £0.00']), schema);
      expect(result.tax).to.equal('6.01');
    });

    it('drops a tax that is as large as the total: the total read under a tax label', async () => {
      const schema = schemaOf({ tax: nullableString('Tax amount as printed.'), total: { type: 'string', description: 'Total amount as printed.' } });
      const result = await extract(buildDocument(['ITEMS          14', 'NET TOTAL          VAT 0          197,70']), schema);
      expect(result).to.deep.equal({ tax: null, total: '197,70' });
    });

    it('reads a plural "Taxes" label', async () => {
      const result = await extract(buildDocument(['SUBTOTAL:     $200.00', 'TAXES:          $1.50', 'TOTAL:        $201.50']), schemaOf({ tax: nullableString('Tax amount as printed, with its currency symbol.') }));
      expect(result.tax).to.equal('$1.50');
    });
  });

  describe('phones', () => {
    const phone = nullableString('Telephone number of the store as printed. null if not printed.');

    it('takes the labelled phone although a fax number follows in another column', async () => {
      const result = await extract(buildDocument(['LION CITY STORE', 'Tel: 67341782     Fax: 67349067']), schemaOf({ phone }));
      expect(result.phone).to.equal('67341782');
    });

    it('takes no ZIP+4 code for a phone, and leaves a store number before a bracketed area code out', async () => {
      const schema = schemaOf({ phone, address: nullableString('Address of the store as printed. null if not printed.') });
      const result = await extract(buildDocument(['EASY MART', '1234 Main Street', 'Anytown, US 12345-6789', '(555) 123-4567', 'TOTAL 9.99']), schema);
      expect(result).to.deep.equal({ phone: '(555) 123-4567', address: '1234 Main Street Anytown, US 12345-6789' });
      expect((await extract(buildDocument(['KROGER', 'STORE 9416 (770)979-5667', 'TOTAL 9.99']), schemaOf({ phone }))).phone).to.equal('(770)979-5667');
    });

    it('reads a number announced for both phone and fax ("Tel/Fax"), but not a fax number alone', async () => {
      expect((await extract(buildDocument(['FIVE STAR', 'Tel/Fax : 03-7877 9712']), schemaOf({ phone }))).phone).to.equal('03-7877 9712');
      expect((await extract(buildDocument(['FIVE STAR', 'Fax: 03-7877 9713']), schemaOf({ phone }))).phone).to.equal(null);
    });

    it('does not take tax ids, table figures or long ids for an unlabelled phone', async () => {
      const result = await extract(
        buildDocument(['CAFE ROMA', 'P.IVA 018-387-40031', 'Crispy Beef      1    4500    4500', 'Ref 201611020201 (51-1)', '7.000 00      0.150000      1']),
        schemaOf({ phone }),
      );
      expect(result.phone).to.equal(null);
    });

    it('takes an unlabelled number shaped like a phone number', async () => {
      const result = await extract(buildDocument(['Redondo Car Wash', '617 Torrance Blvd', '310 540 1920']), schemaOf({ phone }));
      expect(result.phone).to.equal('310 540 1920');
    });

    it('knows phone-shaped digit groups', () => {
      expect(phoneShaped('(408) 446-5055')).to.equal(true);
      expect(phoneShaped('03-87238214')).to.equal(true);
      expect(phoneShaped('+1 415 555 0100')).to.equal(true);
      expect(phoneShaped('1-800-555-0199')).to.equal(true);
      expect(phoneShaped('1 4500 4500')).to.equal(false);
      expect(phoneShaped('201611020201 (51-1)')).to.equal(false);
      expect(phoneShaped('01838740031')).to.equal(false);
    });
  });

  describe('store name and address', () => {
    const storeSchema = schemaOf({
      store_name: { type: 'string', description: 'Name of the store as printed in the receipt header.' },
      store_address: nullableString('Address of the store as printed, lines joined by a single space. null if not printed.'),
    });

    it('does not take an item line for the name, nor a "Store #" line for the address', async () => {
      const result = await extract(
        buildDocument(['od', "Trader JOE'S", '5263 Prospect', 'San Jose  CA  95129', 'Store #062 - (408) 446-5055', 'NUT WALNUT PIECES     6.99']),
        storeSchema,
      );
      expect(result).to.deep.equal({ store_name: "Trader JOE'S", store_address: '5263 Prospect San Jose CA 95129' });
    });

    it('ends an address at a phone line and reads a "City, ST" line as an address', async () => {
      const result = await extract(buildDocument(['BOBS STEAK & CHOP HOUSE', 'DALLAS, TX', '(214) 652-4800', '20008 Paul H', 'TBL 62/1']), storeSchema);
      expect(result.store_address).to.equal('DALLAS, TX');
    });

    it('says how surely its address is one: a street and a postcode fully, less for a line that shows nothing of an address', async () => {
      const read = async (lines: string[]) => {
        const { value, provenance } = await extractFinal(engine, buildDocument(lines), storeSchema);
        return { address: value.store_address, source: provenance.get('/store_address') };
      };
      const full = await read(['HARBOUR CAFE', '12 Harbour Road', 'Bristol BS1 4DJ', 'Total 10.00']);
      expect(full.address).to.equal('12 Harbour Road Bristol BS1 4DJ');
      expect(full.source).to.include({ role: 'address', score: 1 });
      expect((await read(['HARBOUR CAFE', 'Bristol BS1 4DJ', 'Total 10.00'])).source?.score).to.equal(0.5);
      // a line of neither address nor place words between the street and the postcode
      const runOn = await read(['HARBOUR CAFE', '12 Harbour Road', 'Fresh Fish and Chips Daily 7', 'Bristol BS1 4DJ', 'Total 10.00']);
      expect(runOn.address).to.contain('Fresh Fish');
      expect(runOn.source?.score).to.be.closeTo(0.8, 1e-9);
      expect((await extractFinal(engine, buildDocument(['HARBOUR CAFE', '12 Harbour Road']), storeSchema)).provenance.get('/store_name')).to.include({ role: 'business-name' });
    });

    it('ends an address at a line of labelled fields, and keeps an address line OCR put a colon in', async () => {
      const fields = await extract(buildDocument(['CORNER GRILL', '8466 Castleton Corner Drive', 'Indianapolis, IN 46250', 'User: POS1 Station: 10701', 'Mesa : 4 Camarero : 1', 'Total 10.00']), storeSchema);
      expect(fields.store_address).to.equal('8466 Castleton Corner Drive Indianapolis, IN 46250');
      const spanish = await extract(buildDocument(['BAR PORTO', 'Calle Far, 7 07691. Porto Petro', 'Mesa numero: 6', '2 Copa Vino 7,00']), storeSchema);
      expect(spanish.store_address).to.equal('Calle Far, 7 07691. Porto Petro');
      const colon = await extract(buildDocument(['MAJU STATIONERY SDN BHD', '44 JALAN SS21/58 DAMANSARA UTAMA', '47400 PETALING: JAYA', 'Total 10.00']), storeSchema);
      expect(colon.store_address).to.equal('44 JALAN SS21/58 DAMANSARA UTAMA 47400 PETALING: JAYA');
      // a label that opens an address is no field of the receipt
      const headOffice = await extract(buildDocument(['KEDAI BUKU SDN BHD', 'HQ: 7, J1n SS21/34, 47400 PJ', 'Total 10.00']), storeSchema);
      expect(headOffice.store_address).to.equal('HQ: 7, J1n SS21/34, 47400 PJ');
    });

    it('ends an address at the heading of the item table, in any language read', async () => {
      const addressOver = async (heading: string, row: string) => (await extract(buildDocument(['HARBOUR CAFE', '12 Harbour Road', 'Bristol BS1 4DJ', heading, row]), storeSchema)).store_address;
      // "Unit" is a street word and a heading of four words reads like a line of place names: neither carries the address on
      expect(await addressOver('Description    Quantity    Unit price    Amount', 'Steel hammer    2    14.50    29.00')).to.equal('12 Harbour Road Bristol BS1 4DJ');
      expect(await addressOver('Item    Qty    Price    Amount', 'Fish and chips    1    7.50    7.50')).to.equal('12 Harbour Road Bristol BS1 4DJ');
      expect(await addressOver('Bezeichnung    Menge    Preis    Betrag', 'Brezel    2    0,80    1,60')).to.equal('12 Harbour Road Bristol BS1 4DJ');
      // one column word in a line of place names is no heading
      expect(await addressOver('Price Hill', 'Total 10.00')).to.equal('12 Harbour Road Bristol BS1 4DJ Price Hill');
    });

    it('starts an address at its street or at a unit number above it, not at a slogan printed above the street', async () => {
      const addressOf = async (lines: string[]) => (await extract(buildDocument(lines), storeSchema)).store_address;
      expect(await addressOf(['HARBOUR CAFE', 'FRESH EVERY DAY', '12 Harbour Road', 'Bristol BS1 4DJ', 'Total 10.00'])).to.equal('12 Harbour Road Bristol BS1 4DJ');
      expect(await addressOf(['HARBOUR CAFE', 'SINCE 1998', '12 Harbour Road', 'Bristol BS1 4DJ', 'Total 10.00'])).to.equal('12 Harbour Road Bristol BS1 4DJ');
      expect(await addressOf(['HARBOUR CAFE', 'K2-104, Sunrise Heights', '12 Harbour Road', 'Bristol BS1 4DJ', 'Total 10.00'])).to.equal('K2-104, Sunrise Heights 12 Harbour Road Bristol BS1 4DJ');
    });

    it("reads the issuer's address beside a column of invoice fields, not the customer's block further down", async () => {
      const schema = schemaOf({ vendor_address: nullableString('Address of the vendor') });
      const result = await extract(
        buildDocument([
          { cells: [{ text: 'Acme Tools Ltd', x: 40 }, { text: 'INVOICE', x: 340 }] },
          { cells: [{ text: '1 Forge Lane, Sheffield S1 2AB', x: 40 }, { text: 'Invoice number: INV-7', x: 340 }] },
          { cells: [{ text: 'VAT No: GB123456789', x: 40 }, { text: 'Invoice date: 14/03/2024', x: 340 }] },
          '',
          'Bill to:',
          'Northwind Traders',
          '12 Harbour Road',
          'Bristol BS1 4DJ',
          { cells: [{ text: 'Description', x: 40 }, { text: 'Quantity', x: 250 }, { text: 'Unit price', x: 350 }, { text: 'Amount', x: 450 }] },
          { cells: [{ text: 'Steel hammer', x: 40 }, { text: '2', x: 250 }, { text: '14.50', x: 350 }, { text: '29.00', x: 450 }] },
        ]),
        schema,
      );
      expect(result.vendor_address).to.equal('1 Forge Lane, Sheffield S1 2AB');
      // a line of labelled fields with no street before its label is still no address ("Store #0139  Cashier: Dana")
      const fieldsOnly = await extract(buildDocument(['Acme Tools Ltd', { cells: [{ text: 'Store #0139', x: 40 }, { text: 'Cashier: Dana', x: 340 }] }, 'Total 10.00']), schema);
      expect(fieldsOnly.vendor_address).to.equal(null);
    });

    it('spells a two-word legal form OCR misread by one letter as registered, in the name\'s case, and guesses no further', async () => {
      const nameOf = async (header: string) => (await extract(buildDocument([header, '12 Jalan Ampang', '50450 Kuala Lumpur', 'TOTAL 9.90']), storeSchema)).store_name;
      expect(await nameOf('GARDENIA BAKERIES (KL) SDN EHD')).to.equal('GARDENIA BAKERIES (KL) SDN BHD');
      expect(await nameOf('Broadview Marketing 5dn Bhd')).to.equal('Broadview Marketing Sdn Bhd');
      expect(await nameOf('BEMED (SP) SON. BHD.')).to.equal('BEMED (SP) SDN. BHD.');
      // two letters off, or one letter from two forms (Pte / Pty): left as read
      expect(await nameOf('RAPID RAIL SLI BHD')).to.equal('RAPID RAIL SLI BHD');
      expect(await nameOf('ORCHARD FOODS PT3 LTD')).to.equal('ORCHARD FOODS PT3 LTD');
    });

    it('keeps an address line whose postcode OCR misread by one letter, and writes the postcode in digits', async () => {
      const result = await extract(buildDocument(['K STATIONERY & OFFICE SUPPLIES', 'NO.9, JALAN MANIS 3, TAMAN SEGAR', 'CHERAS, S6100 KUALA LUMPUR.', 'TEL:03-91321611', 'TOTAL 9.90']), storeSchema);
      expect(result.store_address).to.equal('NO.9, JALAN MANIS 3, TAMAN SEGAR CHERAS, 56100 KUALA LUMPUR.');
      // a code of the same shape that no city name follows is left as printed
      const unit = await extract(buildDocument(['MEGA MALL KIOSK', 'Unit B1234, 12 Jalan Ampang', '50450 Kuala Lumpur', 'TOTAL 9.90']), storeSchema);
      expect(unit.store_address).to.equal('Unit B1234, 12 Jalan Ampang 50450 Kuala Lumpur');
    });

    it('leaves the address null when the header holds only contact lines and weighed items', async () => {
      const result = await extract(
        buildDocument(['Waitrose', 'Dubai Mall : 04-4340700', 'Head Office : 04-3555250', 'Be a responsible shopper', 'HUMMUS             20,25', '0.236 KG 7    SP']),
        storeSchema,
      );
      expect(result).to.deep.equal({ store_name: 'Waitrose', store_address: null });
    });

    it('drops specks printed far off to the side of the name and address', async () => {
      const result = await extract(
        buildDocument([
          { cells: [{ text: 'Redondo Car Wash', x: 100 }, { text: 'Ee', x: 400 }] },
          { cells: [{ text: '617 Torrance Blvd', x: 100 }, { text: 'ed', x: 400 }] },
          'Redondo Beach, CA 90277',
        ]),
        storeSchema,
      );
      expect(result).to.deep.equal({ store_name: 'Redondo Car Wash', store_address: '617 Torrance Blvd Redondo Beach, CA 90277' });
    });

    it('keeps the run of words around the longest cell, and what lies between far words', async () => {
      const result = await extract(
        buildDocument([
          { cells: [{ text: 'ai', x: 10 }, { text: 'SIN', x: 60 }, { text: 'Din Tai Fung Restaurant', x: 200 }, { text: 'Pre ee', x: 420 }] },
          { cells: [{ text: '301 E CHAPMAN', x: 40 }] },
          { cells: [{ text: 'ORANGE', x: 40 }, { text: 'CA', x: 120 }, { text: '92869', x: 160 }] },
        ]),
        storeSchema,
      );
      expect(result).to.deep.equal({ store_name: 'Din Tai Fung Restaurant', store_address: '301 E CHAPMAN ORANGE CA 92869' });
    });

    it('drops cells the OCR barely trusted next to a clearly read address line', async () => {
      const result = await extract(
        buildDocument([
          'Din Tai Fung Restaurant',
          { cells: [{ text: 'Bessy SY AIS', x: 10, confidence: 0.2 }, { text: 'Level 2 - Mall of Emirates', x: 150, confidence: 0.95 }] },
          'Dubai 00000',
        ]),
        storeSchema,
      );
      expect(result.store_address).to.equal('Level 2 - Mall of Emirates Dubai 00000');
    });

    it('prefers the header name to a legal-form word on a barely legible line', async () => {
      const result = await extract(buildDocument([{ text: 'Judsons Bar', size: 16, confidence: 0.8 }, { text: '+6 market PI', confidence: 0.2 }, 'Pocklington York']), storeSchema);
      expect(result.store_name).to.equal('Judsons Bar');
    });

    it('strips registration numbers, bare or in brackets, but keeps a bracketed branch', () => {
      expect(stripRegistration('MOONLIGHT CAKE HOUSE SDN BHD 862725-U')).to.equal('MOONLIGHT CAKE HOUSE SDN BHD');
      expect(stripRegistration('GARDENIA BAKERIES (KL) SDN BHD (139386 X)')).to.equal('GARDENIA BAKERIES (KL) SDN BHD');
    });
  });

  describe('trading name or legal name, as the examples show', () => {
    const header = ['TESCO', 'Tesco Stores Ltd', 'Camden Town Express', 'BALANCE DUE    £12.50'];

    it('takes the trading name when the examples carry no legal form', async () => {
      const result = await extract(buildDocument(header), schemaOf({ store_name: { type: 'string', description: "Name of the store as printed in the header (e.g. 'COSTCO', 'Joe's Diner')." } }));
      expect(result.store_name).to.equal('TESCO');
    });

    it('joins the line above to a registered name that opens with a legal form, a connector or a closing bracket', async () => {
      const company = async (lines: string[]) => (await extract(buildDocument(lines), schemaOf({ company: { type: 'string', description: "Name of the business (e.g. 'ACME TRADING SDN BHD')." } }))).company;
      expect(await company(['NORTHWIND BOOK', 'CO. (M) SDN BHD', '(Co. No. 113825-W)', 'No 8, Jalan 7/118B, Desa Tun Razak', '56000 Kuala Lumpur'])).to.equal('NORTHWIND BOOK CO. (M) SDN BHD');
      expect(await company(['THE GREEN KETTLE', '& TEA LEAF (M) SDN. BHD.', 'Company No. : 441970-H', 'Lot F36, First Floor'])).to.equal('THE GREEN KETTLE & TEA LEAF (M) SDN. BHD.');
      expect(await company(['ORCHID HARDWARE ENTERPRISE (TAMAN', 'JAYA) SDN BHD', '822737-X', 'NO. 17-G, JALAN INDAH'])).to.equal('ORCHID HARDWARE ENTERPRISE (TAMAN JAYA) SDN BHD');
      // a date or a document title above is not the beginning of the name
      expect(await company(['TAX INVOICE', '& SONS TRADING SDN BHD', 'No 3, Jalan Permas 10/3'])).to.equal('& SONS TRADING SDN BHD');
    });

    it('takes the registered name when the examples carry one', async () => {
      const result = await extract(buildDocument(header), schemaOf({ company: { type: 'string', description: "Name of the business (e.g. 'ACME TRADING SDN BHD')." } }));
      expect(result.company).to.equal('Tesco Stores Ltd');
    });
  });

  describe('receipts in other languages and their figures', () => {
    const wrSchema = schemaOf({
      store_address: nullableString('Address of the store as printed. null if not printed.'),
      tax: nullableString('Tax amount (sales tax / VAT / GST line) as printed.'),
      total: { type: 'string', description: 'Final total amount as printed, including currency symbol if printed next to it.' },
    });

    it('reads a tax label with its class number ("TAX1 $4.48", "TAX1 AMT $1.05")', async () => {
      const schema = schemaOf({ tax: { type: ['string', 'null'], description: 'Tax amount' }, total: finalTotal });
      expect(await extract(buildDocument(['SUBTOTAL $55.96', 'TAX1 $4.48', 'TOTAL $60.44']), schema)).to.deep.equal({ tax: '4.48', total: '60.44' });
      expect((await extract(buildDocument(['TAX1 AMT $1.05', 'TOTAL $12.05']), schema)).tax).to.equal('1.05');
    });

    it('reads German and Italian total and tax labels, and no VAT id as a tax amount', async () => {
      const german = await extract(buildDocument(['Bäckerei Müller GmbH', 'Hauptstraße 12', '80331 München', 'Brezel      0,80', 'Summe EUR   12,50', 'MwSt 7%      0,82']), wrSchema);
      expect(german).to.deep.equal({ store_address: 'Hauptstraße 12 80331 München', tax: '0,82', total: 'EUR 12,50' });
      const italian = await extract(buildDocument(['CAFFE TORINO', 'PIAZZA CADORNA N.23', 'STRESA (VB)', 'P.IVA 01838740031', 'TOTALE EURO   45,00']), wrSchema);
      expect(italian).to.deep.equal({ store_address: 'PIAZZA CADORNA N.23 STRESA (VB)', tax: null, total: '45,00' });
      // "Rechnungsbetrag" (invoice amount), "Amt Due" and "Pay this amount" are totals too
      expect(await totalOf(['3 x Tacos 0.40 1.20', 'Rechnungsbetrag EUR 8.70', 'Bar gegeben 10.00', 'Rückgeld 1.30'])).to.equal('8.70');
      expect(await totalOf(['Food 28.95', '15:05 Amt Due', '28.95', 'CASH 30.00'])).to.equal('28.95');
      expect(await totalOf(['SUBTOTAL 42.69', 'GST 3.29', 'PAY THIS AMOUNT:$50.25'])).to.equal('50.25');
      // what is summed before tax, in other words
      const subtotalOf = async (lines: string[]) => (await extract(buildDocument(lines), schemaOf({ subtotal: nullableString('Subtotal before tax. null if not printed.') }))).subtotal;
      expect(await subtotalOf(['Phulka 40 240.00', 'Item Total: 1,360.00', 'Tax 7%: 95.20', 'Pay Amount : 1,455.20'])).to.equal('1,360.00');
      expect(await subtotalOf(['Total Sales: 180.00', 'Service Charge: 0.00', 'TOTAL: 180.00'])).to.equal('180.00');
      expect(await subtotalOf(['Café 2,50', 'Total HT 10,00', 'TVA 2,00', 'Total TTC 12,00'])).to.equal('10,00');
    });

    it('keeps a currency printed after the amount when the description asks for the currency, and drops it otherwise', async () => {
      const lines = ['CAFE X', 'TOTAL 34,85EUR'];
      expect((await extract(buildDocument(lines), wrSchema)).total).to.equal('34,85EUR');
      expect(await totalOf(lines)).to.equal('34,85');
    });

    it('does not take a tax rate printed with a spaced percent sign, nor a line of store and terminal ids as address', async () => {
      const result = await extract(
        buildDocument(['Walmart Supercenter', '123 Main St', 'Anytown, CA 90210', 'ST# 1234 OP# 00001 TE# 01 TR# 1234', 'SUBTOTAL    20.00', 'TAX 1 7.25 %   1.45', 'TOTAL    21.45']),
        wrSchema,
      );
      expect(result).to.deep.equal({ store_address: '123 Main St Anytown, CA 90210', tax: '1.45', total: '21.45' });
    });
  });

  describe('date and time without labels', () => {
    const stampSchema = schemaOf({
      date: nullableString('Transaction date exactly as printed. null if not printed.'),
      time: nullableString('Transaction time exactly as printed. null if not printed.'),
    });

    it('skips opening hours and takes the time printed with the date', async () => {
      const result = await extract(buildDocument(['TRADER SHOP', 'OPEN 8:00AM TO 9:00PM DAILY', 'TOTAL     14.81', '11/14/2015          20:30:08']), stampSchema);
      expect(result).to.deep.equal({ date: '11/14/2015', time: '20:30:08' });
    });

    it('keeps a meridiem printed as one letter or after a colon, as printed, and takes a time after a label\'s colon', async () => {
      const stamp = async (...lines: string[]) => (await extract(buildDocument(['CORNER STORE', ...lines, 'TOTAL     9.99']), stampSchema)).time;
      expect(await stamp('09-19-09 5:59P 0778/0004/0324/9')).to.equal('5:59P');
      expect(await stamp('02:37a 10/10/13')).to.equal('02:37a');
      expect(await stamp('19-Sep-2015 7:23:34P')).to.equal('7:23:34P');
      expect(await stamp('Cashier : ZARINA Time :05:10:PM')).to.equal('05:10:PM');
      // one letter after a space may be a word; the minutes of "1:23:02" are no time of their own
      expect(await stamp('12/05/2017 12:30 a la carte')).to.equal('12:30');
      expect(await stamp('12/05/2017 1:23:02')).to.equal('1:23:02');
    });

    it('skips time ranges and dates glued into item codes', async () => {
      const result = await extract(buildDocument(['BALL PEN RC11-23-42', 'Happy hour 2:00 - 4:00', '15-03-18 15:41 SH01']), stampSchema);
      expect(result).to.deep.equal({ date: '15-03-18', time: '15:41' });
    });
  });
});
