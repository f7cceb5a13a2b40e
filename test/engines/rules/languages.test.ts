/**
 * The rules engine in every language of its tables: documents generated here
 * from each table's own labels (every label of every field), read with an
 * English schema and with one named in the language, and each language's
 * number and date formats.
 */
import { expect } from 'chai';
import { documentLanguages } from '../../../src/engines/rules/core/language-detect.js';
import { LANGUAGES, type LanguageTable, type Phrase } from '../../../src/meaning/languages/index.js';
import { readLines } from '../../../src/engines/rules/core/lines.js';
import { RulesEngine } from '../../../src/engines/rules/index.js';
import type { JsonSchema } from '../../../src/schema/schema.js';
import { buildEvidence } from '../../../src/evidence/evidence.js';
import { buildDocument, type LineSpec } from '../../helpers/document-builder.js';
import { extractFinal } from '../../helpers/extraction.js';

const engine = new RulesEngine();
const FOREIGN = LANGUAGES.filter((language) => language.code !== 'en');

/** A field of an invoice: its English property, the schema it has, the value printed and the value read. */
interface Field {
  phrase: Phrase;
  property: string;
  schema: JsonSchema;
  printed: string;
  read: unknown;
}

const FIELDS: Field[] = [
  { phrase: 'invoice number', property: 'invoice_number', schema: { type: 'string' }, printed: 'RE-2024-0042', read: 'RE-2024-0042' },
  { phrase: 'invoice date', property: 'invoice_date', schema: { type: 'string', format: 'date' }, printed: '14.03.2024', read: '2024-03-14' },
  { phrase: 'due date', property: 'due_date', schema: { type: 'string', format: 'date' }, printed: '28.03.2024', read: '2024-03-28' },
  { phrase: 'delivery date', property: 'delivery_date', schema: { type: 'string', format: 'date' }, printed: '10.03.2024', read: '2024-03-10' },
  { phrase: 'order number', property: 'order_number', schema: { type: 'string' }, printed: 'PO-7781', read: 'PO-7781' },
  { phrase: 'customer number', property: 'customer_number', schema: { type: 'string' }, printed: 'K-5531', read: 'K-5531' },
  { phrase: 'net total', property: 'net_total', schema: { type: 'number' }, printed: '1.000,00', read: 1000 },
  { phrase: 'tax total', property: 'tax_total', schema: { type: 'number' }, printed: '190,00', read: 190 },
  { phrase: 'gross total', property: 'total', schema: { type: 'number', description: 'Grand total including VAT.' }, printed: '1.190,00', read: 1190 },
];

function schemaOf(fields: readonly Field[], name: (field: Field) => string = (field) => field.property): JsonSchema {
  return { type: 'object', properties: Object.fromEntries(fields.map((field) => [name(field), field.schema])) };
}

/** "Label:   value" in two columns, as invoices print their header fields. */
function labelled(label: string, value: string): LineSpec {
  return { cells: [{ text: `${label}:`, x: 40 }, { text: value, x: 300 }] };
}

/** An invoice with its title and one line per field, each labelled by `labelOf`. */
function invoice(language: LanguageTable, fields: readonly Field[], labelOf: (field: Field) => string): Array<string | LineSpec> {
  return [language.titles[0]!.toUpperCase(), ...fields.map((field) => labelled(labelOf(field), field.printed))];
}

async function read(lines: Array<string | LineSpec>, schema: JsonSchema): Promise<Record<string, unknown>> {
  return (await extractFinal(engine, buildDocument(lines), schema)).value;
}

describe('rules engine in the languages of its tables', () => {
  for (const language of FOREIGN) {
    describe(language.code, () => {
      const ownFields = FIELDS.filter((field) => (language.phrases[field.phrase] ?? []).length > 0);

      it('takes a document printing its words for one of its language', () => {
        const lines = invoice(language, ownFields, (field) => language.phrases[field.phrase]![0]!);
        expect(documentLanguages(readLines(buildDocument(lines))).map((table) => table.code)).to.include(language.code);
      });

      it('reads every field of an invoice labelled in the language, asked for in English', async () => {
        const lines = invoice(language, ownFields, (field) => language.phrases[field.phrase]![0]!);
        const expected = Object.fromEntries(ownFields.map((field) => [field.property, field.read]));
        expect(await read(lines, schemaOf(ownFields))).to.deep.equal(expected);
      });

      it('says where each value was read: a box and the words as printed ("1.190,00" for 1190)', async () => {
        const document = buildDocument(invoice(language, ownFields, (field) => language.phrases[field.phrase]![0]!));
        const schema = schemaOf(ownFields);
        const answer = await extractFinal(engine, document, schema);
        const { evidence } = buildEvidence({ answer, document, schema, dateOrder: 'dmy' });
        for (const field of ownFields) {
          const located = evidence[`/${field.property}`];
          expect(located?.bbox, field.property).to.have.length(4);
          expect(located?.text, field.property).to.equal(field.printed);
        }
      });

      it('reads every field when the schema names it in the language', async () => {
        const lines = invoice(language, ownFields, (field) => language.phrases[field.phrase]![0]!);
        const native = (field: Field): string => language.phrases[field.phrase]![0]!.replace(/[^\p{L}\p{N}]+/gu, '_');
        const expected = Object.fromEntries(ownFields.map((field) => [native(field), field.read]));
        expect(await read(lines, schemaOf(ownFields, native))).to.deep.equal(expected);
      });

      for (const field of ownFields) {
        it(`reads ${field.phrase} after each of its labels`, async () => {
          for (const label of language.phrases[field.phrase]!) {
            const lines = [language.titles[0]!, labelled(label, field.printed)];
            expect((await read(lines, schemaOf([field])))[field.property], `"${label}"`).to.deep.equal(field.read);
          }
        });
      }

      it('reads the number after each title and number marker', async () => {
        for (const title of language.titles) {
          for (const marker of language.numberMarkers) {
            const printed = `${title[0]!.toUpperCase()}${title.slice(1)} ${marker} RE-2024-0042`;
            expect((await read([printed, labelled(language.phrases['invoice date']?.[0] ?? 'Date', '14.03.2024')], schemaOf([FIELDS[0]!]))).invoice_number, printed).to.equal('RE-2024-0042');
          }
        }
      });
    });
  }

  describe('number and date formats', () => {
    /** How each language prints a date with its month name and an amount of 1234.56 with its currency. */
    const PRINTED: Record<string, { date: string; amount: string }> = {
      de: { date: '14. März 2024', amount: '1.234,56 €' },
      fr: { date: '14 mars 2024', amount: '1 234,56 €' },
      es: { date: '14 de marzo de 2024', amount: '1.234,56 €' },
      it: { date: '14 marzo 2024', amount: '€ 1.234,56' },
      nl: { date: '14 maart 2024', amount: 'EUR 1.234,56' },
      pt: { date: '14 de março de 2024', amount: '1 234,56 €' },
      pl: { date: '14 marca 2024', amount: '1 234,56 zł' },
    };
    const plainTotal: JsonSchema = { type: 'string', description: "Grand total including VAT, as a plain number with two decimals, e.g. '1469.06'." };

    /** A label and an amount whose groups may be printed apart by a thin blank ("1 234,56"), as the words of a PDF are. */
    function amountLine(label: string, amount: string): LineSpec {
      const cells = [{ text: `${label}:`, x: 40 }];
      let x = 300;
      for (const part of amount.split(' ')) {
        cells.push({ text: part, x });
        x += part.length * 6 + 2.5; // a blank of 2.5 pt: under half a character of this 10 pt font
      }
      return { cells };
    }

    for (const language of FOREIGN) {
      it(`${language.code}: reads "${PRINTED[language.code]!.date}" and writes "${PRINTED[language.code]!.amount}" as asked`, async () => {
        const { date, amount } = PRINTED[language.code]!;
        const lines = [language.titles[0]!.toUpperCase(), labelled(language.phrases['invoice date']![0]!, date), amountLine(language.phrases['gross total']![0]!, amount)];
        const asked = { type: 'object', properties: { invoice_date: { type: 'string', format: 'date' }, total: plainTotal, gross: { type: 'number', description: 'Grand total including VAT' } } };
        expect(await read(lines, asked)).to.deep.equal({ invoice_date: '2024-03-14', total: '1234.56', gross: 1234.56 });
        // without a format asked for, the digits as printed
        expect((await read(lines, { type: 'object', properties: { total: { type: 'string' } } })).total).to.equal(amount.replace(/[^\d.,\s]/g, '').trim());
      });
    }

    it('reads a credit printed with a leading or a trailing minus', async () => {
      for (const printed of ['-8,79', '8,79-', '-8,79 €', '8,79- EUR']) {
        expect((await read(['GUTSCHRIFT', labelled('Bruttosumme', printed)], { type: 'object', properties: { total: plainTotal } })).total, printed).to.equal('-8.79');
      }
    });

    it("reads thousands grouped by an apostrophe, the currency before or after", async () => {
      for (const printed of ["CHF 1'234.56", "1'234.56 CHF", 'EUR 1.234,56', '1.234,56EUR']) {
        expect((await read(['RECHNUNG', labelled('Gesamtbetrag', printed)], { type: 'object', properties: { total: plainTotal } })).total, printed).to.equal('1234.56');
      }
    });

    it('joins the groups of one number, not a quantity and a price in columns', async () => {
      const row = (gap: number): LineSpec => ({ cells: [{ text: 'Total TTC :', x: 40 }, { text: '2', x: 300 }, { text: '100,00', x: 306 + gap }] });
      expect((await read(['FACTURE', row(2.5)], { type: 'object', properties: { total: plainTotal } })).total).to.equal('2100.00');
      expect((await read(['FACTURE', row(40)], { type: 'object', properties: { total: plainTotal } })).total).to.equal('100.00');
    });

    it('writes an amount as printed when the examples show a printed form', async () => {
      const printed = { type: 'string', description: "Total as printed, e.g. '1,234.50' or '12,50'." };
      expect((await read(['RECHNUNG', labelled('Gesamtbetrag', '1.234,56 €')], { type: 'object', properties: { total: printed } })).total).to.equal('1.234,56');
    });
  });

  describe('parties by role and by layout', () => {
    const parties: JsonSchema = {
      type: 'object',
      properties: {
        seller: { type: 'string', description: 'Name of the company that issued the invoice (the supplier), without its address.' },
        buyer: { type: 'string', description: 'Name of the customer the invoice is addressed to, without its address.' },
      },
    };
    /** A street and a town as each language prints them. */
    const ADDRESS: Record<string, [string, string]> = {
      de: ['Musterstraße 12', '12345 Musterstadt'],
      fr: ['42 rue du Stade', '75018 Paris'],
      es: ['Calle Mayor 5', '28013 Madrid'],
      it: ['Via Roma 10', '00184 Roma'],
      nl: ['Kerkstraat 12', '1017 GC Amsterdam'],
      pt: ['Rua Augusta 100', '1100-053 Lisboa'],
      pl: ['ul. Długa 5', '00-238 Warszawa'],
    };
    const words = (language: LanguageTable, concept: 'business' | 'customer' | 'name'): string => {
      const label = language.concepts[concept]!.labels![0]!;
      return label[0]!.toUpperCase() + label.slice(1);
    };

    for (const language of FOREIGN) {
      const [street, town] = ADDRESS[language.code]!;

      it(`${language.code}: reads seller and buyer under their role headings, past the numbers their blocks open with`, async () => {
        const lines: Array<string | LineSpec> = [
          language.titles[0]!.toUpperCase(),
          `${words(language, 'business')}:`,
          labelled('GLN', '4000001123452'),
          'Alpha Werkzeuge GmbH',
          street,
          town,
          '',
          `${words(language, 'customer')}:`,
          'Beta Handel AG',
          street,
          town,
        ];
        expect(await read(lines, parties)).to.deep.equal({ seller: 'Alpha Werkzeuge GmbH', buyer: 'Beta Handel AG' });
      });

      it(`${language.code}: reads the "${words(language, 'name')}:" of a block, its name broken over two lines, and headings side by side`, async () => {
        const stacked: Array<string | LineSpec> = [
          language.titles[0]!.toUpperCase(),
          words(language, 'business'),
          { cells: [{ text: 'Alpha Versicherung', x: 300 }] },
          labelled(words(language, 'name'), 'Musterstadt a.G.'),
          labelled('Tel', '+49 30 1234567'),
          '',
          words(language, 'customer'),
          labelled(words(language, 'name'), 'Max Mustermann'),
        ];
        expect(await read(stacked, parties)).to.deep.equal({ seller: 'Alpha Versicherung Musterstadt a.G.', buyer: 'Max Mustermann' });
        const sideBySide: Array<string | LineSpec> = [
          { cells: [{ text: words(language, 'business'), x: 40 }, { text: words(language, 'customer'), x: 250 }, { text: language.titles[0]!.toUpperCase(), x: 450 }] },
          { cells: [{ text: 'GLN 4333741000005', x: 40 }, { text: 'GLN 4304171000002', x: 250 }] },
          { cells: [{ text: 'ALPHA GMBH', x: 40 }, { text: 'BETA KG', x: 250 }] },
          { cells: [{ text: street, x: 40 }, { text: street, x: 250 }] },
        ];
        expect(await read(sideBySide, parties)).to.deep.equal({ seller: 'ALPHA GMBH', buyer: 'BETA KG' });
      });

      it(`${language.code}: reads the recipient of a letter under the sender's one-line reference, or after a salutation`, async () => {
        const salutation = language.salutations[0]!;
        const letter: Array<string | LineSpec> = [
          { text: 'Gamma Services', x: 380, size: 14 },
          { cells: [{ text: `Gamma Services ● ${street} ● ${town}`, x: 40 }], size: 7 },
          'Delta Logistik',
          street,
          town,
          '',
          `${language.titles[0]!.toUpperCase()} 2024-17`,
        ];
        expect(await read(letter, parties)).to.deep.equal({ seller: 'Gamma Services', buyer: 'Delta Logistik' });
        const saluted: Array<string | LineSpec> = [{ text: 'Gamma Services', size: 14 }, '', salutation, 'Erika Beispiel', street, town, '', `${language.titles[0]!.toUpperCase()} 2024-17`];
        expect((await read(saluted, parties)).buyer, salutation).to.equal('Erika Beispiel');
      });

      it(`${language.code}: takes the recipient's block, not the delivery address beside it`, async () => {
        const delivery = language.phrases['delivery address']![0]!;
        const lines: Array<string | LineSpec> = [
          { cells: [{ text: `Gamma Services - ${street} - ${town}`, x: 120 }], size: 8 },
          `${language.titles[0]!.toUpperCase()} 2024-17`,
          { cells: [{ text: delivery[0]!.toUpperCase() + delivery.slice(1), x: 40 }] },
          { cells: [{ text: 'Epsilon Lager', x: 40 }, { text: 'Zeta Bureau', x: 330 }] },
          { cells: [{ text: street, x: 40 }, { text: street, x: 330 }] },
          { cells: [{ text: town, x: 40 }, { text: town, x: 330 }] },
        ];
        expect(await read(lines, parties)).to.deep.equal({ seller: 'Gamma Services', buyer: 'Zeta Bureau' });
      });
    }
  });
});

