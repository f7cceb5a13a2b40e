/**
 * Notices an answer that has stopped saying anything: small models at
 * temperature 0 can fall into a loop inside a JSON string ("1111...",
 * "abcabc...") and write it to the output limit, which costs a minute of CPU
 * for nothing. The watch sees the answer as it is written and reports when
 * its tail is one short piece repeated over a long stretch, or when one
 * string grows longer than the document it should be copied from (a loop
 * that counts: "5.00 RM, 10.00 RM, 15.00 RM, ..." is no repetition, and
 * SmolLM2 wrote 2,048 tokens of it into a receipt's total); the backend then
 * stops the answer, and the engine keeps what came before.
 */

/**
 * Longest repeating unit looked for, in characters: a list item written over
 * and over in pretty-printed JSON is one item, a comma and a line's
 * indentation (SmolLM2 wrote '"2022-06-06 12:12:52.125",' and 8 spaces, 35
 * characters, into a party list until the output limit).
 */
const MAX_PERIOD = 128;
/** Characters of exact repetition that count as a loop: far more than any value a document prints twice in a row. */
const MIN_RUN = 200;
/** A long unit must come this many times in a row: a few identical list items (the same line bought twice) are no loop. */
const MIN_REPEATS = 8;
const WINDOW = Math.max(MIN_RUN, MIN_REPEATS * MAX_PERIOD) + MAX_PERIOD;

export class RunawayWatch {
  private tail = '';
  private inString = false;
  private escaped = false;
  /** Characters of the JSON string being written. */
  private stringLength = 0;

  /** `longestString`: characters past which a JSON string in the answer cannot be a value read from the document. */
  constructor(private readonly longestString = Infinity) {}

  /** Adds a piece of the answer; true once the answer loops or a string outgrows `longestString`. */
  push(text: string): boolean {
    this.tail = (this.tail + text).slice(-WINDOW);
    return this.stringOutgrown(text) || loops(this.tail);
  }

  private stringOutgrown(text: string): boolean {
    for (const character of text) {
      if (!this.inString) {
        if (character === '"') {
          this.inString = true;
          this.stringLength = 0;
        }
      } else if (this.escaped) {
        this.escaped = false;
        this.stringLength++;
      } else if (character === '\\') {
        this.escaped = true;
      } else if (character === '"') {
        this.inString = false;
      } else if (++this.stringLength > this.longestString) {
        return true;
      }
    }
    return false;
  }
}

/** Whether the end of `text` is one unit of up to MAX_PERIOD characters repeated over MIN_RUN characters and MIN_REPEATS times. */
export function loops(text: string): boolean {
  const end = text.length;
  for (let period = 1; period <= MAX_PERIOD; period++) {
    const run = Math.max(MIN_RUN, MIN_REPEATS * period);
    if (end < run + period) break;
    // from the end backwards: an answer that does not loop fails on the first characters compared
    let i = end - 1;
    while (i >= end - run && text[i] === text[i - period]) i--;
    if (i < end - run) return true;
  }
  return false;
}
