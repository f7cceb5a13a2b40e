/** The upper median (the middle value, or the higher of the two middle ones); undefined for no values. */
export function median(values: readonly number[]): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * The upper median of values added one at a time, kept in two heaps:
 * O(log n) per value, where median() after each of n values is O(n² log n).
 */
export class RunningMedian {
  /** The lower floor(n/2) values, largest first, and the upper ceil(n/2), smallest first. */
  private readonly lower = new Heap((a, b) => a > b);
  private readonly upper = new Heap((a, b) => a < b);

  add(value: number): void {
    if (this.upper.size > 0 && value >= this.upper.peek()!) this.upper.push(value);
    else this.lower.push(value);
    const upperSize = Math.ceil((this.lower.size + this.upper.size) / 2);
    while (this.upper.size > upperSize) this.lower.push(this.upper.pop()!);
    while (this.upper.size < upperSize) this.upper.push(this.lower.pop()!);
  }

  /** median() of every value added so far. */
  get value(): number | undefined {
    return this.upper.peek();
  }
}

/** A binary heap of numbers; `before(a, b)` says a comes out first. */
class Heap {
  private readonly items: number[] = [];

  constructor(private readonly before: (a: number, b: number) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): number | undefined {
    return this.items[0];
  }

  push(value: number): void {
    const items = this.items;
    items.push(value);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    for (let i = 0; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let first = i;
      if (left < items.length && this.before(items[left]!, items[first]!)) first = left;
      if (right < items.length && this.before(items[right]!, items[first]!)) first = right;
      if (first === i) break;
      [items[i], items[first]] = [items[first]!, items[i]!];
      i = first;
    }
    return top;
  }
}
