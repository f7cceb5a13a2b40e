/**
 * Finds the values a model wrote in the document text, and so where each was
 * read, and the values that appear nowhere: invented values. Decision
 * (docs/engines.md): these are replaced by null by
 * default (LLM_UNGROUNDED=null), because the service promises never to
 * invent a value, and a null is easier for a caller to handle than a
 * plausible wrong one. Free text and numbers must be found; so must a date
 * field's value that is a date, a clock time or both, as the same day (or
 * time of day, for a time alone) printed in any form (grounding-dates.ts: the schema may ask for a form
 * the document does not print, and a small model invents dates: SmolLM2
 * wrote "2015-05-01" for a receipt of 30/05/18). Enum values, booleans and a
 * date field's other values (a period, a weekday) are legitimately rewritten
 * by the model; they get a place when they are found as written.
 *
 * Only the document's own words count: the layout text's page markers (and
 * the file names in them) are text the model sees but not evidence.
 */
import type { JsonSchema } from '../../schema/json-schema.js';
import type { Provenance, ValueSource } from '../../schema/provenance.js';
import { viewSchema } from '../../schema/schema-view.js';
import { isSchemaObject, setOwn } from '../../schema/schema-walk.js';
import type { LayoutText } from '../../ingest/layout.js';
import { foldText } from '../../util/fold-text.js';
import { childPointer } from '../../util/json-pointer.js';
import { numberFromWords, numberInWords, ONES, TENS } from '../../util/number-words.js';
import { firstIndexWhere } from '../../util/sorted-search.js';
import { isDateAndTime, isWholeDate, isWholeTime, looksLikeDateField, PrintedDates } from './grounding-dates.js';
import { GroundingIndex, sharedText, significantDigits } from './grounding-index.js';

export interface GroundingResult {
  value: unknown;
  /** JSON pointers of the values that were not found. */
  ungrounded: string[];
  /** Where the values that were found were read. */
  provenance: Provenance;
}

/** Share of a value's words that must be found, each on its own, for a value put together from parts of the document. */
const WORDS_FOUND = 0.75;
/** A value of this many words or fewer, put together from parts, must be found within SHORT_VALUE_REACH characters (or three times its length). */
const SHORT_VALUE_WORDS = 3;
/** About half a line of prose: a name wrapped onto the next line stays within it. */
const SHORT_VALUE_REACH = 40;
/** A currency code or sign around an amount written as text ("RM 9.00", "$60.44", "12,50 EUR"). */
const AMOUNT_TEXT = /^\s*(?:[A-Za-z]{1,3}\.?|[$£€¥₹₩฿])?\s*[-+]?\d[\d.,'’ ]*\s*(?:[A-Za-z]{1,3}\.?|[$£€¥₹₩฿])?\s*$/u;

const NUMBER_WORD = `(?:${[...TENS.filter(Boolean), ...ONES].join('|')})`;
/** A count spelled out ("eighteen", "twenty-four"), on word boundaries. */
const SPELLED_COUNT = new RegExp(`(?<![\\p{L}\\p{N}])${NUMBER_WORD}(?:[\\s-]+${NUMBER_WORD})?(?![\\p{L}\\p{N}])`, 'giu');
/** A small whole number printed alone ("18", not the 18 of "18.50" or "1,180"). */
const SMALL_COUNT = /(?<![\p{L}\p{N}.,])\d{1,2}(?![\p{L}\p{N}]|[.,]\d)/gu;

/**
 * The value with its small counts written the other way: "18 months" as
 * "eighteen months", "two years" as "2 years". Contracts spell counts and
 * a schema may ask for digits ('<number> <unit>'), or the reverse.
 */
function recountedForms(value: string): string[] {
  const forms = [value.replace(SMALL_COUNT, (digits) => numberInWords(Number(digits)) ?? digits), value.replace(SPELLED_COUNT, (words) => String(numberFromWords(words) ?? words))];
  return forms.filter((form) => form !== value);
}

export class DocumentText {
  private readonly index: GroundingIndex;
  private readonly dates: PrintedDates;

  /** `dayFirst` reads the document's numeric dates as the request's date order says. */
  constructor(layout: LayoutText, dayFirst = true) {
    this.index = new GroundingIndex(layout);
    this.dates = new PrintedDates(layout, this.index, dayFirst);
  }

  /**
   * Where a text value is printed: the whole of it (letters and digits,
   * ignoring case, spacing and punctuation, on word boundaries), or written
   * with its abbreviations the other way ("Inc." for "Incorporated"), or
   * with its counts spelled or in digits ("eighteen months" for "18 months",
   * "two-year" for "2 years"); for a
   * value put together from parts of the document (an address over several
   * lines, reordered names), three quarters of its words (close together
   * for a short value); an amount with a
   * currency sign or code the document prints apart or not at all, by its
   * number; a date printed in another form, by its day. Undefined when it is
   * not there.
   */
  findText(value: string): ValueSource | undefined {
    const folded = foldText(value);
    if (folded === '') return { words: [] };
    const { plain, shared } = this.index;
    const at = plain.find(folded);
    if (at >= 0) return { words: this.index.wordsOf([plain.span(at, at + folded.length)]), score: 1 };
    const sharedValue = sharedText(value);
    const sharedAt = shared.find(sharedValue);
    if (sharedAt >= 0) return { words: this.index.wordsOf([shared.span(sharedAt, sharedAt + sharedValue.length)]), score: 1 };
    for (const form of recountedForms(value)) {
      const sharedForm = sharedText(form);
      const formAt = shared.find(sharedForm);
      if (formAt >= 0) return { words: this.index.wordsOf([shared.span(formAt, formAt + sharedForm.length)]), score: 1 };
    }
    if (AMOUNT_TEXT.test(value)) {
      const amount = this.findDigits(significantDigits(value));
      if (amount) return amount;
    }
    return this.findWords(value) ?? (isWholeDate(value) ? this.findDate(value) : undefined);
  }

  /** 1234.5 is found in "1,234.50" and in "1.234,50", 0.15 in "15%": a whole printed number with the same digits, separators and outer zeros aside. */
  findNumber(value: number): ValueSource | undefined {
    const digits = significantDigits(String(Math.abs(value)));
    if (digits === '') return { words: [] };
    return this.findDigits(digits);
  }

  /** Where the day a date value names is printed, in whatever form (grounding-dates.ts). */
  findDate(value: string): ValueSource | undefined {
    return this.dates.findDate(value);
  }

  /** Where the time of day a clock-time value names is printed, in whatever form (grounding-dates.ts). */
  findTime(value: string): ValueSource | undefined {
    return this.dates.findTime(value);
  }

  private findDigits(digits: string): ValueSource | undefined {
    const span = this.index.digits.find(digits);
    return span ? { words: this.index.wordsOf([span]), score: 1 } : undefined;
  }

  /**
   * Names and addresses put together from parts: three quarters of the
   * value's words. A short value's words (two or three) must stand close
   * together (a name may wrap onto the next line), so that "5 years" is not
   * made of a "5" in one clause and a "year" in another; a longer value's
   * words may come
   * from anywhere (an OCR slip in its own lines is made up by the same word
   * printed elsewhere, as a receipt's footer repeats the store's name).
   * Numbers alone ("11.20, 60.44") are not a value made of parts but
   * several values.
   */
  private findWords(value: string): ValueSource | undefined {
    if (!/\p{L}/u.test(value)) return undefined;
    const words = value.split(/\s+/).map(sharedText).filter((word) => word.length > 0);
    if (words.length < 2) return undefined;
    const { shared } = this.index;
    if (words.length > SHORT_VALUE_WORDS) {
      const found = words.flatMap((word) => {
        const at = shared.find(word);
        return at >= 0 ? [shared.span(at, at + word.length)] : [];
      });
      return found.length / words.length >= WORDS_FOUND ? { words: this.index.wordsOf(found), score: found.length / words.length } : undefined;
    }
    // three quarters of two or three words is all of them: each word's place nearest to a place of the rarest word, all within reach
    if (words.some((word) => shared.find(word) < 0)) return undefined;
    const spans = words.map((word) => shared.findAll(word).map((at) => shared.span(at, at + word.length)));
    const reach = Math.max(SHORT_VALUE_REACH, 3 * value.length);
    const rarest = spans.reduce((fewest, places) => (places.length < fewest.length ? places : fewest));
    for (const [anchor] of rarest) {
      const near = spans.map((places) => nearestPlace(places, anchor));
      const starts = near.map(([start]) => start);
      if (Math.max(...starts) - Math.min(...starts) <= reach) return { words: this.index.wordsOf(near), score: 1 };
    }
    return undefined;
  }
}

/** Of places in text order (none empty), the one starting nearest to `offset`. */
function nearestPlace(places: Array<[number, number]>, offset: number): [number, number] {
  const after = firstIndexWhere(places, ([start]) => start >= offset);
  const next = places[after];
  const previous = places[after - 1];
  if (!next) return previous!;
  if (!previous) return next;
  return offset - previous[0] <= next[0] - offset ? previous : next;
}

export function checkGrounding(value: unknown, schema: JsonSchema, text: DocumentText, replace: boolean): GroundingResult {
  const ungrounded: string[] = [];
  const provenance: Provenance = new Map();
  // names: the enclosing properties' (whose value it is); inItems: a value of a list's item
  const walk = (current: unknown, node: unknown, path: string, name = '', names: readonly string[] = [], inItems = false): unknown => {
    const view = viewSchema(node, schema);
    if (Array.isArray(current)) return current.map((item, index) => walk(item, view.items ?? true, childPointer(path, index), name, names, true));
    if (isSchemaObject(current)) {
      const copy: Record<string, unknown> = {};
      const enclosing = name ? [...names, name] : names;
      for (const [key, child] of Object.entries(current)) setOwn(copy, key, walk(child, view.properties[key] ?? true, childPointer(path, key), key, enclosing, inItems));
      return copy;
    }
    const dateField = looksLikeDateField(view, name, names, inItems);
    const found =
      typeof current === 'string'
        ? (text.findText(current) ?? (dateField ? (text.findDate(current) ?? text.findTime(current)) : undefined))
        : typeof current === 'number'
          ? text.findNumber(current)
          : undefined;
    if (found) provenance.set(path, found);
    // a date field's value that is a day, a clock time or both names one, and its day or time must be printed; its other values (a period, a weekday) cannot be judged here
    const judged = !dateField || (typeof current === 'string' && (isWholeDate(current) || isWholeTime(current) || isDateAndTime(current)));
    const mustBeFound = (typeof current === 'string' || typeof current === 'number') && view.enumValues === undefined && judged;
    if (found || !mustBeFound) return current;
    ungrounded.push(path || '/');
    return replace ? null : current;
  };
  return { value: walk(value, schema, ''), ungrounded, provenance };
}
