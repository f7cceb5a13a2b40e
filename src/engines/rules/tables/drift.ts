/**
 * How far a table's columns have drifted to the right at the line being
 * read: a page scanned a little askew (or printed by a drifting printer)
 * moves each column's figures, right-aligned, a little further down the
 * page. The figures of the first row that prints one in a column fix where
 * that column's figures end; later rows say how far they have moved since,
 * and when the columns agree, the zones move with them.
 */
import { figureOf, type PlacedLine } from './row-layout.js';

export class Drift {
  /** Where each value column's figures end, as first read (without drift). */
  private readonly ends = new Map<number, number>();
  shift = 0;

  constructor(private readonly valueColumns: readonly number[]) {}

  /** A row's line with figures: where they end, against where the column's first figures ended. */
  observe(placed: PlacedLine): void {
    const moved: number[] = [];
    for (const column of this.valueColumns) {
      const cell = placed.cells[column];
      if (!figureOf(cell)) continue;
      const end = this.ends.get(column);
      if (end === undefined) this.ends.set(column, cell!.x1 - this.shift);
      else moved.push(cell!.x1 - end);
    }
    if (moved.length === 0) return;
    moved.sort((a, b) => a - b);
    // columns that disagree (a figure printed left-aligned, a misread edge) say nothing
    if (moved[moved.length - 1]! - moved[0]! > AGREEMENT * placed.line.charWidth) return;
    this.shift = moved[moved.length >> 1]!;
  }
}

/** The columns' moves agree within this many characters. */
const AGREEMENT = 1.5;
