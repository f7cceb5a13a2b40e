/** Finding which of a schema's allowed values a piece of text mentions. */
import { tokenize, splitName } from '../../../meaning/words.js';
import { matchPhrase } from './fuzzy.js';

/** An allowed value and the characters [start, end) of the text that mention it. */
export interface EnumMention {
  value: unknown;
  start: number;
  end: number;
}

/** The allowed value whose words occur in the text, when exactly one does (longest wins over its own prefix). */
export function findEnumMention(text: string, allowed: readonly unknown[]): EnumMention | undefined {
  const tokens = tokenize(text);
  const hits: Array<EnumMention & { length: number }> = [];
  for (const value of allowed) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const words = splitName(String(value));
    const match = matchPhrase(tokens, words);
    if (match && match.score >= 0.9) hits.push({ value, length: words.join(' ').length, start: tokens[match.first]!.start, end: tokens[match.last - 1]!.end });
  }
  if (hits.length === 0) return undefined;
  hits.sort((a, b) => b.length - a.length);
  const longest = hits.filter((hit) => hit.length === hits[0]!.length);
  if (longest.length !== 1) return undefined;
  const { value, start, end } = longest[0]!;
  return { value, start, end };
}

export function findEnumValue(text: string, allowed: readonly unknown[]): unknown {
  return findEnumMention(text, allowed)?.value;
}
