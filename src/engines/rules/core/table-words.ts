/**
 * The words of one field of the language tables (meaning/languages/), over
 * every language: English first, each word once. The rules engine's
 * strategies read their words through these rather than writing them down.
 */
import { LANGUAGES, type LanguageTable } from '../../../meaning/languages/index.js';
import { normaliseWord } from '../../../meaning/words.js';

type Pick = (language: LanguageTable) => readonly string[] | undefined;

/** The words as printed in the tables, in table order, each once. */
export function tableWords(pick: Pick, languages: readonly LanguageTable[] = LANGUAGES): string[] {
  return [...new Set(languages.flatMap((language) => pick(language) ?? []))];
}

/** The words folded as a document's tokens are (case, accents): compared with `token.norm`. */
export function tableWordSet(pick: Pick, languages: readonly LanguageTable[] = LANGUAGES): ReadonlySet<string> {
  return new Set(tableWords(pick, languages).map(normaliseWord));
}

/** A word or phrase as a piece of a regular expression: special characters escaped, a space matching any run of spaces. */
export function patternOf(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, String.raw`\s+`);
}
