/**
 * Totals that reconcile: a document's net total and its VAT make its gross
 * total. When the three amounts an object asks for were each read on their
 * own and break that sum, one of them is most likely another figure read
 * under its label (a tax that is the net amount printed beside "VAT 19 %",
 * a net total that is a line's amount). Another reading of one of them that
 * the page also prints under that field's label, and that makes the sum
 * work, is taken instead. No value is ever computed from the others: each
 * candidate is a printed amount, and when none makes the sum work the
 * values stand (the evidence then says they do not add up).
 */
import { parseNumber } from '../../../schema/coerce.js';
import type { SchemaView } from '../../../schema/schema-view.js';
import type { AnchoredValue } from '../core/anchors.js';
import type { FieldHints } from '../core/labels.js';
import { digitGroupBlanks, type RuleLine } from '../core/lines.js';
import { findNumbers } from '../core/parsers.js';
import type { Reading } from '../core/reading.js';
import { childPointer } from '../../../util/json-pointer.js';
import type { Provenance, ValueSource } from '../../../schema/provenance.js';

/** The part an amount plays in the sum net + VAT = gross. */
type SumRole = 'net' | 'vat' | 'gross';

export interface ReconciledField {
  name: string;
  view: SchemaView;
  hints: FieldHints;
  /** Every value its labels announce, as the field's reading found them (fields.ts labelledValues). */
  candidates: readonly AnchoredValue[];
  /** The candidate in the JSON form the field's schema asks for. */
  present: (candidate: AnchoredValue) => Reading;
}

/** Amounts that add up within a cent (and its rounding). */
const TOLERANCE = 0.011;
/** The most VAT can be of the net amount: the highest standard rate is 27 %; some room for surcharges. */
const MAX_VAT_SHARE = 0.35;
/** Lines under a label whose figures may be its value. */
const LINES_BELOW = 2;
/** Candidates weighed per field: the best-labelled few. */
const MAX_CANDIDATES = 6;
/** A reading that replaces the one chosen must be about as well labelled. */
const MIN_RELATIVE_SCORE = 0.6;

/** The part an amount field plays in the sum, from what it asks for (meaning/); undefined for any other field. */
export function sumRole(hints: FieldHints): SumRole | undefined {
  switch (hints.meaning.amount) {
    case 'net': case 'subtotal': return 'net';
    case 'vat': return 'vat';
    case 'gross': case 'total': return 'gross';
    default: return undefined;
  }
}

function amountOf(value: unknown): number | null {
  return typeof value === 'number' ? value : typeof value === 'string' ? parseNumber(value) : null;
}

interface Alternative {
  reading: Reading;
  amount: number;
  score: number;
}

/**
 * Readings of a field besides the chosen one: every labelled value, and the
 * other amounts printed after its label on the same line ("MwSt 19 % auf
 * 376,37: 71,51"), on the row of figures under it or on the lines just
 * below it, a little less surely.
 */
function alternatives(field: ReconciledField, lines: readonly RuleLine[]): Alternative[] {
  const found: Alternative[] = [];
  const seen = new Set<string>();
  const add = (candidate: AnchoredValue, score: number): void => {
    const reading = field.present(candidate);
    const amount = amountOf(reading.value);
    const key = `${candidate.line.index}:${candidate.found.start}`;
    if (amount === null || seen.has(key)) return;
    seen.add(key);
    found.push({ reading: { ...reading, score: Math.min(1, score) }, amount, score });
  };
  const ranked = [...field.candidates].filter((candidate) => !candidate.line.eInvoice).sort((a, b) => b.score - a.score).slice(0, MAX_CANDIDATES);
  for (const candidate of ranked) add(candidate, candidate.score);
  for (const candidate of ranked) {
    // beside its label, what follows the label; below it (a row of figures under a row of labels), the row's other figures
    const beside = candidate.line === candidate.anchor.line;
    const from = beside ? candidate.anchor.end : 0;
    for (const number of findNumbers(candidate.line.text.slice(from), digitGroupBlanks(candidate.line, from))) {
      if (number.score !== 1) continue;
      add({ ...candidate, found: { ...number, start: number.start + from, end: number.end + from } }, candidate.score * (beside ? 0.9 : 0.8));
    }
    // "MwSt. 19 % aus 376,37" with the tax itself on the line below
    for (let offset = 1; offset <= LINES_BELOW; offset++) {
      const below = lines[candidate.anchor.position + offset];
      if (!below || below.page !== candidate.anchor.line.page || below === candidate.line) continue;
      for (const number of findNumbers(below.text, digitGroupBlanks(below, 0))) {
        if (number.score === 1) add({ ...candidate, line: below, found: number }, candidate.score * 0.8);
      }
    }
  }
  return found;
}

/**
 * Where the object's net, VAT and gross amounts break net + VAT = gross,
 * takes the one other printed reading of one of them that makes the sum
 * work, the best-labelled if several do; the provenance follows.
 */
export function reconcileTotals(value: Record<string, unknown>, provenance: Provenance, fields: readonly ReconciledField[], lines: readonly RuleLine[]): void {
  const byRole = new Map<SumRole, ReconciledField>();
  for (const field of fields) {
    const role = sumRole(field.hints);
    // two fields of one role (a subtotal and a net total): the sum is not this simple
    if (!role) continue;
    if (byRole.has(role)) return;
    byRole.set(role, field);
  }
  const net = byRole.get('net');
  const vat = byRole.get('vat');
  const gross = byRole.get('gross');
  if (!net || !vat || !gross) return;
  const [netAmount, vatAmount, grossAmount] = [amountOf(value[net.name]), amountOf(value[vat.name]), amountOf(value[gross.name])];
  if (netAmount === null || vatAmount === null || grossAmount === null) return;
  const current: Record<SumRole, number> = { net: netAmount, vat: vatAmount, gross: grossAmount };
  // a sum that works with a VAT larger than any rate makes of the net (27 % in the EU) is no reading of a tax
  const adds = (n: number, v: number, g: number): boolean => Math.abs(n + v - g) <= TOLERANCE && Math.abs(v) <= MAX_VAT_SHARE * Math.abs(n);
  if (adds(current.net, current.vat, current.gross)) return;
  let best: { field: ReconciledField; alternative: Alternative; relative: number } | undefined;
  for (const [role, field] of [['net', net], ['vat', vat], ['gross', gross]] as const) {
    const chosenScore = provenanceScore(provenance.get(childPointer('', field.name)));
    for (const alternative of alternatives(field, lines)) {
      const trial = { ...current, [role]: alternative.amount };
      if (alternative.amount === current[role] || !adds(trial.net, trial.vat, trial.gross)) continue;
      // the gross total is the largest total a document prints: one smaller than the total read is a part's (one VAT rate's row)
      if (role === 'gross' && Math.abs(alternative.amount) < Math.abs(current.gross)) continue;
      const relative = alternative.score / Math.max(chosenScore, 1e-6);
      if (relative < MIN_RELATIVE_SCORE) continue;
      if (!best || relative > best.relative) best = { field, alternative, relative };
    }
  }
  if (!best) return;
  value[best.field.name] = best.alternative.reading.value;
  const pointer = childPointer('', best.field.name);
  provenance.delete(pointer);
  const source: ValueSource = { words: best.alternative.reading.words, score: best.alternative.score };
  provenance.set(pointer, source);
}

function provenanceScore(source: ValueSource | undefined): number {
  return source?.score ?? 1;
}
