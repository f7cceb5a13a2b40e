/**
 * Whether JSON.stringify(value) would take at most `limit` UTF-8 bytes,
 * found by walking the value only until the limit is passed: bounded work
 * whatever the value's size (a caller's 40 MB metadata was stringified on
 * the event loop just to be refused). Plain JSON data: a value with toJSON
 * is measured by JSON.stringify itself.
 */
export function jsonFitsIn(value: unknown, limit: number): boolean {
  let bytes = 0;
  const add = (text: string): boolean => {
    // A string's UTF-8 length is at least its UTF-16 length: a long one is refused before it is measured.
    if (text.length > limit - bytes) return false;
    bytes += Buffer.byteLength(text);
    return bytes <= limit;
  };
  const walk = (item: unknown): boolean => {
    if (item === null || typeof item !== 'object' || typeof (item as { toJSON?: unknown }).toJSON === 'function') {
      if (typeof item === 'string' && item.length > limit - bytes) return false;
      const text = JSON.stringify(item) as string | undefined;
      return add(text ?? 'null');
    }
    if (Array.isArray(item)) {
      if (!add('[')) return false;
      for (let index = 0; index < item.length; index++) if ((index > 0 && !add(',')) || !walk(item[index])) return false;
      return add(']');
    }
    if (!add('{')) return false;
    let first = true;
    for (const key in item) {
      if (!Object.hasOwn(item, key)) continue;
      const member = (item as Record<string, unknown>)[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      if (!add(`${first ? '' : ','}${JSON.stringify(key)}:`) || !walk(member)) return false;
      first = false;
    }
    return add('}');
  };
  return walk(value);
}
