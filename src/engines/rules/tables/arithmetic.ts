/**
 * The sums a table of items must satisfy, as evidence: quantity times unit
 * price is the line's amount, and the line amounts add up to a total the
 * document prints below them. They choose between readings the page allows
 * (which of the figures printed in a price column is the net price, whether
 * trailing rows without quantity or price are lines or the document's own
 * allowances and charges, which figure of a cell a missing quantity ran
 * into is the quantity) and set how sure each cell is; a printed value is
 * never changed to make a sum work.
 */
import type { WordRef } from '../../../document/document.js';
import type { RuleLine } from '../core/lines.js';
import { findNumbers } from '../core/parsers.js';
import { summaryFacet, type Row } from './body.js';
import { figureOf } from './row-layout.js';
import { isNumeric, type ItemField } from './item-fields.js';
import { maxOf } from '../../../util/extremes.js';
import type { Binding, Column, TableHeader } from './heading.js';
import { readCell, readNumberCell } from './cells.js';
import type { CellValue, ReadRow } from './rows.js';

export type Fit = 'agrees' | 'differs' | 'unchecked';

/** What the sums say of each row and of the table. */
export interface Checked {
  rows: ReadRow[];
  fits: Fit[];
  /** The line amounts add up to a total printed below the table. */
  sumConfirmed: boolean;
}

/** Rounding of a product to cents, and of prices printed with four decimals. */
function near(a: number, b: number): boolean {
  return Math.abs(Math.abs(a) - Math.abs(b)) <= Math.max(0.011, 0.0005 * Math.abs(b));
}

export type Role = 'quantity' | 'price' | 'amount';

interface Roles {
  quantity: ItemField | undefined;
  price: ItemField | undefined;
  amount: ItemField | undefined;
}

/** Which properties are the quantity, the unit price and the line's amount: by their facet, or as the sums bound them (Binding.role). */
export function rolesOf(fields: readonly ItemField[], bindings: readonly Binding[] = []): Roles {
  const bound = (role: Role): ItemField | undefined => bindings.find((binding) => binding.role === role)?.field;
  const asOther = (field: ItemField, role: Role): boolean => bindings.some((binding) => binding.field === field && binding.role !== undefined && binding.role !== role);
  const byFacet = (role: Role, facets: readonly string[]): ItemField | undefined => fields.find((field) => field.facet !== undefined && facets.includes(field.facet) && !asOther(field, role));
  return {
    quantity: byFacet('quantity', ['quantity']) ?? bound('quantity'),
    price: byFacet('price', ['unit-price']) ?? bound('price'),
    amount: byFacet('amount', ['line-net', 'line-gross']) ?? bound('amount'),
  };
}

/** Whether quantity times price is the amount; among the figures of the price column, the one that makes it so. */
function fitRow(read: ReadRow, roles: Roles): Fit {
  const { quantity, price, amount } = roles;
  if (!quantity || !price || !amount) return 'unchecked';
  const q = read.values.get(quantity);
  const p = read.values.get(price);
  const n = read.values.get(amount);
  if (q?.number === undefined || p?.number === undefined || n?.number === undefined) return 'unchecked';
  if (near(q.number * p.number, n.number)) return 'agrees';
  const better = p.alternatives.find((alternative) => near(q.number! * alternative.number, n.number!));
  if (!better) return 'differs';
  read.values.set(price, swapped(p, better));
  return 'agrees';
}

function swapped(cell: CellValue, chosen: CellValue['alternatives'][number]): CellValue {
  const others = [{ value: cell.value, number: cell.number!, words: cell.words }, ...cell.alternatives.filter((alternative) => alternative !== chosen)];
  return { value: chosen.value, number: chosen.number, words: chosen.words, score: cell.score, alternatives: others };
}

/**
 * A quantity, price or amount whose column the row leaves empty on its
 * anchor line while the other two are read, found in the cell printed next
 * to that column: a neighbour (not the name) that is no figure as a whole
 * because the missing one ran into it ("20 Stk Standard rated" read under
 * "Tax code", "Qty" left empty). The figure at the neighbour's near end is
 * taken, with its unit, when it alone makes quantity times price the amount.
 * Nothing is taken where the column prints something, legible or not.
 */
function fillRunInto(read: ReadRow, roles: Roles, fields: readonly ItemField[], bindings: readonly Binding[], columns: readonly Column[]): void {
  const { quantity, price, amount } = roles;
  if (!quantity || !price || !amount) return;
  const numbers = { quantity: read.values.get(quantity)?.number, price: read.values.get(price)?.number, amount: read.values.get(amount)?.number };
  const missing = (['quantity', 'price', 'amount'] as const).filter((role) => numbers[role] === undefined);
  if (missing.length !== 1) return;
  const role = missing[0]!;
  const field = roles[role]!;
  const binding = bindings.find((b) => b.field === field && b.stack < 0);
  if (!binding) return;
  const line = read.row.lines[read.row.anchor]!;
  if (line.cells[binding.column]) return;
  const fits = (value: number): boolean => {
    const q = role === 'quantity' ? value : numbers.quantity!;
    const p = role === 'price' ? value : numbers.price!;
    const n = role === 'amount' ? value : numbers.amount!;
    // a zero proves nothing (0 x anything = 0)
    return q !== 0 && p !== 0 && Math.abs(n) >= 0.01 && near(q * p, n);
  };
  const found: Array<{ value: number; text: string; words: WordRef[]; unit: string | undefined }> = [];
  for (const side of [-1, 1] as const) {
    const at = binding.column + side;
    const cell = line.cells[at];
    const column = columns[at];
    if (!cell || !column || figureOf(cell)) continue;
    // a neighbour of figures or codes ("Steuer", "Tax code"), not the name nor any text a property is read from
    if (column.reading.facet === 'item-name' || bindings.some((b) => b.column === at && !isNumeric(b.field))) continue;
    const tokens = cell.text.split(' ');
    if (tokens.length !== cell.words.length || tokens.length < 2) continue;
    for (const size of [2, 1]) {
      if (size >= tokens.length) continue;
      const from = side > 0 ? 0 : tokens.length - size;
      const text = tokens.slice(from, from + size).join(' ');
      const figure = readNumberCell(text);
      if (figure && fits(figure.value)) found.push({ value: figure.value, text, words: cell.words.slice(from, from + size), unit: figure.unit });
    }
  }
  const values = new Set(found.map((candidate) => candidate.value));
  if (values.size !== 1) return;
  const chosen = found[0]!;
  const value = readCell(chosen.text, field, { dayFirst: true });
  if (value === null) return;
  read.values.set(field, { value, number: chosen.value, words: chosen.words, score: binding.score * 0.8, alternatives: [] });
  const unit = role === 'quantity' && chosen.unit !== undefined ? fields.find((f) => f.facet === 'unit' && !read.values.has(f) && !bindings.some((b) => b.field === f)) : undefined;
  if (unit) read.values.set(unit, { value: chosen.unit, number: undefined, words: chosen.words.slice(-1), score: 0.7, alternatives: [] });
}

/** How many lines below a table its totals may be printed. */
const TOTALS_REACH = 80;
/** Trailing rows weighed as the document's own lines of figures (allowances, a totals table) rather than items. */
const MAX_TRAILING = 20;

/** The figures printed on the lines from `from` on (the totals under a table), as cents; each line read once. */
class PrintedFigures {
  private readonly byLine = new Map<number, number[]>();

  constructor(private readonly lines: readonly RuleLine[]) {}

  /** The position of the first line from `from` on that prints the figure. */
  find(cents: number, from: number): number | undefined {
    for (let at = from; at < this.lines.length && at < from + TOTALS_REACH; at++) if (this.on(at).includes(cents)) return at;
    return undefined;
  }

  private on(at: number): number[] {
    let figures = this.byLine.get(at);
    if (!figures) {
      figures = findNumbers(this.lines[at]!.text).flatMap((found) => (typeof found.value === 'number' ? [Math.round(Math.abs(found.value) * 100)] : []));
      this.byLine.set(at, figures);
    }
    return figures;
  }
}

/** The sum of the amounts of the first k rows, for every k (undefined while none prints one). */
function prefixSums(rows: readonly ReadRow[], amount: ItemField): Array<number | undefined> {
  const sums: Array<number | undefined> = [undefined];
  let sum: number | undefined;
  for (const read of rows) {
    const value = read.values.get(amount)?.number;
    if (value !== undefined) sum = (sum ?? 0) + value;
    sums.push(sum);
  }
  return sums;
}

/**
 * Rows that print only an amount, and the amount is the sum of the rows
 * above them (two or more): a subtotal, or the total carried over a page
 * break ("Übertrag", "Report", "Carried forward", printed at the foot of a
 * page and again at the head of the next), not an item.
 */
function withoutRunningTotals(rows: readonly ReadRow[], roles: Roles): ReadRow[] {
  const kept: ReadRow[] = [];
  let sum = 0;
  let counted = 0;
  for (const read of rows) {
    const amount = read.values.get(roles.amount!)?.number;
    const onlyAmount = [roles.quantity, roles.price].every((field) => !field || field === roles.amount || read.values.get(field)?.number === undefined);
    if (amount !== undefined && onlyAmount && counted >= 2 && Math.abs(amount - sum) < 0.005) continue;
    kept.push(read);
    if (amount !== undefined) {
      sum += amount;
      counted++;
    }
  }
  return kept;
}

/** The position of a row's last line in the document. */
function lastPosition(read: ReadRow): number {
  return read.row.lines[read.row.lines.length - 1]!.position;
}

/** The properties of quantity, price and amount a row prints a figure for. */
function printedRoles(read: ReadRow, roles: Roles): Set<ItemField> {
  return new Set([roles.quantity, roles.price, roles.amount].filter((field): field is ItemField => field !== undefined && read.values.get(field)?.number !== undefined));
}

/**
 * Rows checked: a figure run into the next column read where the product
 * confirms it (fillRunInto), each row's product, then the table's sum. When the sum of
 * all rows is printed nowhere below them (or only as a total other than the
 * sum of the lines) but the sum of the rows before some trailing ones is
 * (as the sum of the lines, when the whole sum is printed too), and each of
 * those trailing rows lacks a figure every row before prints (no quantity,
 * no price), they are the document's allowances, charges or totals printed
 * under the lines, not lines.
 */
export function checkRows(rows: readonly ReadRow[], fields: readonly ItemField[], bindings: readonly Binding[], lines: readonly RuleLine[], columns: readonly Column[] = []): Checked {
  const roles = rolesOf(fields, bindings);
  for (const read of rows) fillRunInto(read, roles, fields, bindings, columns);
  if (!roles.amount) return { rows: [...rows], fits: rows.map((read) => fitRow(read, roles)), sumConfirmed: false };
  let kept = withoutRunningTotals(rows, roles);
  const fits = kept.map((read) => fitRow(read, roles));
  if (kept.length === 0) return { rows: kept, fits, sumConfirmed: false };
  const printed = new PrintedFigures(lines);
  // sums of the first k rows, and the roles every one of them prints a figure for, each worked out once
  const sums = prefixSums(kept, roles.amount!);
  const common: Array<Set<ItemField>> = [];
  kept.forEach((read, k) => common.push(k === 0 ? printedRoles(read, roles) : new Set([...common[k - 1]!].filter((field) => printedRoles(read, roles).has(field)))));
  /** Where the sum of the first `upTo` rows is printed below them, if it is. */
  const printedAt = (upTo: number): number | undefined => {
    const sum = sums[upTo];
    return sum === undefined ? undefined : printed.find(Math.round(Math.abs(sum) * 100), lastPosition(kept[upTo - 1]!) + 1);
  };
  const whole = printedAt(kept.length);
  let sumConfirmed = whole !== undefined;
  // the sum of all rows printed as the sum of the lines settles it; printed as another total (with the charges below the lines), a sum of the lines without them may still be printed
  if ((whole === undefined || summaryFacet(lines[whole]!) !== 'line-total') && (roles.quantity || roles.price)) {
    for (let upTo = kept.length - 1; upTo >= 1 && upTo >= kept.length - MAX_TRAILING; upTo--) {
      const lacking = kept.slice(upTo).every((read) => [...common[upTo - 1]!].some((field) => read.values.get(field)?.number === undefined));
      if (!lacking) continue;
      const at = printedAt(upTo);
      if (at === undefined || (whole !== undefined && summaryFacet(lines[at]!) !== 'line-total')) continue;
      kept = kept.slice(0, upTo);
      fits.length = upTo;
      sumConfirmed = true;
      break;
    }
  }
  return { rows: kept, fits, sumConfirmed };
}

/** How sure a cell is: its heading's strength, the row's product, the table's sum. */
export function cellScore(cell: CellValue, fit: Fit, sumConfirmed: boolean, field: ItemField): number {
  const rowFactor = fit === 'agrees' ? 1 : fit === 'differs' ? 0.75 : 0.9;
  const sumFactor = sumConfirmed ? 1 : 0.95;
  const figure = field.facet === 'quantity' || field.facet === 'unit-price' || field.facet === 'line-net' || field.facet === 'line-gross';
  const score = cell.score * (figure ? rowFactor * sumFactor : 1);
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}

/** Columns whose figures are no quantity, price or amount, whatever the sums say (a rate of 19 beside a price of 19). */
const NOT_A_ROLE = new Set(['tax-rate', 'line-vat', 'line-discount']);

/** The figure a row prints in a column: on its anchor line, else on the first of its lines that prints one there. */
function figureAt(row: Row, column: number): number | undefined {
  const own = figureOf(row.lines[row.anchor]!.cells[column]);
  if (own) return own.value;
  for (const line of row.lines) {
    const figure = figureOf(line.cells[column]);
    if (figure) return figure.value;
  }
  return undefined;
}

/**
 * Quantity, price or amount the heading does not name ("Prix HT" read by no
 * glossary, "How many were billed" read as no facet), taken from the
 * columns no property holds: the one whose figures make quantity times
 * price the amount in most rows. A property of the role's facet may also
 * take, for the amount, the last free column of figures, and a unit price
 * the line's amount when the schema asks for no amount (a receipt's price
 * is what the line costs).
 */
export function bindByFigures(header: TableHeader, rows: readonly Row[], fields: readonly ItemField[]): Binding[] {
  const added: Binding[] = [];
  const all = (): Binding[] => [...header.bindings, ...added];
  const bound = (field: ItemField): boolean => all().some((b) => b.field === field);
  const roles = rolesOf(fields);
  const columnOf = (role: Role): number | undefined => {
    const field = roles[role] ?? added.find((b) => b.role === role)?.field;
    return field === undefined ? undefined : all().find((b) => b.field === field)?.column;
  };
  const taken = (column: number): boolean => all().some((b) => b.column === column);
  const figured = (index: number): boolean => rows.filter((row) => figureAt(row, index) !== undefined).length * 2 >= rows.length;
  for (const role of ['amount', 'price', 'quantity'] as const) {
    const own = roles[role];
    // the role's own property; else one no facet names, or one whose facet another property already plays ("Gesamtpreis" read as a price)
    const playing = new Set(Object.values(roles).filter((field) => field !== undefined && bound(field)).map((field) => field!.facet));
    const candidates = own ? (bound(own) ? [] : [own]) : fields.filter((field) => isNumeric(field) && !bound(field) && (field.facet === undefined || playing.has(field.facet)));
    if (candidates.length === 0) continue;
    const free = header.columns
      .map((column, index) => ({ column, index }))
      .filter(({ column, index }) => !taken(index) && !NOT_A_ROLE.has(column.reading.facet ?? '') && figured(index))
      .map(({ index }) => index);
    let best: { column: number; agree: number } | undefined;
    for (const column of free) {
      let agree = 0;
      let checked = 0;
      for (const row of rows) {
        const figure = (of: Role): number | undefined => {
          const at = of === role ? column : columnOf(of);
          return at === undefined ? undefined : figureAt(row, at);
        };
        const q = figure('quantity');
        const p = figure('price');
        const n = figure('amount');
        if (q === undefined || p === undefined || n === undefined) continue;
        checked++;
        if (near(q * p, n)) agree++;
      }
      if (agree > 0 && agree * 2 >= checked && (!best || agree > best.agree)) best = { column, agree };
    }
    const field = candidates[0]!;
    if (best) added.push({ field, column: best.column, stack: -1, score: 0.7, direct: false, role });
    else if (own && role === 'amount') {
      // unchecked, only the last column of figures, and only one that no heading reads as a tax or a discount
      const last = free[free.length - 1];
      const facet = last === undefined ? undefined : header.columns[last]!.reading.facet;
      if (last !== undefined && last > maxOf(header.bindings, (b) => b.column) && facet !== 'line-vat' && facet !== 'line-discount') added.push({ field, column: last, stack: -1, score: 0.5, direct: false, role });
    }
  }
  const price = roles.price;
  if (price && !bound(price) && !roles.amount && !added.some((b) => b.role === 'amount')) {
    const amount = header.columns.findIndex((column, index) => !taken(index) && (column.reading.facet === 'line-net' || column.reading.facet === 'line-gross') && figured(index));
    if (amount >= 0) added.push({ field: price, column: amount, stack: -1, score: 0.6, direct: false, role: 'amount' });
  }
  return added;
}
