/** Counts of matched, extra and missed values, and the precision, recall and F1 they give. */

export interface SetCounts {
  tp: number;
  fp: number;
  fn: number;
}

export interface SetSummary extends SetCounts {
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

export function summariseSet(counts: SetCounts): SetSummary {
  const precision = ratio(counts.tp, counts.tp + counts.fp);
  const recall = ratio(counts.tp, counts.tp + counts.fn);
  // Nothing predicted against something expected is F1 0, not undefined: precision alone has no denominator.
  const f1 = counts.tp === 0 ? (counts.fp + counts.fn > 0 ? 0 : null) : (2 * (precision as number) * (recall as number)) / ((precision as number) + (recall as number));
  return { ...counts, precision, recall, f1 };
}
