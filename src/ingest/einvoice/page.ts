/**
 * An e-invoice's business terms as a page of the Document: one line per
 * value, "Label: value", in blocks (the invoice, each party, delivery, each
 * payment means, the totals, each VAT breakdown row, each allowance or
 * charge, the notes) set apart by a blank line's space, then what each
 * invoice line states beyond the table ("Line 2 item description: ..."),
 * then the invoice lines as a table under a heading row. Every engine reads
 * it as it reads a printed page; its words say `source: 'e-invoice'`. Page.eInvoice
 * keeps the terms themselves (each value with where the page shows it) and,
 * per line of the page, the term and element path of each value on it (for
 * evidence). The geometry is made up (a monospaced page, 5 points per
 * character): only the order, the line breaks and the column gaps mean
 * anything. Built on the worker thread that read the XML; linear in the values.
 */
import type { BBox, EInvoiceGroup, EInvoiceOrigin, EInvoiceValue, EInvoiceValueOrigin, Line, Page, Word } from '../../document/document.js';
import { maxOf } from '../../util/extremes.js';
import { runSync, type PacedWork } from '../../util/paced.js';
import { INVOICE, TERMS, type EInvoice, type GroupDef } from './terms.js';

const CHAR_WIDTH = 5;
const LINE_HEIGHT = 10;
const LINE_STEP = 14;
/** Extra space between blocks: more than a line's height, so that a block of lines ends there. */
const GROUP_GAP = 14;
const MARGIN = 36;
/** Spaces between table columns: a column gap for the layout text and the rules engine (more than 1.8 characters). */
const COLUMN_GAP = 3;

/**
 * The blocks in page order: the parties and payment before the amounts, the
 * grand total first among them (of two labels a schema's "total" reads
 * equally well, the first wins), long free text (notes) last.
 */
const PAGE_ORDER = ['BG-4', 'BG-7', 'BG-10', 'BG-11', 'BG-13', 'BG-16', 'BG-22', 'BG-23', 'BG-20', 'BG-21', 'BG-3', 'BG-24', 'BG-1'];

/** Names of the codes a reader may not know by heart, printed after the code (not part of its value). */
const CODE_NAMES: Record<string, Record<string, string>> = {
  // UNTDID 1001: the document types an invoice or credit note uses
  'BT-3': { '326': 'partial invoice', '380': 'commercial invoice', '381': 'credit note', '383': 'debit note', '384': 'corrected invoice', '386': 'prepayment invoice', '389': 'self-billed invoice', '261': 'self-billed credit note', '751': 'invoice information for accounting purposes' },
  // UNTDID 4461: the payment means invoices name most
  'BT-81': { '1': 'not defined', '10': 'cash', '20': 'cheque', '30': 'credit transfer', '31': 'debit transfer', '42': 'payment to bank account', '48': 'bank card', '49': 'direct debit', '57': 'standing agreement', '58': 'SEPA credit transfer', '59': 'SEPA direct debit', ZZZ: 'mutually defined' },
};

/** A stretch of a line: its text at a character column, and the value it shows. */
interface Cell {
  column: number;
  text: string;
  value?: { term: string; found: EInvoiceValue };
}

interface Row {
  cells: Cell[];
  gapBefore: boolean;
}

/** Cells one after the other, a space apart. */
function sequence(parts: Array<{ text: string; value?: Cell['value'] }>): Cell[] {
  const cells: Cell[] = [];
  let column = 0;
  for (const part of parts) {
    if (part.text === '') continue;
    cells.push({ column, text: part.text, ...(part.value ? { value: part.value } : {}) });
    column += part.text.length + 1;
  }
  return cells;
}

/** "Label: value (annotation)" for one value of a term: a code's name, an identifier's scheme. */
function labelled(label: string, term: string, found: EInvoiceValue): Cell[] {
  const def = TERMS.get(term);
  const note = CODE_NAMES[term]?.[found.raw] ?? (found.scheme && !def?.schemeSelects ? `scheme ${found.scheme}` : undefined);
  return sequence([{ text: `${label}:` }, { text: found.value, value: { term, found } }, ...(note ? [{ text: `(${note})` }] : [])]);
}

/** The lines of a block: each term of the group's table entry that it states, one line per value, then its inner groups' (a payment means' accounts). */
function blockRows(def: GroupDef, group: EInvoiceGroup, gapBefore: boolean, prefix = ''): Row[] {
  const rows: Row[] = [];
  for (const term of def.terms) {
    if (term.offPage) continue;
    for (const found of group.terms[term.id] ?? []) {
      const label = prefix ? `${prefix} ${lowerFirst(term.label)}` : term.label;
      rows.push({ gapBefore: gapBefore && rows.length === 0, cells: labelled(label, term.id, found) });
    }
  }
  for (const inner of def.groups ?? []) {
    for (const instance of group.groups[inner.id] ?? []) for (const row of blockRows(inner, instance, gapBefore && rows.length === 0, prefix)) rows.push(row);
  }
  return rows;
}

/** "Allowance amount" -> "allowance amount" after a prefix; "VAT rate" stays. */
function lowerFirst(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label;
}

/** The page, as page `index` of its file; undefined when the XML holds none of the terms. */
export function eInvoicePage(invoice: EInvoice, index: number, attachment?: string): Page | undefined {
  const root = invoice.invoice;
  const rows: Row[] = [];
  const push = (more: Row[]) => {
    if (rows.length === 0 && more[0]) more[0].gapBefore = false;
    // one at a time: an invoice's rows may be more than a call takes arguments
    for (const row of more) rows.push(row);
  };
  // the invoice's own terms; its groups follow in page order
  push(blockRows({ ...INVOICE, groups: [] }, root, false));
  const defs = new Map((INVOICE.groups ?? []).map((def) => [def.id, def]));
  for (const id of PAGE_ORDER) {
    const def = defs.get(id)!;
    for (const group of root.groups[id] ?? []) push(blockRows(def, group, true));
  }
  const lineDef = defs.get('BG-25')!;
  const lines = root.groups['BG-25'] ?? [];
  push(lineDetailRows(lineDef, lines));
  push(lineTableRows(lineDef, lines));
  if (rows.length === 0) return undefined;
  return layOut(rows, index, { ...(attachment ? { attachment } : {}), syntax: invoice.syntax, standard: invoice.standard, invoice: root, lines: [] });
}

/**
 * What each invoice line states beyond the table's columns ("Line 1 item
 * description: ..."), before the table: after it, a reader of the table
 * would take them for more of its last row.
 */
function lineDetailRows(def: GroupDef, lines: EInvoiceGroup[]): Row[] {
  const rows: Row[] = [];
  const inner = new Map((def.groups ?? []).map((group) => [group.id, group]));
  const details = def.terms.filter((term) => !term.column);
  lines.forEach((line, position) => {
    const prefix = `Line ${line.terms['BT-126']?.[0]?.value ?? position + 1}`;
    const own: Row[] = [];
    for (const term of details) {
      for (const found of line.terms[term.id] ?? []) own.push({ gapBefore: own.length === 0, cells: labelled(`${prefix} ${lowerFirst(term.label)}`, term.id, found) });
    }
    for (const [id, groups] of Object.entries(line.groups)) {
      for (const group of groups) {
        if (id === 'BG-32') own.push({ gapBefore: own.length === 0, cells: attributeCells(prefix, group) });
        else for (const row of blockRows(inner.get(id)!, group, own.length === 0, prefix)) own.push(row);
      }
    }
    for (const row of own) rows.push(row);
  });
  return rows;
}

/** The invoice lines as a table: the column terms some line states, under a heading row. */
function lineTableRows(def: GroupDef, lines: EInvoiceGroup[]): Row[] {
  const columns = def.terms.filter((term) => term.column && lines.some((line) => line.terms[term.id]));
  if (columns.length === 0) return [];
  const widths = columns.map((term) => Math.max(term.label.length, maxOf(lines, (line) => line.terms[term.id]?.[0]?.value.length ?? 0)));
  const at: number[] = [];
  columns.forEach((_, i) => at.push(i === 0 ? 0 : at[i - 1]! + widths[i - 1]! + COLUMN_GAP));
  const rows: Row[] = [{ gapBefore: true, cells: columns.map((term, i) => ({ column: at[i]!, text: term.label })) }];
  for (const line of lines) {
    const cells = columns.flatMap((term, i): Cell[] => {
      const found = line.terms[term.id]?.[0];
      return found ? [{ column: at[i]!, text: found.value, value: { term: term.id, found } }] : [];
    });
    if (cells.length > 0) rows.push({ gapBefore: false, cells });
  }
  return rows;
}

/** "Line 1 item attribute: Colour = red": the attribute's name and value, each a value of its own. */
function attributeCells(prefix: string, group: EInvoiceGroup): Cell[] {
  const name = group.terms['BT-160']?.[0];
  const value = group.terms['BT-161']?.[0];
  return sequence([{ text: `${prefix} item attribute:` }, ...(name ? [{ text: name.value, value: { term: 'BT-160', found: name } }] : []), ...(name && value ? [{ text: '=' }] : []), ...(value ? [{ text: value.value, value: { term: 'BT-161', found: value } }] : [])]);
}

function layOut(rows: Row[], index: number, origin: EInvoiceOrigin): Page {
  const lines: Line[] = [];
  let y = MARGIN;
  let width = 0;
  for (const row of rows) {
    if (row.gapBefore) y += GROUP_GAP;
    const words: Word[] = [];
    for (const cell of row.cells) {
      const first = words.length;
      for (const match of cell.text.matchAll(/\S+/g)) {
        const x0 = MARGIN + (cell.column + match.index) * CHAR_WIDTH;
        const bbox: BBox = { x0, y0: y, x1: x0 + match[0].length * CHAR_WIDTH, y1: y + LINE_HEIGHT };
        words.push({ text: match[0], bbox, confidence: 1, source: 'e-invoice' });
        width = Math.max(width, bbox.x1);
      }
      if (cell.value && words.length > first) cell.value.found.shown = { line: lines.length, words: [first, words.length] };
    }
    if (words.length === 0) continue;
    lines.push({ text: words.map((word) => word.text).join(' '), bbox: { x0: words[0]!.bbox.x0, y0: y, x1: words[words.length - 1]!.bbox.x1, y1: y + LINE_HEIGHT }, words });
    y += LINE_STEP;
  }
  origin.lines = runSync(buildingOriginLines(origin.invoice, lines.length));
  return { index, width: Math.max(595, width + MARGIN), height: Math.max(842, y + MARGIN), units: 'text-grid', source: 'e-invoice', lines, eInvoice: origin };
}

/**
 * Per line of the page, the values it shows (EInvoiceOrigin.lines), from
 * where each value of the terms says the page shows it: so a packed page
 * (ingest/document-pack.ts) carries the values once. A step per group.
 */
export function* buildingOriginLines(invoice: EInvoiceGroup, lineCount: number): PacedWork<EInvoiceValueOrigin[][]> {
  const lines: EInvoiceValueOrigin[][] = Array.from({ length: lineCount }, () => []);
  function* visit(group: EInvoiceGroup): PacedWork<void> {
    yield;
    for (const [term, values] of Object.entries(group.terms)) {
      for (const value of values) if (value.shown) lines[value.shown.line]?.push({ term, name: TERMS.get(term)?.name ?? term, path: value.path, words: value.shown.words });
    }
    for (const instances of Object.values(group.groups)) for (const instance of instances) yield* visit(instance);
  }
  yield* visit(invoice);
  // left to right, as the line reads
  for (const line of lines) if (line.length > 1) line.sort((a, b) => a.words[0] - b.words[0]);
  return lines;
}
