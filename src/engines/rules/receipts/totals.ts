/**
 * The final amount payable among several "total" lines. Receipts print a
 * plain total, totals of parts ("Total 6% supplies"), a rounded total, the
 * amount due, and the same total again on the card slip. Which of them is
 * "the" total follows general conventions, not a fixed label:
 *   1. a rounded total (after a rounding adjustment) is what is paid;
 *   2. labels that say it is payable ("Amount due", "Grand total",
 *      "Total payable", "To pay") beat a plain "Total";
 *   3. otherwise the largest total, since part totals and pre-tax totals are
 *      never larger than the final one (in magnitude: a credit note's are
 *      negative).
 * A description that asks for the total including tax (the "grand total",
 * the "gross" amount) and not for what is due turns rule 2 round: a label
 * that says gross ("Bruttosumme", "Total TTC", "Grand total") beats a plain
 * total, which beats the amount due ("Zahlbetrag", "Solde à payer"), since
 * what is due may deduct a prepayment or add an earlier balance.
 * A zero total ("Balance due 0.00" after payment) only counts when nothing
 * else is there. A total followed only by its rounding adjustment is rounded
 * when the description asks for the amount after rounding (rounding.ts).
 * Once the value is known, the description may ask for its
 * first or last printed occurrence; that decides the printed form returned
 * (e.g. "$14.81" on the receipt body rather than "USD$ 14.81" on the slip).
 */
import type { Token } from '../../../meaning/words.js';
import type { Anchor, AnchoredValue } from '../core/anchors.js';
import { phraseLabels, type FieldHints } from '../core/labels.js';
import { matchPhrase, tokenRange } from '../core/fuzzy.js';
import type { RuleLine } from '../core/lines.js';
import { findNumbers } from '../core/parsers.js';
import { applyRoundingAdjustment, asksAfterRounding, roundedTotalBelow } from './rounding.js';
import { maxOf } from '../../../util/extremes.js';
import { tableWordSet } from '../core/table-words.js';

/** Labels this close to the best are equally good ("Total" and "Total:"). */
const SCORE_TIE = 0.05;
/**
 * A qualified total ("Card balance", "Food total") scores a little lower and
 * is left out, unless its qualifier makes it the final one ("Rounded total",
 * "Nett total"); below this share of the best score it is another field's label.
 */
const MIN_RELATIVE_SCORE = 0.75;
/** A rounded total differs from the unrounded one by less than this (cash rounding is at most a few cents). */
const ROUNDING_SPAN = 0.1;

/** Words of a total's label that make it what is paid ("Amount due", "Grand total"): the tables' `payableWords`. */
const PAYABLE_WORDS = tableWordSet((language) => language.payableWords);
/** Words of a rounding line that make it the adjustment ("Rounding adj"): the tables' `adjustmentWords`. */
const ADJUSTMENT_WORDS = tableWordSet((language) => language.adjustmentWords);

type Rank = 0 | 1 | 2;

export function chooseTotal(candidates: readonly AnchoredValue[], lines: readonly RuleLine[], hints: FieldHints): AnchoredValue | undefined {
  if (candidates.length === 0) return undefined;
  const rank = asksGross(hints) ? grossRankOf : rankOf;
  const best = maxOf(candidates, (c) => c.score);
  // an e-invoice page states each total once under the name of its term: the best label is the one asked for, no receipt convention applies
  if (candidates.every((c) => c.line.eInvoice)) return candidates.find((c) => c.score >= best - SCORE_TIE);
  const pool = candidates.filter((c) => c.score >= best - SCORE_TIE || (c.score >= best * MIN_RELATIVE_SCORE && rank(c) > 0));
  const ranked = [...pool, ...roundedTotals(lines, pool)].map((candidate) => ({ candidate, rank: rank(candidate), value: Number(candidate.found.value) }));
  const nonZero = ranked.filter((r) => r.value !== 0);
  const usable = nonZero.length > 0 ? nonZero : ranked;
  const top = maxOf(usable, (r) => r.rank);
  const chosen = usable
    .filter((r) => r.rank === top)
    .sort((a, b) => Math.abs(b.value) - Math.abs(a.value) || a.candidate.line.index - b.candidate.line.index)[0]!.candidate;
  if (top < 2) {
    const sameAt = ranked.filter((r) => r.value === Number(chosen.found.value)).map((r) => r.candidate.line);
    const printed = roundedTotalBelow(chosen, lines, sameAt);
    if (printed) return printed;
  }
  if (top < 2 && asksAfterRounding(hints.description)) {
    const rounded = applyRoundingAdjustment(chosen, lines);
    if (rounded) return rounded;
  }
  if (hints.occurrence === undefined) return chosen;
  // the same amount printed elsewhere under any total label
  const same = ranked.filter((r) => r.value === Number(chosen.found.value)).map((r) => r.candidate);
  same.sort((a, b) => a.line.index - b.line.index || a.found.start - b.found.start);
  return hints.occurrence === 'first' ? same[0] : same[same.length - 1];
}

/** Words printed before the value on its line (all of the label's line when the value is below it), e.g. ["total", "payable"]. */
function labelWords(candidate: AnchoredValue): string[] {
  const { anchor } = candidate;
  return (candidate.line === anchor.line ? anchor.line.tokens.slice(0, tokenRange(anchor.line.tokens, 0, candidate.found.start)[1]) : anchor.line.tokens).map((t) => t.norm);
}

function rankOf(candidate: AnchoredValue): Rank {
  const words = labelWords(candidate);
  if (isRoundedLabel(words)) return 2;
  return words.some((w) => PAYABLE_WORDS.has(w)) ? 1 : 0;
}

/** "Grand total including VAT", "gross_total", "Bruttobetrag": the total with tax, not what is left to pay (meaning/). */
function asksGross(hints: FieldHints): boolean {
  return hints.meaning.amount === 'gross';
}

const GROSS_LABELS = phraseLabels('gross total');
const DUE_LABELS = phraseLabels('amount due');

/** Gross labels first, then plain totals, then the amount due; a rounded total still is what is paid. */
function grossRankOf(candidate: AnchoredValue): Rank {
  const tokens = labelTokens(candidate);
  const says = (labels: readonly string[][]): boolean => labels.some((label) => (matchPhrase(tokens, label)?.score ?? 0) >= 0.9);
  if (isRoundedLabel(tokens.map((t) => t.norm)) || says(GROSS_LABELS)) return 2;
  return says(DUE_LABELS) ? 0 : 1;
}

/** The tokens printed before the value on its line (the label's own when the value is below it, in a column of a table). */
function labelTokens(candidate: AnchoredValue): Token[] {
  const { anchor } = candidate;
  const [first, last] = candidate.line === anchor.line ? tokenRange(anchor.line.tokens, 0, candidate.found.start) : tokenRange(anchor.line.tokens, anchor.start, anchor.end);
  return anchor.line.tokens.slice(first, last);
}

function isRoundedLabel(words: readonly string[]): boolean {
  return words.some((w) => w.startsWith('round')) && !words.some((w) => ADJUSTMENT_WORDS.has(w));
}

/**
 * "Rounding   72.75" under "Total 72.74": a line about rounding whose amount
 * is within cents of a total is the rounded total; one with a few cents only
 * ("Rounding adj -0.01") is the adjustment and is never a candidate.
 */
function roundedTotals(lines: readonly RuleLine[], totals: readonly AnchoredValue[]): AnchoredValue[] {
  const found: AnchoredValue[] = [];
  const score = maxOf(totals, (t) => t.score);
  for (const [position, line] of lines.entries()) {
    const words = line.tokens.map((t) => t.norm);
    if (!isRoundedLabel(words) || totals.some((t) => t.line === line)) continue;
    const amounts = findNumbers(line.text).filter((f) => f.score === 1);
    const amount = amounts[amounts.length - 1];
    if (!amount) continue;
    const value = Number(amount.value);
    if (!totals.some((t) => Math.abs(Number(t.found.value) - value) <= ROUNDING_SPAN && value > 10 * ROUNDING_SPAN)) continue;
    const label = line.tokens.find((t) => t.norm.startsWith('round'))!;
    const anchor: Anchor = { line, position, score, start: label.start, end: label.end, opensCell: true, wordsBefore: 0, span: 1, terminated: true };
    found.push({ found: amount, anchor, line, score });
  }
  return found;
}
