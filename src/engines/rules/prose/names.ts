/**
 * Proper names inside running text: runs of capitalised words such as
 * "The Regents of The University of Michigan", "Green Mountain Coffee
 * Roasters, Inc." or "L.E.K. Consulting LLC". In prose a name is what is
 * capitalised mid-sentence; the words around it (", a Delaware
 * corporation", "residing at") are lower case and end it.
 */
import { patternOf, tableWords, tableWordSet } from '../core/table-words.js';

export interface NameRun {
  text: string;
  start: number;
  end: number;
  /** Capitalised words other than legal forms and articles. */
  content: string[];
  /** Ends in a legal form (Inc., LLC, Corporation...). */
  legalForm: boolean;
  /** Printed in capitals throughout ("ENPATH MEDICAL, INC."). */
  upper: boolean;
}

/** The legal forms of the language tables and the suffixes of a person's name ("Jr.", "III"), as one word closing a name: "Inc.", "L.L.C.", "GmbH". */
const LEGAL_FORM = new RegExp(
  `^(?:${tableWords((language) => [...language.legalForms, ...(language.nameSuffixes ?? [])]).map((form) => patternOf(form.replace(/\.$/, ''))).join('|')})\\.?$`,
  'i',
);
/** Lower-case words that may sit inside a name when a capitalised word follows: "University of Michigan", "Ludwig van Beethoven". */
const CONNECTORS = tableWordSet((language) => [...(language.nameConnectors ?? []), ...(language.nameParticles ?? [])]);
/** The same words in a pattern, left out when telling whether a name is printed in capitals. */
const LOWER_CASE_WORDS = new RegExp(`(?<![\\p{L}\\p{N}])(?:${[...CONNECTORS].map(patternOf).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
/** Capitalised words that are document furniture or sentence openers, never part of a party's or place's name (the tables' `notNameWords`). */
const NOT_NAME = tableWordSet((language) => language.notNameWords);
/** Role nouns: a run made only of these is a role label ("the Company", "Receiving Party"), not a name. */
const ROLE_WORDS = tableWordSet((language) => language.roleWords);

interface RawWord {
  text: string;
  start: number;
  end: number;
}

/** Every run of capitalised words in the text (also ones that are no name: see `isNameLike`). */
export function nameRuns(text: string, options: { allowAnd?: boolean } = {}): NameRun[] {
  const words: RawWord[] = [...text.matchAll(/\S+/g)].map((m) => ({ text: m[0], start: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));
  const runs: NameRun[] = [];
  let i = 0;
  while (i < words.length) {
    if (!startsName(words[i]!)) {
      i++;
      continue;
    }
    let last = i;
    let j = i;
    while (!closes(words[j]!) && j + 1 < words.length) {
      const next = words[j + 1]!;
      if (isCapitalised(next) && !isNotName(next)) j += 1;
      else if (bridges(words, j + 1, options.allowAnd ?? false)) j += 2;
      else break;
      last = j;
    }
    // "Sun Energy Solar, Inc." and "Heritage-Crystal Clean, LLC": a legal form after a comma stays with its name
    while (/,$/.test(words[last]!.text) && last + 1 < words.length && LEGAL_FORM.test(core(words[last + 1]!))) last++;
    runs.push(makeRun(text, words.slice(i, last + 1)));
    i = last + 1;
  }
  return runs;
}

function makeRun(text: string, words: RawWord[]): NameRun {
  const start = words[0]!.start + (/^[(“"‘']+/.exec(words[0]!.text)?.[0].length ?? 0);
  const lastWord = words[words.length - 1]!;
  let end = lastWord.end;
  while (end > start && /[,;:)”"’'(]/.test(text[end - 1]!)) end--;
  const cores = words.map(core);
  // a full stop is kept only where it ends an abbreviation ("Inc.", "L.E.K."), not a sentence
  if (text[end - 1] === '.' && !LEGAL_FORM.test(cores[cores.length - 1] ?? '') && !isInitial(cores[cores.length - 1] ?? '')) end--;
  const content = cores.filter((w) => /^\p{Lu}/u.test(w) && !LEGAL_FORM.test(w) && !['the', 'The', 'THE'].includes(w));
  const printed = text.slice(start, end);
  return {
    text: printed,
    start,
    end,
    content,
    legalForm: LEGAL_FORM.test(cores[cores.length - 1] ?? ''),
    upper: !/\p{Ll}/u.test(printed.replace(LOWER_CASE_WORDS, '')),
  };
}

/** A run that can be a party's name: two capitalised words, or one with a legal form, not only role nouns. */
export function isNameLike(run: NameRun): boolean {
  return !isRoleOnly(run) && (run.content.length >= 2 || run.legalForm);
}

/** "The Company", "Receiving Party", "The": nothing but articles and role nouns. */
export function isRoleOnly(run: NameRun): boolean {
  return run.content.every((w) => ROLE_WORDS.has(w.toLowerCase().replace(/[^\p{L}-]/gu, '')));
}

/** The word without surrounding quotes, brackets and trailing punctuation (a final "." of an abbreviation stays). */
function core(word: RawWord): string {
  return word.text.replace(/^[(“"‘'[]+/, '').replace(/[,;:)”"’'\]]+$/, '');
}

/** "J.", "L.E.K.", "Mr.": a full stop that does not end a sentence. */
function isInitial(word: string): boolean {
  return /^(?:\p{L}\.)+$/u.test(word) || /^(?:mr|mrs|ms|dr|st|messrs)\.$/i.test(word);
}

function isCapitalised(word: RawWord): boolean {
  const bare = word.text.replace(/^[(]+/, '');
  // quoted words are defined terms ("Company"), digits are addresses and numbers
  if (/^[“"‘']/.test(bare) || /\d/.test(bare)) return false;
  return /^\p{Lu}/u.test(bare) || bare === '&';
}

function isNotName(word: RawWord): boolean {
  return NOT_NAME.has(core(word).toLowerCase().replace(/\.$/, ''));
}

function startsName(word: RawWord): boolean {
  return isCapitalised(word) && word.text !== '&' && !isNotName(word) && !/^\(/.test(word.text);
}

/** "of" in "University of Michigan": a lower-case connector followed by a capitalised word. */
function bridges(words: readonly RawWord[], at: number, allowAnd: boolean): boolean {
  const connector = words[at];
  const after = words[at + 1];
  if (!connector || !after || closes(connector)) return false;
  const word = connector.text.toLowerCase();
  if (!CONNECTORS.has(word) || (word === 'and' && !allowAnd)) return false;
  return isCapitalised(after) && !isNotName(after) && !/^\(/.test(after.text);
}

/** Punctuation after a word that ends a name: a comma (unless a legal form follows), ";", ":", ")" or a sentence end. */
function closes(word: RawWord): boolean {
  if (/[;:)”"]$/.test(word.text) || /,$/.test(word.text)) return true;
  return /\.$/.test(word.text) && !isInitial(core(word));
}
