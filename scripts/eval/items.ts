/**
 * Scoring of a property whose schema is an array of objects (invoice lines,
 * say), item by item, as the eu-invoice-lines README ("Scoring") defines it:
 * cells are normalised (numbers to 2 decimals, a string answer for a number
 * label read as an amount; strings whitespace-collapsed, trimmed, case-folded),
 * answer items are matched one to one to label items by the most equal cells,
 * and the cells are counted: recall over labelled cells, precision over the
 * answer cells that can be judged, per-column accuracy, and whether the answer
 * has as many items as the label. A null label cell is not labelled: it never
 * counts for or against an answer.
 */
import { amountReadings } from './normalise.js';
import { ratio, summariseSet } from './set-counts.js';

/** The columns of every top-level property whose schema is an array of objects (the item schema's properties, in order). */
export function itemColumns(schema: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const properties = objectAt(schema, 'properties');
  for (const [name, property] of Object.entries(properties ?? {})) {
    const items = objectAt(property, 'items');
    if (!items || !isArraySchema(property)) continue;
    const columns = objectAt(items, 'properties');
    if (columns || typesOf(items).includes('object')) out.set(name, Object.keys(columns ?? {}));
  }
  return out;
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const inner = (value as Record<string, unknown>)[key];
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : undefined;
}

function typesOf(schema: unknown): string[] {
  const type = typeof schema === 'object' && schema !== null ? (schema as { type?: unknown }).type : undefined;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === 'string') : [];
}

function isArraySchema(schema: unknown): boolean {
  const types = typesOf(schema);
  return types.includes('array') || (types.length === 0 && objectAt(schema, 'items') !== undefined);
}

/** No value: null, undefined or a blank string. */
function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** Rounded to cents, half away from zero; the 1e-9 absorbs binary fractions such as 1.005 * 100 = 100.49999. */
export function roundCents(value: number): number {
  const cents = Math.round(Math.abs(value) * 100 + 1e-9) / 100;
  return value < 0 && cents !== 0 ? -cents : cents;
}

function normaliseString(value: string): string {
  return value.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * Whether an answer cell equals a labelled cell after normalisation. A number
 * label is met by a number or by a string that reads as that amount ("1.234,50");
 * a string label by a string (or a number written out) equal once whitespace is
 * collapsed and case folded.
 */
export function cellsEqual(answer: unknown, label: unknown): boolean {
  if (isBlank(answer) || isBlank(label)) return false;
  if (typeof label === 'number') {
    const wanted = roundCents(label);
    if (typeof answer === 'number') return roundCents(answer) === wanted;
    // an ambiguous string ("1,234") is right when either reading is
    return typeof answer === 'string' && amountReadings(answer).some((reading) => roundCents(reading) === wanted);
  }
  if (typeof label === 'string') return (typeof answer === 'string' || typeof answer === 'number') && normaliseString(String(answer)) === normaliseString(label);
  return answer === label;
}

type Item = Record<string, unknown>;

function asItems(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function cellOf(item: unknown, column: string): unknown {
  return typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Item)[column] : undefined;
}

export interface ColumnCounts {
  labelled: number;
  /** Answer cells judged: non-null, in a matched item whose label cell is labelled, or in an item that matched nothing. */
  answered: number;
  equal: number;
}

/** The counts of one document. */
export interface ItemScore {
  labelItems: number;
  answerItems: number;
  /** answer index per label index (null: unmatched), after the greedy matching. */
  matches: (number | null)[];
  labelled: number;
  answered: number;
  equal: number;
  columns: Record<string, ColumnCounts>;
  /** The answer has as many items as the label (a failed request never has). */
  sameCount: boolean;
}

/**
 * Scores one document's answer items against its label items. `columns` are
 * the item properties judged (the schema's); without them, the keys the label
 * items have. Matching: every (label, answer) pair with at least one equal
 * labelled cell, most equal cells first, then the nearer positions, then the
 * earlier label item; each item is matched at most once.
 */
export function scoreItems(label: unknown, answer: unknown, failed: boolean, columns?: readonly string[]): ItemScore {
  const labelItems = asItems(label);
  const answerItems = failed ? [] : asItems(answer);
  const judged = columns && columns.length > 0 ? [...columns] : [...new Set(labelItems.flatMap((item) => (typeof item === 'object' && item !== null ? Object.keys(item) : [])))];
  const labelledColumns = (item: unknown) => judged.filter((column) => !isBlank(cellOf(item, column)));

  const pairs: { l: number; a: number; equal: number }[] = [];
  labelItems.forEach((labelItem, l) => {
    const wanted = labelledColumns(labelItem);
    answerItems.forEach((answerItem, a) => {
      const equal = wanted.filter((column) => cellsEqual(cellOf(answerItem, column), cellOf(labelItem, column))).length;
      if (equal > 0) pairs.push({ l, a, equal });
    });
  });
  pairs.sort((x, y) => y.equal - x.equal || Math.abs(x.l - x.a) - Math.abs(y.l - y.a) || x.l - y.l || x.a - y.a);
  const matches: (number | null)[] = labelItems.map(() => null);
  const answerTaken = new Set<number>();
  for (const { l, a } of pairs) {
    if (matches[l] !== null || answerTaken.has(a)) continue;
    matches[l] = a;
    answerTaken.add(a);
  }

  const counts: Record<string, ColumnCounts> = Object.fromEntries(judged.map((column) => [column, { labelled: 0, answered: 0, equal: 0 }]));
  labelItems.forEach((labelItem, l) => {
    const a = matches[l];
    const answerItem = a === null || a === undefined ? undefined : answerItems[a];
    for (const column of labelledColumns(labelItem)) {
      const count = counts[column]!;
      count.labelled += 1;
      if (answerItem === undefined) continue;
      const cell = cellOf(answerItem, column);
      if (isBlank(cell)) continue;
      count.answered += 1;
      if (cellsEqual(cell, cellOf(labelItem, column))) count.equal += 1;
    }
  });
  // an answer item that matched no label item is wrong in every cell it fills
  answerItems.forEach((answerItem, a) => {
    if (answerTaken.has(a)) return;
    for (const column of judged) if (!isBlank(cellOf(answerItem, column))) counts[column]!.answered += 1;
  });

  const total = (key: keyof ColumnCounts) => Object.values(counts).reduce((sum, count) => sum + count[key], 0);
  return {
    labelItems: labelItems.length,
    answerItems: answerItems.length,
    matches,
    labelled: total('labelled'),
    answered: total('answered'),
    equal: total('equal'),
    columns: counts,
    sameCount: !failed && answerItems.length === labelItems.length,
  };
}

export interface ItemsSummary {
  /** Documents scored (a label not annotated is left out). */
  documents: number;
  labelledCells: number;
  answeredCells: number;
  equalCells: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  columns: { column: string; labelled: number; equal: number; accuracy: number | null }[];
  /** Documents whose answer has as many items as the label. */
  sameCount: number;
  sameCountShare: number | null;
}

/** Pools the counts of several documents into cell precision, recall and F1, per-column accuracy and the share of right item counts. */
export function summariseItems(scores: readonly ItemScore[], columns?: readonly string[]): ItemsSummary {
  const names = [...(columns ?? []), ...new Set(scores.flatMap((score) => Object.keys(score.columns)))].filter((name, index, all) => all.indexOf(name) === index);
  const pooled = (key: keyof ColumnCounts, column?: string) => scores.reduce((sum, score) => sum + (column === undefined ? score[key] : (score.columns[column]?.[key] ?? 0)), 0);
  const equal = pooled('equal');
  const answered = pooled('answered');
  const labelled = pooled('labelled');
  const set = summariseSet({ tp: equal, fp: answered - equal, fn: labelled - equal });
  const sameCount = scores.filter((score) => score.sameCount).length;
  return {
    documents: scores.length,
    labelledCells: labelled,
    answeredCells: answered,
    equalCells: equal,
    precision: set.precision,
    recall: set.recall,
    f1: set.f1,
    columns: names.map((column) => {
      const columnEqual = pooled('equal', column);
      const columnLabelled = pooled('labelled', column);
      return { column, labelled: columnLabelled, equal: columnEqual, accuracy: ratio(columnEqual, columnLabelled) };
    }),
    sameCount,
    sameCountShare: ratio(sameCount, scores.length),
  };
}
