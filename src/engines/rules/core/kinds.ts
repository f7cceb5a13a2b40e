/**
 * What kind of value a property holds, from its type, format, enum, name and
 * description. The kind decides how a value is recognised in the text and
 * in which JSON form the engine hands it on.
 */
import type { SchemaView } from '../../../extract/schema-view.js';
import type { FieldHints } from './labels.js';

export type ValueKind =
  | 'date' | 'time' | 'datetime' | 'amount' | 'number' | 'integer' | 'percentage' | 'boolean'
  | 'email' | 'phone' | 'url' | 'enum' | 'identifier' | 'business-name' | 'address' | 'currency' | 'text';

const MONEY_CONCEPTS = ['total', 'subtotal', 'tax', 'discount', 'amount', 'unitPrice'] as const;

export function kindFor(view: SchemaView, hints: FieldHints): ValueKind {
  const has = (concept: Parameters<FieldHints['concepts']['has']>[0]): boolean => hints.concepts.has(concept);
  const money = MONEY_CONCEPTS.some((concept) => has(concept));
  if (view.enumValues !== undefined) return 'enum';
  const types = view.types.filter((t) => t !== 'null');
  if (types.length === 1 && types[0] === 'boolean') return 'boolean';
  if (types.includes('integer') && !types.includes('string')) return money && !has('quantity') ? 'amount' : 'integer';
  if (types.includes('number') && !types.includes('string')) {
    if (has('percentage') || /\bper ?cent|%/i.test(hints.description)) return 'percentage';
    return money ? 'amount' : 'number';
  }
  switch (view.format) {
    case 'date': return 'date';
    case 'date-time': case 'iso-date-time': return 'datetime';
    case 'time': case 'iso-time': return 'time';
    case 'email': case 'idn-email': return 'email';
    case 'uri': case 'url': case 'iri': return 'url';
  }
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
