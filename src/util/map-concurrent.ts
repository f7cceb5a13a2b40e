/**
 * Maps items with at most `limit` calls in flight, keeping result order.
 * Bounds memory when each call holds a large buffer (e.g. a 300-DPI raster).
 */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function runLane(): Promise<void> {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  }
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, runLane);
  await Promise.all(lanes);
  return results;
}
