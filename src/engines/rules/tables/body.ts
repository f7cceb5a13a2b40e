/**
 * The body of a table: the lines under its heading until a summary line
 * ("Subtotal", "Summe netto", "Total HT"), another table's heading, a wide
 * gap or the end; over a page break when the next page goes on with rows.
 * Then rows: each row has one anchor line, the one with a value in the key
 * column (the line's amount, or the value column most lines fill); the
 * lines between two anchors go to the one they sit closer to (a
 * description printed above its figures, an article number or a wrapped
 * name below them).
 */
import { matchPhrase } from '../core/fuzzy.js';
import type { RuleLine } from '../core/lines.js';
import { meaningOf } from '../../../meaning/meaning.js';
import type { Token } from '../../../meaning/words.js';
import { isNumeric, VALUE_FACETS, type ItemField } from './item-fields.js';
import { headingLabels, mayHead, namesColumns, type TableHeader } from './heading.js';
import { Drift } from './drift.js';
import { figureOf, placeLine, zoneEdges, type PlacedLine } from './row-layout.js';
import { isHeadingWord } from './vocabulary.js';

export interface Row {
  lines: PlacedLine[];
  /** Index in `lines` of the line with the row's key value. */
  anchor: number;
}

export interface TableBody {
  rows: Row[];
  /** Columns whose cells are a row's figures. */
  valueColumns: number[];
  /** Position of the first line after the table (where its totals are printed). */
  end: number;
}

/** A gap this many line heights wide ends a table. */
const END_GAP = 6;
/** After a page break, the rows must go on within this many lines of the new page. */
const CONTINUATION_LINES = 30;
/** Facets of a summary line: totals, taxes, amounts due. */
const SUMMARY_FACETS = new Set(['line-total', 'net-total', 'subtotal', 'tax-total', 'gross-total', 'total', 'paid-amount', 'rounding', 'amount-due', 'taxable-amount']);
const SUMMARY_CACHE_LIMIT = 5000;
const summaryReadings = new Map<string, string>();

export interface BodyContext {
  lines: readonly RuleLine[];
  header: TableHeader;
  fields: readonly ItemField[];
  /** Labels of summary lines in the languages read. */
  stops: readonly string[][];
  /** Position where the next table's heading starts. */
  limit: number;
}

export function readBody(context: BodyContext): TableBody {
  const { lines, header } = context;
  const edges = zoneEdges(header.columns);
  const valueColumns = header.columns.map((column, index) => index).filter((index) => {
    const facet = header.columns[index]!.reading.facet;
    return (facet !== undefined && VALUE_FACETS.has(facet)) || header.bindings.some((b) => b.column === index && isNumeric(b.field));
  });
  const valuesOf = (placed: PlacedLine): number[] => valueColumns.filter((index) => holdsNumber(placed, index));
  // totals stand under the line amounts
  const amountColumn = (header.bindings.find((b) => b.role === 'amount') ?? header.bindings.find((b) => b.field.facet === 'line-net' || b.field.facet === 'line-gross'))?.column ?? header.columns.length - 1;
  const placedLines: PlacedLine[] = [];
  let drift = new Drift(valueColumns);
  let page = header.page;
  // the bottom of the last line read on this page (none yet after a page break)
  let lastBottom: number | undefined = header.y1;
  let at = header.last + 1;
  for (; at < context.limit; at++) {
    const line = lines[at]!;
    if (line.eInvoice) break;
    if (line.page !== page) {
      const next = continuation(context, at, edges, valuesOf);
      if (next === undefined) break;
      at = next - 1;
      page = lines[next]!.page;
      lastBottom = undefined;
      // another page, scanned on its own: its columns drift their own way
      drift = new Drift(valueColumns);
      continue;
    }
    const placed = placeLine(line, at, header.columns, edges, drift.shift);
    const values = valuesOf(placed);
    if (lastBottom !== undefined && placed.y0 - lastBottom > END_GAP * Math.max(placed.height, header.lineHeight)) break;
    // "Subtotal 63.50", "VAT 20%  12.70", a title such as "Belegsummen"; not "Bruttopreis: 1,50" beside a row's name
    const figures = placed.cells.filter((cell, index) => index !== amountColumn && figureOf(cell) !== undefined).length;
    const summaryPlace = holdsNumber(placed, amountColumn) ? figures <= 1 : !placed.cells.some((cell) => cell !== undefined && /\d/.test(cell.text));
    if (summaryPlace && isSummary(line, context.stops)) break;
    if (values.length === 0 && isOtherHeading(line, context.fields)) break;
    if (placed.spanning && values.length === 0) continue;
    if (placed.cells.every((cell) => cell === undefined)) continue;
    placedLines.push(placed);
    lastBottom = placed.y1;
    if (values.length >= 2) drift.observe(placed);
  }
  return { rows: groupRows(placedLines, header, valueColumns, valuesOf), valueColumns, end: at };
}


export function holdsNumber(placed: PlacedLine, column: number): boolean {
  const cell = placed.cells[column];
  return figureOf(cell) !== undefined;
}

/** Where the rows go on after a page break: the first line with two figures, unless a heading or a summary comes first. */
function continuation(context: BodyContext, from: number, edges: readonly number[], valuesOf: (placed: PlacedLine) => number[]): number | undefined {
  const { lines } = context;
  const page = lines[from]!.page;
  for (let at = from; at < context.limit && at < from + CONTINUATION_LINES && lines[at]!.page === page; at++) {
    const line = lines[at]!;
    if (line.eInvoice || isSummary(line, context.stops) || isOtherHeading(line, context.fields)) return undefined;
    if (valuesOf(placeLine(line, at, context.header.columns, edges)).length >= 2) return at;
  }
  return undefined;
}

/** The words of a line's first cell, without figures: a summary line's label. */
function leadingTokens(line: RuleLine): Token[] {
  const first = line.cells[0];
  return first ? line.tokens.filter((token) => token.start >= first.start && token.end <= first.end && !/^\d/.test(token.norm)) : [];
}

/** "Subtotal 63.50", "Summe netto", "Positionssumme", "TVA 20%": a line of totals, by its first words. */
export function isSummary(line: RuleLine, stops: readonly string[][]): boolean {
  const tokens = leadingTokens(line);
  if (tokens.length === 0) return false;
  const labelled = stops.some((label) => {
    const match = matchPhrase(tokens, label);
    return match !== undefined && match.score >= 0.85 && match.first === 0 && tokens.length <= label.length + 2;
  });
  return labelled || summaryFacet(line) !== undefined;
}

/** Which of the document's totals a line's label names ("Lines total": the sum of the line amounts), by the meaning layer. */
export function summaryFacet(line: RuleLine): string | undefined {
  const tokens = leadingTokens(line);
  const head = tokens.slice(0, 5).map((token) => token.norm);
  if (tokens.length === 0 || tokens.length > 5 || !head.some(isHeadingWord)) return undefined;
  const key = head.join(' ');
  let facet = summaryReadings.get(key);
  if (facet === undefined) {
    const meaning = meaningOf({ name: key, description: '', types: [], path: [], inItems: false });
    facet = meaning.facet !== undefined && meaning.certainty >= 0.75 && SUMMARY_FACETS.has(meaning.facet.id) ? meaning.facet.id : '';
    if (summaryReadings.size >= SUMMARY_CACHE_LIMIT) summaryReadings.clear();
    summaryReadings.set(key, facet);
  }
  return facet === '' ? undefined : facet;
}

/** The heading of another table (a VAT breakdown's "Steuersatz  Basisbetrag  Steuerbetrag"): two labels with a facet, no figures. */
function isOtherHeading(line: RuleLine, fields: readonly ItemField[]): boolean {
  if (line.cells.length < 2 || !mayHead(line) || !namesColumns(line)) return false;
  return headingLabels(line, fields).filter((label) => label.facet !== undefined).length >= 2;
}

/** The column whose value makes a line a row: the line's amount when the schema asks for it, else the value column most lines fill. */
function keyColumn(placed: readonly PlacedLine[], header: TableHeader, valueColumns: readonly number[]): number | undefined {
  const amount = header.bindings.find((b) => b.role === 'amount') ?? header.bindings.find((b) => b.field.facet === 'line-net' || b.field.facet === 'line-gross');
  if (amount) return amount.column;
  let best: number | undefined;
  let most = 0;
  for (const column of valueColumns) {
    const count = placed.filter((line) => holdsNumber(line, column)).length;
    // ties go to the right: the amount is printed last
    if (count > 0 && count >= most) {
      best = column;
      most = count;
    }
  }
  return best;
}

function groupRows(placed: readonly PlacedLine[], header: TableHeader, valueColumns: readonly number[], valuesOf: (placed: PlacedLine) => number[]): Row[] {
  if (placed.length === 0) return [];
  const key = keyColumn(placed, header, valueColumns);
  let anchors = key === undefined ? [] : placed.map((line, index) => (holdsNumber(line, key) ? index : -1)).filter((index) => index >= 0);
  if (anchors.length === 0) anchors = placed.map((line, index) => (valuesOf(line).length > 0 ? index : -1)).filter((index) => index >= 0);
  if (anchors.length === 0) {
    // a table without figures: each line a row
    return placed.map((line) => ({ lines: [line], anchor: 0 }));
  }
  const nameColumn = header.bindings.find((b) => b.field.facet === 'item-name')?.column;
  const rows: Row[] = anchors.map(() => ({ lines: [], anchor: 0 }));
  // lines before the first anchor are printed above it (its name, its article number)
  for (let i = 0; i < anchors[0]!; i++) rows[0]!.lines.push(placed[i]!);
  anchors.forEach((anchor, k) => {
    const row = rows[k]!;
    row.anchor = row.lines.length;
    row.lines.push(placed[anchor]!);
    const nextAnchor = anchors[k + 1];
    const until = nextAnchor ?? placed.length;
    const filled = new Set(row.lines.flatMap((line) => valueColumns.filter((column) => holdsNumber(line, column))));
    const split = nextAnchor === undefined ? until : splitBetween(placed, anchor, nextAnchor, valueColumns, nameColumn, filled);
    for (let i = anchor + 1; i < split; i++) row.lines.push(placed[i]!);
    for (let i = split; i < until; i++) rows[k + 1]!.lines.push(placed[i]!);
  });
  return rows;
}

/**
 * The first of the lines between two anchors that belongs to the second:
 * after the widest gap when it stands out (a block per row); else the first
 * that prints a name and a figure the row already has (a row's first line
 * above its amount); else none (what follows a row continues it: a wrapped
 * name, an article number).
 */
function splitBetween(placed: readonly PlacedLine[], from: number, to: number, valueColumns: readonly number[], nameColumn: number | undefined, filled: Set<number>): number {
  if (to - from < 2) return to;
  let widest = -1;
  let widestGap = -Infinity;
  let second = -Infinity;
  for (let i = from; i < to; i++) {
    const above = placed[i]!;
    const below = placed[i + 1]!;
    const gap = below.page !== above.page ? Infinity : below.y0 - above.y1;
    if (gap > widestGap) {
      second = widestGap;
      widestGap = gap;
      widest = i;
    } else if (gap > second) {
      second = gap;
    }
  }
  const height = placed[from]!.height;
  const standsOut = widestGap >= 0.25 * height && widestGap >= second + 0.25 * height;
  if (standsOut) return widest + 1;
  // evenly spaced: a line with a name and a figure the row already has (its price, its quantity) opens the next row
  for (let i = from + 1; i < to; i++) {
    const line = placed[i]!;
    const figures = valueColumns.filter((column) => holdsNumber(line, column));
    if (nameColumn !== undefined && line.cells[nameColumn] !== undefined && figures.some((column) => filled.has(column))) return i;
    for (const column of figures) filled.add(column);
  }
  return to;
}
