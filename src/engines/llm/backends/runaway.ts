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

/** Longest repeating unit looked for, in characters. */
const MAX_PERIOD = 32;
/** Characters of exact repetition that count as a loop: far more than any value a document prints twice in a row. */
const MIN_RUN = 200;
const WINDOW = MIN_RUN + MAX_PERIOD;

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
    return this.stringOutgrown(text) || (this.tail.length >= MIN_RUN && loops(this.tail));
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

/** Whether the last MIN_RUN characters of `text` repeat with some period up to MAX_PERIOD. */
export function loops(text: string): boolean {
  const end = text.length;
  const start = end - MIN_RUN;
  if (start < 0) return false;
  for (let period = 1; period <= MAX_PERIOD; period++) {
    let i = Math.max(start, period);
    while (i < end && text[i] === text[i - period]) i++;
    if (i === end) return true;
  }
  return false;
}
