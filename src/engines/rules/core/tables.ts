/**
 * Lists of objects read from tables: a header line whose cells name at least
 * two of the item's properties fixes the columns (by x position); the rows
 * below are read into items until a line no longer fits, such as "Subtotal".
 */
import type { Token } from '../../../meaning/words.js';
import { parseInteger, parseNumber } from '../../../extract/coerce.js';
import type { Provenance } from '../../../extract/provenance.js';
import type { WordRef } from '../../../document/document.js';
import { childPointer } from '../../../util/json-pointer.js';
import { viewSchema, type SchemaView } from '../../../extract/schema-view.js';
import type { JsonSchema } from '../../../extract/schema.js';
import { setOwn } from '../../../extract/schema-walk.js';
import { matchPhrase, matchPhraseAll } from './fuzzy.js';
import { EVERY_LANGUAGE, hintsFor, labelsOf, type FieldHints, type ReadingLanguages } from './labels.js';
import { wordsInRange, type Cell, type RuleLine } from './lines.js';
import { kindFor, wantsCurrency, type ValueKind } from './kinds.js';
import { findNumbers, amountDigits } from './parsers.js';
import { maxOf } from '../../../util/extremes.js';

interface ItemField {
  name: string;
  view: SchemaView;
  hints: FieldHints;
  kind: ValueKind;
}

interface Column {
  x0: number;
  x1: number;
  field: ItemField | undefined;
  /** How well the header cell names the field: a column's values are labelled by it. */
  score?: number;
}

const MIN_HEADER_SCORE = 0.8;
const NUMERIC_KINDS = new Set<ValueKind>(['amount', 'number', 'integer', 'percentage']);
/** Labels of the lines that end a table of items (totals, taxes), in the languages read. */
function stopLabels(languages: ReadingLanguages): string[][] {
  return [...labelsOf('total', languages), ...labelsOf('subtotal', languages), ...labelsOf('tax', languages), ...labelsOf('discount', languages), ['balance'], ['rounding']];
}
const MAX_CONTINUATION_LINES = 2;

/** A row read from a table: its values, and per property the words of its cell and the strength of its column's header. */
interface TableRow {
  values: Record<string, unknown>;
  words: Map<string, WordRef[]>;
  scores: Map<string, number>;
}

/** The items of a list of objects, and where each of their values was read (pointers into the list). */
export function extractTable(itemView: SchemaView, root: JsonSchema, lines: readonly RuleLine[], languages: ReadingLanguages = EVERY_LANGUAGE): { items: Record<string, unknown>[]; provenance: Provenance } {
  const provenance: Provenance = new Map();
  const fields: ItemField[] = Object.entries(itemView.properties).map(([name, schema]) => {
    const view = viewSchema(schema, root);
    const hints = hintsFor(name, view, [], languages, true);
    return { name, view, hints, kind: kindFor(view, hints) };
  });
  if (fields.length === 0) return { items: [], provenance };
  const headers = findHeaders(lines, fields);
  const rows: TableRow[] = [];
  const stops = stopLabels(languages);
  for (const header of headers) for (const row of readRows(lines, header.position, header.columns, fields, stops)) rows.push(row);
  rows.forEach((row, index) => {
    for (const [name, words] of row.words) {
      const score = row.scores.get(name);
      if (row.values[name] !== null) provenance.set(childPointer(childPointer('', index), name), score === undefined ? { words } : { words, score });
    }
  });
  return { items: rows.map((row) => row.values), provenance };
}

interface Header {
  position: number;
  columns: Column[];
  matched: number;
}

function findHeaders(lines: readonly RuleLine[], fields: ItemField[]): Header[] {
  const needed = Math.min(2, fields.length);
  const headers: Header[] = [];
  lines.forEach((line, position) => {
    if (line.cells.length < needed) return;
    const columns = matchHeaderCells(line, fields);
    const matched = columns.filter((c) => c.field).length;
    if (matched >= needed) headers.push({ position, columns, matched });
  });
  const most = Math.max(0, maxOf(headers, (h) => h.matched));
  return headers.filter((h) => h.matched === most);
}

/** Each header cell takes the item property whose label it matches best; each property one cell. */
function matchHeaderCells(line: RuleLine, fields: ItemField[]): Column[] {
  const pairs: Array<{ cell: number; field: ItemField; score: number }> = [];
  line.cells.forEach((cell, index) => {
    const tokens = tokensOf(line, cell);
    if (tokens.length === 0 || tokens.length > 4) return;
    for (const field of fields) {
      let best = 0;
      for (const label of field.hints.labels) {
        const match = matchPhrase(tokens, label.words);
        // a header cell is the label itself, not a sentence containing it
        const coverage = match ? (match.last - match.first) / tokens.length : 0;
        if (match && match.score >= MIN_HEADER_SCORE && coverage >= 0.5) best = Math.max(best, match.score * label.weight * (0.8 + 0.2 * coverage));
      }
      if (best > 0) pairs.push({ cell: index, field, score: best });
    }
  });
  pairs.sort((a, b) => b.score - a.score);
  const columns: Column[] = line.cells.map((cell) => ({ x0: cell.x0, x1: cell.x1, field: undefined }));
  const used = new Set<string>();
  for (const pair of pairs) {
    const column = columns[pair.cell]!;
    if (column.field || used.has(pair.field.name)) continue;
    column.field = pair.field;
    column.score = Math.min(1, pair.score);
    used.add(pair.field.name);
  }
  return columns;
}

/** The line's tokens inside one cell: cells are whole words, so no token crosses a cell edge. */
function tokensOf(line: RuleLine, cell: Cell): Token[] {
  return line.tokens.filter((token) => token.start >= cell.start && token.end <= cell.end);
}

function readRows(lines: readonly RuleLine[], headerAt: number, columns: Column[], fields: ItemField[], stops: readonly string[][]): TableRow[] {
  const rows: TableRow[] = [];
  let continuation = 0;
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const texts = assignCells(line, columns);
    const row = readRow(texts, columns, fields);
    if (isStopLine(line, row, fields, stops)) break;
    if (fitsRow(row, texts, fields)) {
      rows.push({ values: row.values, words: row.words, scores: row.scores });
      continuation = 0;
      continue;
    }
    const previous = rows[rows.length - 1];
    if (previous && continuation < MAX_CONTINUATION_LINES && appendContinuation(previous, texts, columns)) {
      continuation++;
      continue;
    }
    break;
  }
  return rows;
}

/** What a column holds on one line: its cells' text and words. */
interface ColumnText {
  text: string;
  words: WordRef[];
}

/** Row cells to header columns: by order when the counts agree, else by the column under the cell's centre. */
function assignCells(line: RuleLine, columns: Column[]): ColumnText[] {
  const texts: ColumnText[] = columns.map(() => ({ text: '', words: [] }));
  const put = (index: number, cell: Cell): void => {
    const column = texts[index]!;
    column.text = column.text ? `${column.text} ${cell.text}` : cell.text;
    for (const word of wordsInRange(line, cell.start, cell.end)) column.words.push(word);
  };
  if (line.cells.length === columns.length) {
    line.cells.forEach((cell, index) => put(index, cell));
    return texts;
  }
  for (const cell of line.cells) {
    const centre = (cell.x0 + cell.x1) / 2;
    let best = 0;
    let bestDistance = Infinity;
    columns.forEach((column, index) => {
      const left = index === 0 ? -Infinity : (columns[index - 1]!.x1 + column.x0) / 2;
      const right = index === columns.length - 1 ? Infinity : (column.x1 + columns[index + 1]!.x0) / 2;
      const distance = centre < left ? left - centre : centre > right ? centre - right : 0;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = index;
      }
    });
    put(best, cell);
  }
  return texts;
}

interface ReadRow extends TableRow {
  /** Properties whose cell held a value of the right kind. */
  filled: ItemField[];
}

function readRow(texts: ColumnText[], columns: Column[], fields: ItemField[]): ReadRow {
  const values: Record<string, unknown> = {};
  const words = new Map<string, WordRef[]>();
  const scores = new Map<string, number>();
  for (const field of fields) setOwn(values, field.name, null);
  const filled: ItemField[] = [];
  columns.forEach((column, index) => {
    const text = texts[index]?.text.trim();
    if (!column.field || !text) return;
    const value = readCell(text, column.field);
    if (value === null) return;
    values[column.field.name] = value;
    words.set(column.field.name, [...texts[index]!.words]);
    if (column.score !== undefined) scores.set(column.field.name, column.score);
    filled.push(column.field);
  });
  return { values, words, scores, filled };
}

function readCell(text: string, field: ItemField): unknown {
  if (!NUMERIC_KINDS.has(field.kind)) return text;
  const number = field.kind === 'integer' ? parseInteger(text) : parseNumber(text);
  if (number === null) return null;
  if (!field.view.types.includes('string')) return number;
  const found = findNumbers(text)[0];
  return found && field.kind === 'amount' && !wantsCurrency(field.hints.description) ? amountDigits(found) : text;
}

function fitsRow(row: ReadRow, texts: ColumnText[], fields: ItemField[]): boolean {
  const filledColumns = texts.filter((t) => t.text.trim() !== '').length;
  const hasNumericField = fields.some((f) => NUMERIC_KINDS.has(f.kind));
  const numericFilled = row.filled.some((f) => NUMERIC_KINDS.has(f.kind));
  return filledColumns >= 2 && row.filled.length >= 1 && (!hasNumericField || numericFilled);
}

/** "Subtotal 63.50", "VAT 20% 12.70": a summary label with at most one value ends the table. */
function isStopLine(line: RuleLine, row: ReadRow, fields: ItemField[], stops: readonly string[][]): boolean {
  const firstCell = line.cells[0];
  if (!firstCell) return true;
  const tokens = tokensOf(line, firstCell);
  const numericFilled = row.filled.filter((f) => NUMERIC_KINDS.has(f.kind)).length;
  if (numericFilled > 1 && fields.filter((f) => NUMERIC_KINDS.has(f.kind)).length > 1) return false;
  return stops.some((label) => {
    const match = matchPhrase(tokens, label);
    return match !== undefined && match.score >= 0.85 && match.first === 0 && tokens.length <= label.length + 2;
  });
}

/** A wrapped description: one text cell under a text column continues the previous row. */
function appendContinuation(previous: TableRow, texts: ColumnText[], columns: Column[]): boolean {
  const used = texts.map((t, i) => ({ text: t.text.trim(), words: t.words, column: columns[i]! })).filter((c) => c.text !== '');
  if (used.length !== 1) return false;
  const { text, words, column } = used[0]!;
  if (!column.field || NUMERIC_KINDS.has(column.field.kind) || /^[\d\s.,%-]+$/.test(text)) return false;
  const name = column.field.name;
  const current = previous.values[name];
  previous.values[name] = typeof current === 'string' ? `${current} ${text}` : text;
  previous.words.set(name, [...(typeof current === 'string' ? (previous.words.get(name) ?? []) : []), ...words]);
  return true;
}

/** The columns an item table is headed by, whatever the schema asks for. */
const ITEM_COLUMN_LABELS: ReadonlyArray<readonly string[][]> = (['description', 'quantity', 'unitPrice', 'amount'] as const).map((concept) => labelsOf(concept));
/** Share of a heading's words that column labels must explain: "Description Quantity Unit price Amount", not a sentence that names a price. */
const HEADING_COVERAGE = 0.75;
const MAX_HEADING_WORDS = 12;

/**
 * The heading row of an item table, in any language read ("Description
 * Quantity Unit price Amount", "Menge Bezeichnung Preis"): no figures, two or
 * more kinds of column label, and little else. What comes under it are items,
 * so a block read from the lines above (an address) ends there.
 */
export function isItemTableHeading(line: RuleLine): boolean {
  const tokens = line.tokens;
  if (tokens.length < 2 || tokens.length > MAX_HEADING_WORDS || /\d/.test(line.text)) return false;
  const explained = new Set<number>();
  let columns = 0;
  for (const labels of ITEM_COLUMN_LABELS) {
    let named = false;
    for (const label of labels) {
      for (const match of matchPhraseAll(tokens, label)) {
        if (match.score < MIN_HEADER_SCORE) continue;
        named = true;
        for (let k = match.first; k < match.last; k++) explained.add(k);
      }
    }
    if (named) columns++;
  }
  return columns >= 2 && explained.size >= HEADING_COVERAGE * tokens.length;
}
