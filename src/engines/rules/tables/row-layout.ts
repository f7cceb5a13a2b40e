/**
 * A line of a table's body laid out under its columns: each word goes to the
 * column whose zone holds it (zones meet halfway between the headings), a
 * printed cell spanning two zones is split where the gap between its words
 * lies on the zone's edge ("1 Toolbox 0815 Stahlcoil" under "Pos",
 * "Art-Nr", "Beschreibung"), or, where two columns of figures run together
 * a space apart, at the word boundary nearest the edge that leaves each
 * column what it prints ("20 Stk 19 % VAT" under "Menge", "Steuer"); text
 * turned on its side in the margin and stray specks beside the table are
 * left out.
 */
import type { WordRef } from '../../../document/document.js';
import type { RuleLine, RuleWord } from '../core/lines.js';
import { maxOf, minOf } from '../../../util/extremes.js';
import { readNumberCell, type NumberCell } from './cells.js';
import { lineHeight, type Column } from './heading.js';
import { VALUE_FACETS } from './item-fields.js';

export interface ColumnCell {
  text: string;
  words: WordRef[];
  x0: number;
  x1: number;
  /** Part of a printed cell that runs on into the next column (a note across the table, not a name's wrapped line). */
  cut: boolean;
  /** The cell read as a figure, once (null: it is none). */
  figure?: NumberCell | null;
}

/** A cell's figure: read once, asked for by every step (the key column, the summary test, the row's values). */
export function figureOf(cell: ColumnCell | undefined): NumberCell | undefined {
  if (!cell) return undefined;
  if (cell.figure === undefined) cell.figure = readNumberCell(cell.text) ?? null;
  return cell.figure ?? undefined;
}

export interface PlacedLine {
  /** Position of the line in the document's lines. */
  position: number;
  line: RuleLine;
  page: number;
  /** Vertical extent of its words kept in the table. */
  y0: number;
  y1: number;
  height: number;
  /** By column; undefined where the line leaves a column empty. */
  cells: Array<ColumnCell | undefined>;
  /** Text printed across three columns or more: a note, unless the line holds a row's values too. */
  spanning: boolean;
}

/** Where one column's zone ends and the next one's begins. */
export function zoneEdges(columns: readonly Column[]): number[] {
  const edges: number[] = [];
  for (let i = 0; i + 1 < columns.length; i++) {
    const left = columns[i]!;
    const right = columns[i + 1]!;
    edges.push(left.x1 <= right.x0 ? (left.x1 + right.x0) / 2 : (left.x0 + left.x1 + right.x0 + right.x1) / 4);
  }
  return edges;
}

function zoneOf(x: number, edges: readonly number[]): number {
  // zones are few (a table's columns): a scan is as fast as a search
  let zone = 0;
  while (zone < edges.length && x >= edges[zone]!) zone++;
  return zone;
}

/** A word printed on its side (a margin's "Copyright", a stamp): far taller than the line and narrow for its letters. */
function isTurned(word: RuleWord, height: number, charWidth: number): boolean {
  return word.y1 - word.y0 > 2 * height && word.x1 - word.x0 < 0.5 * word.text.length * charWidth;
}

/** Letters and digits of a text. */
function alnum(text: string): number {
  return (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

/** A fragment beside the table, not under any heading: a few letters of a margin's text, a speck. */
const MAX_STRAY_CHARS = 3;
/** A printed cell is cut at a zone's edge only where its words stand further apart than a space (about half a character). */
const CUT_GAP = 0.75;

/**
 * The line's words under the columns; `shift` moves the columns right by
 * that much (a scanned page's columns drift as they go down, drift.ts).
 */
export function placeLine(line: RuleLine, position: number, columns: readonly Column[], zoneEdges: readonly number[], shift = 0): PlacedLine {
  const height = lineHeight(line);
  const edges = shift === 0 ? zoneEdges : zoneEdges.map((edge) => edge + shift);
  const left = columns[0]!.x0 + shift - 2 * line.charWidth;
  const right = columns[columns.length - 1]!.x1 + shift + 2 * line.charWidth;
  const cells: Array<ColumnCell | undefined> = columns.map(() => undefined);
  const kept: RuleWord[] = [];
  let spanning = false;
  let next = 0;
  for (const cell of line.cells) {
    const words: RuleWord[] = [];
    while (next < line.words.length && line.words[next]!.start < cell.start) next++;
    while (next < line.words.length && line.words[next]!.end <= cell.end) words.push(line.words[next++]!);
    const upright = words.filter((word) => !isTurned(word, height, line.charWidth));
    if (upright.length === 0) continue;
    const x0 = upright[0]!.x0;
    const x1 = upright[upright.length - 1]!.x1;
    if ((x1 < left || x0 > right) && alnum(cell.text) <= MAX_STRAY_CHARS && !/\d[.,]\d/.test(cell.text)) continue;
    // a note across the table: one printed cell over three columns' middles (a row's cells are cut at the zones' edges)
    const crossed = columns.filter((column) => x0 < (column.x0 + column.x1) / 2 + shift && x1 > (column.x0 + column.x1) / 2 + shift).length;
    if (crossed >= 3 && !readNumberCell(cell.text)) spanning = true;
    const runs = splitRunTogether(runsByZone(upright, edges, line.charWidth), columns, edges);
    for (const run of runs) {
      const text = run.words.map((word) => word.text).join(' ');
      const cut = runs.length > 1 && !readNumberCell(text);
      const existing = cells[run.zone];
      if (existing) {
        existing.text = `${existing.text} ${text}`;
        existing.words.push(...run.words.map((word) => word.ref));
        existing.x1 = run.x1;
        existing.cut ||= cut;
      } else {
        cells[run.zone] = { text, words: run.words.map((word) => word.ref), x0: run.x0, x1: run.x1, cut };
      }
      kept.push(...run.words);
    }
  }
  const band = kept.length > 0 ? { y0: minOf(kept, (w) => w.y0), y1: maxOf(kept, (w) => w.y1) } : { y0: line.y0, y1: line.y1 };
  return { position, line, page: line.page, y0: band.y0, y1: band.y1, height, cells, spanning };
}

interface Run {
  words: RuleWord[];
  zone: number;
  x0: number;
  x1: number;
}

/**
 * A printed cell's words in runs, one per zone: it is cut only where the
 * gap between two words holds a zone's edge, so "100,0000 Stk." stays whole
 * while "0815 Stahlcoil" parts at the edge between "Art-Nr" and "Beschreibung".
 */
function runsByZone(words: readonly RuleWord[], edges: readonly number[], charWidth: number): Run[] {
  const runs: Run[] = [];
  let current: RuleWord[] = [words[0]!];
  for (let i = 1; i < words.length; i++) {
    const before = words[i - 1]!;
    const word = words[i]!;
    // words a space apart are one text ("ca. 500ml"), whatever edge falls between them
    const edgeBetween = word.x0 - before.x1 >= CUT_GAP * charWidth && edges.some((edge) => before.x1 <= edge && word.x0 >= edge);
    if (edgeBetween) {
      runs.push(runOf(current, edges));
      current = [];
    }
    current.push(word);
  }
  runs.push(runOf(current, edges));
  return runs;
}

/** A rate as a tax column prints it: "19 %", "7,0", "19 % VAT (S)". */
const RATE = /^\d{1,2}(?:[.,]\d{1,3})?\s?%(?:\s|$)/u;

/** Whether a text reads as what a column of figures prints: a rate or a figure in a tax column ("Steuer", "MwSt"), a figure (with its unit or currency) in the others; undefined for a column of no figures. */
function printsAs(column: Column, text: string): boolean | undefined {
  const facet = column.reading.facet;
  if (facet === undefined || !VALUE_FACETS.has(facet)) return undefined;
  const figure = readNumberCell(text);
  if (facet === 'tax-rate' || facet === 'line-vat') return RATE.test(text) || figure !== undefined;
  return figure !== undefined;
}

/**
 * Runs over two neighbouring columns of figures whose words, a space apart,
 * ran together ("20 Stk 19 % VAT (S)" under "Menge" and "Steuer"): one run
 * across the edge, or two cut at a gap that is not the columns' own ("20
 * Stk 19" and "% VAT (S)"). When that is no figure as a whole and a column
 * is left without what it prints, the words part at the boundary nearest
 * the edge where each part reads as what its column prints (a quantity with
 * its unit, a rate); anything else stays as printed.
 */
function splitRunTogether(runs: Run[], columns: readonly Column[], edges: readonly number[]): Run[] {
  const out: Run[] = [];
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    const next = runs[i + 1];
    const misread =
      next !== undefined && next.zone === run.zone + 1 && [printsAs(columns[run.zone]!, textOf(run)), printsAs(columns[next.zone]!, textOf(next))].includes(false);
    const across = !misread && zoneOf(run.x0, edges) + 1 === zoneOf(run.x1, edges);
    const parts = misread ? resplit([...run.words, ...next!.words], run.zone, columns, edges) : across ? resplit(run.words, zoneOf(run.x0, edges), columns, edges) : undefined;
    if (parts) {
      out.push(...parts);
      if (misread) i++;
    } else out.push(run);
  }
  return out;
}

function textOf(run: Run): string {
  return run.words.map((word) => word.text).join(' ');
}

/** Words over zones `first` and the next one parted where each part reads as what its column prints, nearest the edge between them; undefined if nowhere. */
function resplit(words: readonly RuleWord[], first: number, columns: readonly Column[], edges: readonly number[]): Run[] | undefined {
  if (words.length < 2 || first + 1 >= columns.length || readNumberCell(words.map((word) => word.text).join(' '))) return undefined;
  const edge = edges[first]!;
  let best: { parts: Run[]; distance: number } | undefined;
  for (let at = 1; at < words.length; at++) {
    // the parts go to the two columns whatever their middles (a scan's right-aligned quantity and left-aligned rate meet anywhere)
    const left = { ...runOf(words.slice(0, at), edges), zone: first };
    const right = { ...runOf(words.slice(at), edges), zone: first + 1 };
    if (printsAs(columns[first]!, textOf(left)) !== true || printsAs(columns[first + 1]!, textOf(right)) !== true) continue;
    const distance = Math.abs((words[at - 1]!.x1 + words[at]!.x0) / 2 - edge);
    if (!best || distance < best.distance) best = { parts: [left, right], distance };
  }
  return best?.parts;
}

function runOf(words: RuleWord[], edges: readonly number[]): Run {
  const x0 = words[0]!.x0;
  const x1 = words[words.length - 1]!.x1;
  return { words, zone: zoneOf((x0 + x1) / 2, edges), x0, x1 };
}
