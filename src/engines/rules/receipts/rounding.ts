/**
 * Cash rounding printed as an adjustment only: "Total 14.18 / Rounding 0.02"
 * with the rounded total unreadable (or not printed at all). When the caller
 * asks for the amount after rounding, the amount payable is the total plus its
 * adjustment. Only a cash rounding qualifies: a few cents, printed right below
 * the total, giving a multiple of 0.05.
 */
import type { AnchoredValue } from '../core/anchors.js';
import { wordsInRange, type RuleLine } from '../core/lines.js';
import { findNumbers } from '../core/parsers.js';

const MAX_ADJUSTMENT = 0.1;
const LINES_BELOW = 2;

export function asksAfterRounding(description: string): boolean {
  return /\bround(?:ed|ing)?\b/i.test(description);
}

export function applyRoundingAdjustment(total: AnchoredValue, lines: readonly RuleLine[]): AnchoredValue | undefined {
  const at = lines.indexOf(total.line);
  if (at < 0) return undefined;
  for (const line of lines.slice(at + 1, at + 1 + LINES_BELOW)) {
    if (!line.tokens.some((t) => t.norm.startsWith('round'))) continue;
    const amounts = findNumbers(line.text).filter((f) => /[.,]\d{2}$/.test(f.text));
    const printed = amounts[amounts.length - 1];
    const adjustment = Number(printed?.value);
    if (!Number.isFinite(adjustment) || adjustment === 0 || Math.abs(adjustment) > MAX_ADJUSTMENT) return undefined;
    const cents = Math.round((Number(total.found.value) + adjustment) * 100);
    if (cents % 5 !== 0) return undefined;
    const text = printedLike(total.found.text, cents);
    // the rounded total is computed: it was read from the total and from the adjustment
    const also = [...(total.also ?? []), ...wordsInRange(line, printed!.start, printed!.end)];
    return text === undefined ? undefined : { ...total, found: { ...total.found, value: cents / 100, text }, also };
  }
  return undefined;
}

/** 1420 cents printed the way the total was ("14.18" -> "14.20", "14,18" -> "14,20"); grouped thousands are left alone. */
function printedLike(printed: string, cents: number): string | undefined {
  const digits = /\d(?:[\d,.]*\d)?/.exec(printed)?.[0];
  if (!digits || /[.,].*[.,]/.test(digits)) return undefined;
  const separator = /,\d{2}$/.test(digits) ? ',' : '.';
  const plain = (cents / 100).toFixed(2).replace('.', separator);
  return printed.replace(digits, plain);
}
