/**
 * One cell of a row read as a value of its property, like a top-level value
 * (core/present.ts): numbers with decimal commas, signs before or after
 * ("-5,00", "5,00-"), currencies and units beside them ("160,00 €",
 * "10 Stk", "3 m²"), a label printed inside the cell ("(Net): 60,00",
 * "Bruttopreis: 1,50"), dates in the caller's order, enums, text.
 */
import { parseNumber } from '../../../schema/coerce.js';
import { findValues, type Found } from '../core/parsers.js';
import { present } from '../core/present.js';
import { isNumeric, type ItemField } from './item-fields.js';
import { readPhrase } from './heading.js';
import { tokenize } from '../../../meaning/words.js';

export interface NumberCell {
  value: number;
  /** The number as printed, without a label or unit. */
  printed: string;
  /** What follows the number ("Stk.", "Tag(e)", "m²"): a quantity's unit. */
  unit: string | undefined;
  /** The facet of a label printed before the number ("Brut" -> gross price). */
  labelFacet: string | undefined;
}

/** "(Brut: 65,00)", "Bruttopreis : 1,5000", "(Net): 60,00": a label, a colon, the value. */
const CELL_LABEL = /^\(?\s*(\p{L}[\p{L}\p{M} .'-]{0,40}?)\s*\)?\s*:\s*/u;
/** A short mark after a value, in brackets: "-1,00 (RE)". */
const TRAILING_MARK = /\s+\(\p{L}{1,4}\)\s*$/u;
/** A unit after a quantity: letters, with dots, brackets, a slash or a superscript ("Stk.", "Tag(e)", "m²", "Unit(s)", "kg/h"). */
const UNIT = /^[\p{L}][\p{L}\p{M}.()/²³]{0,14}$/u;
const MAX_CELL = 60;
/** The digits of a figure, with a sign before or after and brackets. */
const FIGURE = /[-\u2212(]?\s?\d(?:[\d.,'\u2019\u00a0\u202f]|\s(?=\d{3}(?!\d)))*-?\)?/u;
/** What may stand before a figure in its cell: a currency ("EUR", "€", "US$", "Rs."). */
const BEFORE_FIGURE = /^(?:\p{Sc}|\p{Lu}{1,3}\$?|Rs\.?)?$/u;
/** And after it: a currency, a percent sign, a unit ("€", "%", "Stk.", "Liter(s)", "m²", "€/Stk."). */
const AFTER_FIGURE = /^(?:\p{Sc}|EUR|USD|GBP|CHF)?\s?(?:[\p{L}%/][\p{L}\p{M}.()/²³]{0,9})?$/u;
const SPLIT_DECIMALS = /^([-\u2212]?\d{1,3}[.,])\s(\d{2,4}(?!\d))/u;

/** A cell's number, with its label and unit; undefined when the cell holds no single number. */
export function readNumberCell(text: string): NumberCell | undefined {
  let rest = text.trim();
  if (rest === '' || rest.length > MAX_CELL || !/\d/.test(rest)) return undefined;
  let labelFacet: string | undefined;
  const label = CELL_LABEL.exec(rest);
  if (label) {
    labelFacet = readPhrase(tokenize(label[1]!).map((token) => token.norm)).facet;
    rest = rest.slice(label[0].length);
    // the bracket the label opened closes after the value
    if (label[0].startsWith('(') && !label[0].includes(')') && rest.endsWith(')')) rest = rest.slice(0, -1);
  }
  rest = rest.replace(TRAILING_MARK, '').trim();
  // OCR sets the decimals of "1,0000" apart now and then ("1, 0000"): in a cell of one figure that is the only reading
  rest = rest.replace(SPLIT_DECIMALS, '$1$2');
  const digits = FIGURE.exec(rest);
  if (!digits) return undefined;
  const printed = digits[0].trim();
  const before = rest.slice(0, digits.index).trim();
  const after = rest.slice(digits.index + digits[0].length).trim();
  // a figure stands alone: a currency before it, a currency, percent sign or unit after it; not a name ("WASHER 5PC") nor a sentence around it
  if (!BEFORE_FIGURE.test(before) || !AFTER_FIGURE.test(after)) return undefined;
  // an article number or a GTIN is no figure
  const bare = printed.replace(/[^\d.,]/g, '');
  if (/^0\d/.test(bare) || /^\d{9,}$/.test(bare)) return undefined;
  const value = parseNumber(rest);
  if (value === null) return undefined;
  const unit = after !== '' && UNIT.test(after) && !/^(?:EUR|USD|GBP|CHF)$/i.test(after) ? after : undefined;
  return { value, printed, unit, labelFacet };
}

export interface ReadContext {
  dayFirst: boolean;
}

/** A cell's value in the form its property's schema wants; null when the cell holds none of its kind. */
export function readCell(text: string, field: ItemField, context: ReadContext): unknown {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean === '') return null;
  if (isNumeric(field)) {
    const cell = readNumberCell(clean);
    if (!cell || (field.kind === 'integer' && !Number.isInteger(cell.value))) return null;
    const found: Found = { value: cell.value, text: cell.printed, start: 0, end: cell.printed.length, score: 1 };
    return present(found, field.kind, field.view, field.hints);
  }
  switch (field.kind) {
    case 'date':
    case 'datetime':
    case 'time':
    case 'email':
    case 'phone':
    case 'url':
    case 'boolean':
    case 'currency': {
      const found = findValues(field.kind, clean, context.dayFirst)[0];
      return found ? present(found, field.kind, field.view, field.hints) : null;
    }
    case 'enum':
      return present({ value: clean, text: clean, start: 0, end: clean.length, score: 1 }, 'enum', field.view, field.hints);
    default:
      // a name printed with the colon that introduced its details ("Heiße Luft pro Liter:")
      return clean.replace(/\s*:$/, '') || null;
  }
}
