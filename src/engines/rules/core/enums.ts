/** Finding which of a schema's allowed values a piece of text mentions. */
import { matchPhrase, tokenize } from './fuzzy.js';
import { splitName } from './labels.js';

/** The allowed value whose words occur in the text, when exactly one does (longest wins over its own prefix). */
export function findEnumValue(text: string, allowed: readonly unknown[]): unknown {
  const tokens = tokenize(text);
  const hits: Array<{ value: unknown; length: number }> = [];
  for (const value of allowed) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const words = splitName(String(value));
    const match = matchPhrase(tokens, words);
    if (match && match.score >= 0.9) hits.push({ value, length: words.join(' ').length });
  }
  if (hits.length === 0) return undefined;
  hits.sort((a, b) => b.length - a.length);
  const longest = hits.filter((hit) => hit.length === hits[0]!.length);
  return longest.length === 1 ? longest[0]!.value : undefined;
}
