/**
 * What kind of value a property holds, from its type, format, enum, name and
 * description. The kind decides how a value is recognised in the text and
 * in which JSON form the engine hands it on.
 */
import type { SchemaView } from '../../../schema/schema-view.js';
import type { FieldHints } from './labels.js';

export type ValueKind =
  | 'date' | 'time' | 'datetime' | 'amount' | 'number' | 'integer' | 'percentage' | 'boolean'
  | 'email' | 'phone' | 'url' | 'enum' | 'identifier' | 'business-name' | 'address' | 'currency' | 'text';

const MONEY_CONCEPTS = ['total', 'subtotal', 'tax', 'discount', 'amount', 'unitPrice'] as const;

export function kindFor(view: SchemaView, hints: FieldHints): ValueKind {
  const has = (concept: Parameters<FieldHints['concepts']['has']>[0]): boolean => hints.concepts.has(concept);
  if (view.enumValues !== undefined) return 'enum';
  const recognised = hints.meaning.facet !== undefined;
  const money = recognised ? hints.meaning.kind === 'amount' : MONEY_CONCEPTS.some((concept) => has(concept));
  const types = view.types.filter((t) => t !== 'null');
  if (types.length === 1 && types[0] === 'boolean') return 'boolean';
  if (types.includes('integer') && !types.includes('string')) return money && !has('quantity') ? 'amount' : 'integer';
  if (types.includes('number') && !types.includes('string')) {
    if (hints.meaning.kind === 'rate' || has('percentage') || /\bper ?cent|%/i.test(hints.description)) return 'percentage';
    return money ? 'amount' : 'number';
  }
  switch (view.format) {
    case 'date': return 'date';
    case 'date-time': case 'iso-date-time': return 'datetime';
    case 'time': case 'iso-time': return 'time';
    case 'email': case 'idn-email': return 'email';
    case 'uri': case 'url': case 'iri': return 'url';
  }
  return recognised ? kindOfMeaning(hints) : kindOfWords(hints, money);
}

/** The rules engine's kind of a recognised facet (meaning/facets.ts). */
function kindOfMeaning(hints: FieldHints): ValueKind {
  const { meaning } = hints;
  switch (meaning.kind) {
    case 'amount': return 'amount';
    case 'quantity': case 'number': return 'number';
    case 'integer': return 'integer';
    case 'rate': return 'percentage';
    case 'date': case 'time': case 'datetime': case 'email': case 'phone': case 'url': case 'currency': case 'address': case 'boolean': case 'identifier':
      return meaning.kind;
    // an IBAN or BIC is an identifier printed after its label, groups of four apart
    case 'iban': case 'bic': return 'identifier';
    // the issuer's name is found in a document's header too; another party's only under its label or by a letter's layout
    case 'party-name': return meaning.party === 'seller' ? 'business-name' : 'text';
    default: return 'text';
  }
}

/** A property no facet names: its kind from the words of its name. */
function kindOfWords(hints: FieldHints, money: boolean): ValueKind {
  const has = (concept: Parameters<FieldHints['concepts']['has']>[0]): boolean => hints.concepts.has(concept);
  // "currency": the code or sign of the amounts; "total_with_currency" is still an amount
  if (has('currency') && !money) return 'currency';
  if (has('email')) return 'email';
  if (has('phone')) return 'phone';
  if (has('url')) return 'url';
  if (has('date')) return 'date';
  if (has('time')) return 'time';
  if (has('address')) return 'address';
  if (money) return 'amount';
  if (has('business') && (has('name') || hints.nameWords.length === 1)) return 'business-name';
  if (has('identifier') && hints.nameWords.length > 1 && !has('name')) return 'identifier';
  return 'text';
}

/** Amount strings keep the currency only when the description asks for it. */
export function wantsCurrency(description: string): boolean {
  if (/\bwithout (?:a |the |any )?currency\b|\bno currency\b/i.test(description)) return false;
  return /\b(?:with|including|include|includes|incl\.?)\b[^.]*\bcurrency\b/i.test(description);
}

/**
 * How a string amount is to be written when the description asks for a
 * machine-readable number rather than the printed one: "as a plain number
 * with two decimals, e.g. '1234.50'" wants "1234.56" for a printed
 * "1.234,56". Examples decide first: one printed with a thousands separator,
 * a decimal comma or a currency ("e.g. '1,234.50'", "'12,50'", "'$55.96'")
 * asks for the amount as printed. A number of decimals, plain examples or
 * "decimal point" ask for the plain form; "a plain number" alone may only
 * mean "without its currency" and keeps the printed digits. undefined: as
 * printed.
 */
export function plainAmountFormat(description: string): { decimals: number | undefined } | undefined {
  const examples = [...description.matchAll(/['"‘“]([^'"’”]{1,24})['"’”]/g)].map((m) => m[1]!.trim()).filter((example) => /\d/.test(example) && /^[^\p{L}]*\d[\d.,' ]*[^\p{L}]*$/u.test(example));
  if (examples.some((example) => !/^-?\d+(?:\.\d+)?$/.test(example))) return undefined;
  const stated = STATED_DECIMALS.exec(description);
  const decimals = stated ? (/^(?:two|2)$/i.test(stated[1]!) ? 2 : /^(?:one|1)$/i.test(stated[1]!) ? 1 : 3) : sameDecimals(examples);
  const asked = PLAIN_NUMBER.test(description) || stated !== null || examples.length > 0;
  return asked ? { decimals } : undefined;
}

const PLAIN_NUMBER = /\bdecimal point\b|\bwithout (?:a )?thousands? separators?\b|\bmachine[- ]readable\b/i;
const STATED_DECIMALS = /\b(one|two|three|1|2|3) decimals?(?: places| digits)?\b/i;

/** The number of decimals every example shows, when they agree. */
function sameDecimals(examples: readonly string[]): number | undefined {
  const counts = new Set(examples.map((example) => example.split('.')[1]?.length ?? 0));
  return counts.size === 1 ? [...counts][0] : undefined;
}
