/**
 * The first index of a sorted array at which `reached` holds, for a
 * predicate that is false up to some index and true from there on (binary
 * search); `items.length` when it never holds.
 */
export function firstIndexWhere<T>(items: readonly T[], reached: (item: T) => boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (reached(items[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}
