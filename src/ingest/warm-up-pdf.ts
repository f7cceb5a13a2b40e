/**
 * A one-page born-digital invoice written out byte by byte, for the service
 * to read a few times at start (http/warm-up.ts): V8 compiles and optimises
 * the code of a request as it runs, so without this the first users' PDFs
 * pay for it. Made here, not read from a file: nothing to ship, and it is
 * the same on every host. The standard fonts are not embedded (pdf.js reads
 * them by their metrics, pdf-options.ts), as in most invoices. Two ways of
 * writing the same page, as PDF writers do: plain (literal strings, Tj,
 * Td, no filter) and as most libraries write it (a Flate-compressed stream,
 * q/cm/Tm, TJ arrays of hex strings with kerning), so that code
 * specialised on one is not thrown away on the first real PDF.
 */
import { deflateSync } from 'node:zlib';

/** One line of text: where its baseline starts (PDF points, origin bottom-left), its font and size. */
export interface TextLine {
  text: string;
  x: number;
  y: number;
  bold?: boolean;
  size?: number;
}

const HEADER_LINES: TextLine[] = [
  { text: 'Northwind Supplies Ltd', x: 60, y: 770, bold: true, size: 18 },
  { text: '12 Harbour Road, Leeds LS1 4DT', x: 60, y: 748 },
  { text: 'INVOICE', x: 420, y: 770, bold: true, size: 16 },
  { text: 'Invoice number: NW-10457', x: 360, y: 748 },
  { text: 'Invoice date: 23/09/2025', x: 360, y: 734 },
  { text: 'Due date: 23/10/2025', x: 360, y: 720 },
  { text: 'Bill to:', x: 60, y: 690, bold: true },
  { text: 'Acme Retail GmbH', x: 60, y: 676 },
  { text: 'Hauptstrasse 5, 10115 Berlin', x: 60, y: 662 },
  { text: 'Description', x: 60, y: 610, bold: true },
  { text: 'Quantity', x: 290, y: 610, bold: true },
  { text: 'Unit price', x: 380, y: 610, bold: true },
  { text: 'Amount', x: 490, y: 610, bold: true },
];

const ITEMS: [string, number, number][] = [
  ['Packing tape 48 mm', 12, 2.35],
  ['Cardboard boxes, large', 40, 1.1],
  ['Label printer ribbon', 3, 14.9],
];

function money(value: number): string {
  return value.toFixed(2);
}

export function invoiceLines(): TextLine[] {
  const lines = [...HEADER_LINES];
  let subtotal = 0;
  ITEMS.forEach(([description, quantity, price], i) => {
    const y = 590 - i * 18;
    const amount = Math.round(quantity * price * 100) / 100;
    subtotal += amount;
    lines.push({ text: description, x: 60, y }, { text: String(quantity), x: 310, y }, { text: money(price), x: 395, y }, { text: money(amount), x: 495, y });
  });
  const vat = Math.round(subtotal * 20) / 100;
  const totalsY = 590 - ITEMS.length * 18 - 20;
  [['Subtotal', subtotal], ['VAT 20%', vat], ['Total due', subtotal + vat]].forEach(([label, value], i) => {
    const y = totalsY - i * 16;
    lines.push({ text: String(label), x: 380, y, bold: i === 2 }, { text: money(Number(value)), x: 495, y, bold: i === 2 });
  });
  return lines;
}

/** A PDF string literal: backslash and parentheses escaped (the text is ASCII). */
function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (char) => `\\${char}`)})`;
}

function hexString(text: string): string {
  return `<${Buffer.from(text, 'latin1').toString('hex')}>`;
}

/** Plain: one Tj of a literal string per line. */
function plainContent(lines: TextLine[]): string {
  return lines.map(({ text, x, y, bold, size }) => `BT /${bold ? 'F2' : 'F1'} ${size ?? 10} Tf ${x} ${y} Td ${pdfString(text)} Tj ET`).join('\n');
}

/** As PDF libraries write it: each line in q/Q with transforms (cm; these two cancel, as pdfkit's do), placed by Tm, words as hex strings in a TJ array with kerning between them. */
function libraryContent(lines: TextLine[]): string {
  return lines
    .map(({ text, x, y, bold, size }) => {
      const runs = text.split(/(?<= )/).map(hexString).join(' 15 ');
      return `q\n1 0 0 -1 0 841.89 cm\n1 0 0 -1 0 841.89 cm\nBT\n1 0 0 1 ${x} ${y} Tm\n/${bold ? 'F2' : 'F1'} ${size ?? 10} Tf\n[${runs} 0] TJ\nET\nQ`;
    })
    .join('\n');
}

export const WARM_UP_PDF_STYLES = ['plain', 'library'] as const;

/** The bytes of the invoice: catalog, one page, two standard fonts, one content stream, and the cross-reference table. */
export function warmUpInvoicePdf(style: (typeof WARM_UP_PDF_STYLES)[number] = 'plain'): Uint8Array {
  const lines = invoiceLines();
  const stream = style === 'plain' ? `<< /Length ${plainContent(lines).length} >>\nstream\n${plainContent(lines)}\nendstream` : compressedStream(libraryContent(lines));
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595.28 841.89] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    stream,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // one byte per character (the compressed stream is written as latin1), so the offsets above are byte offsets
  return new Uint8Array(Buffer.from(pdf, 'latin1'));
}

/** A FlateDecode stream object whose bytes are carried as latin1 characters. */
function compressedStream(content: string): string {
  const bytes = deflateSync(Buffer.from(content, 'latin1'));
  return `<< /Length ${bytes.length} /Filter /FlateDecode >>\nstream\n${bytes.toString('latin1')}\nendstream`;
}
