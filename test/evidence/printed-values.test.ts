import { expect } from 'chai';
import type { Document } from '../../src/document/document.js';
import { PrintedValues, searchPrinted } from '../../src/evidence/printed-values.js';
import { runSync } from '../../src/util/paced.js';
import { buildDocument } from '../helpers/document-builder.js';
import { expectLinearGrowth } from '../helpers/growth.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** Two printed pages and, after them, an e-invoice page, which is never where a value is printed. */
function withEInvoicePage(document: Document, lines: string[]): Document {
  const eInvoice = buildDocument(lines).files[0]!.pages[0]!;
  const file = document.files[0]!;
  return { files: [{ ...file, pages: [...file.pages, { ...eInvoice, index: file.pages.length, source: 'e-invoice' }] }] };
}

describe('PrintedValues: where the printed pages show an answer\'s values', () => {
  it('finds what a search of the pages page by page finds: amounts to half a cent, texts with their words, and none on the e-invoice page', () => {
    const next = seededRandom(3);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const words = ['Widget', 'widgets', 'Bolt', 'M8', 'M8x40', 'Steel', 'pcs', 'Stück', 'EUR', '12,50', '12.50', '12.504', '12.505', '12.4951', '1.234,50', '1,234.50', '-7.25', '7,25', '0.00', '3', '40', 'x'];
    const line = () => Array.from({ length: 1 + Math.floor(next() * 5) }, () => pick(words)).join(' ');
    for (let round = 0; round < 30; round++) {
      const pages = [Array.from({ length: 12 }, line), Array.from({ length: 12 }, line)];
      const document = withEInvoicePage(buildDocument(pages), ['Widget Bolt 99.99 Sonder']);
      const values: unknown[] = [12.5, 12.505, -7.25, 1234.5, 99.99, 0, '12.50', '7,25', 'Widget', 'Bolt M8', 'M8', 'steel pcs', 'Sonder', 'x', 'W', 'Stück EUR', 40, '3', 'EUR 12'];
      const shown = runSync(PrintedValues.building(document, values.slice(0, 15)));
      // the last few were not given when it was built: searched page by page
      for (const value of values) expect(shown.find(value), `${JSON.stringify(value)} in ${JSON.stringify(pages)}`).to.deep.equal(searchPrinted(value, document));
    }
  });

  it('looks past lines that print a text inside longer words only, however many come first', () => {
    const lines = [...Array.from({ length: 20 }, (_, i) => `Widgets ${i}`), 'Widget 99', 'Widget'];
    const document = buildDocument(lines);
    const shown = runSync(PrintedValues.building(document, ['Widget', 'Widget 99', 'Gadget']));
    // "widgets" holds "widget", but no word of those lines is part of "Widget"
    expect(shown.find('Widget')).to.deep.equal(searchPrinted('Widget', document));
    expect(shown.find('Widget')).to.include({ text: 'Widget' });
    expect(shown.find('Widget 99')).to.include({ text: 'Widget 99' });
    expect(shown.find('Gadget')).to.equal(undefined);
  });

  it('finds every value of an invoice of n lines printed in another order in time linear in n (n vs 4n)', async () => {
    const invoice = (count: number) => {
      const rows = Array.from({ length: count }, (_, i) => ({ name: `Artikel ${i + 1}`, quantity: 1 + (i % 5), price: (5 + (i % 13)).toFixed(2) }));
      const document = buildDocument([...rows].reverse().map((row) => `${row.name}  ${row.quantity}  ${row.price.replace('.', ',')}`));
      // the XML's values, some of which the pages do not print
      const values = rows.flatMap((row, i) => [row.name, row.price, String(row.quantity), `C62-${i}`, Number(row.price) * 1000]);
      return { document, values };
    };
    const inputs = new Map([500, 2000].map((count) => [count, invoice(count)]));
    await expectLinearGrowth((count) => {
      const { document, values } = inputs.get(count)!;
      const shown = runSync(PrintedValues.building(document, values));
      return values.map((value) => shown.find(value));
    }, 500);
  });
});
