import { scoreItems, summariseItems, type ItemScore, type ItemsSummary } from './items.js';
import { ratio, summariseSet, type SetCounts, type SetSummary } from './set-counts.js';
import { amountsEqual, anls, ANLS_THRESHOLD, datesEqual, looksLikeMoney, normaliseText, parseAmount, textSimilarity, type DateOrder } from './normalise.js';

export { ratio, summariseSet, type SetCounts, type SetSummary };

/**
 * How a field is compared, chosen from the schema, the field name and the
 * ground truth values:
 * - amount: as decimals (currency marks, separators and decimal commas ignored);
 * - date: as calendar dates;
 * - name: names and addresses; normalised match, or ANLS >= 0.5 (labels are re-typed, OCR fonts are hostile);
 * - text: normalised match only (ids, phone numbers, times, terms: a near miss is a different value);
 * - name-list / text-list: arrays of strings, scored as sets;
 * - items: arrays of objects (invoice lines), scored cell by cell after matching items (items.ts);
 * - other: anything else (numbers, booleans, objects), canonical JSON equality.
 */
export type FieldKind = 'amount' | 'date' | 'name' | 'text' | 'name-list' | 'text-list' | 'items' | 'other';

/** What the dataset's null labels mean (from its README): a fact ("absent") or a gap in the annotation. */
export type NullMeaning = 'absent' | 'not-annotated';

/**
 * The dataset README says whether null labels are facts or gaps
 * (WildReceipt: "not annotated"; eu-invoices: "null = not labelled"); a
 * predicted value against a gap is not an error, against a fact it is a
 * hallucination.
 */
export function nullMeaningFromReadme(readme: string): NullMeaning {
  return /not (annotated|labell?ed)/i.test(readme) ? 'not-annotated' : 'absent';
}

interface PropertySchema {
  type?: unknown;
  format?: unknown;
  description?: unknown;
  items?: unknown;
}

// Field-name rules match at the start of a word of the name ("store_name", "storeName"), so "hotel_name" is not a phone field.
const DATE_NAME = /(^|_)dated?(_|s|$)/;
const AMOUNT_NAME = /(^|_)(sub_?total|total|amount|tax|vat|gst|price|fee|cost|balance|discount)/;
/** Identifiers: compared strictly even when their description mentions the store or company they belong to. */
const IDENTIFIER_NAME = /(^|_)(phone|tel|telephone|fax|time|number|no|id|code|e?mail|url|zip|postcode)(_|$)/;
const NAME_NAME = /(^|_)(name|company|store|address|addr|party|parties|merchant|vendor|seller|supplier|customer|shop|issuer|buyer)/;

const DATE_WORDS = /\bdates?\b/i;
const AMOUNT_WORDS = /\b(sub)?totals?\b|\bamounts?\b|\btax(es)?\b|\bprices?\b/i;
const NAME_WORDS = /\b(names?|company|companies|stores?|address(es)?|party|parties|merchants?)\b/i;

function asPropertySchema(value: unknown): PropertySchema {
  return typeof value === 'object' && value !== null ? (value as PropertySchema) : {};
}

function schemaTypes(property: PropertySchema): string[] {
  if (typeof property.type === 'string') return [property.type];
  if (Array.isArray(property.type)) return property.type.filter((type): type is string => typeof type === 'string');
  return [];
}

/** Field names as words: "store_name", "storeName" and "store-name" all read "store_name". */
function fieldWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();
}

function scalarKindFromSchema(name: string, property: PropertySchema): FieldKind | undefined {
  if (property.format === 'date' || property.format === 'date-time') return 'date';
  const words = fieldWords(name);
  if (DATE_NAME.test(words)) return 'date';
  if (AMOUNT_NAME.test(words)) return 'amount';
  if (IDENTIFIER_NAME.test(words)) return 'text';
  if (NAME_NAME.test(words)) return 'name';
  const description = typeof property.description === 'string' ? property.description : '';
  if (DATE_WORDS.test(description)) return 'date';
  if (AMOUNT_WORDS.test(description)) return 'amount';
  if (NAME_WORDS.test(description)) return 'name';
  return undefined;
}

/**
 * The kind of one field. Schema and field name decide first; otherwise the
 * ground truth decides: a string field whose non-null labels mostly look like
 * money is an amount.
 */
export function classifyField(name: string, property: unknown, groundTruthValues: readonly unknown[]): FieldKind {
  const schema = asPropertySchema(property);
  const types = schemaTypes(schema);
  const samples = groundTruthValues.filter((value) => !isMissing(value));
  const isArray = types.includes('array') || (types.length === 0 && samples.some(Array.isArray));
  if (isArray) {
    const items = asPropertySchema(schema.items);
    const itemTypes = schemaTypes(items);
    const objectItems = itemTypes.includes('object') || (itemTypes.length === 0 && (typeof (items as { properties?: unknown }).properties === 'object' || (samples.length > 0 && samples.flat().every((item) => typeof item === 'object' && item !== null && !Array.isArray(item)))));
    if (objectItems) return 'items';
    const stringItems = itemTypes.includes('string') || (itemTypes.length === 0 && samples.flat().every((item) => typeof item === 'string'));
    if (!stringItems) return 'other';
    const itemKind = scalarKindFromSchema(name, schema) ?? scalarKindFromSchema(name, items);
    return itemKind === 'name' ? 'name-list' : 'text-list';
  }
  const stringField = types.includes('string') || (types.length === 0 && samples.every((value) => typeof value === 'string'));
  if (!stringField) return types.includes('number') || types.includes('integer') ? 'amount' : 'other';
  const fromSchema = scalarKindFromSchema(name, schema);
  if (fromSchema) return fromSchema;
  const moneyLike = samples.filter((value) => typeof value === 'string' && looksLikeMoney(value)).length;
  return samples.length > 0 && moneyLike * 2 > samples.length ? 'amount' : 'text';
}

/** Every field of the schema (in schema order), plus any field the ground truth has that the schema lacks. */
export function classifyFields(schema: unknown, groundTruths: readonly Record<string, unknown>[]): Map<string, FieldKind> {
  const properties = asPropertySchema(schema) as { properties?: unknown };
  const declared = typeof properties.properties === 'object' && properties.properties !== null ? (properties.properties as Record<string, unknown>) : {};
  const names = [...Object.keys(declared)];
  for (const truth of groundTruths) for (const key of Object.keys(truth)) if (!names.includes(key)) names.push(key);
  return new Map(names.map((name) => [name, classifyField(name, declared[name], groundTruths.map((truth) => truth[name]))]));
}

// ---------------------------------------------------------------------------
// Scoring one field of one document

/** null, undefined, blank strings and empty arrays all mean "no value". */
export function isMissing(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every(isMissing);
  return false;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

function asTextList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : isMissing(value) ? [] : [value];
  return items.filter((item) => !isMissing(item)).map(asText);
}

/**
 * One-to-one matching of predicted to expected items. With `similarity`,
 * pairs at or above the ANLS threshold are matched greedily, most similar
 * first (sets are a handful of items, so greedy is as good as optimal in
 * practice); without it, items match when their normalised forms are equal.
 */
export function matchSets(predicted: readonly string[], expected: readonly string[], fuzzy: boolean): SetCounts {
  const candidates: { p: number; e: number; score: number }[] = [];
  predicted.forEach((p, pi) =>
    expected.forEach((e, ei) => {
      const score = fuzzy ? textSimilarity(p, e) : normaliseText(p) === normaliseText(e) ? 1 : 0;
      if (fuzzy ? score >= ANLS_THRESHOLD : score === 1) candidates.push({ p: pi, e: ei, score });
    }),
  );
  candidates.sort((a, b) => b.score - a.score);
  const usedPredicted = new Set<number>();
  const usedExpected = new Set<number>();
  for (const { p, e } of candidates) {
    if (usedPredicted.has(p) || usedExpected.has(e)) continue;
    usedPredicted.add(p);
    usedExpected.add(e);
  }
  const tp = usedExpected.size;
  return { tp, fp: predicted.length - tp, fn: expected.length - tp };
}

export interface FieldScore {
  field: string;
  kind: FieldKind;
  expected: unknown;
  predicted: unknown;
  expectedMissing: boolean;
  predictedMissing: boolean;
  /** The request failed; the field scores 0 and is left out of the null-GT counts. */
  failed: boolean;
  /** Normalised equality (amounts/dates by value; lists: the exact set). Undefined when the ground truth is null. */
  strict?: boolean;
  /** strict, or for names ANLS >= 0.5 (lists: every item matched that way, no extras). Undefined when the ground truth is null. */
  correct?: boolean;
  /** ANLS for name/text fields with a non-null ground truth. */
  anls?: number;
  /** Set counts for lists, with the field's matcher (ANLS for name lists). */
  set?: SetCounts;
  /** Cell counts for an array of objects whose label is an array (items.ts). */
  items?: ItemScore;
}

export interface ScoreOptions {
  dateOrder: DateOrder;
  /** The columns of each array-of-objects field (the item schema's properties, itemColumns); without them, the label items' keys. */
  itemColumns?: ReadonlyMap<string, readonly string[]>;
}

function scalarEqual(kind: FieldKind, predicted: string, expected: string, options: ScoreOptions): boolean {
  switch (kind) {
    case 'amount':
      // A label that is not an amount at all (label noise) can still be matched by copying it.
      return parseAmount(expected) === undefined ? normaliseText(predicted) === normaliseText(expected) : amountsEqual(predicted, expected);
    case 'date':
      return datesEqual(predicted, expected, options.dateOrder);
    default:
      return normaliseText(predicted) === normaliseText(expected);
  }
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return typeof value === 'string' ? JSON.stringify(normaliseText(value)) : JSON.stringify(value) ?? 'null';
}

/** Scores one field. `predicted` is undefined when the request failed. */
export function scoreField(field: string, kind: FieldKind, expected: unknown, predicted: unknown, failed: boolean, options: ScoreOptions): FieldScore {
  const expectedMissing = isMissing(expected);
  const predictedMissing = failed || isMissing(predicted);
  const score: FieldScore = { field, kind, expected, predicted: failed ? null : predicted, expectedMissing, predictedMissing, failed };

  if (kind === 'items') {
    // a label of no items is still a label (every answer item is then extra); a null one is not
    if (Array.isArray(expected)) score.items = scoreItems(expected, predicted, failed, options.itemColumns?.get(field));
    return score;
  }

  if (kind === 'name-list' || kind === 'text-list') {
    const predictedItems = failed ? [] : asTextList(predicted);
    const expectedItems = asTextList(expected);
    score.set = matchSets(predictedItems, expectedItems, kind === 'name-list');
    if (!expectedMissing) {
      // For plain text lists the lenient set is already the strict one.
      const strictSet = kind === 'text-list' ? score.set : matchSets(predictedItems, expectedItems, false);
      score.strict = strictSet.fp === 0 && strictSet.fn === 0;
      score.correct = score.set.fp === 0 && score.set.fn === 0;
    }
    return score;
  }

  if (expectedMissing) return score;
  if (predictedMissing) {
    score.strict = false;
    score.correct = false;
    if (kind === 'name' || kind === 'text') score.anls = 0;
    return score;
  }
  if (kind === 'other') {
    score.strict = canonicalJson(predicted) === canonicalJson(expected);
    score.correct = score.strict;
    return score;
  }
  const p = asText(predicted);
  const e = asText(expected);
  score.strict = scalarEqual(kind, p, e, options);
  if (kind === 'name' || kind === 'text') score.anls = score.strict ? 1 : anls(p, e);
  score.correct = score.strict || (kind === 'name' && (score.anls ?? 0) >= ANLS_THRESHOLD);
  return score;
}

/** Scores every field of one document; `predicted` undefined means the request failed. */
export function scoreDocument(kinds: ReadonlyMap<string, FieldKind>, expected: Record<string, unknown>, predicted: unknown, options: ScoreOptions): FieldScore[] {
  const failed = predicted === undefined;
  const object = typeof predicted === 'object' && predicted !== null && !Array.isArray(predicted) ? (predicted as Record<string, unknown>) : {};
  return [...kinds].map(([field, kind]) => scoreField(field, kind, expected[field], object[field], failed, options));
}

// ---------------------------------------------------------------------------
// Aggregation

export interface NullGtCounts {
  /** Documents whose ground truth is null for the field (failed requests excluded). */
  total: number;
  predictedNull: number;
  predictedValue: number;
}

export interface FieldSummary {
  field: string;
  kind: FieldKind;
  /** Scored documents with a non-null ground truth. */
  expected: number;
  strictCorrect: number;
  correct: number;
  strictAccuracy: number | null;
  /** With ANLS >= 0.5 accepted for names; equals strictAccuracy for other kinds. */
  accuracy: number | null;
  meanAnls: number | null;
  set: SetSummary | null;
  nullGt: NullGtCounts;
  /** An array of objects: cell precision, recall, F1 and per-column accuracy; its documents are not in the counts above. */
  items: ItemsSummary | null;
}

export function summariseField(field: string, kind: FieldKind, scores: readonly FieldScore[]): FieldSummary {
  if (kind === 'items') {
    const itemScores = scores.flatMap((score) => (score.items ? [score.items] : []));
    return { field, kind, expected: 0, strictCorrect: 0, correct: 0, strictAccuracy: null, accuracy: null, meanAnls: null, set: null, nullGt: { total: 0, predictedNull: 0, predictedValue: 0 }, items: summariseItems(itemScores) };
  }
  const graded = scores.filter((score) => !score.expectedMissing);
  const strictCorrect = graded.filter((score) => score.strict).length;
  const correct = graded.filter((score) => score.correct).length;
  const anlsValues = graded.map((score) => score.anls).filter((value): value is number => value !== undefined);
  const nullGt = scores.filter((score) => score.expectedMissing && !score.failed);
  const isList = kind === 'name-list' || kind === 'text-list';
  const setCounts = scores.reduce<SetCounts>(
    (sum, score) => ({ tp: sum.tp + (score.set?.tp ?? 0), fp: sum.fp + (score.set?.fp ?? 0), fn: sum.fn + (score.set?.fn ?? 0) }),
    { tp: 0, fp: 0, fn: 0 },
  );
  return {
    field,
    kind,
    expected: graded.length,
    strictCorrect,
    correct,
    strictAccuracy: ratio(strictCorrect, graded.length),
    accuracy: ratio(correct, graded.length),
    meanAnls: anlsValues.length === 0 ? null : anlsValues.reduce((a, b) => a + b, 0) / anlsValues.length,
    set: isList ? summariseSet(setCounts) : null,
    nullGt: {
      total: nullGt.length,
      predictedNull: nullGt.filter((score) => score.predictedMissing).length,
      predictedValue: nullGt.filter((score) => !score.predictedMissing).length,
    },
    items: null,
  };
}

export interface MicroAverage {
  expected: number;
  strictCorrect: number;
  correct: number;
  strictAccuracy: number | null;
  accuracy: number | null;
}

/** Micro-average over all (document, field) pairs with a non-null ground truth. */
export function microAverage(fields: readonly FieldSummary[]): MicroAverage {
  const expected = fields.reduce((sum, field) => sum + field.expected, 0);
  const strictCorrect = fields.reduce((sum, field) => sum + field.strictCorrect, 0);
  const correct = fields.reduce((sum, field) => sum + field.correct, 0);
  return { expected, strictCorrect, correct, strictAccuracy: ratio(strictCorrect, expected), accuracy: ratio(correct, expected) };
}

/**
 * F1 over key=value pairs, the metric SROIE and Kleister publish (there with
 * exact match; here with the lenient matcher): a scalar is one pair, a list
 * item is one pair. A wrong value is both a false positive and a false
 * negative. A value predicted where the label is null is a false positive
 * only when null means "absent"; where it means "not annotated" it cannot be
 * judged and is left out.
 */
export function pairF1(scores: readonly FieldScore[], nullMeaning: NullMeaning): SetSummary {
  const counts: SetCounts = { tp: 0, fp: 0, fn: 0 };
  for (const score of scores) {
    // item cells have their own F1 (items.ts)
    if (score.kind === 'items') continue;
    if (score.set) {
      counts.tp += score.set.tp;
      counts.fn += score.set.fn;
      if (!score.expectedMissing || nullMeaning === 'absent') counts.fp += score.set.fp;
      continue;
    }
    if (score.expectedMissing) {
      if (!score.predictedMissing && nullMeaning === 'absent') counts.fp += 1;
      continue;
    }
    if (score.correct) {
      counts.tp += 1;
    } else {
      counts.fn += 1;
      if (!score.predictedMissing) counts.fp += 1;
    }
  }
  return summariseSet(counts);
}
