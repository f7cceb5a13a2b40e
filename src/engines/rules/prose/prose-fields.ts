/**
 * Where the prose readers meet the label-driven extraction. A value printed
 * after a form label ("Effective date: 01/02/2024") stays the label's; a
 * label word met inside running text ("..., DATED JULY 10, 2006, AND
 * ADDENDUM") is weaker than a value stated by a sentence of the document
 * itself ("is entered into this 2nd day of February, 2006").
 */
import type { SchemaView } from '../../../schema/schema-view.js';
import type { Anchor } from '../core/anchors.js';
import { proseTargetFor } from './cues.js';
import type { FieldHints } from '../core/labels.js';
import type { RuleLine } from '../core/lines.js';
import type { ValueKind } from '../core/kinds.js';
import type { Reading } from '../core/reading.js';
import { isPartyList, readParties } from './parties.js';
import { isProseDocument } from './prose.js';
import { readProseValue } from './prose-values.js';

/** Label score of the property's own label (a bare "Date" for effective_date scores 0.75). */
const SPECIFIC_LABEL = 0.9;

export interface ProseContext {
  lines: readonly RuleLine[];
  dayFirst: boolean;
}

/**
 * The value a sentence states for a scalar property, `{ reading: null }`
 * when the property is one that running text would state in words and it
 * does not, or undefined to leave the decision to labels and fallbacks.
 * `labelled` is the anchor of the best labelled value, if any.
 */
export function statedInProse(kind: ValueKind, view: SchemaView, hints: FieldHints, context: ProseContext, labelled: Anchor | undefined): { reading: Reading | null } | undefined {
  const target = proseTargetFor(kind, view, hints);
  if (!target) return undefined;
  // "Effective date: ..." is the property's own label; a bare "Date:" (of a signature block) is not.
  // A duration's reader also reads "Term: 12 months" lines, and puts the value in the asked form.
  if (labelled?.opensCell && labelled.score >= SPECIFIC_LABEL && target !== 'duration') return undefined;
  const stated = readProseValue(target, view, hints, context.lines, context.dayFirst);
  if (stated !== undefined) return { reading: { value: stated.value, words: stated.words, score: Math.min(1, stated.score), competition: stated.competition } };
  if (labelled) return undefined;
  // in a contract the effective date is stated in words; its first printed date is often another one
  if (target === 'date' && isProseDocument(context.lines)) return { reading: null };
  return undefined;
}

/** The parties of an agreement for a list of strings named like `parties`, when no label listed them. */
export function partiesInProse(itemView: SchemaView, hints: FieldHints, lines: readonly RuleLine[]): Reading[] {
  const wantsStrings = itemView.types.length === 0 || itemView.types.includes('string');
  return wantsStrings && isPartyList(hints) ? readParties(lines) : [];
}
