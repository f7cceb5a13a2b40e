/**
 * An e-invoice's business terms as a page of the Document: one line per
 * term, "Label: value", in groups (document, seller, buyer, payment,
 * totals) set apart by a blank line's space, then the invoice lines as a
 * table under a heading row. Every engine reads it as it reads a printed
 * page; its words say `source: 'e-invoice'`, and Page.eInvoice keeps, per
 * line, the term and element path each value came from (for evidence).
 * The geometry is made up (a monospaced page, 5 points per character): only
 * the order, the line breaks and the column gaps mean anything.
 */
import type { BBox, EInvoiceOrigin, EInvoiceValueOrigin, Line, Page, Word } from '../../document/document.js';
import { HEADER_TERMS, LINE_TERMS, type EInvoice, type HeaderTerm, type LineTerm, type TermValue } from './terms.js';

const CHAR_WIDTH = 5;
const LINE_HEIGHT = 10;
const LINE_STEP = 14;
/** Extra space between groups: more than a line's height, so that a block of lines ends there. */
const GROUP_GAP = 14;
const MARGIN = 36;
/** Spaces between table columns: a column gap for the layout text and the rules engine (more than 1.8 characters). */
const COLUMN_GAP = 3;

const GROUPS: HeaderTerm[][] = [
  ['BT-1', 'BT-2', 'BT-3', 'BT-5', 'BT-9', 'BT-10', 'BT-13'],
  ['BT-27', 'BG-5', 'BT-31'],
  ['BT-44', 'BG-8', 'BT-48'],
  ['BT-84'],
  // the grand total first: of two labels a schema's "total" reads equally well, the first wins
  ['BT-112', 'BT-109', 'BT-106', 'BT-110', 'BT-113', 'BT-115'],
];

/** A line being laid out: its words at character columns, and the values it states. */
interface Row {
  cells: Array<{ column: number; text: string; origin?: Omit<EInvoiceValueOrigin, 'words'> }>;
  gapBefore: boolean;
}

/** The page, as page `index` of its file; undefined when the XML holds none of the terms. */
export function eInvoicePage(invoice: EInvoice, index: number, attachment?: string): Page | undefined {
  const rows: Row[] = [];
  for (const group of GROUPS) {
    let first = true;
    for (const term of group) {
      const found = invoice.header[term];
      if (!found) continue;
      const info = HEADER_TERMS[term];
      rows.push({ gapBefore: first && rows.length > 0, cells: [{ column: 0, text: `${info.label}:` }, { column: info.label.length + 2, text: found.value, origin: originOf(term, info.name, found) }] });
      first = false;
    }
  }
  rows.push(...tableRows(invoice.lines, rows.length > 0));
  if (rows.length === 0) return undefined;
  return layOut(rows, index, { ...(attachment ? { attachment } : {}), syntax: invoice.syntax, standard: invoice.standard, lines: [] });
}

function originOf(term: string, name: string, found: TermValue): Omit<EInvoiceValueOrigin, 'words'> {
  return { term, name, path: found.path };
}

/** The invoice lines under a heading row; only the columns some line fills. */
function tableRows(lines: EInvoice['lines'], gapBefore: boolean): Row[] {
  const terms = (Object.keys(LINE_TERMS) as LineTerm[]).filter((term) => lines.some((line) => line[term]));
  if (terms.length === 0) return [];
  const widths = terms.map((term) => Math.max(LINE_TERMS[term].label.length, ...lines.map((line) => line[term]?.value.length ?? 0)));
  const columns: number[] = [];
  terms.forEach((_, i) => columns.push(i === 0 ? 0 : columns[i - 1]! + widths[i - 1]! + COLUMN_GAP));
  const heading: Row = { gapBefore, cells: terms.map((term, i) => ({ column: columns[i]!, text: LINE_TERMS[term].label })) };
  const rows = lines.map((line): Row => ({
    gapBefore: false,
    cells: terms.flatMap((term, i) => {
      const found = line[term];
      return found ? [{ column: columns[i]!, text: found.value, origin: originOf(term, LINE_TERMS[term].name, found) }] : [];
    }),
  }));
  return [heading, ...rows.filter((row) => row.cells.length > 0)];
}

function layOut(rows: Row[], index: number, origin: EInvoiceOrigin): Page {
  const lines: Line[] = [];
  let y = MARGIN;
  let width = 0;
  for (const row of rows) {
    if (row.gapBefore) y += GROUP_GAP;
    const words: Word[] = [];
    const values: EInvoiceValueOrigin[] = [];
    for (const cell of row.cells) {
      const first = words.length;
      for (const match of cell.text.matchAll(/\S+/g)) {
        const x0 = MARGIN + (cell.column + match.index) * CHAR_WIDTH;
        const bbox: BBox = { x0, y0: y, x1: x0 + match[0].length * CHAR_WIDTH, y1: y + LINE_HEIGHT };
        words.push({ text: match[0], bbox, confidence: 1, source: 'e-invoice' });
        width = Math.max(width, bbox.x1);
      }
      if (cell.origin && words.length > first) values.push({ ...cell.origin, words: [first, words.length] });
    }
    if (words.length === 0) continue;
    lines.push({ text: words.map((word) => word.text).join(' '), bbox: { x0: words[0]!.bbox.x0, y0: y, x1: words[words.length - 1]!.bbox.x1, y1: y + LINE_HEIGHT }, words });
    origin.lines.push(values);
    y += LINE_STEP;
  }
  return { index, width: Math.max(595, width + MARGIN), height: Math.max(842, y + MARGIN), source: 'e-invoice', lines, eInvoice: origin };
}
