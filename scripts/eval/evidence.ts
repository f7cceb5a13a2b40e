import {
  amountReadings,
  AMOUNT_TOLERANCE,
  findDateTokens,
  formatIsoDate,
  normaliseText,
  parseDate,
  type DateOrder,
} from './normalise.js';
import { isMissing, type FieldKind } from './score.js';
import type { LayoutText } from '../../src/ingest/layout.js';

/**
 * Evidence recall: does the expected value occur in the layout text the
 * engine read? It separates "OCR/text layer lost the value" (a miss here)
 * from "the engine picked the wrong candidate" (found here, wrong in the
 * result), which need different fixes.
 */

/** Normalised strings at least this long are also searched approximately: long values (addresses) rarely survive OCR letter for letter. */
export const FUZZY_MIN_LENGTH = 12;
/** Similarity (1 - edits / length) a text window needs to count as the long value. */
export const FUZZY_MIN_SIMILARITY = 0.8;
/** Characters of original text shown as the context of a miss. */
const CONTEXT_CHARS = 60;

interface AmountToken {
  token: string;
  values: number[];
  hasFraction: boolean;
}

interface DateToken {
  token: string;
  /** ISO dates under both orders: the text's order is unknown, and a receipt may print either. */
  isoDates: Set<string>;
}

/** The layout text prepared once per document for all its fields. */
export interface EvidenceIndex {
  text: string;
  /** normaliseText() of the text, built per character so positions map back. */
  compact: string;
  /** compact[i] came from text[compactToText[i]]. */
  compactToText: number[];
  amounts: AmountToken[];
  dates: DateToken[];
}

/**
 * The layout text with everything that is no document word blanked out
 * (page markers, the file names in them), offsets unchanged: the layout map
 * says where the words are, so nothing has to be recognised in the text.
 */
export function documentWordsOnly(layout: LayoutText): string {
  const characters = layout.text.replace(/[^\n]/g, ' ').split('');
  for (const placed of layout.words) {
    for (let i = placed.start; i < placed.end; i++) characters[i] = layout.text[i]!;
  }
  return characters.join('');
}

export function buildEvidenceIndex(layout: LayoutText): EvidenceIndex {
  const text = documentWordsOnly(layout);
  let compact = '';
  const compactToText: number[] = [];
  let position = 0;
  for (const character of text) {
    const normalised = normaliseText(character);
    for (let i = 0; i < normalised.length; i++) compactToText.push(position);
    compact += normalised;
    position += character.length;
  }
  const amounts: AmountToken[] = [];
  for (const match of text.matchAll(/(?<![\d.,])\d(?:[\d.,']*\d)?/g)) {
    const values = amountReadings(match[0]);
    if (values.length > 0) amounts.push({ token: match[0], values, hasFraction: /[.,]\d{1,2}$/.test(match[0]) });
  }
  const dates: DateToken[] = [];
  for (const token of findDateTokens(text)) {
    const isoDates = new Set<string>();
    for (const order of ['day-first', 'month-first'] as const) {
      const parsed = parseDate(token, order);
      if (parsed) isoDates.add(formatIsoDate(parsed));
    }
    if (isoDates.size > 0) dates.push({ token, isoDates });
  }
  return { text, compact, compactToText, amounts, dates };
}

export interface EvidenceCheck {
  found: boolean;
  /** Where it was found, or for a miss what the text has that comes closest. */
  context: string;
}

function snippet(text: string, start: number, end: number): string {
  const padding = Math.max(0, Math.floor((CONTEXT_CHARS - (end - start)) / 2));
  const from = Math.max(0, start - padding);
  const to = Math.min(text.length, end + padding);
  const body = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${body}${to < text.length ? '…' : ''}`;
}

function originalSpan(index: EvidenceIndex, compactStart: number, compactEnd: number): { start: number; end: number } {
  const start = index.compactToText[compactStart] ?? 0;
  const end = (index.compactToText[Math.max(compactStart, compactEnd - 1)] ?? start) + 1;
  return { start, end };
}

/**
 * Best approximate occurrence of `pattern` anywhere in `text` (Sellers'
 * semi-global edit distance: the match may start and end anywhere in the
 * text). O(pattern x text) with one column of memory, so a 100-character
 * address against 50k characters of text is a few million cell updates.
 */
export function bestApproximateMatch(pattern: string, text: string): { distance: number; start: number; end: number } {
  const m = pattern.length;
  let cost = new Int32Array(m + 1);
  let start = new Int32Array(m + 1);
  let nextCost = new Int32Array(m + 1);
  let nextStart = new Int32Array(m + 1);
  for (let i = 0; i <= m; i++) cost[i] = i;
  let best = { distance: m, start: 0, end: 0 };
  for (let j = 1; j <= text.length; j++) {
    const character = text.charCodeAt(j - 1);
    nextCost[0] = 0;
    nextStart[0] = j;
    for (let i = 1; i <= m; i++) {
      const diagonal = (cost[i - 1] as number) + (pattern.charCodeAt(i - 1) === character ? 0 : 1);
      const up = (nextCost[i - 1] as number) + 1;
      const left = (cost[i] as number) + 1;
      if (diagonal <= up && diagonal <= left) {
        nextCost[i] = diagonal;
        nextStart[i] = start[i - 1] as number;
      } else if (left <= up) {
        nextCost[i] = left;
        nextStart[i] = start[i] as number;
      } else {
        nextCost[i] = up;
        nextStart[i] = nextStart[i - 1] as number;
      }
    }
    const distance = nextCost[m] as number;
    if (distance < best.distance) {
      best = { distance, start: nextStart[m] as number, end: j };
      if (distance === 0) break;
    }
    [cost, nextCost] = [nextCost, cost];
    [start, nextStart] = [nextStart, start];
  }
  return best;
}

function findString(index: EvidenceIndex, expected: string): EvidenceCheck | undefined {
  const pattern = normaliseText(expected);
  if (pattern.length === 0) return undefined;
  const exact = index.compact.indexOf(pattern);
  if (exact >= 0) {
    const span = originalSpan(index, exact, exact + pattern.length);
    return { found: true, context: snippet(index.text, span.start, span.end) };
  }
  if (index.compact.length === 0) return { found: false, context: '(no text)' };
  const best = bestApproximateMatch(pattern, index.compact);
  const similarity = 1 - best.distance / pattern.length;
  const span = originalSpan(index, best.start, best.end);
  const found = pattern.length >= FUZZY_MIN_LENGTH && similarity >= FUZZY_MIN_SIMILARITY;
  const context = snippet(index.text, span.start, span.end);
  return { found, context: found ? context : `closest (${similarity.toFixed(2)}): ${context}` };
}

function findAmount(index: EvidenceIndex, expected: string): EvidenceCheck | undefined {
  const readings = amountReadings(expected);
  if (readings.length === 0) return findString(index, expected);
  // "9.00" must be printed with its decimals: a bare "9" elsewhere (a quantity, a date part) is not evidence of it.
  const needsFraction = /[.,]\d{1,2}\D*$/.test(expected);
  // Signs are not compared: a credit prints "-8,79" or "8,79-" (tokens here are digits only), or "8,79" under "Credit note".
  const hits = index.amounts.filter(
    (token) => (!needsFraction || token.hasFraction) && token.values.some((value) => readings.some((reading) => Math.abs(Math.abs(value) - Math.abs(reading)) < AMOUNT_TOLERANCE)),
  );
  if (hits.length > 0) return { found: true, context: hits[0]?.token ?? '' };
  const target = Math.abs(readings[0] as number);
  const closest = [...index.amounts]
    .filter((token) => token.hasFraction)
    .sort((a, b) => Math.abs((a.values[0] as number) - target) - Math.abs((b.values[0] as number) - target))
    .slice(0, 3)
    .map((token) => token.token);
  return { found: false, context: closest.length > 0 ? `closest amounts: ${closest.join(', ')}` : '(no amounts in text)' };
}

function findDate(index: EvidenceIndex, expected: string, order: DateOrder): EvidenceCheck | undefined {
  const parsed = parseDate(expected, order);
  if (!parsed) return findString(index, expected);
  const iso = formatIsoDate(parsed);
  const hit = index.dates.find((token) => token.isoDates.has(iso));
  if (hit) return { found: true, context: hit.token };
  // A label may still be findable verbatim even if no date token around it parsed (e.g. OCR glued it to other text).
  const verbatim = findString(index, expected);
  if (verbatim?.found) return verbatim;
  const seen = index.dates.slice(0, 3).map((token) => token.token);
  return { found: false, context: seen.length > 0 ? `dates in text: ${seen.join(', ')}` : '(no dates in text)' };
}

/** Checks one expected scalar value; undefined when there is nothing to look for. */
export function findEvidence(index: EvidenceIndex, kind: FieldKind, expected: string, order: DateOrder): EvidenceCheck | undefined {
  switch (kind) {
    case 'amount':
      return findAmount(index, expected);
    case 'date':
      return findDate(index, expected, order);
    case 'name':
    case 'text':
    case 'name-list':
    case 'text-list':
      return findString(index, expected);
    default:
      return undefined;
  }
}

export interface EvidenceItem {
  field: string;
  expected: string;
  found: boolean;
  context: string;
}

/** Evidence for one field of one document: one item per expected value (a list contributes one per element). */
export function fieldEvidence(index: EvidenceIndex, field: string, kind: FieldKind, expected: unknown, order: DateOrder): EvidenceItem[] {
  if (isMissing(expected) || kind === 'other' || kind === 'items') return [];
  const values = Array.isArray(expected) ? expected : [expected];
  const items: EvidenceItem[] = [];
  for (const value of values) {
    if (isMissing(value)) continue;
    const text = typeof value === 'string' ? value : String(value);
    const check = findEvidence(index, kind, text, order);
    if (check) items.push({ field, expected: text, found: check.found, context: check.context });
  }
  return items;
}
