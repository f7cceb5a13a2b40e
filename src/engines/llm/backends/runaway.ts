/**
 * Notices an answer that has stopped saying anything: small models at
 * temperature 0 can fall into a loop inside a JSON string ("1111...",
 * "abcabc...") and write it to the output limit, which costs a minute of CPU
 * for nothing. The watch sees the answer as it is written and reports when
 * its tail is one short piece repeated over a long stretch; the backend then
 * stops the answer, and the engine keeps what came before the loop.
 */

/** Longest repeating unit looked for, in characters. */
const MAX_PERIOD = 32;
/** Characters of exact repetition that count as a loop: far more than any value a document prints twice in a row. */
const MIN_RUN = 200;
const WINDOW = MIN_RUN + MAX_PERIOD;

export class RunawayWatch {
  private tail = '';

  /** Adds a piece of the answer; true once the answer loops. */
  push(text: string): boolean {
    this.tail = (this.tail + text).slice(-WINDOW);
    return this.tail.length >= MIN_RUN && loops(this.tail);
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
