/**
 * A value found in the text, handed on in the JSON form its schema type
 * wants: a number or the printed digits, an enum's own spelling, a
 * currency code. Scalars (rules/fields.ts) and table cells (rules/tables/)
 * go through the same door, so a cell reads like a top-level value.
 */
import { matchEnum } from '../../../schema/coerce.js';
import type { SchemaView } from '../../../schema/schema-view.js';
import { isCurrencyCode } from './currencies.js';
import { findEnumValue } from './enums.js';
import { plainAmountFormat, wantsCurrency, type ValueKind } from './kinds.js';
import type { FieldHints } from './labels.js';
import { amountDigits, type Found } from './parsers.js';

/** The candidate in the JSON form its schema type wants. */
export function present(found: Found, kind: ValueKind, view: SchemaView, hints: FieldHints): unknown {
  const wantsString = view.types.includes('string') || view.types.length === 0;
  switch (kind) {
    case 'amount':
    case 'number':
    case 'integer':
    case 'percentage':
      if (!wantsString) return found.value;
      if (kind !== 'amount' || wantsCurrency(hints.description)) return found.text;
      return plainAmount(found, plainAmountFormat(hints.description)) ?? amountDigits(found);
    case 'boolean':
      return found.value;
    case 'enum':
      return view.enumValues ? matchEnum(found.value, view.enumValues) ?? findEnumValue(String(found.value), view.enumValues) ?? null : found.value;
    case 'currency':
      // a schema that asks for the code gets one or nothing: "$" names several currencies
      return wantsCurrencyCode(hints) && !isCurrencyCode(found.value) ? null : found.value;
    default:
      return found.text;
  }
}

/** "1.234,56" written as the description asks: "1234.56", with its decimals (or as many as printed). */
function plainAmount(found: Found, format: ReturnType<typeof plainAmountFormat>): string | undefined {
  if (!format || typeof found.value !== 'number') return undefined;
  const printedDecimals = /[.,](\d{1,3})\D*$/.exec(amountDigits(found))?.[1]?.length ?? 0;
  return found.value.toFixed(format.decimals ?? printedDecimals);
}

function wantsCurrencyCode(hints: FieldHints): boolean {
  return /\b(?:code|iso|4217)\b/i.test(`${hints.nameWords.join(' ')} ${hints.description}`) || /\b[A-Z]{3}\b(?:,|\s+or\b)/.test(hints.description);
}

