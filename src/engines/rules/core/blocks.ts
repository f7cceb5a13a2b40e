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
  const right = nextLabelX(line, anchor.end);
  const block: RuleLine[] = [];
  const first = sliceLine(line, left, right, anchor.end);
  if (first && first.text.replace(/^[\s:#.\-–]+/, '') !== '') block.push(first);
  let previous = line;
  for (let i = anchor.position + 1; i < lines.length && block.length < BLOCK_LINES; i++) {
    const next = lines[i]!;
    if (next.page !== line.page || startsNewSection(previous, next)) break;
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

/** A blank line's worth of vertical space ends a block. */
function startsNewSection(previous: RuleLine, next: RuleLine): boolean {
  const height = Math.max(previous.y1 - previous.y0, 0.01);
  return next.y0 - previous.y1 > 0.8 * height;
}

function isHeading(line: RuleLine, labelEnd: number): boolean {
  return line.text.slice(labelEnd).replace(/^[\s:]+/, '') === '';
}
