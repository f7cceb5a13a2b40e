/**
 * Finds the values a model wrote in the document text, and so where each was
 * read, and the values that appear nowhere: invented values. Decision
 * (README "Values not in the document"): these are replaced by null by
 * default (LLM_UNGROUNDED=null), because the service promises never to
 * invent a value, and a null is easier for a caller to handle than a
 * plausible wrong one. Only free text and numbers must be found: enum
 * values, booleans and dates are legitimately rewritten by the model (the
 * schema or description asks for a form the document does not print); they
 * get a place when they are found as written.
 *
 * Only the document's own words count: the layout text's page markers (and
 * the file names in them) are text the model sees but not evidence.
 */
import { findDates, type DateParts } from '../../extract/dates.js';
import type { JsonSchema } from '../../extract/json-schema.js';
import type { Provenance, ValueSource } from '../../extract/provenance.js';
import { viewSchema } from '../../extract/schema-view.js';
import { isSchemaObject, setOwn } from '../../extract/schema-walk.js';
import { wordsInSpan, type LayoutText } from '../../ingest/layout.js';
import { foldCharacter, foldText } from '../../util/fold-text.js';
import { childPointer } from '../../util/json-pointer.js';
import { looksLikeDateField } from './grounding-dates.js';

export interface GroundingResult {
  value: unknown;
  /** JSON pointers of the values that were not found. */
  ungrounded: string[];
  /** Where the values that were found were read. */
  provenance: Provenance;
}

/** A searchable form of the document's words, each character remembering where in the layout text it came from. */
class FoldedText {
  text = '';
  readonly offsets: number[] = [];

  add(characters: string, offset: number): void {
    this.text += characters;
    for (let i = 0; i < characters.length; i++) this.offsets.push(offset);
  }

  /** Layout-text span of folded characters [start, end). */
  span(start: number, end: number): [number, number] {
    return [this.offsets[start]!, this.offsets[end - 1]! + 1];
  }
}

export class DocumentText {
  private readonly letters = new FoldedText();
  private readonly digits = new FoldedText();
  private dates: Array<{ parts: DateParts; source: ValueSource }> | undefined;

  /** `dayFirst` reads the document's numeric dates as the request's date order says. */
  constructor(
    private readonly layout: LayoutText,
    private readonly dayFirst = true,
  ) {
    for (const placed of layout.words) {
      let offset = placed.start;
      for (const character of layout.text.slice(placed.start, placed.end)) {
        this.letters.add(foldCharacter(character), offset);
        if (/^[0-9]$/.test(character)) this.digits.add(character, offset);
        offset += character.length;
      }
    }
  }

  /**
   * Where a text value is printed: the whole of it (letters and digits,
   * ignoring case, spacing and punctuation), else, for a value put together
   * from parts of the document (an address over several lines, reordered
   * names), three quarters of its words. Undefined when it is not there.
   */
  findText(value: string): ValueSource | undefined {
    const folded = foldText(value);
    if (folded === '') return { words: [] };
    const at = this.letters.text.indexOf(folded);
    if (at >= 0) return { words: this.wordsOf([this.letters.span(at, at + folded.length)]), score: 1 };
    const words = value.split(/\s+/).map(foldText).filter((w) => w.length > 0);
    const spans: Array<[number, number]> = [];
    for (const word of words) {
      const found = this.letters.text.indexOf(word);
      if (found >= 0) spans.push(this.letters.span(found, found + word.length));
    }
    if (words.length > 1 && spans.length / words.length >= 0.75) return { words: this.wordsOf(spans), score: spans.length / words.length };
    return undefined;
  }

  /** 1234.5 is found in "1,234.50" and in "1.234,50", 0.15 in "15%": digits are compared without separators or outer zeros. */
  findNumber(value: number): ValueSource | undefined {
    const digits = String(Math.abs(value)).replace(/e.*$/i, '').replace(/\D/g, '').replace(/^0+|0+$/g, '');
    if (digits === '') return { words: [] };
    const at = this.digits.text.indexOf(digits);
    return at < 0 ? undefined : { words: this.wordsOf([this.digits.span(at, at + digits.length)]), score: 1 };
  }

  /** Where the day a date value names is printed, in whatever form ("2024-03-14" in "14 Mar 2024"). */
  findDate(value: string): ValueSource | undefined {
    const wanted = findDates(value, { dayFirst: this.dayFirst })[0]?.parts;
    if (!wanted) return undefined;
    this.dates ??= findDates(this.layout.text, { dayFirst: this.dayFirst })
      .map((date) => ({ parts: date.parts, source: { words: this.wordsOf([[date.index, date.index + date.text.length]]), score: 1 } }))
      // a date in a page marker's file name is no document text
      .filter((date) => date.source.words.length > 0);
    const same = this.dates.find(({ parts }) => parts.year === wanted.year && parts.month === wanted.month && parts.day === wanted.day);
    return same?.source;
  }

  private wordsOf(spans: Array<[number, number]>): ValueSource['words'] {
    const words: ValueSource['words'] = [];
    for (const [start, end] of spans) for (const ref of wordsInSpan(this.layout, start, end)) if (!words.includes(ref)) words.push(ref);
    return words;
  }
}

export function checkGrounding(value: unknown, schema: JsonSchema, text: DocumentText, replace: boolean): GroundingResult {
  const ungrounded: string[] = [];
  const provenance: Provenance = new Map();
  const walk = (current: unknown, node: unknown, path: string, name = ''): unknown => {
    const view = viewSchema(node, schema);
    if (Array.isArray(current)) return current.map((item, index) => walk(item, view.items ?? true, childPointer(path, index), name));
    if (isSchemaObject(current)) {
      const copy: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(current)) setOwn(copy, key, walk(child, view.properties[key] ?? true, childPointer(path, key), key));
      return copy;
    }
    const dateField = looksLikeDateField(view, name);
    const found =
      typeof current === 'string' ? (text.findText(current) ?? (dateField ? text.findDate(current) : undefined)) : typeof current === 'number' ? text.findNumber(current) : undefined;
    if (found) provenance.set(path, found);
    const mustBeFound = (typeof current === 'string' || typeof current === 'number') && view.enumValues === undefined && !dateField;
    if (found || !mustBeFound) return current;
    ungrounded.push(path || '/');
    return replace ? null : current;
  };
  return { value: walk(value, schema, ''), ungrounded, provenance };
}
