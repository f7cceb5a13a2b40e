/**
 * A property's name and description read as English words, through the
 * language tables' glossaries: "Rechnungsnummer" -> invoice number,
 * "inv_no" -> invoice number, "Nom du magasin" -> name store. The language
 * is chosen per property (name and description together): the one whose
 * glossary explains most of its words, English on a tie, so that a German
 * "Rate" or an Italian "data" is read in its own language and an English
 * "rate" stays a rate.
 */
import { LANGUAGES, type LanguageTable } from './languages/index.js';
import { FACETS, PARTY_WORDS } from './facets.js';
import { normaliseWord, splitName } from './words.js';

/** A word as glossaries are keyed: folded like printed text, "ß" as "ss". */
export function glossaryKey(word: string): string {
  return normaliseWord(word).replace(/ß/g, 'ss');
}

/** Umlauts written out ("haendler", "strasse"): read as the folded letter. */
function withoutTransliteration(word: string): string {
  return word.replace(/ae/g, 'a').replace(/oe/g, 'o').replace(/ue/g, 'u');
}

interface Glossary {
  code: string;
  words: ReadonlyMap<string, string>;
  links: readonly string[];
}

const GLOSSARIES: readonly Glossary[] = LANGUAGES.map((language: LanguageTable) => ({
  code: language.code,
  words: new Map(Object.entries(language.glossary ?? {}).map(([word, english]) => [glossaryKey(word), english])),
  links: language.compoundLinks ?? [],
}));

/** English words the facets and party words are made of, and the plain words of descriptions: they stand for themselves. */
export const ENGLISH_WORDS: ReadonlySet<string> = new Set([
  ...FACETS.flatMap((facet) => [...facet.phrases, facet.words].flatMap((phrase) => phrase.split(' '))),
  ...Object.values(PARTY_WORDS).flatMap((words) => [...words.strong, ...(words.weak ?? [])]),
  ...'data info information details the a an of or and to for in on at by with without from as is are be not any all each every its their this that which who whose if else when than then per first last top most bottom printed written stated shown exactly original format plain digits decimals decimal two one three point comma separator thousands symbol sign negative positive null empty value values field document receipt invoice agreement letter e g i e example such like including excluding incl excl after before over under total amount sum rounded between parties once more several times occurrence day days week weeks month months monthly year years plus minus included instalment statement signature termination notice confidentiality own has was gives goes applies binding joined space reading header letterhead approximately government birth received bar tag land art'.split(' '),
]);

export interface EnglishText {
  /** The words in English, in order ("" words dropped). */
  words: string[];
  /** The language the property is read in ("en" when nothing else explains more of it). */
  language: string;
}

/** The language a property (its name's words and its description's) is best read in. */
export function propertyLanguage(nameWords: readonly string[], descriptionWords: readonly string[]): string {
  // words of no language ("field", "4") vote for none
  const words = [...nameWords, ...descriptionWords].filter((word) => !/^\d+$/.test(word) && !NO_LANGUAGE.has(word));
  const english = englishGlossary();
  let best = 'en';
  let bestVotes = words.reduce((votes, word) => votes + (ENGLISH_WORDS.has(word) || english.words.has(word) ? 1 : splitCompound(englishDictionary(), word) !== undefined ? 0.5 : 0), 0);
  for (const glossary of GLOSSARIES) {
    if (glossary.code === 'en' || glossary.words.size === 0) continue;
    // a word the language has as it is counts whole, one read as a compound of its words half ("anno" is no German an+no)
    const votes = words.reduce((sum, word) => sum + (directly(glossary, word) !== undefined ? 1 : lookUp(glossary, word) !== undefined ? 0.5 : 0), 0);
    if (votes > bestVotes) {
      best = glossary.code;
      bestVotes = votes;
    }
  }
  return best;
}

/** Words schemas use in every language, which say nothing of the language itself. */
const NO_LANGUAGE = new Set(['field', 'col', 'column', 'value', 'val', 'x', 'y', 'id', 'ok']);

function directly(glossary: Glossary, word: string): string | undefined {
  return glossary.words.get(word) ?? glossary.words.get(withoutTransliteration(word));
}

let dictionary: Glossary | undefined;

/** English words as a glossary of themselves (and the short forms), to split an English compound ("invoicenumber"). */
function englishDictionary(): Glossary {
  if (dictionary) return dictionary;
  const words = new Map<string, string>([...ENGLISH_WORDS].filter((word) => word.length >= 3).map((word) => [word, word]));
  for (const [short, long] of englishGlossary().words) words.set(short, long);
  dictionary = { code: 'en', words, links: [] };
  return dictionary;
}

function englishGlossary(): Glossary {
  return GLOSSARIES.find((glossary) => glossary.code === 'en')!;
}

/** A word through one glossary: itself, its umlauts folded, or the parts of a compound. */
function lookUp(glossary: Glossary, word: string): string | undefined {
  const direct = glossary.words.get(word) ?? glossary.words.get(withoutTransliteration(word));
  if (direct !== undefined) return direct;
  return splitCompound(glossary, word) ?? splitCompound(glossary, withoutTransliteration(word));
}

const MIN_PART = 2;
const MAX_PARTS = 4;

/**
 * "rechnungsnummer" -> rechnung + s + nummer -> "invoice number": the word
 * as glossary words, longest first part first, each part joined to the next
 * by nothing or one of the language's linking letters. Bounded: names are
 * cut to 256 characters, and at most four parts are tried.
 */
function splitCompound(glossary: Glossary, word: string, parts = 0): string | undefined {
  if (parts >= MAX_PARTS || word.length < 2 * MIN_PART || word.length > 64) return undefined;
  for (let cut = word.length - MIN_PART; cut >= MIN_PART; cut--) {
    const head = glossary.words.get(word.slice(0, cut));
    if (head === undefined) continue;
    for (const link of ['', ...glossary.links]) {
      const rest = word.slice(cut);
      if (!rest.startsWith(link)) continue;
      const tail = rest.slice(link.length);
      if (tail.length < MIN_PART) continue;
      const translated = glossary.words.get(tail) ?? splitCompound(glossary, tail, parts + 1);
      if (translated !== undefined) return [head, translated].filter(Boolean).join(' ');
    }
  }
  return undefined;
}

/** One word in English: from the property's language, else English itself or its short forms, else any table that knows it. */
function translateWord(word: string, language: string): string {
  if (/^\d+$/.test(word)) return word;
  const own = language === 'en' ? undefined : GLOSSARIES.find((glossary) => glossary.code === language);
  const fromOwn = own ? lookUp(own, word) : undefined;
  if (fromOwn !== undefined) return fromOwn;
  // the short forms first: "no" in inv_no is a number
  const english = englishGlossary().words.get(word);
  if (english !== undefined) return english;
  if (ENGLISH_WORDS.has(word)) return word;
  // "invoicenumber", "totalamount": English words written together
  const compound = language === 'en' ? splitCompound(englishDictionary(), word) : undefined;
  if (compound !== undefined) return compound;
  for (const glossary of GLOSSARIES) {
    if (glossary.code === language || glossary.code === 'en') continue;
    const found = lookUp(glossary, word);
    if (found !== undefined) return found;
  }
  return word;
}

/** Words of a name, letters and digits apart ("field1" -> field, 1; "addressLine2" -> address, line, 2). */
export function nameWords(name: string): string[] {
  return splitName(name).flatMap((word) => word.split(/(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u));
}

/** Words of running text, folded. */
export function textWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).map(glossaryKey);
}

/** Words in English, each word of `words` translated from `language`. */
export function inEnglish(words: readonly string[], language: string): string[] {
  return words.flatMap((word) => translateWord(glossaryKey(word), language).split(' ')).filter(Boolean);
}

/**
 * A description in English, word by word, everything else as written
 * (quotes, examples, digits): "Datum wie gedruckt (z. B. '25/12/2018')" ->
 * "date as printed (e. g. '25/12/2018')". The rules engine's cues ("first",
 * "as printed", "without currency") read this text; an English description
 * is returned as it is.
 */
export function descriptionInEnglish(description: string, language: string): string {
  if (language === 'en') return description;
  let quoted = false;
  // an elided article goes with its apostrophe: "tel qu'imprimé" -> "as printed", not "as 'printed"
  const plain = description.replace(/(?<![\p{L}\p{N}])(?:qu|d|l|dell|all|nell|dall|sull|un)['\u2019](?=\p{L})/giu, '');
  const translated = plain.replace(/['"‘’“”]|[\p{L}\p{N}]+/gu, (token: string, at: number) => {
    if (token.length === 1 && /['"‘’“”]/u.test(token)) {
      // an apostrophe inside a word ("Joe's") neither opens nor closes a quote
      const inWord = /[\p{L}\p{N}]/u.test(plain[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(plain[at + 1] ?? '');
      if (!inWord) quoted = !quoted;
      return token;
    }
    // examples are copied as written: they show how a value is printed
    if (quoted || /\p{N}/u.test(token)) return token;
    return translateWord(glossaryKey(token), language);
  });
  return translated.replace(/ {2,}/g, ' ');
}
