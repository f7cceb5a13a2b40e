/**
 * The smallest and largest of a list's values. Math.min(...values) passes
 * every value as an argument and overflows the stack at about 100,000 of
 * them, which a document reaches (lines of a page, words of a line,
 * candidates for a total), so values are folded in a loop instead.
 */
export function minOf<T>(items: Iterable<T>, value: (item: T) => number): number {
  let least = Infinity;
  for (const item of items) least = Math.min(least, value(item));
  return least;
}

export function maxOf<T>(items: Iterable<T>, value: (item: T) => number): number {
  let most = -Infinity;
  for (const item of items) most = Math.max(most, value(item));
  return most;
}
