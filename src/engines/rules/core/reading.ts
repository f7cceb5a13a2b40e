/**
 * A value the rules engine read, with the Document words it read it from.
 * Most strategies know the exact characters of a line (a label's value, a
 * date in a sentence); those that put a value together from whole lines (a
 * header name without its registration number, an address over three lines)
 * find its words again on those lines with wordsSpelling().
 */
import type { Competition, ValueRole } from '../../../schema/provenance.js';
import type { WordRef } from '../../../document/document.js';
import { foldText } from '../../../util/fold-text.js';
import { wordsInRange, type RuleLine } from './lines.js';
import type { Found } from './parsers.js';

export interface Reading {
  /** The value in the JSON form its schema asks for; null when the engine read nothing usable. */
  value: unknown;
  words: WordRef[];
  /** How sure the strategy is of this reading, 0..1, when it scores its candidates. */
  score?: number;
  /** How the value won over the other candidates the strategy found, when it chose among several. */
  competition?: Competition;
  /** Read as an address or a business name (see ValueRole). */
  role?: ValueRole;
}

/** A typed value found on a line: `found` offsets are in the line's text. */
export interface LineValue {
  line: RuleLine;
  found: Found;
}

export function readingOn(value: unknown, at: LineValue, score?: number): Reading {
  const words = wordsInRange(at.line, at.found.start, at.found.end);
  return score === undefined ? { value, words } : { value, words, score: Math.min(1, score) };
}

/**
 * The words of `lines` that spell `text`, in order: a value joined from
 * lines ("12 Main St" + "Springfield"), with specks or a registration
 * number left out between or after its words. When the words do not spell
 * it exactly, the words that are part of it.
 */
export function wordsSpelling(text: string, lines: readonly RuleLine[]): WordRef[] {
  const target = foldText(text);
  if (target === '') return [];
  const words = lines.flatMap((line) => line.words).map((word) => ({ ref: word.ref, folded: foldText(word.text) })).filter((w) => w.folded !== '');
  for (let first = 0; first < words.length; first++) {
    if (!target.startsWith(words[first]!.folded)) continue;
    const spelled = spellFrom(target, words, first);
    if (spelled) return spelled;
  }
  return words.filter((word) => word.folded.length > 1 && target.includes(word.folded)).map((word) => word.ref);
}

/** Words from `first` on that spell the target, skipping words that are not part of it; undefined when they do not. */
function spellFrom(target: string, words: ReadonlyArray<{ ref: WordRef; folded: string }>, first: number): WordRef[] | undefined {
  const spelled: WordRef[] = [];
  let at = 0;
  for (let i = first; i < words.length && at < target.length; i++) {
    const word = words[i]!;
    const rest = target.slice(at);
    // the value may end inside its last word ("12.50" read out of "12.50EUR")
    if (rest.startsWith(word.folded) || (spelled.length > 0 && word.folded.startsWith(rest))) {
      spelled.push(word.ref);
      at += Math.min(word.folded.length, rest.length);
    }
  }
  return at >= target.length ? spelled : undefined;
}

export function readingSpelled(value: unknown, text: string, lines: readonly RuleLine[], score?: number): Reading {
  const words = wordsSpelling(text, lines);
  return score === undefined ? { value, words } : { value, words, score: Math.min(1, score) };
}
