/**
 * A long string of a JSON request body kept as its UTF-8 bytes (a view of the
 * body), never made into a JS string on the event loop: http/json-body.ts
 * leaves such strings out of JSON.parse, and the decode thread makes the text
 * of a file's base64 there. Only literals without a backslash are kept so,
 * which makes their text exactly their bytes decoded, as JSON.parse would give
 * it, once the one thing JSON.parse would refuse in them (a raw control
 * character) is checked: text() does both.
 */
export class JsonStringBytes {
  /** `bytes`: the literal's content between its quotes; `bodyOffset`: where that content starts in the body. */
  /** Kept apart from `bytes`: a view whose buffer was moved to another thread says 0. */
  readonly byteLength: number;

  constructor(
    readonly bytes: Uint8Array,
    readonly bodyOffset: number,
  ) {
    this.byteLength = bytes.byteLength;
  }

  /** The string JSON.parse would have given, or a SyntaxError where JSON.parse would have thrown one. */
  text(): string {
    if (this.bytes.byteLength !== this.byteLength) throw new Error('the body bytes of this string were moved to another thread');
    const text = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString('utf8');
    // eslint-disable-next-line no-control-regex
    const control = /[\u0000-\u001f]/.exec(text);
    if (control) throw new SyntaxError(`Bad control character in string literal in JSON at position ${this.bodyOffset + control.index}`);
    return text;
  }

  /** The value again after a structured clone (a worker's message keeps the fields, not the class); undefined for anything else. */
  static revive(value: unknown): JsonStringBytes | undefined {
    if (value instanceof JsonStringBytes) return value;
    if (typeof value !== 'object' || value === null) return undefined;
    const { bytes, bodyOffset } = value as { bytes?: unknown; bodyOffset?: unknown };
    return bytes instanceof Uint8Array && typeof bodyOffset === 'number' ? new JsonStringBytes(bytes, bodyOffset) : undefined;
  }
}
