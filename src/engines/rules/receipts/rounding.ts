/**
 * Cash rounding. When the rounded total is printed after the rounding line
 * ("Total 87.08 / Rounding adj 0.02 / Net total 87.10"), that total is what
 * is paid, whatever its label says, and even when OCR garbled the adjustment
 * ("002"). When only the adjustment is printed ("Total 14.18 / Rounding
 * 0.02", the rounded total unreadable or absent) and the caller asks for the
 * amount after rounding, the amount payable is the total plus its adjustment.
 * Only a cash rounding qualifies: a few cents, printed right below the
 * total, giving a multiple of 0.05.
 */
import type { AnchoredValue } from '../core/anchors.js';
import { wordsInRange, type RuleLine } from '../core/lines.js';
import { findNumbers, type Found } from '../core/parsers.js';

const MAX_ADJUSTMENT = 0.1;
const LINES_BELOW = 2;

/** Lines below the total's where its rounding line may be (a discount and a tax line may come between), and lines below that where the rounded total may be. */
const ROUNDING_BELOW = 3;
const ROUNDED_BELOW = 2;

/**
 * The total printed after a rounding line below `total` (or below `sameAt`, a
 * later line printing the same total): an amount within cents of it that is a
 * multiple of 0.05, the total plus the adjustment when one is legible. A total
 * already a multiple of 0.05 needs no rounding (the cash paid below is not it).
 */
export function roundedTotalBelow(total: AnchoredValue, lines: readonly RuleLine[], sameAt: readonly RuleLine[] = []): AnchoredValue | undefined {
  const value = Number(total.found.value);
  if (Math.round(value * 100) % 5 === 0) return undefined;
  for (const from of new Set([total.line, ...sameAt].map((line) => lines.indexOf(line)).filter((at) => at >= 0))) {
    for (let at = from + 1; at <= Math.min(from + ROUNDING_BELOW, lines.length - 1); at++) {
      const rounded = roundedAfter(lines, at, value);
      if (rounded) return { found: rounded.found, anchor: { ...total.anchor, line: rounded.line, position: lines.indexOf(rounded.line), start: 0, end: 0, wordsBefore: 0 }, line: rounded.line, score: total.score };
    }
  }
  return undefined;
}

/** The rounded total on the lines after line `at` when that is a rounding line. */
function roundedAfter(lines: readonly RuleLine[], at: number, value: number): { found: Found; line: RuleLine } | undefined {
  const rounding = lines[at]!;
  if (!rounding.tokens.some((t) => t.norm.startsWith('round'))) return undefined;
  const legible = findNumbers(rounding.text).filter((f) => /[.,]\d{2}$/.test(f.text) && Math.abs(Number(f.value)) <= MAX_ADJUSTMENT && Number(f.value) !== 0);
  const adjustment = legible.length > 0 ? Number(legible[legible.length - 1]!.value) : undefined;
  for (const line of lines.slice(at + 1, at + 1 + ROUNDED_BELOW)) {
    const amounts = findNumbers(line.text).filter((f) => f.score === 1);
    const rounded = amounts[amounts.length - 1];
    if (!rounded) continue;
    const cents = Math.round(Number(rounded.value) * 100);
    const fits = adjustment === undefined ? Math.abs(cents - value * 100) <= MAX_ADJUSTMENT * 100 : cents === Math.round((value + adjustment) * 100);
    if (fits && cents % 5 === 0 && cents !== Math.round(value * 100)) return { found: rounded, line };
  }
  return undefined;
}

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
