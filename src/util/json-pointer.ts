/** The reference tokens of a JSON Pointer (RFC 6901), unescaped: '' -> [], '/a~1b/0' -> ['a/b', '0']. */
export function splitPointer(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The pointer of a child: '/items' + 0 -> '/items/0', '' + 'a/b' -> '/a~1b'. */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** The pointer made of these tokens: ['a/b', '0'] -> '/a~1b/0'. */
export function joinPointer(tokens: readonly string[]): string {
  return tokens.reduce<string>((pointer, token) => childPointer(pointer, token), '');
}

/** The value a pointer refers to inside `root`; undefined when there is none. */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  let current = root;
  for (const token of splitPointer(pointer)) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (Array.isArray(current)) {
      if (!isArrayIndex(token)) return undefined;
      current = current[Number(token)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(current, token)) return undefined;
      current = (current as Record<string, unknown>)[token];
    }
  }
  return current;
}

/** Whether a reference token names an array item: a decimal index without leading zeros (RFC 6901). */
export function isArrayIndex(token: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(token);
}
