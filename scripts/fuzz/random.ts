/**
 * A small seeded generator (sfc32), so that a corpus run repeats exactly and
 * one case can be rebuilt from its seed and index alone.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...seeds: number[]) {
    // splitmix-style mixing of every seed word into the four state words
    let h = 0x9e3779b9;
    const mix = (value: number) => {
      h = Math.imul(h ^ value, 0x85ebca6b) >>> 0;
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
      return (h ^= h >>> 16) >>> 0;
    };
    for (const seed of seeds) mix(seed >>> 0), mix(Math.floor(seed / 2 ** 32));
    this.a = mix(1);
    this.b = mix(2);
    this.c = mix(3);
    this.d = mix(4);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** An entry of `weighted` chosen with probability proportional to its weight. */
  weighted<T>(weighted: ReadonlyArray<readonly [T, number]>): T {
    const total = weighted.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [item, weight] of weighted) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return weighted[weighted.length - 1]![0];
  }

  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = this.int(0, 255);
    return out;
  }

  string(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz'): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }
}
