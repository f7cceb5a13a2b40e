/**
 * Writes docs/examples/invoice.pdf, the one-page invoice the README's first
 * request sends: a born-digital PDF (a text layer, no OCR needed) drawn with
 * pdfkit's built-in Helvetica, so no font is embedded and the file stays a
 * few KB. The bytes are the same on every run (fixed dates, no random id),
 * so the committed file is what this script makes.
 *
 *   npm run build --silent && node dist/scripts/example-invoice.js [OUT]
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';

export const EXAMPLE_INVOICE_PATH = 'docs/examples/invoice.pdf';

const FIXED_DATE = new Date(Date.UTC(2026, 10, 2));

const LINES = [
  { description: 'Cordless drill 18V', quantity: 2, unitPrice: 89.0 },
  { description: 'Drill bit set (25 pcs)', quantity: 3, unitPrice: 14.5 },
  { description: 'Safety glasses', quantity: 10, unitPrice: 4.2 },
];

const money = (value: number) => value.toFixed(2);

export function makeExampleInvoice(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 56,
      info: { Title: 'Invoice INV-2026-0117', Producer: 'docshape example', Creator: 'docshape example', CreationDate: FIXED_DATE, ModDate: FIXED_DATE },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.font('Helvetica-Bold').fontSize(20).text('Harbour Tools Ltd', 56, 56);
    doc.font('Helvetica').fontSize(10);
    doc.text('4 Quay Street', 56, 84).text('Bristol BS1 4RP', 56, 98).text('VAT No. GB 123 4567 89', 56, 112);

    doc.font('Helvetica-Bold').fontSize(16).text('INVOICE', 380, 56);
    doc.font('Helvetica').fontSize(10);
    doc.text('Invoice number: INV-2026-0117', 380, 84);
    doc.text('Invoice date: 02/11/2026', 380, 98);
    doc.text('Due date: 02/12/2026', 380, 112);

    doc.font('Helvetica-Bold').text('Bill to', 56, 160);
    doc.font('Helvetica').text('Northwind Traders', 56, 174).text('12 Harbour Road', 56, 188).text('Bath BA1 1AA', 56, 202);

    const columns = { description: 56, quantity: 300, unitPrice: 370, amount: 470 };
    let y = 250;
    doc.font('Helvetica-Bold');
    doc.text('Description', columns.description, y).text('Qty', columns.quantity, y).text('Unit price', columns.unitPrice, y).text('Amount', columns.amount, y);
    doc.font('Helvetica');
    let subtotal = 0;
    for (const line of LINES) {
      y += 18;
      const amount = line.quantity * line.unitPrice;
      subtotal += amount;
      doc.text(line.description, columns.description, y).text(String(line.quantity), columns.quantity, y);
      doc.text(money(line.unitPrice), columns.unitPrice, y).text(money(amount), columns.amount, y);
    }
    const vat = Math.round(subtotal * 20) / 100;
    y += 36;
    doc.text('Subtotal', columns.unitPrice, y).text(money(subtotal), columns.amount, y);
    doc.text('VAT 20%', columns.unitPrice, y + 14).text(money(vat), columns.amount, y + 14);
    doc.font('Helvetica-Bold').text('Total GBP', columns.unitPrice, y + 28).text(money(subtotal + vat), columns.amount, y + 28);
    doc.font('Helvetica').text('Payment within 30 days to IBAN GB33 BUKB 2020 1555 5555 55.', 56, y + 80);
    doc.end();
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = process.argv[2] ?? EXAMPLE_INVOICE_PATH;
  const bytes = await makeExampleInvoice();
  await writeFile(out, bytes);
  process.stdout.write(`${out}\t${bytes.length} bytes\n`);
}
