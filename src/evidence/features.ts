/**
 * What docshape knows about one value of an answer, whatever engine read it:
 * the words it was read from (found at all, how exactly they spell it, how
 * sure OCR was of them), what the engine says about its choice (the
 * strength of the label that pointed at it, the rivals it beat), what the
 * document says (the value printed again, amounts that add up to it) and
 * whether a second, independent reading agrees. confidence.ts turns these
 * into a probability.
 */
import { parseNumber } from '../schema/coerce.js';
import { findDates, findDateSpans, findTimes, type DateReadOptions } from '../schema/dates.js';
import { isDayFirst, type DateOrder } from '../schema/date-order.js';
import type { ValueRole, ValueSource } from '../schema/provenance.js';
import { viewSchema, type SchemaView } from '../schema/schema-view.js';
import type { JsonSchema } from '../schema/json-schema.js';
import { wordAt, type Document, type OcrEngineName } from '../document/document.js';
import { foldText } from '../util/fold-text.js';
import { splitPointer } from '../util/json-pointer.js';
import type { DocumentIndex } from './document-index.js';
import { minOf } from '../util/extremes.js';
import { meaningOf, type PropertyMeaning } from '../meaning/meaning.js';

/**
 * The shape of a value, which decides how it goes wrong: dates and amounts
 * are read whole or not at all, times lose their am/pm, short codes (phones,
 * ids) a digit, names and long texts a letter or a line. Two fields the
 * engine says it read as such have kinds of their own, whatever their
 * shape: an address (it runs into the lines around it) and a business name
 * (the real one is often a logo OCR cannot read).
 */
export const VALUE_KINDS = ['date', 'time', 'amount', 'code', 'name', 'text', 'address', 'business'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

/** A second reading of the same value by another engine: the same value, another one, or none (no value, or no second reading). */
export type Agreement = 'agrees' | 'differs' | 'none';

export interface ValueFeatures {
  kind: ValueKind;
  /** Some of its words are in the Document. */
  located: boolean;
  /** How exactly the words spell the value, 0..1 (a date re-printed or an amount parsed counts as spelled when it is the same date or number). */
  exactness: number;
  /** All of its words come from a PDF's text layer (no OCR). */
  textLayer: boolean;
  /** The OCR engine that read its page (absent for a text layer or a value not located): the confidence model is fitted per engine. */
  ocrEngine?: OcrEngineName;
  /** Lowest OCR confidence among its words (1 for text-layer words; 0 when not located): a value is as sure as its weakest word. */
  ocrMin: number;
  /** Lowest probability of any one of its characters, where OCR gives one (else its words' confidence): one misread digit makes a wrong date. */
  weakestLetter: number;
  /** Lines the value spans. */
  lines: number;
  /** The engine's score for the reading (a label's strength), when it gave one. */
  score: number | undefined;
  /** Distinct other values the engine weighed for it, and how far this one was ahead. */
  rivals: number | undefined;
  margin: number | undefined;
  /** Other lines of the document that print the same value. */
  repeats: number;
  /** For amounts: two other printed amounts add up to it or differ by it. */
  addsUp: boolean;
  /**
   * For amounts: two other amounts of the same answer make a sum with it
   * (subtotal + tax = total), whichever fields they are; undefined when the
   * answer has fewer than three amounts (no sum to make).
   */
  answerSum: boolean | undefined;
  /**
   * For amounts: negative as returned or as printed ("-8,79", "8,79-", "(8.79)"). Whether a credit or a discount
   * is negative is a convention the caller and the page may not share (a credit note prints "-233,47", its
   * e-invoice holds 233.47), so the sign is a second thing to get right. Optional: older reports lack it.
   */
  negative?: boolean;
  /** The value does not look like a value of its kind: a date in another century, a name opening with "&", brackets left open. */
  irregular: boolean;
  agreement: Agreement;
  /** How sure the reading of what the property asks for is (meaning/), 0..1. Optional: older reports lack it. */
  meaning?: number;
}

/** Words of a value beyond which it is long text rather than a name. */
const NAME_MAX_WORDS = 8;

/** What the property at a pointer of the answer asks for (meaning/), with its schema node; undefined for the root. */
export function meaningAt(root: JsonSchema, pointer: string): PropertyMeaning | undefined {
  let view = viewSchema(root, root);
  const names: string[] = [];
  let inItems = false;
  for (const token of splitPointer(pointer)) {
    if (/^\d+$/.test(token) && view.items !== undefined) {
      view = viewSchema(view.items, root);
      inItems = true;
      continue;
    }
    names.push(token);
    view = viewSchema(view.properties[token] ?? true, root);
  }
  const name = names.pop();
  if (name === undefined) return undefined;
  return meaningOf({ name, description: view.description, types: view.types, format: view.format, enumValues: view.enumValues, examples: view.examples, path: names, inItems });
}

/** The schema node a pointer of the answer lands on. */
export function schemaAt(root: JsonSchema, pointer: string): SchemaView {
  let view = viewSchema(root, root);
  for (const token of splitPointer(pointer)) {
    const next = /^\d+$/.test(token) && view.items !== undefined ? view.items : (view.properties[token] ?? true);
    view = viewSchema(next, root);
  }
  return view;
}

export function valueKind(value: unknown, view: SchemaView, lines: number, role?: ValueRole, meaning?: PropertyMeaning): ValueKind {
  if (view.format === 'date' || view.format === 'date-time') return 'date';
  if (typeof value === 'string' && role === 'address') return 'address';
  if (typeof value === 'string' && role === 'business-name') return 'business';
  const asked = meaning && meaning.certainty >= SURE_MEANING ? kindAsked(meaning, value) : undefined;
  if (asked) return asked;
  if (typeof value === 'number') return 'amount';
  if (typeof value !== 'string') return 'code';
  const text = value.trim();
  const dates = findDateSpans(text);
  if (dates.length === 1 && dates[0]!.text.length >= text.length - 2) return 'date';
  const times = findTimes(text);
  if (times.length === 1 && times[0]!.text.length >= text.length - 2) return 'time';
  if (/\d/.test(text) && parseNumber(text) !== null && !/\p{L}{2}/u.test(text.replace(/^\p{L}{1,3}\.?\s?|\s?\p{L}{1,3}$/u, ''))) return 'amount';
  const words = text.split(/\s+/).length;
  if (lines > 1 || words > NAME_MAX_WORDS) return 'text';
  // digits without letters (a phone, an id) or a short run with digits ("Store 42") is a code
  return (/\d/.test(text) && !/\p{L}/u.test(text)) || (/\d/.test(text) && words <= 3) ? 'code' : 'name';
}

/** How sure the property's meaning must be for its kind to decide the value's (an invoice number "12345" is a code, not an amount). */
const SURE_MEANING = 0.75;

/** The kind the property asks for, where it says more than the value's shape; undefined to judge by the shape. */
function kindAsked(meaning: PropertyMeaning, value: unknown): ValueKind | undefined {
  switch (meaning.kind) {
    case 'amount': case 'quantity': case 'rate': case 'number': case 'integer':
      return typeof value === 'number' || (typeof value === 'string' && parseNumber(value) !== null) ? 'amount' : undefined;
    case 'date': case 'datetime': return 'date';
    case 'time': return 'time';
    case 'identifier': case 'iban': case 'bic': case 'code': case 'currency': case 'country': case 'email': case 'phone': case 'url':
      return 'code';
    case 'party-name': return meaning.party === 'seller' ? 'business' : 'name';
    case 'person-name': return 'name';
    case 'address': return 'address';
    default: return undefined;
  }
}

/**
 * How exactly `printed` (the words) spells `value`, 0..1. A date is read in
 * the request's settled date order, as finalize re-printed it: "03/04/2024"
 * spells 2024-03-04 on a month-first document and 2024-04-03 on a day-first one.
 */
export function exactness(value: unknown, printed: string, kind: ValueKind, dateOrder: DateOrder): number {
  if (kind === 'date' && typeof value === 'string') {
    const order = readOrder(dateOrder);
    const wanted = findDates(value, order)[0]?.parts;
    const found = findDates(printed, order).map((d) => d.parts);
    // a date re-printed in another form is spelled when it is the same day
    if (wanted !== undefined && found.some((day) => day.year === wanted.year && day.month === wanted.month && day.day === wanted.day)) return 1;
  }
  if (kind === 'amount') {
    const number = typeof value === 'number' ? value : typeof value === 'string' ? parseNumber(value) : null;
    const digits = (text: string) => text.replace(/\D/g, '').replace(/^0+/, '');
    if (number !== null) {
      const wanted = digits(number.toFixed(2)).replace(/0+$/, '');
      if (wanted !== '' && digits(printed).includes(wanted)) return 1;
    }
  }
  const a = foldText(typeof value === 'string' ? value : JSON.stringify(value) ?? '');
  const b = foldText(printed);
  if (a === '' || b === '') return 0;
  if (b.includes(a)) return 1;
  return Math.max(0, 1 - editDistance(a, b) / Math.max(a.length, b.length));
}

/** Levenshtein distance; values are short (an address is ~100 characters). */
function readOrder(dateOrder: DateOrder): DateReadOptions {
  return { dayFirst: isDayFirst(dateOrder) };
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

export interface FeatureContext {
  document: Document;
  index: DocumentIndex;
  schema: JsonSchema;
  /** The request's settled date order (ExtractionOptions.dateOrder): how the printed dates are read. */
  dateOrder: DateOrder;
  /** The answer's amounts outside lists, by pointer (answerAmounts()). */
  amounts?: ReadonlyMap<string, number>;
}

/** Amounts at most this many in an answer are checked for sums: a few header fields, not a table. */
const MAX_SUMMED_AMOUNTS = 12;

/**
 * The amounts of an answer that may sum up: numbers, or strings that read as
 * one amount, outside lists (line items would sum by chance).
 */
export function answerAmounts(leaves: ReadonlyArray<{ pointer: string; value: unknown }>): Map<string, number> {
  const amounts = new Map<string, number>();
  for (const { pointer, value } of leaves) {
    // a value inside a list (a token of digits only, which escaping never touches) is a row's, not the answer's own
    if (/\/\d+(?=\/|$)/.test(pointer)) continue;
    const number = typeof value === 'number' ? value : typeof value === 'string' && /\d[.,]\d{2}\b/.test(value) && !/\p{L}{2}/u.test(value.replace(/^\p{L}{1,3}\.?\s?|\s?\p{L}{1,3}$/u, '')) ? parseNumber(value) : null;
    if (number !== null && Number.isFinite(number) && Math.abs(number) >= 0.01) amounts.set(pointer, Math.abs(number));
  }
  return amounts.size <= MAX_SUMMED_AMOUNTS ? amounts : new Map();
}

/** Whether the amount at `pointer` and two others of the answer make a sum, a + b = c (amounts equal to the cent). */
function inAnswerSum(pointer: string, amounts: ReadonlyMap<string, number> | undefined): boolean | undefined {
  const own = amounts?.get(pointer);
  if (own === undefined || amounts === undefined || amounts.size < 3) return undefined;
  const others = [...amounts].filter(([other]) => other !== pointer).map(([, value]) => value);
  const equal = (a: number, b: number) => Math.abs(a - b) < 0.005;
  for (let i = 0; i < others.length; i++) {
    for (let j = 0; j < others.length; j++) {
      if (i === j) continue;
      if ((i < j && equal(others[i]! + others[j]!, own)) || equal(own + others[j]!, others[i]!)) return true;
    }
  }
  return false;
}

/** The features of the value at `pointer`, read from `source` (undefined when the engine did not say where). */
export function valueFeatures(pointer: string, value: unknown, source: ValueSource | undefined, agreement: Agreement, context: FeatureContext): ValueFeatures {
  const refs = source?.words ?? [];
  // each reference looked up once: the words the Document has, with their pages
  const found = refs.flatMap((ref) => {
    const at = wordAt(context.document, ref);
    return at ? [{ ...at, ref }] : [];
  });
  const words = found.map((at) => at.word);
  const ocrEngine = found.find((at) => at.word.source === 'ocr')?.page.ocrEngine;
  const lines = new Set(found.map(({ ref }) => `${ref.file}/${ref.page}/${ref.line}`)).size;
  const meaning = meaningAt(context.schema, pointer);
  const kind = valueKind(value, schemaAt(context.schema, pointer), lines, source?.role, meaning);
  const printed = words.map((word) => word.text).join(' ');
  const number = kind === 'amount' ? (typeof value === 'number' ? value : parseNumber(String(value))) : null;
  return {
    kind,
    located: words.length > 0,
    exactness: words.length > 0 ? exactness(value, printed, kind, context.dateOrder) : 0,
    textLayer: words.length > 0 && words.every((word) => word.source === 'text-layer'),
    ...(ocrEngine ? { ocrEngine } : {}),
    ocrMin: words.length > 0 ? minOf(words, (word) => word.confidence) : 0,
    weakestLetter: words.length > 0 ? minOf(words, (word) => Math.min(word.confidence, word.weakest ?? 1)) : 0,
    lines,
    score: source?.score,
    rivals: source?.competition?.rivals,
    margin: source?.competition?.margin,
    repeats: number !== null ? context.index.repeats(number, refs) : typeof value === 'string' ? context.index.repeats(value, refs) : 0,
    addsUp: number !== null && context.index.addsUp(number, refs),
    answerSum: inAnswerSum(pointer, context.amounts),
    negative: number !== null && signed(number, [printed, ...words.map((word) => word.text)]),
    irregular: irregular(value, kind, context.dateOrder),
    agreement,
    ...(meaning ? { meaning: meaning.certainty } : {}),
  };
}

/** Whether an amount is negative, or is printed negative by a word (or the words together) that spell it. */
export function signed(number: number, printed: readonly string[]): boolean {
  if (number < 0) return true;
  return printed.some((text) => {
    const read = parseNumber(text);
    return read !== null && read < 0 && Math.abs(-read - number) < 0.005;
  });
}

/** Connectors a whole value does not open or close with: it was cut from a longer one ("& TEA LEAF (M) SDN BHD"). */
const CUT_AT = /^(?:[&+,;:/\-–]|and\b|of\b)|(?:[&+,;/\-–(]|\band|\bof)$/i;

/** Not how a value of its kind is written. */
export function irregular(value: unknown, kind: ValueKind, dateOrder: DateOrder): boolean {
  if (typeof value !== 'string') return false;
  const text = value.trim();
  const opened = (text.match(/[([{]/g) ?? []).length;
  const closed = (text.match(/[)\]}]/g) ?? []).length;
  if (opened !== closed) return true;
  if (kind === 'date') {
    const year = findDates(text, readOrder(dateOrder))[0]?.parts.year;
    return year !== undefined && (year < 1900 || year > 2100);
  }
  if (kind === 'name' || kind === 'text' || kind === 'address' || kind === 'business') return CUT_AT.test(text);
  return false;
}
