/**
 * Proper names inside running text: runs of capitalised words such as
 * "The Regents of The University of Michigan", "Green Mountain Coffee
 * Roasters, Inc." or "L.E.K. Consulting LLC". In prose a name is what is
 * capitalised mid-sentence; the words around it (", a Delaware
 * corporation", "residing at") are lower case and end it.
 */

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

const LEGAL_FORM = /^(?:inc|incorporated|llc|l\.l\.c|ltd|limited|lp|l\.p|llp|l\.l\.p|corp|corporation|co|company|plc|p\.l\.c|n\.a|s\.a|ag|gmbh|b\.v|n\.v|pty|sa|nv|bv|se|jr|sr|ii|iii|iv)\.?$/i;
/** Lower-case words that may sit inside a name when a capitalised word follows: "University of Michigan". */
const CONNECTORS = new Set(['of', 'the', 'de', 'du', 'der', 'van', 'von', 'la', 'le', 'y', 'for', 'and', '&']);
/**
 * Capitalised words that are document furniture or sentence openers, never
 * part of a party's or place's name. Kept small and generic.
 */
const NOT_NAME = new Set([
  'this', 'that', 'these', 'those', 'agreement', 'exhibit', 'schedule', 'annex', 'appendix', 'section', 'article', 'confidential', 'confidentiality',
  'non-disclosure', 'nondisclosure', 'whereas', 'now', 'therefore', 'witnesseth', 'recitals', 'in', 'witness', 'whereof', 'by', 'for', 'name', 'title',
  'date', 'dated', 'signed', 'signature', 'accepted', 'agreed', 'acknowledged', 'very', 'sincerely', 'dear', 'between', 'among', 'if', 'each', 'any', 'all',
  'no', 'neither', 'either', 'such', 'as', 'on', 'at', 'to', 'from', 'with', 'and', 'or', 'an', 'a', 'it', 'its', 'you', 'your', 'we', 'our', 'they',
  'notwithstanding', 'except', 'upon', 'during', 'after', 'before', 'under', 'pursuant', 'subject', 'provided', 'however', 'mutual',
  // sentence openers that are capitalised only because they open a sentence
  'then', 'thereafter', 'there', 'here', 'when', 'where', 'while', 'unless', 'although', 'because', 'since', 'whether', 'please', 'also', 'further',
  'furthermore', 'moreover', 'thus', 'hence', 'accordingly', 'following', 'attention', 'attn', 're', 'so', 'but', 'yet', 'we', 'i',
]);
/** Role nouns: a run made only of these is a role label ("the Company", "Receiving Party"), not a name. */
const ROLE_WORDS = new Set([
  'company', 'corporation', 'party', 'parties', 'recipient', 'receiving', 'disclosing', 'discloser', 'employee', 'employer', 'executive', 'director',
  'directors', 'board', 'undersigned', 'provider', 'licensee', 'licensor', 'purchaser', 'seller', 'buyer', 'consultant', 'contractor', 'client',
  'customer', 'holder', 'member', 'state', 'information', 'representatives', 'representative', 'affiliates', 'transaction', 'business', 'purpose',
  'effective', 'government', 'court', 'courts', 'laws', 'law', 'agent', 'vendor', 'supplier', 'landlord', 'tenant', 'lender', 'borrower',
]);

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
    upper: !/\p{Ll}/u.test(printed.replace(/\b(?:of|the|and|de|du)\b/g, '')),
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
