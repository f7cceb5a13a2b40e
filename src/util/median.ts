/** The upper median (the middle value, or the higher of the two middle ones); undefined for no values. */
export function median(values: readonly number[]): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
