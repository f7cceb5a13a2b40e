/**
 * Tables printed without a heading: runs of lines with the same shape (a
 * name, then one to four figures whose right edges line up, "Privathaftpflicht
 * 50,00 €", "WASHER 5PC  1  3.80"). Their columns are read by position: the
 * last figure is the line's amount, before it the unit price and the
 * quantity. Such a run is a table of items only when its amounts add up to
 * a total the document prints below it (arithmetic.ts).
 */
import type { RuleLine } from '../core/lines.js';
import { maxOf, minOf } from '../../../util/extremes.js';
import { readNumberCell } from './cells.js';
import type { ItemField } from './item-fields.js';
import { bindingScore, lineBand, lineHeight, type Column, type TableHeader } from './heading.js';

interface Shape {
  position: number;
  /** Extent of the name (the cells before the figures). */
  text: { x0: number; x1: number };
  /** The figures, left to right. */
  figures: Array<{ x0: number; x1: number; value: number }>;
}

const MAX_FIGURES = 4;
/** Lines of one run follow each other within this many line heights. */
const RUN_GAP = 1.5;
/** How a position reads as a facet, at this certainty: a guess the sums must confirm. */
const POSITIONAL = 0.7;

/** A line's shape when it is a name followed by figures. */
function shapeOf(line: RuleLine, position: number): Shape | undefined {
  const figures: Shape['figures'] = [];
  let last = line.cells.length - 1;
  for (; last >= 0 && figures.length <= MAX_FIGURES; last--) {
    const cell = line.cells[last]!;
    const figure = readNumberCell(cell.text);
    if (!figure) break;
    figures.unshift({ x0: cell.x0, x1: cell.x1, value: figure.value });
  }
  if (figures.length === 0 || figures.length > MAX_FIGURES || last < 0) return undefined;
  const text = line.cells.slice(0, last + 1);
  // a name has letters
  if (!text.some((cell) => /\p{L}{3}/u.test(cell.text))) return undefined;
  return { position, text: { x0: text[0]!.x0, x1: text[text.length - 1]!.x1 }, figures };
}

function aligned(a: Shape, b: Shape, tolerance: number): boolean {
  return a.figures.length === b.figures.length && a.figures.every((figure, k) => Math.abs(figure.x1 - b.figures[k]!.x1) <= tolerance);
}

/**
 * Virtual headings over the runs of two or more lines of the same shape,
 * with columns at their positions; `isSummary` ends a run (its totals are
 * no rows).
 */
export function headerlessTables(lines: readonly RuleLine[], fields: readonly ItemField[], isSummary: (line: RuleLine) => boolean): TableHeader[] {
  const headers: TableHeader[] = [];
  let run: Shape[] = [];
  const close = (): void => {
    if (run.length >= 2) {
      const header = virtualHeader(run, lines, fields);
      if (header) headers.push(header);
    }
    run = [];
  };
  for (let position = 0; position < lines.length; position++) {
    const line = lines[position]!;
    const shape = line.eInvoice || isSummary(line) ? undefined : shapeOf(line, position);
    const previous = run[run.length - 1];
    if (!shape) {
      // a name wrapped onto a line of its own may sit between two rows
      if (previous && position - previous.position === 1 && !line.eInvoice && !/\d[.,]\d/.test(line.text)) continue;
      close();
      continue;
    }
    const prior = previous ? lines[previous.position]! : undefined;
    const follows = prior !== undefined && prior.page === line.page && lineBand(line).y0 - lineBand(prior).y1 <= RUN_GAP * lineHeight(line) * (position - previous!.position);
    if (!previous || !follows || !aligned(run[0]!, shape, 2 * line.charWidth)) close();
    run.push(shape);
  }
  close();
  return headers;
}

function virtualHeader(run: readonly Shape[], lines: readonly RuleLine[], fields: readonly ItemField[]): TableHeader | undefined {
  const count = run[0]!.figures.length;
  const facets = positionalFacets(run, count);
  const columns: Column[] = [{ x0: minOf(run, (s) => s.text.x0), x1: maxOf(run, (s) => s.text.x1), labels: [], reading: { facet: 'item-name', certainty: POSITIONAL } }];
  for (let k = 0; k < count; k++) {
    columns.push({ x0: minOf(run, (s) => s.figures[k]!.x0), x1: maxOf(run, (s) => s.figures[k]!.x1), labels: [], reading: { facet: facets[k], certainty: POSITIONAL } });
  }
  const bindings = fields.flatMap((field) => {
    const column = columns.findIndex((c) => bindingScore(field, [], c.reading) > 0);
    return column < 0 ? [] : [{ field, column, stack: -1, score: bindingScore(field, [], columns[column]!.reading), direct: true }];
  });
  if (bindings.length === 0) return undefined;
  const first = lines[run[0]!.position]!;
  return {
    first: run[0]!.position - 1,
    last: run[0]!.position - 1,
    page: first.page,
    y1: lineBand(first).y0,
    lineHeight: lineHeight(first),
    columns,
    bindings,
    matched: bindings.length,
    own: bindings.length,
  };
}

/**
 * The figures by position: the last the line's amount; of three or more the
 * one before it the unit price and the first the quantity; of two the first
 * the quantity when every row prints a whole number there, else the price.
 */
function positionalFacets(run: readonly Shape[], count: number): Array<string | undefined> {
  const facets: Array<string | undefined> = new Array<string | undefined>(count).fill(undefined);
  facets[count - 1] = 'line-net';
  if (count >= 3) {
    facets[count - 2] = 'unit-price';
    facets[0] = 'quantity';
  } else if (count === 2) {
    facets[0] = run.every((shape) => Number.isInteger(shape.figures[0]!.value)) ? 'quantity' : 'unit-price';
  }
  return facets;
}
