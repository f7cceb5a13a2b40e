/**
 * A labelled block such as "Bill to:" / "Vendor" followed by a few lines of
 * name and address, restricted to the label's column so that two blocks
 * printed side by side stay apart.
 */
import { findAnchors } from './anchors.js';
import type { FieldHints } from './labels.js';
import { sliceLine, type RuleLine } from './lines.js';
import { findValues } from './parsers.js';

const BLOCK_LINES = 6;

/**
 * The block under the property's label. A party's label ("Bill to: Jane Doe")
 * may carry its first line; any other label must head its block ("Totals:").
 */
export function findBlock(lines: readonly RuleLine[], hints: FieldHints, isParty: boolean): RuleLine[] | undefined {
  const heads = findAnchors(lines, hints, 0.9).filter((a) => a.opensCell && a.terminated && (isParty || isHeading(a.line, a.end)));
  const anchor = heads.sort((a, b) => b.score - a.score || a.position - b.position)[0];
  if (!anchor) return undefined;
  const { line } = anchor;
  const labelWord = line.words.find((w) => w.end > anchor.start);
  if (!labelWord) return undefined;
  const left = labelWord.x0 - 2 * line.charWidth;
  const right = Math.min(nextLabelX(line, anchor.end), besideHeadingX(line, anchor.end, labelWord.x0, lines[anchor.position + 1]));
  const block: RuleLine[] = [];
  const first = sliceLine(line, left, right, anchor.end);
  if (first && first.text.replace(/^[\s:#.\-–]+/, '') !== '') block.push(first);
  let previous = line;
  for (let i = anchor.position + 1; i < lines.length && block.length < BLOCK_LINES; i++) {
    const next = lines[i]!;
    if (next.page !== line.page || startsNewSection(previous, next, previous === line && block.length === 0)) break;
    previous = next;
    const part = sliceLine(next, left, right);
    if (!part) continue;
    if (block.length > 0 && /:\s*$/.test(part.cells[0]?.text ?? '') && part.cells.length === 1) break;
    block.push(part);
  }
  return block.length > 0 ? block : undefined;
}

/** Where the next label on the label's line starts ("Bill to:   Ship to:"), or no limit. */
function nextLabelX(line: RuleLine, after: number): number {
  for (const cell of line.cells) {
    if (cell.start <= after) continue;
    // whether a cell holds a date does not depend on the date order
    if (/:/.test(cell.text) && findValues('date', cell.text, true).length === 0) return cell.x0;
  }
  return Infinity;
}

/**
 * Where the next heading of a row of side-by-side headings starts
 * ("Rechnungsempfänger   Lieferanschrift", "Bill To   Ship To"): the label
 * alone in its cell, a cell without digits after it, and the line below
 * printing under both; else no limit ("Customer:   ACME Corp" carries its
 * value).
 */
function besideHeadingX(line: RuleLine, labelEnd: number, labelX: number, below: RuleLine | undefined): number {
  const cell = line.cells.find((candidate) => labelEnd >= candidate.start && labelEnd <= candidate.end);
  const next = line.cells.find((candidate) => candidate.start > labelEnd);
  if (!cell || !next || !below || below.page !== line.page || !/^[\s:]*$/.test(line.text.slice(labelEnd, cell.end)) || /\d/.test(next.text)) return Infinity;
  const tolerance = 2 * Math.max(line.charWidth, below.charWidth);
  const under = (x: number): boolean => below.cells.some((candidate) => Math.abs(candidate.x0 - x) <= tolerance);
  return under(labelX) && under(next.x0) ? next.x0 : Infinity;
}

/** A blank line's worth of vertical space ends a block; a heading alone on its line may stand a little further above its first line. */
function startsNewSection(previous: RuleLine, next: RuleLine, underHeading: boolean): boolean {
  const height = Math.max(previous.y1 - previous.y0, 0.01);
  return next.y0 - previous.y1 > (underHeading ? 1.2 : 0.8) * height;
}

function isHeading(line: RuleLine, labelEnd: number): boolean {
  return line.text.slice(labelEnd).replace(/^[\s:]+/, '') === '';
}
