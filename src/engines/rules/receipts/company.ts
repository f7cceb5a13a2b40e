/** How business names look: legal-form suffixes and registration numbers printed next to them. */
import { LANGUAGES } from '../../../meaning/languages/index.js';
import { patternOf, tableWords } from '../core/table-words.js';

/**
 * The legal forms of the language tables that cannot be mistaken for a word
 * or a code: dotted ("a.G.", "S.p.A.", "Sp. z o.o."), four letters and more
 * ("SARL", "KGaA"), or listed as bare forms ("Ltd", "AG", "BV"); other two-
 * and three-letter forms without dots ("NV", "SL", "SAS") are also state
 * codes and words. As patterns: a final full stop optional, spaces too.
 */
const LEGAL_FORMS = [
  ...new Set(
    LANGUAGES.flatMap((language) =>
      language.legalForms.filter((form) => /\p{L}\.\s?\p{L}/u.test(form) || form.replace(/[^\p{L}]/gu, '').length >= 4 || (language.bareLegalForms ?? []).includes(form)),
    ),
  ),
]
  .sort((a, b) => b.length - a.length)
  .map((form) => patternOf(form.replace(/\.$/, '')).replaceAll(String.raw`\s+`, String.raw`\s?`));

/** Words of the tables that say a business's trade ("Trading", "Restaurant", "Bakery"). */
const TRADE_WORDS = tableWords((language) => language.tradeWords).map(patternOf);

export const COMPANY_SUFFIX = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${[...LEGAL_FORMS, ...TRADE_WORDS].join('|')})(?![\p{L}\p{N}])\.?`, 'iu');

// a bracket with digits "(123456-X)"; a bare "862725-U" after the name; "Co. Reg. No ..." and what follows
const REGISTRATION_TAIL = /\s*(?:\((?=[^()]*\d)[^()]*\)|\b\d{4,}-[A-Z]\b|\b(?:co\.?\s*reg(?:istration)?|reg(?:istration)?\.?\s*no|company\s*(?:no|reg)|gst\s*(?:id|no|reg)|roc|ssm)\b.*)\s*$/i;

/** "ACME SDN BHD (123456-X)" -> "ACME SDN BHD". */
export function stripRegistration(text: string): string {
  let stripped = text;
  for (let i = 0; i < 3 && REGISTRATION_TAIL.test(stripped); i++) stripped = stripped.replace(REGISTRATION_TAIL, '');
  return stripped.trim();
}

/** A line that is only a registration number, e.g. "(Co. No. 113825-W)". */
export function isRegistrationOnly(text: string): boolean {
  return text.trim() !== '' && stripRegistration(text) === '';
}

/**
 * Whether the caller's examples of a name carry a legal form: "(e.g. 'MR D.I.Y.
 * (JOHOR) SDN BHD')" asks for the registered name, "(e.g. 'COSTCO', 'Joe's
 * Diner')" for the trading name printed as the header. undefined without examples.
 */
export function examplesHaveLegalForm(description: string): boolean | undefined {
  const examples = [...description.matchAll(/['"‘“]([^'"’”]{2,60})['"’”]/g)].map((m) => m[1]!);
  if (examples.length === 0) return undefined;
  return examples.some((example) => LEGAL_FORM.test(example));
}

/** Legal forms only (not trade words such as "Store" or "Restaurant"). */
const LEGAL_FORM = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${LEGAL_FORMS.join('|')})(?![\p{L}\p{N}])\.?`, 'iu');

/** A legal form or a connector no name opens with ("and", "of", "&"), after any bracketed words ("(M) SDN BHD", "(SEMENYIH) SDN BHD"). */
const OPENS_CUT = new RegExp(
  String.raw`^(?:\([^()]*\)\s*)*(?:[&+,;/\-–]|(?:${[...tableWords((language) => language.nameConnectors).map(patternOf), ...LEGAL_FORMS].join('|')})(?![\p{L}\p{N}]))`,
  'iu',
);

/** A name cut from the line above: it opens with a legal form or connector, or closes a bracket it did not open ("ALAM) SDN BHD"). */
export function opensCut(text: string): boolean {
  const trimmed = text.trim();
  const closesFirst = (trimmed.match(/\)/g) ?? []).length > (trimmed.match(/\(/g) ?? []).length;
  return OPENS_CUT.test(trimmed) || closesFirst;
}

/**
 * Two-word legal forms ended by a name, spelled as registered. OCR misreads
 * one letter of them often ("5dn Bhd", "SDN EHD", "SON. BHD."), and a closed
 * list of forms makes the letter certain.
 */
const TWO_WORD_LEGAL_FORMS: ReadonlyArray<readonly [string, string]> = [['sdn', 'bhd'], ['pte', 'ltd'], ['pty', 'ltd']];

/** The name with a legal form OCR misread by one letter in one of its two words written as registered, in the name's case. */
export function repairLegalForm(name: string): string {
  const lowerL = repairCapitalI(name);
  if (lowerL !== name) return lowerL;
  const match = lastTwoWords(name);
  if (!match) return name;
  const { first, gap, second } = match;
  const core = (word: string) => /^([^\p{L}\p{N}]*)([\p{L}\p{N}]{3})([^\p{L}\p{N}]*)$/u.exec(word);
  const a = core(first);
  const b = core(second);
  if (!a || !b) return name;
  const offBy = TWO_WORD_LEGAL_FORMS.map(([formA, formB]) => ({ formA, formB, offA: differences(a[2]!.toLowerCase(), formA), offB: differences(b[2]!.toLowerCase(), formB) }));
  // read right already, or near two forms ("Pt3 Ltd": Pte or Pty): left as read
  if (offBy.some(({ offA, offB }) => offA + offB === 0)) return name;
  // one word read right and the other off by one letter (both off would make "SLI EHU" a legal form)
  const near = offBy.filter(({ offA, offB }) => offA + offB === 1);
  if (near.length !== 1) return name;
  const { formA, formB, offA } = near[0]!;
  // written in the case of the word OCR read right ("5dn Bhd" -> "Sdn Bhd", "SDN EHD" -> "SDN BHD")
  const model = offA === 0 ? a[2]! : b[2]!;
  const cased = (form: string) => (model === model.toUpperCase() ? form.toUpperCase() : model === model.toLowerCase() ? form : form[0]!.toUpperCase() + form.slice(1));
  return `${name.slice(0, match.index)}${a[1]}${cased(formA)}${a[3]}${gap}${b[1]}${cased(formB)}${b[3]}`;
}

/** Legal forms of the tables written with a small l ("S.r.l.", "S.L.", "Sp. z o.o." has none), which OCR reads as a capital I ("S.r.I."). */
const FORMS_WITH_SMALL_L = new Set([...new Set(LANGUAGES.flatMap((language) => language.legalForms))].filter((form) => form.includes('l')));

/** "Officine Rossi S.r.I." -> "Officine Rossi S.r.l.": a last word that is a legal form of the tables but for a capital I read for its small l. */
function repairCapitalI(name: string): string {
  const last = /(\S+)$/.exec(name);
  if (!last || !last[1]!.includes('I')) return name;
  const word = last[1]!;
  for (const form of FORMS_WITH_SMALL_L) {
    if (word !== form && word.replace(/I/g, 'l') === form.replace(/I/g, 'l') && word.length === form.length) return `${name.slice(0, last.index)}${form}`;
  }
  return name;
}

/**
 * The last two words of `text` and the space between, when it ends in a word
 * (what /(\S+)(\s+)(\S+)$/ matches). Read back from the end, so its cost is the
 * length of those two words: the pattern tried every start and reread the rest
 * of the line from each, quadratic on a long line without spaces.
 */
function lastTwoWords(text: string): { index: number; first: string; gap: string; second: string } | undefined {
  const isSpace = (at: number) => /\s/.test(text[at]!);
  const secondEnd = text.length;
  let at = secondEnd;
  while (at > 0 && !isSpace(at - 1)) at--;
  const secondStart = at;
  while (at > 0 && isSpace(at - 1)) at--;
  const gapStart = at;
  while (at > 0 && !isSpace(at - 1)) at--;
  if (secondStart === secondEnd || gapStart === secondStart || at === gapStart) return undefined;
  return { index: at, first: text.slice(at, gapStart), gap: text.slice(gapStart, secondStart), second: text.slice(secondStart, secondEnd) };
}

function differences(a: string, b: string): number {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) count++;
  return count;
}
