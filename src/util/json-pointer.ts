/** The reference tokens of a JSON Pointer (RFC 6901), unescaped: '' -> [], '/a~1b/0' -> ['a/b', '0']. */
export function splitPointer(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}
