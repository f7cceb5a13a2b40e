/**
 * Which languages a document is printed in, from the words of the language
 * tables it prints: a German invoice says "Rechnung", "Menge", "Gesamtbetrag",
 * "MwSt", an Italian receipt at least "Totale". English is always read. A
 * language counts once one of its own words appears; words it shares with
 * English (its labels and the prose words of its table: "data", "general"),
 * and words shorter than four letters, say nothing, so that an English
 * contract stays English. A bilingual invoice is read in both languages.
 */
import { LANGUAGES, type LanguageTable } from '../../../meaning/languages/index.js';
import { labelWords, type ReadingLanguages } from './labels.js';
import type { RuleLine } from './lines.js';

/** Distinct words of its own a document must print for a language to be read. */
const MIN_OWN_WORDS = 1;
/** Words this long or longer count; shorter ones only when they are a whole label ("TVA", "MwSt", "BTW", "IVA"), not a word of a phrase ("con" of "total con iva"). */
const MIN_WORD_LENGTH = 4;
const MIN_LABEL_LENGTH = 3;

function wordsOf(language: LanguageTable): Set<string> {
  const concepts = Object.values(language.concepts);
  const phrases = [
    ...concepts.flatMap((words) => [...(words.labels ?? []), ...(words.triggers ?? []), ...(words.negatives ?? [])]),
    ...Object.values(language.phrases).flat(),
    ...language.titles,
    ...language.salutations,
    ...language.inclusionWords,
  ];
  const words = phrases.flatMap(labelWords).filter((word) => word.length >= MIN_WORD_LENGTH);
  const shortLabels = [...concepts.flatMap((entry) => entry.labels ?? []), ...language.inclusionWords].map(labelWords).filter((label) => label.length === 1 && label[0]!.length >= MIN_LABEL_LENGTH);
  return new Set([...words, ...shortLabels.map((label) => label[0]!)].filter((word) => /^\p{L}+$/u.test(word)));
}

const ENGLISH = LANGUAGES.find((language) => language.code === 'en')!;
const ENGLISH_WORDS = new Set([...wordsOf(ENGLISH), ...(ENGLISH.proseWords ?? [])]);
const OWN_WORDS = new Map(LANGUAGES.filter((language) => language.code !== 'en').map((language) => [language, new Set([...wordsOf(language)].filter((word) => !ENGLISH_WORDS.has(word)))]));

export function documentLanguages(lines: readonly RuleLine[]): ReadingLanguages {
  const printed = new Set<string>();
  for (const line of lines) for (const token of line.tokens) if (token.norm.length >= MIN_LABEL_LENGTH) printed.add(token.norm);
  return LANGUAGES.filter((language) => {
    const own = OWN_WORDS.get(language);
    if (!own) return true;
    let found = 0;
    for (const word of own) if (printed.has(word) && ++found >= MIN_OWN_WORDS) return true;
    return false;
  });
}
