/**
 * A long string of a JSON request body kept as its UTF-8 bytes (a view of the
 * body), never made into one JS string on the event loop: http/json-body.ts
 * leaves such strings out of JSON.parse, and the decode thread makes the text
 * of a file's base64 there. Only literals without a backslash are kept so,
 * which makes their text exactly their bytes decoded, as JSON.parse would give
 * it, once the one thing JSON.parse would refuse in them (a raw control
 * character) is checked: text() does both. A long string that is no file's
 * data (a filename, a schema's string) is made into text in turns (textWork).
 */
import { runSync, type PacedWork } from './paced.js';

/** Bytes of a long string decoded and checked per unit of textWork: 1-3 ms of the loop. */
export const TEXT_BYTES_PER_UNIT = 1024 * 1024;

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
    return runSync(this.textWork());
  }

  /**
   * text() as paced work, a unit per TEXT_BYTES_PER_UNIT bytes: on the event
   * loop an 8,000,000-character string (a schema's or a filename) took 15-20 ms
   * to decode and check in one go. Pieces end after the character they would
   * cut, so each decodes as it would within the whole.
   */
  *textWork(): PacedWork<string> {
    if (this.bytes.byteLength !== this.byteLength) throw new Error('the body bytes of this string were moved to another thread');
    const bytes = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const pieces: string[] = [];
    let characters = 0;
    for (let from = 0; from < bytes.length; ) {
      let to = Math.min(bytes.length, from + TEXT_BYTES_PER_UNIT);
      // past the continuation bytes of the character it cut (three at most: a run of stray ones is cut anywhere)
      for (let extra = 0; extra < 3 && to < bytes.length && (bytes[to]! & 0xc0) === 0x80; extra++) to++;
      const piece = bytes.toString('utf8', from, to);
      // eslint-disable-next-line no-control-regex
      const control = /[\u0000-\u001f]/.exec(piece);
      if (control) throw new SyntaxError(`Bad control character in string literal in JSON at position ${this.bodyOffset + characters + control.index}`);
      pieces.push(piece);
      characters += piece.length;
      from = to;
      yield;
    }
    return pieces.join('');
  }

  /** The value again after a structured clone (a worker's message keeps the fields, not the class); undefined for anything else. */
  static revive(value: unknown): JsonStringBytes | undefined {
    if (value instanceof JsonStringBytes) return value;
    if (typeof value !== 'object' || value === null) return undefined;
    const { bytes, bodyOffset } = value as { bytes?: unknown; bodyOffset?: unknown };
    return bytes instanceof Uint8Array && typeof bodyOffset === 'number' ? new JsonStringBytes(bytes, bodyOffset) : undefined;
  }
}
