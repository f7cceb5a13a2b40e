/**
 * Words a column heading may be made of, in every language of the tables:
 * the English words of the facets, the printed labels of the concepts a
 * table prints, and every glossary word that reads as one of them. A line
 * is only read closely as a heading (meaning layer, label matching) when it
 * holds two of these words: a table of thousands of rows is read in linear
 * time, and the meaning layer costs a third of a millisecond a phrase.
 */
import { FACETS } from '../../../meaning/facets.js';
import { LANGUAGES } from '../../../meaning/languages/index.js';
import { glossaryKey } from '../../../meaning/translate.js';
import { labelsOf, type Concept } from '../core/labels.js';

const TABLE_CONCEPTS: readonly Concept[] = ['quantity', 'description', 'unitPrice', 'amount', 'tax', 'discount', 'percentage', 'identifier', 'date', 'currency', 'total', 'subtotal'];
/** Words that name nothing on their own. */
const PLAIN = new Set(['of', 'the', 'a', 'an', 'to', 'in', 'on', 'by', 'per', 'for', 'and', 'or', 'with', 'without', 'at', 'from', 'no']);

function vocabulary(): Set<string> {
  const english = new Set<string>();
  for (const facet of FACETS) for (const phrase of facet.phrases) for (const word of phrase.split(' ')) if (word.length > 1 && !PLAIN.has(word)) english.add(word);
  const words = new Set<string>(english);
  for (const concept of TABLE_CONCEPTS) for (const label of labelsOf(concept)) for (const word of label) if (word.length > 1 && !PLAIN.has(word)) words.add(glossaryKey(word));
  for (const language of LANGUAGES) {
    for (const [word, meaning] of Object.entries(language.glossary ?? {})) {
      if (meaning.split(' ').some((part) => english.has(part))) words.add(glossaryKey(word));
    }
  }
  return words;
}

const HEADING_WORDS = vocabulary();
/** A compound is read by its parts ("Positionsbetrag", "Umsatzsteueraufschlüsselung"): a known part of this length or more counts. */
const MIN_PART = 4;
/** Longer words are no heading: and looking at every cut of a caller's 10,000-letter word would cost its square. */
const MAX_COMPOUND = 40;

/** Whether a word (a token's norm) may be part of a column heading or a summary label. */
export function isHeadingWord(norm: string): boolean {
  const key = glossaryKey(norm);
  if (HEADING_WORDS.has(key)) return true;
  if (key.length < 2 * MIN_PART || key.length > MAX_COMPOUND) return false;
  for (let cut = MIN_PART; cut <= key.length - MIN_PART; cut++) {
    if (HEADING_WORDS.has(key.slice(0, cut)) || HEADING_WORDS.has(key.slice(cut))) return true;
  }
  return false;
}
