/** Whether a line is the heading of an item table, for strategies that stop there; the table itself is read by rules/tables/. */
import { matchPhraseAll } from './fuzzy.js';
import { labelsOf } from './labels.js';
import type { RuleLine } from './lines.js';

const MIN_HEADER_SCORE = 0.8;
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
