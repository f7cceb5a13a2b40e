/**
 * A row's values, one per item property: the cell of its column on the
 * anchor line, else on the row's nearest line that has one; a name with the
 * lines it wraps onto (printed close below, not an attribute such as
 * "Verpackung: Karton", an article number or a note after a gap); the k-th
 * line of a column whose heading stacks k labels ("Art-Nr-Lieferant" over
 * "Artikelbezeichnung"). A figure labelled inside its cell as another
 * reading ("(Brut: 65,00)", "Rabatt: -0,03") is not a net price or amount.
 */
import type { WordRef } from '../../../document/document.js';
import { setOwn } from '../../../schema/schema-walk.js';
import { readCell, type ReadContext } from './cells.js';
import { isNumeric, NET_FACETS, NOT_NET_FACETS, type ItemField } from './item-fields.js';
import { bindingScore, MIN_BINDING, readPhrase, type Binding, type TableHeader } from './heading.js';
import { tokenize } from '../../../meaning/words.js';
import { figureOf, type ColumnCell, type PlacedLine } from './row-layout.js';
import type { Row } from './body.js';

/** A value read for a property, with what the sums may choose instead. */
export interface CellValue {
  value: unknown;
  /** The figure, for the arithmetic (numbers only). */
  number: number | undefined;
  words: WordRef[];
  /** How well the heading names the property. */
  score: number;
  /** Other figures the row prints in the same column, best first. */
  alternatives: Array<{ value: unknown; number: number; words: WordRef[] }>;
}

export interface ReadRow {
  values: Map<ItemField, CellValue>;
  row: Row;
}

/** A name goes on over at most this many lines. */
const MAX_NAME_LINES = 3;
/** Lines of one wrapped name lie closer than this share of a line's height. */
const WRAP_GAP = 0.5;
/** "Verpackung: Karton", "* Anzahl Packstücke: 4", "- Feuerversicherung", an article number or GTIN alone: not more of the name. */
const ATTRIBUTE = /^\s*(?:[*•·▪–-]\s|\(?\p{L}[\p{L}\p{N}\p{M} .'/()-]{0,30}\)?\s*:)/u;
/** "Art.-Nr. 4711-0815", "EAN 4006381333931", "GTIN:598785412598745", "ZS997": a code after at most two words of its label. */
const CODE_LINE = /^\(?((?:\p{L}[\p{L}.#°/-]*\s?){0,2}?)\s*:?\s*([\p{L}\p{N}][\p{L}\p{N}_/.-]{2,})\)?$/u;

export function readRow(row: Row, header: TableHeader, fields: readonly ItemField[], context: ReadContext): ReadRow {
  const values = new Map<ItemField, CellValue>();
  for (const binding of header.bindings) {
    const value = readBinding(row, binding, context);
    if (value) values.set(binding.field, value);
  }
  const unboundCodes = fields.filter((field) => field.kind === 'identifier' && !header.bindings.some((binding) => binding.field === field));
  for (const field of fields) {
    if (values.has(field) || header.bindings.some((binding) => binding.field === field)) continue;
    const value = field.kind === 'identifier' ? codeValue(row, field, unboundCodes.length === 1, context) : field.facet === 'unit' ? unitValue(row, header, values) : undefined;
    if (value) values.set(field, value);
  }
  return { values, row };
}

function readBinding(row: Row, binding: Binding, context: ReadContext): CellValue | undefined {
  const { field } = binding;
  if (binding.stack >= 0) return stackedValue(row, binding, context);
  if (!isNumeric(field) && field.facet === 'item-name') return nameValue(row, binding, context);
  const order = byNearness(row);
  if (!isNumeric(field)) {
    for (const index of order) {
      const cell = row.lines[index]!.cells[binding.column];
      if (!cell) continue;
      const value = readCell(cell.text, field, context);
      if (value !== null) return { value, number: undefined, words: cell.words, score: binding.score, alternatives: [] };
    }
    return undefined;
  }
  const found: Array<{ value: unknown; number: number; words: WordRef[]; rank: number }> = [];
  // what the anchor line prints in the column, legible or not, is the row's value: another line's figure is no stand-in for a misread one
  const own = row.lines[row.anchor]!.cells[binding.column];
  const lines = own && !figureOf(own) ? [] : order;
  lines.forEach((index, position) => {
    const cell = row.lines[index]!.cells[binding.column];
    if (!cell) return;
    const number = figureOf(cell);
    const value = number ? readCell(cell.text, field, context) : null;
    if (!number || value === null) return;
    const rank = labelRank(number.labelFacet, field);
    if (rank < 0) return;
    found.push({ value, number: number.value, words: cell.words, rank: rank * 1000 - position });
  });
  if (found.length === 0) return undefined;
  found.sort((a, b) => b.rank - a.rank);
  const [best, ...rest] = found;
  return { value: best!.value, number: best!.number, words: best!.words, score: binding.score, alternatives: rest.map(({ value, number, words }) => ({ value, number, words })) };
}

/** 2: labelled as this reading; 1: unlabelled; -1: labelled as another reading (a gross price for a net one). */
function labelRank(labelFacet: string | undefined, field: ItemField): number {
  if (labelFacet === undefined || field.facet === undefined) return 1;
  if (labelFacet === field.facet || (NET_FACETS.has(field.facet) && NET_FACETS.has(labelFacet))) return 2;
  return NET_FACETS.has(field.facet) && NOT_NET_FACETS.has(labelFacet) ? -1 : 1;
}

/** The row's lines, the anchor first, then the others by distance from it (the line above before the one below). */
function byNearness(row: Row): number[] {
  const order = [row.anchor];
  for (let distance = 1; order.length < row.lines.length; distance++) {
    if (row.anchor - distance >= 0) order.push(row.anchor - distance);
    if (row.anchor + distance < row.lines.length) order.push(row.anchor + distance);
  }
  return order;
}

/**
 * The name: it starts on the anchor line, unless the lines printed close
 * above the anchor are the row's own (they hold its other figures, or the
 * anchor prints no name or only a detail such as "Work team (AOP): ..."),
 * then on the first of them that prints one; with the lines it wraps onto.
 */
function nameValue(row: Row, binding: Binding, context: ReadContext): CellValue | undefined {
  const column = binding.column;
  const lines = row.lines;
  let top = row.anchor;
  while (top > 0 && lines[top - 1]!.page === lines[top]!.page && lines[top]!.y0 - lines[top - 1]!.y1 <= WRAP_GAP * lines[top]!.height) top--;
  const own = lines[row.anchor]!.cells[column];
  const figuresAbove = lines.slice(top, row.anchor).some((line) => line.cells.some((cell, index) => index !== column && figureOf(cell) !== undefined));
  let start = own && !isAttribute(own.text) && !figuresAbove ? row.anchor : -1;
  for (let index = top; start < 0 && index <= row.anchor; index++) if (lines[index]!.cells[column]) start = index;
  if (start < 0) {
    // no name close to the figures: the nearest one printed above them, else below
    for (let index = row.anchor - 1; start < 0 && index >= 0; index--) if (lines[index]!.cells[column]) start = index;
    for (let index = row.anchor + 1; start < 0 && index < lines.length; index++) if (lines[index]!.cells[column]) start = index;
  }
  return start < 0 ? undefined : joinWrapped(lines, start, column, binding, context);
}

function isAttribute(text: string): boolean {
  return ATTRIBUTE.test(text) || codeLine(text) !== undefined;
}

/** A line that prints a code and its label: the code has four characters or more and a digit, and is no measure ("100ml", "250g"). */
function codeLine(text: string): { label: string; code: string } | undefined {
  const match = CODE_LINE.exec(text.trim());
  if (!match) return undefined;
  const code = match[2]!;
  // a measure ("100ml") or a figure ("1,00", "1.250") is no code
  if (code.length < 4 || !/\d/.test(code) || /^\d+(?:[.,]\d+)?\p{Ll}{1,3}$/u.test(code) || /^\d{1,3}(?:[.,']\d{3})*(?:[.,]\d+)?$/.test(code)) return undefined;
  return { label: match[1]!.trim(), code };
}

/**
 * An identifier the table has no column for (an article number, a GTIN),
 * from a line of the row that prints it with its label ("Art.-Nr.
 * 4711-0815"), or a GTIN by its digits.
 */
function codeValue(row: Row, field: ItemField, alone: boolean, context: ReadContext): CellValue | undefined {
  const codes: Array<{ code: string; words: WordRef[]; score: number }> = [];
  for (const line of row.lines) {
    for (const cell of line.cells) {
      const code = cell && codeLine(cell.text);
      if (!cell || !code) continue;
      const tokens = tokenize(code.label);
      const reading = readPhrase(tokens.map((token) => token.norm));
      const named = tokens.length > 0 && bindingScore(field, tokens, reading) >= MIN_BINDING;
      const gtin = /^(?:\d{8}|\d{12,14})$/.test(code.code);
      if (named || (field.facet === 'gtin' && gtin)) codes.push({ code: code.code, words: cell.words, score: 0.8 });
      // the only code the row prints beside its name, for the only identifier the schema asks for: a GTIN is no article number
      else if (alone && field.facet !== 'gtin' && !gtin && (reading.facet === undefined || reading.facet === field.facet || reading.certainty < 0.9)) codes.push({ code: code.code, words: cell.words, score: 0.6 });
    }
  }
  const best = codes.sort((a, b) => b.score - a.score)[0];
  if (!best || (best.score < 0.8 && codes.length > 1)) return undefined;
  const value = readCell(best.code, field, context);
  return value === null ? undefined : { value, number: undefined, words: best.words, score: best.score, alternatives: [] };
}

/** A name from line `start`, with the lines below it that wrap it (close, in its column, not an attribute), at most MAX_NAME_LINES. */
function joinWrapped(lines: readonly PlacedLine[], start: number, column: number, binding: Binding, context: ReadContext): CellValue | undefined {
  const first = lines[start]!.cells[column]!;
  const parts: ColumnCell[] = [first];
  let last = lines[start]!;
  for (let index = start + 1; index < lines.length && parts.length < MAX_NAME_LINES; index++) {
    const line = lines[index]!;
    const cell = line.cells[column];
    if (!cell) continue;
    if (line.page !== last.page || line.y0 - last.y1 > WRAP_GAP * last.height || isAttribute(cell.text) || cell.cut) break;
    parts.push(cell);
    last = line;
  }
  const text = parts.map((part) => part.text).join(' ');
  const value = readCell(text, binding.field, context);
  if (value === null) return undefined;
  return { value, number: undefined, words: parts.flatMap((part) => part.words), score: binding.score * (parts.length > 1 ? 0.95 : 1), alternatives: [] };
}

/** The k-th line of a row, from its anchor line on, in a column whose heading stacks labels. */
function stackedValue(row: Row, binding: Binding, context: ReadContext): CellValue | undefined {
  const printed = row.lines.filter((line, index) => index >= row.anchor && line.cells[binding.column]).length;
  // a row that prints one line in the column: the labels were one heading wrapped ("Positions- / betrag"), the column one value
  if (printed <= 1 && binding.stack > 0) return readBinding(row, { ...binding, stack: -1 }, context);
  const at = row.anchor + binding.stack;
  if (!row.lines[at]?.cells[binding.column]) return undefined;
  if (binding.field.facet === 'item-name') return joinWrapped(row.lines, at, binding.column, binding, context);
  const cell = row.lines[at]!.cells[binding.column]!;
  const value = readCell(cell.text, binding.field, context);
  if (value === null) return undefined;
  const number = isNumeric(binding.field) ? figureOf(cell)?.value : undefined;
  return { value, number, words: cell.words, score: binding.score, alternatives: [] };
}

/** A unit printed with the quantity ("10 Stk", "2,5 Std", "3 m²") for a unit the table has no column for. */
function unitValue(row: Row, header: TableHeader, values: ReadonlyMap<ItemField, CellValue>): CellValue | undefined {
  const quantity = [...values.keys()].find((field) => field.facet === 'quantity');
  const binding = header.bindings.find((b) => b.field === quantity);
  const cell = quantity && binding ? row.lines.map((line) => line.cells[binding.column]).find((c) => figureOf(c)?.unit !== undefined) : undefined;
  const unit = figureOf(cell)?.unit;
  return unit && cell ? { value: unit, number: undefined, words: cell.words.slice(-1), score: 0.8, alternatives: [] } : undefined;
}

/** The item as the schema asks: every property, null where the row has no value of it. */
export function itemOf(read: ReadRow, fields: readonly ItemField[]): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const field of fields) setOwn(item, field.name, read.values.get(field)?.value ?? null);
  return item;
}
