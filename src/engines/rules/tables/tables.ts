/**
 * Lists of objects read from tables: the headings that name the item's
 * properties (heading.ts), the rows under them (body.ts, row-layout.ts), each
 * row's values (rows.ts), checked by their sums (arithmetic.ts). Every
 * value keeps the words of its cell, with a score for the evidence.
 */
import type { Provenance } from '../../../schema/provenance.js';
import type { SchemaView } from '../../../schema/schema-view.js';
import type { JsonSchema } from '../../../schema/schema.js';
import { childPointer } from '../../../util/json-pointer.js';
import { EVERY_LANGUAGE, labelsOf, phraseLabels, type ReadingLanguages } from '../core/labels.js';
import type { RuleLine } from '../core/lines.js';
import { bindByFigures, cellScore, checkRows } from './arithmetic.js';
import { isSummary, readBody } from './body.js';
import { headerlessTables } from './headerless.js';
import type { ReadContext } from './cells.js';
import { itemFields, type ItemField } from './item-fields.js';
import { bindingScore, headerAt, mayHead, namesColumns, readPhrase, type TableHeader } from './heading.js';
import { itemOf, readRow, type ReadRow } from './rows.js';

export interface TableOptions {
  languages?: ReadingLanguages;
  /** How to read 03/04/2024 in a row's dates. */
  dayFirst?: boolean;
}

/** The items of a list of objects, and where each of their values was read (pointers into the list). */
export function extractTable(itemView: SchemaView, root: JsonSchema, lines: readonly RuleLine[], options: TableOptions = {}): { items: Record<string, unknown>[]; provenance: Provenance } {
  const languages = options.languages ?? EVERY_LANGUAGE;
  const context: ReadContext = { dayFirst: options.dayFirst ?? true };
  const provenance: Provenance = new Map();
  const fields = itemFields(itemView, root, languages);
  if (fields.length === 0) return { items: [], provenance };
  const stops = summaryLabels(languages);
  let headers = findHeaders(lines, fields);
  // without a heading, runs of rows of one shape, taken only when their amounts add up to a printed total
  const headed = headers.length > 0;
  if (!headed) headers = headerlessTables(lines, fields, (line) => isSummary(line, stops));
  const items: Record<string, unknown>[] = [];
  headers.forEach((header, index) => {
    const limit = headers[index + 1]?.first ?? lines.length;
    let body = readBody({ lines, header, fields, stops, limit });
    const added = bindByFigures(header, body.rows, fields);
    const bound = { ...header, bindings: [...header.bindings, ...added] };
    // the line's amount found by the sums makes the rows anew: it is the figure each row prints once
    if (added.some((binding) => binding.role === 'amount')) body = readBody({ lines, header: bound, fields, stops, limit });
    const read = body.rows.map((row) => readRow(row, bound, fields, context));
    const checked = checkRows(read, fields, bound.bindings, lines, bound.columns);
    if (!headed && !checked.sumConfirmed) return;
    checked.rows.forEach((row, k) => addItem(row, fields, checked.fits[k]!, checked.sumConfirmed, items, provenance));
  });
  return { items, provenance };
}

function addItem(read: ReadRow, fields: readonly ItemField[], fit: Parameters<typeof cellScore>[1], sumConfirmed: boolean, items: Record<string, unknown>[], provenance: Provenance): void {
  const item = itemOf(read, fields);
  if (Object.values(item).every((value) => value === null)) return;
  const index = items.length;
  items.push(item);
  for (const [field, cell] of read.values) {
    if (item[field.name] === null) continue;
    provenance.set(childPointer(childPointer('', index), field.name), { words: cell.words, score: cellScore(cell, fit, sumConfirmed, field) });
  }
}

/** Labels of the lines that end a table of items (totals, taxes, amounts due), in the languages read. */
function summaryLabels(languages: ReadingLanguages): string[][] {
  return [
    ...labelsOf('total', languages),
    ...labelsOf('subtotal', languages),
    ...labelsOf('tax', languages),
    ...(['net total', 'gross total', 'tax total', 'amount due'] as const).flatMap((phrase) => phraseLabels(phrase, languages)),
    ['balance'],
    ['rounding'],
  ];
}

/**
 * The headings of the tables of items: lines (and the blocks printed with
 * them) that name at least two of the item's properties (one, for an item of
 * one property); of those, the ones that name most. A heading repeated on
 * the next page starts the rest of its table.
 */
export function findHeaders(lines: readonly RuleLine[], fields: readonly ItemField[]): TableHeader[] {
  const needed = Math.min(2, fields.length);
  const found: TableHeader[] = [];
  for (let position = 0; position < lines.length; position++) {
    const line = lines[position]!;
    if (line.eInvoice || !mayHead(line) || !(namesColumns(line) || namesFieldsLoosely(line, fields, needed))) continue;
    const header = headerAt(lines, position, fields);
    if (!header || header.matched < needed) continue;
    const previous = found[found.length - 1];
    if (previous && header.first <= previous.last) {
      // the same block found from another of its lines: keep the reading that names most, from its main line most, then the one that takes in most lines
      const better = header.matched - previous.matched || header.own - previous.own || header.last - header.first - (previous.last - previous.first);
      if (better > 0) found[found.length - 1] = header;
      continue;
    }
    found.push(header);
  }
  const most = found.reduce((best, header) => Math.max(best, header.matched), 0);
  return found.filter((header) => header.matched === most);
}

/**
 * A heading the vocabulary misses (OCR's "Descriptlon", an unusual word):
 * two of its printed cells match property labels closely enough. Only for
 * lines of a few cells, the old way of finding headings.
 */
function namesFieldsLoosely(line: RuleLine, fields: readonly ItemField[], needed: number): boolean {
  if (line.cells.length < needed || line.cells.length > 12) return false;
  let named = 0;
  for (const cell of line.cells) {
    const tokens = line.tokens.filter((token) => token.start >= cell.start && token.end <= cell.end);
    if (tokens.length === 0 || tokens.length > 4) continue;
    const reading = readPhrase(tokens.map((token) => token.norm));
    if (fields.some((field) => bindingScore(field, tokens, reading) >= 0.8) && ++named >= needed) return true;
  }
  return false;
}
