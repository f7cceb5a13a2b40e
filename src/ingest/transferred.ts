/** A piscina task's result whose buffers are moved to the main thread, not copied (the pdf.js and formats threads). */
import { move, transferableSymbol, valueSymbol } from 'piscina';

class Transferred<T extends object> {
  constructor(
    private readonly value: T,
    private readonly buffers: ArrayBufferLike[],
  ) {}
  get [transferableSymbol](): ArrayBufferLike[] {
    return this.buffers;
  }
  get [valueSymbol](): T {
    return this.value;
  }
}

/** `value`, with `buffers` (each once) handed over; piscina unwraps the marker on its side of the thread boundary. */
export function transferred<T extends object>(value: T, buffers: ArrayBufferLike[]): T {
  return move(new Transferred(value, buffers)) as unknown as T;
}
