/**
 * Label hints for a schema property: which printed labels may announce its
 * value, which words next to such a label mean it is a different field, and
 * which general concept (total, date, phone...) the property is about.
 * The words themselves are data, one table per language (languages/): a
 * property named in English or in any of those languages finds the labels
 * the document's languages print for it.
 */
import { meaningOf, type PropertyMeaning } from '../../../meaning/meaning.js';
import { normaliseWord, splitName, tokenize } from '../../../meaning/words.js';
import { LANGUAGES, type Concept, type LanguageTable, type Phrase } from '../../../meaning/languages/index.js';

export type { Concept } from '../../../meaning/languages/index.js';

/** A label's normalised words, split as document text is ("d'échéance" stays one word, "N°" is "no"). */
export function labelWords(label: string): string[] {
  return tokenize(label).map((token) => token.norm);
}

/**
 * The languages a document is read in: English and those whose words it
 * prints (language-detect.ts). Only their labels are looked for, so that an
 * English receipt is read as before and a German invoice finds "Bruttosumme".
 */
export type ReadingLanguages = readonly LanguageTable[];

/** Every language the engine knows: for callers that read without a document (and tests). */
export const EVERY_LANGUAGE: ReadingLanguages = LANGUAGES;

const CONCEPT_NAMES: readonly Concept[] = ['total', 'subtotal', 'tax', 'discount', 'date', 'time', 'identifier', 'business', 'customer', 'address', 'phone', 'email', 'url', 'quantity', 'description', 'unitPrice', 'amount', 'percentage', 'name', 'currency'];

/** Words of property names that bring in each concept, in every language: a schema may be written in any of them. */
const TRIGGERS = Object.fromEntries(
  CONCEPT_NAMES.map((concept) => [concept, [...new Set(LANGUAGES.flatMap((language) => (language.concepts[concept]?.triggers ?? []).map((trigger) => splitName(trigger).join(' '))))]]),
) as Record<Concept, string[]>;

interface PhraseEntry {
  phrase: Phrase;
  /** The English name, as name words ("invoice number" -> ["invoice", "number"]). */
  english: string[];
  /** Every language's labels, compacted ("rechnungsnr"), to recognise a label or a property name. */
  compact: Set<string>;
}

const PHRASES: PhraseEntry[] = [...new Set(LANGUAGES.flatMap((language) => Object.keys(language.phrases) as Phrase[]))].map((phrase) => {
  const compact = new Set<string>([phrase.replace(/ /g, '')]);
  for (const language of LANGUAGES) for (const label of language.phrases[phrase] ?? []) compact.add(labelWords(label).join(''));
  return { phrase, english: phrase.split(' '), compact };
});

/** Titles of invoices and credit notes in any language: a property named after one ("invoice_number", "rechnung_nr") is the document's number. */
const TITLE_KEYS = new Set(LANGUAGES.flatMap((language) => language.titles.map((title) => labelWords(title).join(' '))));

/** Phrases that are kinds of a concept: their labels (in the languages other than English, whose concepts list their own) are the concept's too. */
const PHRASES_OF_CONCEPT: Partial<Record<Concept, Phrase[]>> = { total: ['gross total', 'amount due'], subtotal: ['net total'], tax: ['tax total'] };

/** What the labels of a set of languages are, merged once per set. */
interface Vocabulary {
  concepts: Record<Concept, { labels: string[][]; negatives: string[] }>;
  /** What the languages other than English print for each phrase. */
  foreign: Map<Phrase, string[][]>;
  /** Every phrase's labels (English too), for strategies that rank labels, such as the kinds of total. */
  phrases: Map<Phrase, string[][]>;
  titles: string[][];
  /** Each title with its language's number markers ("Rechnung Nr.", "Facture n°", "Fattura n."). */
  titleNumbers: string[][];
}

const vocabularies = new Map<string, Vocabulary>();

function vocabularyOf(languages: ReadingLanguages): Vocabulary {
  const key = languages.map((language) => language.code).join(',');
  const known = vocabularies.get(key);
  if (known) return known;
  const unique = (lists: string[][]): string[][] => [...new Map(lists.map((words) => [words.join(' '), words])).values()];
  const concepts = Object.fromEntries(
    CONCEPT_NAMES.map((concept) => {
      const phrased = (language: LanguageTable): readonly string[] => (language.code === 'en' ? [] : (PHRASES_OF_CONCEPT[concept] ?? []).flatMap((phrase) => language.phrases[phrase] ?? []));
      const labels = unique(languages.flatMap((language) => [...(language.concepts[concept]?.labels ?? []), ...phrased(language)].map(labelWords)));
      const negatives = [...new Set(languages.flatMap((language) => (language.concepts[concept]?.negatives ?? []).map(normaliseWord)))];
      return [concept, { labels, negatives }];
    }),
  ) as Vocabulary['concepts'];
  const phraseNames = [...new Set(languages.flatMap((language) => Object.keys(language.phrases) as Phrase[]))];
  const labelsOfPhrase = (phrase: Phrase, from: ReadingLanguages): string[][] => unique(from.flatMap((language) => (language.phrases[phrase] ?? []).map(labelWords)));
  const others = languages.filter((language) => language.code !== 'en');
  const vocabulary: Vocabulary = {
    concepts,
    foreign: new Map(phraseNames.map((phrase) => [phrase, labelsOfPhrase(phrase, others)])),
    phrases: new Map(phraseNames.map((phrase) => [phrase, labelsOfPhrase(phrase, languages)])),
    titles: unique(languages.flatMap((language) => language.titles.map(labelWords))),
    titleNumbers: unique(languages.flatMap((language) => {
      const markers = [...new Set([...language.numberMarkers, '#'])].map(labelWords);
      return language.titles.map(labelWords).flatMap((title) => markers.map((marker) => [...title, ...marker]));
    })),
  };
  vocabularies.set(key, vocabulary);
  return vocabulary;
}

/** The printed labels of a phrase in the languages read. */
export function phraseLabels(phrase: Phrase, languages: ReadingLanguages = EVERY_LANGUAGE): string[][] {
  return vocabularyOf(languages).phrases.get(phrase) ?? [];
}

/** Concepts of a value of its own (unlike business/customer, which say whose value it is). */
const VALUE_CONCEPTS = new Set<Concept>(['total', 'subtotal', 'tax', 'discount', 'date', 'time', 'address', 'phone', 'email', 'url', 'currency']);

export interface LabelHint {
  words: string[];
  weight: number;
  /** A general label ("date") for a property whose name is more specific ("due_date"). */
  bare: boolean;
}

export interface FieldHints {
  /** Words of the property name, e.g. invoice_number -> ["invoice", "number"]. */
  nameWords: string[];
  labels: LabelHint[];
  /** Name words that no concept explains ("invoice" in invoice_date). */
  qualifiers: string[];
  negatives: string[];
  concepts: Set<Concept>;
  /** Which occurrence the description asks for when a label repeats. */
  occurrence: 'first' | 'last' | undefined;
  /** The description in English (meaning/translate.ts), for the strategies' cues ("first", "as printed"). */
  description: string;
  /** What the property asks for (meaning/): its kind, facet, party and role. */
  meaning: PropertyMeaning;
}

/** What of a property's schema its hints are worked out from (its name and path apart). */
export interface PropertySchema {
  description: string;
  types?: readonly string[];
  format?: string | undefined;
  enumValues?: readonly unknown[] | undefined;
  examples?: readonly unknown[] | undefined;
}

const IDENTIFIER_WORDS = new Set([...vocabularyOf(EVERY_LANGUAGE).concepts.identifier.labels.map((words) => words.join(' ')), ...TRIGGERS.identifier]);
const DESCRIPTION_STOPWORDS = new Set(['the', 'a', 'an', 'of', 'or', 'and', 'to', 'for', 'in', 'on', 'with', 'name', 'value', 'number', 'their', 'its', 'it', 'any', 'as', 'is', 's']);

/**
 * How much of a property name and description is read for hints. Both are the
 * caller's text and reach dozens of patterns; real ones are far shorter, and a
 * megabyte of "with with ..." kept some of those patterns busy for hours.
 */
const MAX_NAME_CHARS = 256;
const MAX_DESCRIPTION_CHARS = 4000;

/** Hints worked out, for tests that check a schema's are worked out once, not on every request. */
export const hintStats = { computed: 0 };

const HINT_CACHE_LIMIT = 2000;
/**
 * A schema's hints, by property name, description, parent and languages: the
 * same schema comes with request after request, and working out a property's
 * hundred labels was an eighth of a small invoice's extraction. Frozen, since
 * every caller shares them (callers copy to narrow: scopedHints, singularHints).
 */
const hintCache = new Map<string, FieldHints>();

export function hintsFor(fullName: string, property: PropertySchema | string = '', parentWords: readonly string[] = [], languages: ReadingLanguages = EVERY_LANGUAGE, inItems = false): FieldHints {
  const schema: PropertySchema = typeof property === 'string' ? { description: property } : property;
  const key = JSON.stringify([fullName.slice(0, MAX_NAME_CHARS), schema.description.slice(0, MAX_DESCRIPTION_CHARS), schema.types ?? [], schema.format ?? null, schema.enumValues?.length ?? -1, (schema.examples ?? []).slice(0, 5), parentWords, languages.map((language) => language.code), inItems]);
  const known = hintCache.get(key);
  if (known) return known;
  hintStats.computed++;
  const meaning = meaningOf({ name: fullName, description: schema.description, types: schema.types ?? [], format: schema.format, enumValues: schema.enumValues, examples: schema.examples, path: parentWords, inItems });
  const hints = computeHints(fullName, schema.description, parentWords, languages, meaning);
  for (const label of hints.labels) Object.freeze(label);
  for (const list of [hints.labels, hints.nameWords, hints.qualifiers, hints.negatives]) Object.freeze(list);
  Object.freeze(hints);
  if (hintCache.size >= HINT_CACHE_LIMIT) hintCache.clear();
  hintCache.set(key, hints);
  return hints;
}

/** The concepts of a recognised facet; a party's name says whose it is. */
function conceptsOfMeaning(meaning: PropertyMeaning): Set<Concept> {
  const concepts = new Set<Concept>(meaning.facet?.concepts ?? []);
  if (meaning.facet?.id === 'party-name') {
    concepts.delete('business');
    if (meaning.party === 'seller') concepts.add('business');
    if (meaning.party === 'buyer') concepts.add('customer');
  }
  return concepts;
}

function computeHints(fullName: string, fullDescription: string, parentWords: readonly string[], languages: ReadingLanguages, meaning: PropertyMeaning): FieldHints {
  const vocabulary = vocabularyOf(languages);
  const name = fullName.slice(0, MAX_NAME_CHARS);
  const description = fullDescription.slice(0, MAX_DESCRIPTION_CHARS);
  const firstSentence = description.split(/[.;(]/)[0] ?? '';
  const printedName = splitName(name);
  // a property named in another language ("Rechnungsnummer", "numero_facture") or in short ("inv_no") is read as its English name
  const nameWords = englishName(printedName) ?? (meaning.labelWords.length > 0 ? meaning.labelWords : printedName);
  const recognised = meaning.facet !== undefined;
  const concepts = recognised ? conceptsOfMeaning(meaning) : conceptsIn(nameWords.join(' '));
  if (!recognised) {
    // "store_address", "vendor_phone": the business word only says whose value it is; a bare "Store" label announces no address
    if ([...concepts].some((concept) => VALUE_CONCEPTS.has(concept))) concepts.delete('business');
    if (concepts.size === 0) for (const concept of conceptsIn(splitName(firstSentence).join(' '))) concepts.add(concept);
  }
  const labels: LabelHint[] = [];
  const explained = new Set([...concepts].flatMap((concept) => TRIGGERS[concept].filter((t) => ` ${nameWords.join(' ')} `.includes(` ${t} `)).flatMap((t) => t.split(' '))));
  // "tax_total", "total_vat": the total of the taxes, a tax and no total; "total_incl_vat": a total
  const inclusive = nameWords.some((word) => INCLUSION_WORDS.has(word));
  if (!recognised && concepts.has('tax') && concepts.has('total')) concepts.delete(inclusive ? 'tax' : 'total');
  const qualifiers = nameWords.filter((word) => !explained.has(word));
  // by their words, not searched for: a field collects a hundred labels and more (every language's)
  const labelByWords = new Map<string, LabelHint>();
  const add = (words: string[], weight: number, bare = false): void => {
    if (words.length === 0) return;
    const key = words.join(' ');
    const existing = labelByWords.get(key);
    if (existing) {
      existing.weight = Math.max(existing.weight, weight);
      existing.bare &&= bare;
    } else {
      const label = { words, weight, bare };
      labels.push(label);
      labelByWords.set(key, label);
    }
  };
  add(nameWords, 1);
  add(printedName, 1);
  addFacetLabel(meaning, add);
  if (parentWords.length > 0) add([...parentWords, ...nameWords], 1);
  addIdentifierVariants(nameWords, vocabulary, add);
  // the property's own name in the other languages; a concept's labels are already every language's
  addForeignLabels([...labels], vocabulary, add);
  for (const concept of concepts) {
    // total_tax is not announced by a bare "Total", nor due_date by a bare "Date" (but total_incl_tax by "Total")
    const { labels: conceptLabels, negatives } = vocabulary.concepts[concept];
    if (!inclusive && negatives.some((word) => nameWords.includes(word))) continue;
    const weight = concept === 'identifier' || concept === 'name' ? 0.4 : qualifiers.length > 0 ? 0.75 : 0.9;
    for (const words of conceptLabels) {
      // "grand total" is as good a label for `total` as "total" itself
      const specific = nameWords.every((word) => words.includes(word));
      add(words, specific ? 1 : weight, qualifiers.length > 0 && !specific);
    }
  }
  const descriptionWords = splitName(firstSentence);
  if (descriptionWords.length > 0 && descriptionWords.length <= 5) add(descriptionWords, 0.9);
  const negatives = new Set<string>();
  for (const concept of concepts) for (const word of vocabulary.concepts[concept].negatives) negatives.add(word);
  for (const word of negativesFromDescription(meaning.description)) negatives.add(word);
  for (const word of [...nameWords, ...printedName]) negatives.delete(word);
  return { nameWords, labels, qualifiers, negatives: [...negatives], concepts, occurrence: occurrenceIn(meaning.description), description: meaning.description, meaning };
}

/** How sure the meaning must be for its facet's labels to be looked for. */
const SURE_FACET = 0.9;

/** Facet words too plain to announce a value on their own ("Name:", "Total:" announce many). */
const PLAIN_FACET_WORDS = new Set(['name', 'id', 'amount', 'total', 'date', 'address', 'phone', 'email', 'number', 'description', 'unit', 'note']);

/**
 * The facet's own words as a label ("vat id" for seller_vat_id, "invoice
 * number" for inv_no), through which every language's printed labels of it
 * are found; a party's value less surely so when the party is not the
 * issuer, whose details a document prints most.
 */
function addFacetLabel(meaning: PropertyMeaning, add: (words: string[], weight: number, bare?: boolean) => void): void {
  const facet = meaning.facet;
  // a facet guessed from part of a name ("date" in date_d_xyz) must not bring in the labels of another date
  if (!facet || PLAIN_FACET_WORDS.has(facet.words) || meaning.certainty < SURE_FACET) return;
  const words = facet.words.split(' ');
  if (!facet.ofParty) {
    add(words, 1);
    return;
  }
  add(words, meaning.party === 'seller' ? 0.9 : 0.5, true);
}

/** The English name of a property named by a phrase of any language ("Rechnungsnummer" -> invoice number), if it is one. */
function englishName(words: readonly string[]): string[] | undefined {
  const compact = words.join('');
  return PHRASES.find((entry) => entry.compact.has(compact))?.english;
}

/** What the other languages read print for each label of a phrase ("invoice date": "Rechnungsdatum", "date de facture"...), as strong as that label. */
function addForeignLabels(labels: readonly LabelHint[], vocabulary: Vocabulary, add: (words: string[], weight: number, bare: boolean) => void): void {
  for (const label of labels) {
    const compact = label.words.join('');
    for (const entry of PHRASES) if (entry.compact.has(compact)) for (const words of vocabulary.foreign.get(entry.phrase) ?? []) add(words, label.weight, label.bare);
  }
}

/** English numbers after any stem ("order no", "PO #"). */
const ENGLISH_MARKERS = ['number', 'no', '#', 'num', 'nr', 'ref', 'id'];

/**
 * "invoice number" is also printed "Invoice No.", "Invoice #", and as
 * "Invoice" alone before the value; a document's own title ("invoice",
 * "Rechnung", "facture") in every language.
 */
function addIdentifierVariants(nameWords: string[], vocabulary: Vocabulary, add: (words: string[], weight: number) => void): void {
  const last = nameWords[nameWords.length - 1];
  if (last === undefined || nameWords.length < 2 || !IDENTIFIER_WORDS.has(last)) return;
  const stem = nameWords.slice(0, -1);
  for (const variant of ENGLISH_MARKERS) add([...stem, variant], 1);
  add(stem, 0.6);
  if (!TITLE_KEYS.has(stem.join(' '))) return;
  for (const words of vocabulary.titleNumbers) add(words, 1);
  for (const title of vocabulary.titles) add(title, 0.6);
}

function conceptsIn(text: string): Set<Concept> {
  const words = ` ${text} `;
  const found = new Set<Concept>();
  for (const concept of CONCEPT_NAMES) {
    if (TRIGGERS[concept].some((trigger) => words.includes(` ${trigger} `))) found.add(concept);
  }
  if (found.has('subtotal')) found.delete('total');
  return found;
}

/** "Not the cashier, customer or a person's name" -> cashier, customer, person. */
function negativesFromDescription(description: string): string[] {
  const words: string[] = [];
  for (const match of description.matchAll(/\bnot (?:the |a |an |their |its )?([^.;:()]+)/gi)) {
    for (const word of tokenize(match[1]!)) {
      const plain = word.norm.replace(/'s$/, '');
      if (plain.length >= 3 && !DESCRIPTION_STOPWORDS.has(plain)) words.push(plain);
    }
  }
  return words;
}

function occurrenceIn(description: string): 'first' | 'last' | undefined {
  const first = /\b(?:first|top-?most|earliest|uppermost)\b/i.exec(description);
  const last = /\b(?:last|bottom-?most|latest|lowest)\b/i.exec(description);
  if (first && (!last || first.index < last.index)) return 'first';
  return last ? 'last' : undefined;
}

export function labelsOf(concept: Concept, languages: ReadingLanguages = EVERY_LANGUAGE): string[][] {
  return vocabularyOf(languages).concepts[concept].labels;
}

/** Words that say a tax is part of the amount beside them ("incl.", "inkl.", "TTC"), in every language. */
export const INCLUSION_WORDS: ReadonlySet<string> = new Set(LANGUAGES.flatMap((language) => language.inclusionWords.map(normaliseWord)));

/** Words printed between a title and its number ("Nr.", "n°", "numéro"), in every language. */
export const NUMBER_MARKERS: ReadonlySet<string> = new Set(LANGUAGES.flatMap((language) => language.numberMarkers.flatMap(labelWords)));
