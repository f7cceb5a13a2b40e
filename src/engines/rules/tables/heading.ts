/**
 * The heading of a table: one line, or a block of two to six lines printed
 * as one ("Prix" over "unitaire", "Positions- / betrag / ohne USt."), read
 * into columns. Each printed label means a facet through the meaning layer
 * (a heading cell's words read as a property name: "Menge", "PU HT",
 * "Nettobetrag"), and an item property takes the column whose label has its
 * facet, or (a property no facet names) whose label its own label words
 * match. A cell the layout printed as one ("Pos Art-Nr-Lief. Beschreibung",
 * "MwSt-% Nettowert") is split into the labels it is made of.
 */
import { meaningOf } from '../../../meaning/meaning.js';
import { tokenize, type Token } from '../../../meaning/words.js';
import type { WordRef } from '../../../document/document.js';
import { matchPhrase } from '../core/fuzzy.js';
import type { RuleLine, RuleWord } from '../core/lines.js';
import { isNumeric, type ItemField } from './item-fields.js';
import { isHeadingWord } from './vocabulary.js';
import { maxOf, minOf } from '../../../util/extremes.js';

export interface HeaderLabel {
  text: string;
  tokens: Token[];
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  words: WordRef[];
  facet: string | undefined;
  certainty: number;
}

export interface Column {
  x0: number;
  x1: number;
  /** Its labels, top to bottom. */
  labels: HeaderLabel[];
  /** The labels read together ("Prix unitaire"). */
  reading: PhraseReading;
}

/** An item property read from a column: the whole column, or (a column of stacked labels) its `stack`-th line in each row. */
export interface Binding {
  field: ItemField;
  column: number;
  /** -1: the column as one; k: the k-th of its stacked labels, whose value is the k-th line a row prints in it. */
  stack: number;
  /** How well the heading names the property, 0..1. */
  score: number;
  /** Named by its own heading, not taken as the only column left of its kind. */
  direct: boolean;
  /** The part it plays in the row's product, when the sums bound a property no facet names (arithmetic.ts). */
  role?: 'quantity' | 'price' | 'amount';
}

export interface TableHeader {
  /** Positions of the block's first and last line. */
  first: number;
  last: number;
  page: number;
  /** Bottom of the heading. */
  y1: number;
  lineHeight: number;
  columns: Column[];
  bindings: Binding[];
  /** Properties named by their own heading. */
  matched: number;
  /** Of those, the ones the block's main line names alone. */
  own: number;
}

export interface PhraseReading {
  facet: string | undefined;
  certainty: number;
}

/** A heading label names a property when it scores this well (a label's words, or its facet). */
export const MIN_BINDING = 0.75;
/** The meaning layer's reading of a label counts from this certainty (a name read through the glossary, or better). */
const SURE_READING = 0.75;
/** A heading has few words; a line of more is text. */
const MAX_HEADING_WORDS = 24;
/** A label is at most this many words ("Prix unitaire HT (EUR)"). */
const MAX_LABEL_WORDS = 4;
/** A cell of more words is not split into labels (the split is tried over every run of words). */
const MAX_SPLIT_WORDS = 12;
/** Labels printed in one cell meet at a blank this many characters wide (the words of one label are a space apart, about half a character). */
const LABEL_GAP = 0.75;
/** What splitting a printed cell in two costs: a label with a modifier ("Prix HT", "Summe netto") stays one. */
const SPLIT_COST = 0.12;
/** A column nobody asked for still counts for the split (it keeps its values from its neighbours), at this share of its certainty. */
const UNASKED_SHARE = 0.5;
/** Lines of a heading block above and below its main line. */
const MAX_ABOVE = 5;
const MAX_BELOW = 5;
/** Lines of one heading block lie closer than this share of a line's height. */
const BLOCK_GAP = 0.2;
/** A line of heading words joins the block across a line's ordinary leading. */
const LEADING_GAP = 0.5;

const NO_READING: PhraseReading = { facet: undefined, certainty: 0 };
const READING_CACHE_LIMIT = 5000;
const readings = new Map<string, PhraseReading>();

/**
 * What a heading's words mean as an item property ("prix unitaire" ->
 * unit-price), when one of them is a heading word at all; cached, the same
 * headings come with every invoice of a supplier.
 */
export function readPhrase(norms: readonly string[]): PhraseReading {
  if (!norms.some(isHeadingWord)) return NO_READING;
  // a name loses its signs when read as words: "MwSt %" is the VAT percent, not the VAT
  const key = norms.map((norm) => (norm === '%' ? 'percent' : norm)).join(' ');
  const known = readings.get(key);
  if (known) return known;
  const meaning = meaningOf({ name: key, description: '', types: [], path: [], inItems: true });
  const reading = meaning.facet && meaning.certainty >= SURE_READING ? { facet: meaning.facet.id, certainty: meaning.certainty } : NO_READING;
  if (readings.size >= READING_CACHE_LIMIT) readings.clear();
  readings.set(key, reading);
  return reading;
}

/** Scores worked out per property and label: the same labels come back on every page and every row that prints a code. */
const scores = new WeakMap<ItemField, Map<string, number>>();
const SCORE_CACHE_LIMIT = 2000;

/** How well a label names a property: its facet, else the property's own label words (any language's). */
export function bindingScore(field: ItemField, tokens: readonly Token[], reading: PhraseReading): number {
  let known = scores.get(field);
  if (!known) scores.set(field, (known = new Map()));
  const key = `${reading.facet ?? ''}:${reading.certainty}:${tokens.map((token) => token.norm).join(' ')}`;
  let score = known.get(key);
  if (score === undefined) {
    score = scoreBinding(field, tokens, reading);
    if (known.size >= SCORE_CACHE_LIMIT) known.clear();
    known.set(key, score);
  }
  return score;
}

function scoreBinding(field: ItemField, tokens: readonly Token[], reading: PhraseReading): number {
  let best = field.facet !== undefined && reading.facet === field.facet ? Math.min(1, reading.certainty + 0.08) : 0;
  if (tokens.length === 0 || tokens.length > 2 * MAX_LABEL_WORDS) return best;
  // a label the meaning layer reads surely as something else is not this property because a word of it matches
  const otherFacet = field.facet !== undefined && reading.facet !== undefined && reading.facet !== field.facet && reading.certainty >= 0.9;
  for (const label of field.hints.labels) {
    const match = matchPhrase(tokens, label.words);
    if (!match || match.score < 0.8) continue;
    // a heading cell is the label itself, not a sentence containing it
    const coverage = (match.last - match.first) / tokens.length;
    if (coverage < 0.5) continue;
    const score = match.score * label.weight * (0.8 + 0.2 * coverage) * (otherFacet ? 0.6 : 1);
    best = Math.max(best, score);
  }
  return Math.min(1, best);
}

/** A line that may be printed with a heading: a few words, no digits. */
export function mayBeHeading(line: RuleLine): boolean {
  return line.words.length <= MAX_HEADING_WORDS && !/\d/.test(line.text);
}

/** Every word of the line is a heading word (signs and words of one or two letters aside: "(EUR)", "in", "%"). */
function madeOfHeadingWords(line: RuleLine): boolean {
  const words = line.tokens.filter((token) => token.norm.length > 2 && !/^\p{Lu}{3}$/u.test(line.text.slice(token.start, token.end)));
  return words.length > 0 && words.every((token) => isHeadingWord(token.norm));
}

/** A line that may be a heading itself: a few words, no figure, a digit in one word at most (OCR reads "MwSt-%" as "MwSt-8"). */
export function mayHead(line: RuleLine): boolean {
  if (line.words.length > MAX_HEADING_WORDS || /\d[.,]\d/.test(line.text)) return false;
  let withDigits = 0;
  for (const word of line.words) if (/\d/.test(word.text) && ++withDigits > 1) return false;
  return true;
}

/** Whether a line holds two heading words: only those are read closely as headings. */
export function namesColumns(line: RuleLine): boolean {
  let count = 0;
  for (const token of line.tokens) if (isHeadingWord(token.norm) && ++count >= 2) return true;
  return false;
}

/** The labels of a heading line, left to right: each gap-separated cell, split where it holds several labels. */
export function headingLabels(line: RuleLine, fields: readonly ItemField[]): HeaderLabel[] {
  const labels: HeaderLabel[] = [];
  for (const cell of line.cells) {
    const words = line.words.filter((word) => word.start >= cell.start && word.end <= cell.end);
    for (const part of splitCell(words, fields, line.charWidth)) labels.push(part);
  }
  return labels;
}

function labelOf(words: readonly RuleWord[]): HeaderLabel {
  const text = words.map((word) => word.text).join(' ');
  const tokens = tokenize(text);
  return {
    text,
    tokens,
    x0: minOf(words, (w) => w.x0),
    x1: maxOf(words, (w) => w.x1),
    y0: minOf(words, (w) => w.y0),
    y1: maxOf(words, (w) => w.y1),
    words: words.map((word) => word.ref),
    // a label has no figures (the one digit OCR puts into a heading line reads as nothing)
    ...(/\d/.test(text) ? NO_READING : readPhrase(tokens.map((token) => token.norm))),
  };
}

/** How much a label is worth as a column: the best property it names, or (for a column none asks for) its facet at a share. */
function labelValue(label: HeaderLabel, fields: readonly ItemField[]): number {
  if (/\d/.test(label.text)) return 0;
  let value = label.facet ? UNASKED_SHARE * label.certainty : 0;
  for (const field of fields) value = Math.max(value, bindingScore(field, label.tokens, label));
  return value;
}

/**
 * The labels of one printed cell: the cell itself when it reads surely as
 * one label; else the split into runs of words that names most (each run
 * at most MAX_LABEL_WORDS, a split costing SPLIT_COST).
 */
function splitCell(words: readonly RuleWord[], fields: readonly ItemField[], charWidth: number): HeaderLabel[] {
  const whole = labelOf(words);
  if (words.length === 1 || words.length > MAX_SPLIT_WORDS || whole.certainty >= 0.9 || labelValue(whole, fields) >= 0.9) return [whole];
  // where two labels meet: a wider blank than between the words of one, or another baseline ("Pos" beside a stacked "Art-Nr-Lief.")
  const height = maxOf(words, (word) => word.y1 - word.y0);
  const apart = (k: number): boolean => words[k]!.x0 - words[k - 1]!.x1 >= LABEL_GAP * charWidth || Math.abs(words[k]!.y0 - words[k - 1]!.y0) >= 0.3 * height;
  const best: Array<{ value: number; labels: HeaderLabel[] } | undefined> = [{ value: 0, labels: [] }];
  for (let end = 1; end <= words.length; end++) {
    let choice: { value: number; labels: HeaderLabel[] } | undefined;
    if (end === words.length || apart(end)) {
      for (let start = end - 1; start >= 0 && end - start <= MAX_LABEL_WORDS; start--) {
        const before = best[start];
        if (!before || (start > 0 && !apart(start))) continue;
        const label = start === 0 && end === words.length ? whole : labelOf(words.slice(start, end));
        const value = before.value + labelValue(label, fields) - (before.labels.length > 0 ? SPLIT_COST : 0);
        if (!choice || value > choice.value) choice = { value, labels: [...before.labels, label] };
      }
    }
    best.push(choice);
  }
  const split = best[words.length];
  return split && split.value > labelValue(whole, fields) ? split.labels : [whole];
}

/** The words of a label block read as one: "Positions-" + "betrag" is "Positionsbetrag". */
function joinLabels(labels: readonly HeaderLabel[]): string {
  let text = '';
  for (const label of labels) text = text === '' ? label.text : /\p{L}-$/u.test(text) ? `${text.slice(0, -1)}${label.text}` : `${text} ${label.text}`;
  return text;
}

/** A label broken over two lines with a hyphen ("Positions-" over "betrag") is one label. */
function joinHyphenated(labels: readonly HeaderLabel[]): HeaderLabel[] {
  const joined: HeaderLabel[] = [];
  for (const label of labels) {
    const previous = joined[joined.length - 1];
    if (!previous || !/\p{L}-$/u.test(previous.text)) {
      joined.push(label);
      continue;
    }
    const text = `${previous.text.slice(0, -1)}${label.text}`;
    const tokens = tokenize(text);
    joined[joined.length - 1] = {
      text,
      tokens,
      x0: Math.min(previous.x0, label.x0),
      x1: Math.max(previous.x1, label.x1),
      y0: previous.y0,
      y1: label.y1,
      words: [...previous.words, ...label.words],
      ...readPhrase(tokens.map((token) => token.norm)),
    };
  }
  return joined;
}

function columnOf(labels: HeaderLabel[]): Column {
  const joined = labels.length === 1 ? labels[0]! : readPhrase(tokenize(joinLabels(labels)).map((token) => token.norm));
  // a block the meaning layer cannot read as one ("NOM & DESIGNATION, Période / Objet, Classification") reads as its surest label
  const surest = labels.reduce((a, b) => (b.certainty > a.certainty ? b : a));
  const reading = joined.facet !== undefined ? joined : surest;
  return { x0: minOf(labels, (l) => l.x0), x1: maxOf(labels, (l) => l.x1), labels, reading: { facet: reading.facet, certainty: reading.certainty } };
}

function overlap(a: { x0: number; x1: number }, b: { x0: number; x1: number }): number {
  return Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0));
}

/** The typical height of a line's words (a word in the margin printed on its side is far taller). */
export function lineHeight(line: RuleLine): number {
  const heights = line.words.map((word) => word.y1 - word.y0).sort((a, b) => a - b);
  return Math.max(heights[heights.length >> 1] ?? line.y1 - line.y0, 0.01);
}

/** Vertical extent of a line's words of typical height. */
export function lineBand(line: RuleLine): { y0: number; y1: number } {
  const height = lineHeight(line);
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const word of line.words) {
    if (word.y1 - word.y0 > 2 * height) continue;
    y0 = Math.min(y0, word.y0);
    y1 = Math.max(y1, word.y1);
  }
  return y0 <= y1 ? { y0, y1 } : { y0: line.y0, y1: line.y1 };
}

/**
 * The heading around a line that names columns: the lines printed with it
 * as one block (close above and below, without figures) stacked into its
 * columns, or beside them as columns of their own.
 */
export function headerAt(lines: readonly RuleLine[], position: number, fields: readonly ItemField[]): TableHeader | undefined {
  const main = lines[position]!;
  const height = lineHeight(main);
  // `upper` printed right above `lower`, the one of them joining the block without figures; a line's leading
  // apart only when it is made of heading words ("Einzel-" over "preis"), not a first row's name
  const near = (upper: RuleLine, lower: RuleLine, joining: RuleLine): boolean => {
    if (upper.page !== lower.page || !mayBeHeading(joining) || lineBand(upper).y0 >= lineBand(lower).y0) return false;
    const gap = lineBand(lower).y0 - lineBand(upper).y1;
    return gap <= BLOCK_GAP * height || (gap <= LEADING_GAP * height && madeOfHeadingWords(joining));
  };
  let first = position;
  while (first > 0 && position - first < MAX_ABOVE && near(lines[first - 1]!, lines[first]!, lines[first - 1]!)) first--;
  let last = position;
  while (last + 1 < lines.length && last - position < MAX_BELOW && near(lines[last]!, lines[last + 1]!, lines[last + 1]!)) last++;
  const columns: Column[] = [];
  const mainLabels = headingLabels(main, fields);
  const own = bindFields(mainLabels.map((label) => columnOf([label])), fields).filter((binding) => binding.direct).length;
  if (own === 0) return undefined;
  const stacks: HeaderLabel[][] = mainLabels.map((label) => [label]);
  for (let at = first; at <= last; at++) {
    if (at === position) continue;
    for (const label of headingLabels(lines[at]!, fields)) {
      // a label over two columns ("Preis (EUR)" over "Einzel" and "Gesamt") groups them; it names neither
      const spanned = stacks.slice(0, mainLabels.length).filter((stack) => overlap(stack[0]!, label) >= 0.6 * (stack[0]!.x1 - stack[0]!.x0)).length;
      if (spanned >= 2) continue;
      let best = -1;
      let bestOverlap = 0;
      stacks.forEach((stack, index) => {
        const extent = { x0: minOf(stack, (l) => l.x0), x1: maxOf(stack, (l) => l.x1) };
        const shared = overlap(extent, label);
        if (shared > bestOverlap && shared >= 0.3 * Math.min(extent.x1 - extent.x0, label.x1 - label.x0)) {
          best = index;
          bestOverlap = shared;
        }
      });
      if (best >= 0) stacks[best]!.push(label);
      else stacks.push([label]);
    }
  }
  for (const stack of stacks) columns.push(columnOf(joinHyphenated(stack.sort((a, b) => a.y0 - b.y0))));
  columns.sort((a, b) => a.x0 + a.x1 - (b.x0 + b.x1));
  const bindings = bindFields(columns, fields);
  const matched = bindings.filter((binding) => binding.direct).length;
  if (matched === 0) return undefined;
  const y1 = maxOf(lines.slice(first, last + 1), (line) => lineBand(line).y1);
  return { first, last, page: main.page, y1, lineHeight: height, columns, bindings, matched, own };
}

/**
 * Each property to the column (or stacked label) that names it best, each
 * column once; then an amount the heading does not name to the only column
 * of money left (a "Prix HT" beside "Prix unitaire" is the line's amount),
 * which the sums check afterwards (arithmetic.ts).
 */
function bindFields(columns: readonly Column[], fields: readonly ItemField[]): Binding[] {
  const pairs: Binding[] = [];
  columns.forEach((column, index) => {
    const text = joinLabels(column.labels);
    const tokens = tokenize(text);
    // a column of stacked labels that mean different things (an article number over the name) holds one value a line;
    // else the column is what its labels say together, or what the one of them the meaning layer reads says ("TOTAL HT" over "(EUR)")
    const facets = new Set(column.labels.map((label) => label.facet).filter((facet) => facet !== undefined));
    for (const field of fields) {
      let whole = bindingScore(field, tokens, column.reading);
      if (facets.size < 2 && column.labels.length > 1) for (const label of column.labels) if (label.facet !== undefined) whole = Math.max(whole, bindingScore(field, label.tokens, label));
      if (whole >= MIN_BINDING) pairs.push({ field, column: index, stack: -1, score: whole, direct: true });
      if (column.labels.length < 2) continue;
      column.labels.forEach((label, stack) => {
        const own = bindingScore(field, label.tokens, label);
        // a stacked label binds on its own where the column as a whole does not say as much, or says something else
        // (an article number over the name: "Art-Nr-Lieferant" over "Artikelbezeichnung")
        const specific = stack > 0 && field.facet !== undefined && label.facet === field.facet && column.reading.facet !== field.facet;
        if (own >= MIN_BINDING && (own > whole + 0.05 || specific)) pairs.push({ field, column: index, stack, score: specific ? Math.max(own, whole) + 0.01 : own, direct: true });
      });
    }
  });
  // on a tie a name takes the wider column (a description column is the table's widest), anything else the first
  const width = (pair: Binding): number => (pair.field.facet === 'item-name' ? columns[pair.column]!.x1 - columns[pair.column]!.x0 : 0);
  pairs.sort((a, b) => b.score - a.score || width(b) - width(a) || a.column - b.column);
  const bound: Binding[] = [];
  const wholeTaken = new Set<number>();
  const stackTaken = new Set<string>();
  for (const pair of pairs) {
    if (bound.some((b) => b.field === pair.field)) continue;
    if (wholeTaken.has(pair.column)) continue;
    if (pair.stack === -1 ? [...stackTaken].some((key) => key.startsWith(`${pair.column}/`)) : stackTaken.has(`${pair.column}/${pair.stack}`)) continue;
    if (pair.stack === -1) wholeTaken.add(pair.column);
    else stackTaken.add(`${pair.column}/${pair.stack}`);
    bound.push(pair);
  }
  const free = (index: number): boolean => !bound.some((b) => b.column === index);
  for (const field of fields) {
    const kin = field.facet === undefined ? undefined : KINDRED[field.facet];
    if (bound.some((b) => b.field === field) || !isNumeric(field) || !kin) continue;
    const money = columns.map((column, index) => ({ column, index })).filter(({ column, index }) => free(index) && column.reading.facet !== undefined && kin.includes(column.reading.facet));
    if (money.length === 0) continue;
    // the line's amount is printed last, a price before it
    const pick = field.facet === 'line-net' || field.facet === 'line-gross' ? money[money.length - 1]! : money[0]!;
    bound.push({ field, column: pick.index, stack: -1, score: 0.6, direct: false });
  }
  return bound;
}

/** The columns that may stand in for a property of a facet no heading names: a price for a price, an amount for an amount (never a VAT column). */
const KINDRED: Readonly<Record<string, readonly string[]>> = {
  'unit-price': ['unit-price', 'gross-price'],
  'gross-price': ['gross-price', 'unit-price'],
  'line-net': ['line-net', 'line-gross'],
  'line-gross': ['line-gross', 'line-net'],
};
