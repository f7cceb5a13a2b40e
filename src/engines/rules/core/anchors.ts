/**
 * Label anchors: places in the document where a label for a field is
 * printed, and the value printed to the right of it or just below it.
 */
import { tokenize, type Token } from '../../../meaning/words.js';
import type { WordRef } from '../../../document/document.js';
import { matchPhraseAll, tokenRange, tokensBefore, wordSimilarity } from './fuzzy.js';
import { INCLUSION_WORDS, NUMBER_MARKERS, type FieldHints } from './labels.js';
import { cellAt, digitGroupBlanks, spanX, type Cell, type RuleLine } from './lines.js';
import { findValues, type Found } from './parsers.js';
import type { ValueKind } from './kinds.js';
import { maxOf } from '../../../util/extremes.js';

export interface Anchor {
  line: RuleLine;
  /** Position of the line in the searched lines. */
  position: number;
  score: number;
  /** Character offsets of the label in the line's text. */
  start: number;
  end: number;
  /** The label opens its cell, as labels do ("Total: 9.00"), rather than sitting inside prose. */
  opensCell: boolean;
  /** Words before the label in its cell ("Food" in "Food Subtotal"). */
  wordsBefore: number;
  /** Number of words of the label. */
  span: number;
  /** A separator (":", "#", "=") or a column gap follows the label. */
  terminated: boolean;
}

export interface AnchoredValue {
  found: Found;
  anchor: Anchor;
  line: RuleLine;
  score: number;
  /** Further words the value was computed from (a rounding adjustment added to a total). */
  also?: WordRef[];
}

const MIN_LABEL_SCORE = 0.8;
const NEGATIVE_WINDOW = 2;
const TEXT_KINDS = new Set<ValueKind>(['text', 'business-name', 'address', 'enum']);

export function findAnchors(lines: readonly RuleLine[], hints: FieldHints, minWeight = 0): Anchor[] {
  const anchors: Anchor[] = [];
  lines.forEach((line, position) => {
    let best: Anchor | undefined;
    const readable = labelTokens(line);
    for (const label of hints.labels) {
      if (label.weight < minWeight) continue;
      for (const found of matchPhraseAll(readable.tokens, label.words)) {
        const match = { score: found.score, first: readable.at[found.first]!, last: readable.at[found.last - 1]! + 1 };
        const score = match.score * label.weight;
        const span = match.last - match.first;
        // on a tie the longer label wins: "Grand Total" is one label, not "Grand" before "Total"
        if (match.score < MIN_LABEL_SCORE || (best && (best.score > score || (best.score === score && best.span >= span)))) continue;
        if (nearNegative(line, match.first, match.last, hints.negatives)) continue;
        const start = line.tokens[match.first]!.start;
        const end = line.tokens[match.last - 1]!.end;
        const cell = cellAt(line, start);
        // words before the label in its cell: only their count and the first and last one matter
        const [first, last] = cell ? tokenRange(line.tokens, cell.start, start) : [0, 0];
        const wordsBefore = last - first;
        if (label.bare && hints.qualifiers.length > 0 && qualifiedOtherwise(line.tokens[last - 1], wordsBefore, hints.nameWords)) continue;
        const rest = line.text.slice(end, cell?.end ?? line.text.length);
        const opensCell = wordsBefore === 0 || (wordsBefore === 1 && /^(?:\d{1,2}|[a-z]|[ivx]{1,4})$/.test(line.tokens[first]!.norm));
        best = { line, position, score, span, start, end, opensCell, wordsBefore, terminated: /^\s*(?:[:#=\-–|>]|$)/.test(rest) };
      }
    }
    if (best) anchors.push(best);
  });
  return anchors;
}

/**
 * The tokens labels are matched on: a type code in brackets between the
 * words of a label is skipped ("Handelsrechnung (380) Nr." is a "Rechnung Nr."),
 * with the position of each kept token in the line's tokens.
 */
function labelTokens(line: RuleLine): { tokens: readonly Token[]; at: readonly number[] } {
  const all = line.tokens;
  if (!BRACKETED_CODE.test(line.text)) return { tokens: all, at: all.map((_, index) => index) };
  const tokens: Token[] = [];
  const at: number[] = [];
  all.forEach((token, index) => {
    const bracketed = line.text[token.start - 1] === '(' && line.text[token.end] === ')' && /^\d+$/.test(token.norm);
    if (bracketed && index > 0) return;
    tokens.push(token);
    at.push(index);
  });
  return { tokens, at };
}

const BRACKETED_CODE = /\(\d+\)/;

/** "Invoice date" is not the label of due_date: a bare label qualified by a word foreign to the property. */
function qualifiedOtherwise(previous: Token | undefined, wordsBefore: number, nameWords: readonly string[]): boolean {
  return wordsBefore > 0 && previous !== undefined && /\p{L}{2}/u.test(previous.norm) && !nameWords.includes(previous.norm);
}

/**
 * "Sub Total", "Total Qty", "Due date": a word next to the label that makes it
 * another field. OCR misspells these words as much as labels ("Digcount"), so
 * longer words match loosely. Words count only inside the label's own cell:
 * in "NET TOTAL    VAT 0    197,70" the VAT column is not part of the label,
 * nor are the other headings of a row "Subtotal    Tax    Total".
 */
function nearNegative(line: RuleLine, first: number, last: number, negatives: readonly string[]): boolean {
  if (negatives.length === 0) return false;
  const cell = cellAt(line, line.tokens[first]!.start);
  const inCell = (t: Token): boolean => !cell || (t.start >= cell.start && t.start <= cell.end);
  const before = line.tokens.slice(Math.max(0, first - NEGATIVE_WINDOW), first).filter(inCell);
  const after = line.tokens.slice(last, last + NEGATIVE_WINDOW).filter(inCell);
  const around = [...before, ...after].map((t) => t.norm);
  const inside = new Set(line.tokens.slice(first, last).map((t) => t.norm));
  if ([...around, ...inside].some((word) => INCLUSION_WORDS.has(word))) return false;
  // "Tel/Fax", "Phone & Fax": one number for both, not another field's label
  const joined = after[0] && /^\s*[/&+]\s*$/.test(line.text.slice(line.tokens[last - 1]!.end, after[0].start)) ? after[0].norm : undefined;
  return around.some((word) => !inside.has(word) && word !== joined && negatives.some((negative) => isWord(word, negative)));
}

/** Equal, or an OCR misreading of a word of five letters or more. */
function isWord(word: string, negative: string): boolean {
  return word === negative || (negative.length >= 5 && wordSimilarity(word, negative) >= 0.8);
}

/** The value printed after the label on its line, or in the same column on the next lines. */
export function valueAt(anchor: Anchor, lines: readonly RuleLine[], kind: ValueKind, dayFirst: boolean): AnchoredValue | undefined {
  // free text is only read after something that is clearly a label, never out of prose
  if (TEXT_KINDS.has(kind) && !(anchor.opensCell && anchor.terminated)) return undefined;
  // "MwSt.-% 19,0", "VAT % 20": the label of a rate, not of an amount (which has cents: "TAX% 6.65")
  if (AMOUNT_KINDS.has(kind) && RATE_AFTER_LABEL.test(anchor.line.text.slice(anchor.end))) return undefined;
  const right = valueRightOf(anchor, kind, dayFirst);
  if (right) return { found: right, anchor, line: anchor.line, score: anchor.score * right.score };
  const below = valueBelow(anchor, lines, kind, dayFirst);
  // a value below its label is a little less sure than one beside it, unless it adds up the column above it
  if (below) return { found: below.found, line: below.line, anchor, score: anchor.score * below.found.score * (below.summed ? 1 : 0.85) };
  return undefined;
}

const AMOUNT_KINDS = new Set<ValueKind>(['amount', 'number', 'integer']);
const RATE_AFTER_LABEL = /^[\s.:\-–]*%[\s:]*\d{1,2}(?:[.,]\d)?(?![\d.,]*\d)/;

const LEADING_SEPARATORS = /^[\s:#.\-–=|>)\]]+/;

function valueRightOf(anchor: Anchor, kind: ValueKind, dayFirst: boolean): Found | undefined {
  const { line } = anchor;
  if (TEXT_KINDS.has(kind)) return textRightOf(anchor);
  // "Total- 24.80": a dash glued to the label and spaced from the amount is a separator, not a minus
  const rest = line.text.slice(anchor.end, nextLabelStart(line, anchor.end)).replace(/^-(?=\s)/, ' ');
  const found = findValues(kind, rest, dayFirst, digitGroupBlanks(line, anchor.end));
  const best = kind === 'identifier' ? announcedIdentifier(rest, found, anchor.wordsBefore === 0) : bestNearest(found);
  return best && { ...best, start: best.start + anchor.end, end: best.end + anchor.end };
}

/** Where the next "Label:" cell starts, so that "Date:     Due date: 13/04" gives the first date nothing. */
function nextLabelStart(line: RuleLine, after: number): number {
  const next = line.cells.find((cell) => cell.start > after && /^\p{L}[^:\d]{0,30}:/u.test(cell.text));
  return next ? next.start : line.text.length;
}

/** Rest of the label's cell, else the next cell: "Name: ACME" / "Name   ACME". */
function textRightOf(anchor: Anchor): Found | undefined {
  const { line } = anchor;
  const cell = cellAt(line, anchor.start);
  if (!cell) return undefined;
  const rest = line.text.slice(anchor.end, cell.end);
  const trimmed = rest.replace(LEADING_SEPARATORS, '').trim();
  if (trimmed !== '') {
    const start = anchor.end + rest.length - rest.replace(LEADING_SEPARATORS, '').length;
    return { value: trimmed, text: trimmed, start, end: cell.end, score: 1 };
  }
  const next = line.cells[line.cells.indexOf(cell) + 1];
  // "Name   ACME" is a label and its value; "Item   Quantity   Price" is a table header
  if (!next || !(/^\s*[:#=\-–|>]/.test(rest) || line.cells.length === 2)) return undefined;
  const text = next.text.replace(LEADING_SEPARATORS, '').trim();
  return text ? { value: text, text, start: next.start, end: next.end, score: 0.95 } : undefined;
}

const LINES_BELOW = 2;
/** A cell starting this many characters left of a label is not in the label's column. */
const FAR_LEFT_CHARS = 8;
/** Under the heading of a summary table, lines of the text beside it may come between the heading and its figures. */
const LINES_BELOW_TABLE_HEADING = 4;

function valueBelow(anchor: Anchor, lines: readonly RuleLine[], kind: ValueKind, dayFirst: boolean): { found: Found; line: RuleLine; summed?: boolean } | undefined {
  // under a column heading ("Product  Quantity  Price  Subtotal") are item rows, not the field's value;
  // a heading over one row of figures ("Subtotal  Tax  Total" / "10.00  0.80  10.80") is a summary and is read
  if (!TEXT_KINDS.has(kind) && isTableHeader(anchor.line) && /\p{L}{2}/u.test(rowUnder(anchor.line, lines, anchor.position) ?? '')) return undefined;
  const label = spanX(anchor.line, anchor.start, anchor.end);
  const tolerance = 2 * anchor.line.charWidth;
  const reach = !TEXT_KINDS.has(kind) && isTableHeader(anchor.line) ? LINES_BELOW_TABLE_HEADING : LINES_BELOW;
  for (let offset = 1; offset <= reach; offset++) {
    const line = lines[anchor.position + offset];
    if (!line || line.page !== anchor.line.page) return undefined;
    // a figure stands under its label; text running in from far left ("Indemnité forfaitaire ... : 40 €.") is the next column's
    let cells = line.cells.filter((c) => c.x1 >= label.x0 - tolerance && c.x0 <= label.x1 + tolerance && (TEXT_KINDS.has(kind) || c.x0 >= label.x0 - FAR_LEFT_CHARS * anchor.line.charWidth));
    // "Sub Total" with its amount alone on the next line, right-aligned in another column
    if (cells.length === 0 && offset === 1 && !TEXT_KINDS.has(kind) && line.cells.length === 1 && line.cells[0]!.x0 >= label.x0) cells = line.cells;
    if (cells.length === 0) continue;
    const start = cells[0]!.start;
    const text = line.text.slice(start, cells[cells.length - 1]!.end);
    if (TEXT_KINDS.has(kind)) {
      // free text below a label only under a heading-like label ("Bill to:" or a label alone on its line)
      const heading = /:\s*$/.test(anchor.line.text.slice(anchor.end).trim() || ':') && anchor.line.cells.length === 1;
      return heading ? { found: { value: text.trim(), text: text.trim(), start, end: start + text.length, score: 1 }, line } : undefined;
    }
    const found = columnValue(line, cells, kind, dayFirst);
    // a value below its label stands alone; "Payment method >5>cc..." is text that happens to hold a digit
    if (!found) return undefined;
    const sum = isHeadingRow(anchor.line) ? columnSum(lines, anchor.position + offset, label, tolerance, found.found, kind, dayFirst) : undefined;
    return sum ? { ...sum, summed: true } : found;
  }
  return undefined;
}

/** The value standing alone in the cells of a column on one line. */
function columnValue(line: RuleLine, cells: readonly Cell[], kind: ValueKind, dayFirst: boolean): { found: Found; line: RuleLine } | undefined {
  const start = cells[0]!.start;
  const text = line.text.slice(start, cells[cells.length - 1]!.end);
  const found = bestNearest(findValues(kind, text, dayFirst, digitGroupBlanks(line, start)));
  return found && standsAlone(text, found) ? { found: { ...found, start: found.start + start, end: found.end + start }, line } : undefined;
}

/**
 * The text of the first row under a table heading, in the heading's width:
 * lines of the text beside the table ("taux d'intérêt légal.") are not its rows.
 */
function rowUnder(heading: RuleLine, lines: readonly RuleLine[], position: number): string | undefined {
  const x0 = heading.cells[0]!.x0 - 2 * heading.charWidth;
  const x1 = heading.cells[heading.cells.length - 1]!.x1 + 2 * heading.charWidth;
  for (let at = position + 1; at <= position + LINES_BELOW_TABLE_HEADING && at < lines.length; at++) {
    const line = lines[at]!;
    if (line.page !== heading.page) return undefined;
    const under = line.cells.filter((cell) => cell.x1 >= x0 && cell.x0 <= x1);
    if (under.length > 0) return under.map((cell) => cell.text).join(' ');
  }
  return undefined;
}

/** Rows of a summary table a column sum may close. */
const MAX_SUMMED_ROWS = 8;

/**
 * Under a heading of a summary table, one row per VAT rate and a last row
 * of their sums ("Nettobetrag: 321,40 / 127,59 / 448,99"): the field is the
 * sum, the amount that adds up the ones above it in the column.
 */
function columnSum(lines: readonly RuleLine[], first: number, label: { x0: number; x1: number }, tolerance: number, top: Found, kind: ValueKind, dayFirst: boolean): { found: Found; line: RuleLine } | undefined {
  if (kind !== 'amount' && kind !== 'number') return undefined;
  const column: Array<{ found: Found; line: RuleLine }> = [];
  for (let at = first; at < lines.length && at < first + MAX_SUMMED_ROWS; at++) {
    const line = lines[at]!;
    const cells = line.cells.filter((c) => c.x1 >= label.x0 - tolerance && c.x0 <= label.x1 + tolerance);
    const value = cells.length > 0 && line.page === lines[first]!.page ? columnValue(line, cells, kind, dayFirst) : undefined;
    if (!value) break;
    column.push(value);
  }
  if (column.length < 3 || Number(column[0]!.found.value) !== Number(top.value)) return undefined;
  const last = column[column.length - 1]!;
  const total = Number(last.found.value);
  const above = column.slice(0, -1).reduce((sum, row) => sum + Number(row.found.value), 0);
  // the rows of a credit note are all negative: one whose minus OCR lost still adds up in magnitude
  const magnitudes = column.slice(0, -1).reduce((sum, row) => sum + Math.abs(Number(row.found.value)), 0);
  return Math.abs(above - total) < 0.005 || Math.abs(magnitudes - Math.abs(total)) < 0.005 ? last : undefined;
}

/**
 * The number a label announces: "Invoice No. 4471", "Facture FA-2017-0009",
 * "Handelsrechnung (380) Nr. E2018092011804" (a type code in brackets, then a
 * number marker). Other words between the label and a value make it a
 * sentence ("Rechnung gemäß Taxifahrt vom ...", "Rechnungen für ZUGFeRD 2.2"),
 * unless a label heading its line ends them with a number marker ("Rechnung
 * des Versicherers (575) Nr. 00.123.456.7-2018-1"). The first identifier
 * after a marker, else the first not in brackets.
 */
function announcedIdentifier(text: string, found: readonly Found[], heading: boolean): Found | undefined {
  const bracketed = (f: Found): boolean => text[f.start - 1] === '(' && text[f.end] === ')';
  const inBrackets = (token: Token): boolean => found.some((other) => bracketed(other) && other.start <= token.start && token.end <= other.end);
  const afterMarker = (f: Found): boolean => {
    const before = tokensBefore(tokenize(text.slice(0, f.start)), f.start, 1)[0];
    return before !== undefined && NUMBER_MARKERS.has(before.norm);
  };
  const wordsBefore = (f: Found): number => tokenize(text.slice(0, f.start)).filter((token) => !NUMBER_MARKERS.has(token.norm) && !inBrackets(token)).length;
  const announced = found.filter((f) => wordsBefore(f) === 0 || (heading && afterMarker(f) && wordsBefore(f) <= MAX_WORDS_BEFORE_MARKER));
  const chosen = announced.find(afterMarker) ?? announced.find((f) => !bracketed(f)) ?? announced[0];
  // read past words of the heading, the number is less surely the document's own ("... Kraftfahrtversicherung Nr. 00.123.456.7")
  return chosen && wordsBefore(chosen) > 0 ? { ...chosen, score: chosen.score * PAST_WORDS_SCORE } : chosen;
}

const PAST_WORDS_SCORE = 0.8;

/** Words a heading may print between its title and the number marker ("Rechnung des Versicherers Nr."). */
const MAX_WORDS_BEFORE_MARKER = 3;

/** Three or more cells, most of them words: a heading row, also when OCR read a sign as a figure ("MwSt-%" as "Mwst-8"). */
function isHeadingRow(line: RuleLine): boolean {
  return line.cells.length >= 3 && line.cells.filter((cell) => /\d/.test(cell.text)).length <= line.cells.length / 3;
}

/** Three or more cells of words and no figures: the heading row of a table. */
function isTableHeader(line: RuleLine): boolean {
  return line.cells.length >= 3 && !/\d/.test(line.text);
}

/** Little besides the value in its cells: at most a currency code or a stray mark. */
function standsAlone(text: string, found: Found): boolean {
  const rest = text.slice(0, found.start) + text.slice(found.end);
  return (rest.match(/[\p{L}\p{N}]/gu) ?? []).length <= 3;
}

/** The first of the most typical values: for "Total 3 items 76.20" the amount with cents. */
function bestNearest(found: Found[]): Found | undefined {
  const top = maxOf(found, (f) => f.score);
  return found.find((f) => f.score === top);
}
