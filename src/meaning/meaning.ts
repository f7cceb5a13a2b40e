/**
 * What a schema property asks for, decided once from everything the caller
 * wrote: its name (split into words, short forms expanded, read from its
 * language), its description (the strongest signal when present), its
 * type, format, enum and examples, and where it sits (inside `seller`, in
 * the items of a list). Every engine and the evidence read the same
 * answer: the rules engine its labels and kind, the e-invoice mapping its
 * business term, the language model's prompt its field notes, the
 * confidence features its kind.
 */
import { FACETS, PARTY_WORDS, type AmountRole, type DateRole, type Facet, type Level, type MeaningKind, type Party } from './facets.js';
import { descriptionInEnglish, inEnglish, nameWords, propertyLanguage, textWords } from './translate.js';

export type { AmountRole, DateRole, Facet, Level, MeaningKind, Party } from './facets.js';

/** What the meaning is decided from: a property as its schema states it. */
export interface PropertyInput {
  name: string;
  description: string;
  /** Declared JSON types; empty when unconstrained. */
  types: readonly string[];
  format?: string | undefined;
  enumValues?: readonly unknown[] | undefined;
  examples?: readonly unknown[] | undefined;
  /** Names of the enclosing properties, outermost first: ["seller"] for seller.vat_id. */
  path: readonly string[];
  /** In the items of a list of objects: a value of one line (row) of a table. */
  inItems: boolean;
}

export interface PropertyMeaning {
  kind: MeaningKind;
  /** The facet it asks for, when one is recognised. */
  facet?: Facet;
  party?: Party;
  amount?: AmountRole;
  date?: DateRole;
  level: Level;
  /**
   * How sure the reading is, 0..1: near 1 when the name and the description
   * say the same, lower when only one of them speaks, when they disagree,
   * when the party is assumed, and low when nothing was recognised.
   */
  certainty: number;
  /** The language the property is written in ("en", "de"...). */
  language: string;
  /** The name in English words: "inv_no" -> ["invoice", "number"], "Händler" -> ["merchant"]. */
  nameWords: string[];
  /** The description in English (word by word from its language), for cues such as "first" or "as printed". */
  description: string;
  /**
   * The English words a printed label of it is looked for with: the name's
   * own words when they mean something, else (a name such as "field1") the
   * facet's words with its party.
   */
  labelWords: string[];
}

const MAX_NAME_CHARS = 256;
const MAX_DESCRIPTION_CHARS = 4000;

/** Words that end a description's head ("Name of the customer ..." is a name; the rest says whose). */
const HEAD_ENDS = new Set(['of', 'for', 'that', 'which', 'who', 'whose', 'from', 'to', 'in', 'on', 'as', 'by', 'at', 'under', 'where', 'when', 'whom']);
/** Words that, alone, name many facets at once. */
const GENERIC_WORDS = new Set(['number', 'id', 'identifier', 'code', 'reference', 'ref', 'name', 'value', 'amount', 'text', 'type', 'line', 'sum', 'price']);
/** Words that never name anything. */
const FILLER = new Set(['the', 'a', 'an', 's', 'its', 'their', 'this', 'own', 'or', 'and', 'is', 'are', 'any', 'each', 'all', 'field', 'value', 'property', 'data', 'info', 'information', 'detail', 'details']);

interface FacetMatch {
  facet: Facet;
  /** Words of the phrase that matched. */
  size: number;
  /** The matched words (stems). */
  words: Set<string>;
}

/** English plurals to their singular, so that "line amounts" meets "line amount". */
export function stem(word: string): string {
  if (word.length <= 3 || /(?:ss|us|is)$/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:xes|ches|shes|sses)$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

interface PreparedFacet {
  facet: Facet;
  phrases: string[][];
}

const PREPARED: readonly PreparedFacet[] = FACETS.map((facet) => ({ facet, phrases: facet.phrases.map((phrase) => phrase.split(' ').map(stem)) }));

const PARTY_OF_WORD = new Map<string, { party: Party; strong: boolean }>();
for (const [party, words] of Object.entries(PARTY_WORDS) as Array<[Party, (typeof PARTY_WORDS)[Party]]>) {
  for (const word of words.strong) PARTY_OF_WORD.set(stem(word), { party, strong: true });
  for (const word of words.weak ?? []) if (!PARTY_OF_WORD.has(stem(word))) PARTY_OF_WORD.set(stem(word), { party, strong: false });
}

/** The facet whose phrase covers most of `words`; at a table's level its line facets come first, inside a party its party facets. */
function bestFacet(words: readonly string[], level: Level, partyKnown: boolean, about: readonly string[] = []): FacetMatch | undefined {
  const present = new Set(words.map(stem));
  const aboutStems = about.map(stem);
  let best: FacetMatch | undefined;
  let bestScore = 0;
  for (const { facet, phrases } of PREPARED) {
    if (facet.level !== undefined && facet.level !== level) continue;
    for (const phrase of phrases) {
      if (!phrase.every((word) => present.has(word))) continue;
      if (aboutStems.length > 0 && !phrase.some((word) => aboutStems.includes(word))) continue;
      // a facet of the level read, or of the party read, wins a tie
      const score = phrase.length * 10 + (facet.level === level && level === 'line' ? 2 : 0) + (partyKnown && facet.ofParty ? 1 : 0);
      if (score > bestScore) {
        bestScore = score;
        best = { facet, size: phrase.length, words: new Set(phrase) };
      }
    }
  }
  return best;
}

/** Words that join a name's head to what qualifies it: "total_with_currency" is a total, "date_of_issue" a date. */
const NAME_JOINS = new Set(['with', 'without', 'in', 'incl', 'including', 'excl', 'excluding', 'of', 'for', 'per', 'at', 'by']);
/** A description's head also ends where a clause does ("Name of the customer that ..."). */
const DESCRIPTION_JOINS = new Set([...NAME_JOINS, ...HEAD_ENDS]);

/**
 * The facet of some words: their head's (the words before the first joining
 * word: "total" of total_with_currency, "name" of "Name of the customer"),
 * unless all the words name a larger facet that shares a word with it
 * ("total amount without VAT" is a net total, "date from which the
 * agreement is effective" an effective date).
 */
function headedFacet(words: readonly string[], joins: ReadonlySet<string>, whole: readonly string[], level: Level, partyKnown: boolean, headLength?: number): FacetMatch | undefined {
  const end = headLength ?? words.findIndex((word, index) => index > 0 && joins.has(word));
  if (end < 0) return bestFacet(whole, level, partyKnown);
  const head = words.slice(0, end);
  const fromHead = bestFacet(head, level, partyKnown);
  if (!fromHead) return bestFacet(whole, level, partyKnown);
  // the whole names more, and it is still about the head ("amount" of "amount of the position without VAT")
  const aboutHead = bestFacet(whole, level, partyKnown, head);
  return aboutHead && aboutHead.size > fromHead.size ? aboutHead : fromHead;
}

/** The facet a name names. */
function namedFacet(words: readonly string[], level: Level, partyKnown: boolean): FacetMatch | undefined {
  return headedFacet(words, NAME_JOINS, words, level, partyKnown);
}

/** The facet a description names, from its first clause; and the clause's words (they may say whose value it is). */
function describedFacet(englishDescription: string, level: Level, partyKnown: boolean): { match: FacetMatch | undefined; words: string[]; later: boolean } {
  // a full stop ends a clause, not the one of an abbreviation ("incl. VAT", "inkl. MwSt.", "Nr.")
  const clauses = englishDescription.split(/(?<![\s(]\p{L}{1,4})\.(?=\s|$)|[;:?()\n]|,\s|\be\.\s?g\b|\bi\.\s?e\b/u).slice(0, MAX_CLAUSES);
  // every clause may say whose value it is ("Who sent this invoice: the supplier's name")
  const allWords = clauses.flatMap((clause) => textWords(clause)).filter((word) => !FILLER.has(word) && !HEAD_ENDS.has(word));
  let first: { match: FacetMatch | undefined; words: string[] } | undefined;
  for (const [index, clause] of clauses.entries()) {
    const clauseWords = textWords(clause);
    const { words: asked, questioned } = askedWords(clauseWords.filter((word) => !FILLER.has(word)));
    if (asked.length === 0) continue;
    // "date from which...", "name of the...": the small words that join a clause name nothing of their own, but "to pay", "valid to", "pay by" do
    const named = asked.filter((word) => !HEAD_ENDS.has(word) || word === 'to' || word === 'by');
    // a question's answer is the clause's head ("Who sent this invoice" asks for a name)
    const headLength = questioned ? 1 : articleHead(clauseWords, asked);
    const party = index === 0 && !questioned ? partyAsHead(asked) : undefined;
    // "The supplier that issued the invoice", "The customer the invoice is addressed to": a party alone at the head is the party, whatever the clause goes on to name
    const partyHead = party && !bestFacet(asked.slice(0, headLength ?? headEnd(asked)), level, partyKnown) ? party : undefined;
    const match = partyHead ?? headedFacet(asked, DESCRIPTION_JOINS, named, level, partyKnown, headLength) ?? party;
    first ??= { match, words: named };
    // the first clause says what the value is; a later one ("(the business name at the top)") only when the first says nothing known
    if (match) return { match, words: [...new Set([...named, ...allWords])], later: index > 0 };
  }
  return { match: undefined, words: allWords.length > 0 ? allWords : (first?.words ?? []), later: false };
}

/** Articles: one after the head's first word opens a clause of its own ("the customer the invoice is addressed to"). */
const ARTICLES = new Set(['the', 'a', 'an', 'this', 'its', 'their']);

/** Words of the head when an article ends it: the words (of `asked`, fillers dropped) before the first article after a word of substance. */
function articleHead(clauseWords: readonly string[], asked: readonly string[]): number | undefined {
  let substance = 0;
  for (const word of clauseWords) {
    if (ARTICLES.has(word) && substance > 0) return Math.min(substance, headEnd(asked));
    if (!FILLER.has(word)) substance++;
  }
  return undefined;
}

/** Where a clause's head ends at its first joining word, or its length. */
function headEnd(asked: readonly string[]): number {
  const end = asked.findIndex((word, index) => index > 0 && DESCRIPTION_JOINS.has(word));
  return end < 0 ? asked.length : end;
}

/** Clauses of a description read for what it asks: the first few say it. */
const MAX_CLAUSES = 4;

/** What a question asks for: "who" a name, "when" a date, "where" an address, "how much" an amount... */
const QUESTIONS: ReadonlyArray<[readonly string[], string]> = [
  [['how', 'much'], 'amount'], [['how', 'many'], 'quantity'], [['how', 'long'], 'duration'], [['which', 'day'], 'date'], [['what', 'day'], 'date'],
  [['which', 'currency'], 'currency'], [['who'], 'name'], [['whom'], 'name'], [['when'], 'date'], [['where'], 'address'],
];

/** A clause asked as a question ("Who sent this invoice", "When was it paid") with the question's answer first: it is the head. */
function askedWords(words: readonly string[]): { words: string[]; questioned: boolean } {
  for (const [question, answer] of QUESTIONS) {
    const at = words.findIndex((word, index) => question.every((part, k) => words[index + k] === part));
    // a question word opens the clause, or nearly ("from which day on...")
    if (at >= 0 && at <= 1) return { words: [answer, ...words.slice(0, at), ...words.slice(at + question.length)], questioned: true };
  }
  return { words: [...words], questioned: false };
}

/** "The business this receipt is from", "the supplier": a party named as the head of a description is the party's name. */
function partyAsHead(words: readonly string[]): FacetMatch | undefined {
  const head = words[0];
  if (head === undefined || !PARTY_OF_WORD.has(stem(head))) return undefined;
  return { facet: FACETS.find((facet) => facet.id === 'party-name')!, size: 1, words: new Set([stem(head)]) };
}

/** Whether all the words of one of the facet's phrases are among `words`. */
function phraseIn(facet: Facet, words: readonly string[]): boolean {
  const present = new Set(words.map(stem));
  return PREPARED.find((prepared) => prepared.facet === facet)!.phrases.some((phrase) => phrase.every((word) => present.has(word)));
}

/** The party words among `words` say: strong words over weak, then the first named. */
function partyIn(words: readonly string[], except: ReadonlySet<string> = new Set()): { party: Party; strong: boolean } | undefined {
  const votes = new Map<Party, { score: number; first: number; strong: boolean }>();
  words.forEach((word, index) => {
    const stemmed = stem(word);
    if (except.has(stemmed)) return;
    const found = PARTY_OF_WORD.get(stemmed);
    if (!found) return;
    const vote = votes.get(found.party) ?? { score: 0, first: index, strong: false };
    vote.score += found.strong ? 1 : 0.4;
    vote.strong ||= found.strong;
    votes.set(found.party, vote);
  });
  const ranked = [...votes].sort(([, a], [, b]) => b.score - a.score || a.first - b.first);
  const top = ranked[0];
  return top ? { party: top[0], strong: top[1].strong } : undefined;
}

/** The English word a party's name is labelled with, for the rules engine ("seller name", "customer name"). */
const PARTY_LABEL_WORD: Record<Party, string> = { seller: 'seller', buyer: 'customer', payee: 'payee', 'tax-representative': 'representative', 'deliver-to': 'delivery' };

const cache = new Map<string, PropertyMeaning>();
const CACHE_LIMIT = 4000;

/** What the property asks for (cached: the same schema comes with request after request). */
export function meaningOf(input: PropertyInput): PropertyMeaning {
  const key = JSON.stringify([input.name.slice(0, MAX_NAME_CHARS), input.description.slice(0, MAX_DESCRIPTION_CHARS), input.types, input.format ?? null, input.enumValues?.length ?? -1, (input.examples ?? []).slice(0, 5), input.path, input.inItems]);
  const known = cache.get(key);
  if (known) return known;
  const meaning = decide(input);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, meaning);
  return meaning;
}

function decide(input: PropertyInput): PropertyMeaning {
  const name = input.name.slice(0, MAX_NAME_CHARS);
  const rawDescription = input.description.slice(0, MAX_DESCRIPTION_CHARS);
  const printedName = nameWords(name);
  const language = propertyLanguage(printedName, textWords(rawDescription));
  const englishName = inEnglish(printedName, language).filter((word) => !FILLER.has(word));
  const description = descriptionInEnglish(rawDescription, language);
  const level: Level = input.inItems ? 'line' : 'document';
  const pathWords = inEnglish(input.path.flatMap(nameWords), language);
  const partyFromPath = partyIn([...pathWords].reverse());

  // a party named in the name or the path makes its facets win a tie ("supplierVATNumber" is the supplier's VAT number)
  const partyKnown = partyFromPath !== undefined || partyIn(englishName) !== undefined;
  // a name read with its enclosing property's words, where they make a larger facet of it ("rate" in vat_breakdown, "net" in totals)
  const parentWords = inEnglish(nameWords(input.path[input.path.length - 1] ?? ''), language).filter((word) => !FILLER.has(word));
  const alone = namedFacet(englishName, level, partyKnown);
  const withParent = parentWords.length > 0 && englishName.length > 0 ? bestFacet([...parentWords, ...englishName], level, partyKnown, englishName) : undefined;
  const fromName = withParent && withParent.size > (alone?.size ?? 0) && [...withParent.words].some((word) => parentWords.map(stem).includes(word)) ? withParent : alone;
  const described = describedFacet(description, level, partyKnown);
  const fromDescription = described.match;
  // the name left unexplained by its facet may say whose value it is ("seller" in seller_vat_id)
  const partyFromName = partyIn(englishName, fromName?.words);
  const nameIsParty = !fromName && partyFromName !== undefined && englishName.every((word) => PARTY_OF_WORD.has(stem(word)) || word === 'to');
  const partyName = FACETS.find((facet) => facet.id === 'party-name')!;

  // the name's facet, or a party's name when the name is only a party ("vendor", "bill_to", "Händler")
  const named: FacetMatch | undefined = fromName ?? (nameIsParty && level === 'document' ? { facet: partyName, size: 1, words: new Set() } : undefined);
  let facet: Facet | undefined;
  let certainty: number;
  if (named && fromDescription) {
    const same = named.facet.id === fromDescription.facet.id;
    // "total" named, "grand total including VAT" described: the description narrows the name
    const narrowed = !same && [...named.words].every((word) => fromDescription.words.has(word));
    // two readings: the narrower one; on a tie the description's, unless its clause also says the name's ("jurisdiction": "... whose law governs")
    const nameSupported = named.size === fromDescription.size && phraseIn(named.facet, described.words);
    facet = same || named.size > fromDescription.size || nameSupported ? named.facet : fromDescription.facet;
    certainty = same ? 0.98 : narrowed ? 0.95 : 0.65;
  } else if (named) {
    facet = named.facet;
    const explained = englishName.filter((word) => named.words.has(stem(word)) || PARTY_OF_WORD.has(stem(word))).length;
    // "number", "name", "amount" alone could be many things
    const generic = named.size === 1 && [...named.words].every((word) => GENERIC_WORDS.has(word)) && !partyFromPath;
    certainty = generic ? 0.6 : explained === englishName.length ? 0.92 : 0.75;
  } else if (fromDescription) {
    facet = fromDescription.facet;
    // a later clause (a remark in brackets) says it less surely than the first
    certainty = described.later ? 0.75 : 0.85;
  } else {
    certainty = 0.3;
  }

  let party: Party | undefined = facet?.party;
  if (!party && facet && (facet.ofParty || facet.id === 'party-name')) {
    const stated = partyFromName ?? partyFromPath ?? partyIn(described.words, fromDescription?.words);
    party = stated?.party;
    if (!party && level === 'document') {
      // a document's own contact details and name are its issuer's unless something says otherwise
      party = 'seller';
      certainty *= 0.85;
    } else if (stated && !stated.strong) {
      certainty *= 0.9;
    }
  }

  const kind = kindOf(facet, input);
  const understood = englishName.some((word) => word.length > 1 && !/^\d+$/.test(word) && (PARTY_OF_WORD.has(stem(word)) || fromName !== undefined || isKnownNameWord(word)));
  const labelWords = understood || !facet ? englishName : [...(party && facet.ofParty !== undefined ? [PARTY_LABEL_WORD[party]] : []), ...facet.words.split(' ')];
  const meaning: PropertyMeaning = { kind, level, certainty: Math.round(certainty * 100) / 100, language, nameWords: englishName, description, labelWords };
  if (facet) meaning.facet = facet;
  if (party) meaning.party = party;
  if (facet?.amount) meaning.amount = facet.amount;
  if (facet?.date) meaning.date = facet.date;
  return meaning;
}

/** Whether a name word means something on its own (a word the facets know), rather than "field", "x1" or "col". */
function isKnownNameWord(word: string): boolean {
  return PREPARED.some(({ phrases }) => phrases.some((phrase) => phrase.includes(stem(word))));
}

/** The kind of value: the schema's type and format first, then the facet's, then what the examples look like. */
function kindOf(facet: Facet | undefined, input: PropertyInput): MeaningKind {
  const types = input.types.filter((type) => type !== 'null');
  if (types.length === 1 && types[0] === 'boolean') return 'boolean';
  switch (input.format) {
    case 'date': return 'date';
    case 'date-time': case 'iso-date-time': return 'datetime';
    case 'time': case 'iso-time': return 'time';
    case 'email': case 'idn-email': return 'email';
    case 'uri': case 'url': case 'iri': return 'url';
  }
  const numeric = types.length > 0 && types.every((type) => type === 'number' || type === 'integer');
  if (facet) {
    if (numeric && !['amount', 'quantity', 'rate', 'number', 'integer', 'identifier'].includes(facet.kind)) return types.includes('number') ? 'number' : 'integer';
    return facet.kind;
  }
  if (numeric) return types.includes('number') ? 'number' : 'integer';
  return kindOfExamples(input.examples ?? []) ?? 'text';
}

/** What every example looks like, when they agree: dates, amounts, e-mails, links. */
function kindOfExamples(examples: readonly unknown[]): MeaningKind | undefined {
  const texts = examples.filter((example): example is string | number => typeof example === 'string' || typeof example === 'number').map(String);
  if (texts.length === 0) return undefined;
  const all = (pattern: RegExp): boolean => texts.every((text) => pattern.test(text.trim()));
  if (all(/^\d{4}-\d{2}-\d{2}$|^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/)) return 'date';
  if (all(/^[^\s@]+@[^\s@]+\.[^\s@]+$/)) return 'email';
  if (all(/^https?:\/\//)) return 'url';
  if (all(/^[A-Z]{2}\d{2}[A-Z0-9 ]{10,30}$/)) return 'iban';
  if (all(/^[A-Z]{3}$/)) return 'currency';
  if (all(/^[-+]?[$€£¥]?\s?\d{1,3}(?:[ ,.]?\d{3})*(?:[.,]\d{2})\s?[$€£¥]?$/)) return 'amount';
  return undefined;
}
