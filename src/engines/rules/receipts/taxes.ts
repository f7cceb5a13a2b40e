/**
 * A tax line often prints more than the tax: "VAT A 15.0%  46.08  6.01"
 * (rate, taxable amount, tax) or "GST 6%  62.26  3.74  66.00" (with the
 * gross). Whatever the column order, the tax is the smallest of the amounts,
 * since no rate reaches 100%; a zero column (an exempt rate) is no tax amount
 * when a non-zero one is printed.
 */
import type { AnchoredValue } from '../core/anchors.js';
import { digitGroupBlanks } from '../core/lines.js';
import { findNumbers } from '../core/parsers.js';

export function taxAmountOnLine(value: AnchoredValue): AnchoredValue {
  if (value.line !== value.anchor.line) return value;
  const from = value.anchor.end;
  const amounts = findNumbers(value.line.text.slice(from), digitGroupBlanks(value.line, from))
    .filter((found) => found.score === 1 && Number(found.value) > 0)
    .map((found) => ({ ...found, start: found.start + from, end: found.end + from }));
  if (amounts.length < 2) return value;
  const smallest = amounts.reduce((a, b) => (Number(b.value) < Number(a.value) ? b : a));
  return { ...value, found: smallest };
}
