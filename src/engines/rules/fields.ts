/**
 * One scalar property: find its label, read the typed value next to it,
 * choose among repeated labels, fall back on label-free cues where the kind
 * of value is distinctive enough (a lone date, the header name).
 */
import { competitionAmong } from '../../schema/provenance.js';
import type { SchemaView } from '../../schema/schema-view.js';
import { findAnchors, valueAt, type AnchoredValue } from './core/anchors.js';
import { findEnumMention } from './core/enums.js';
import { findBusinessName, findHeaderAddress, isDocumentTitle, joinAddress, type AddressBlock, type HeaderName } from './receipts/header.js';
import { addressEvidence, addressSureness, collectAddress, repairPostcodes } from './receipts/address.js';
import { repairLegalForm } from './receipts/company.js';
import { columnBelow, footerSender, labelledParty, partyRole, recipientBlock, recipientByLayout, sameName, sellerByReference, senderReference } from './receipts/parties.js';
import type { FieldHints, ReadingLanguages } from './core/labels.js';
import { isNoise, mainText, sliceLine, wordsInRange, type Cell, type RuleLine } from './core/lines.js';
import { kindFor, type ValueKind } from './core/kinds.js';
import { present } from './core/present.js';
import { findValues, type Found } from './core/parsers.js';
import { readingOn, readingSpelled, type Reading } from './core/reading.js';
import { statedInProse } from './prose/prose-fields.js';
import { chooseTotal } from './receipts/totals.js';
import { firstUnlabelledPhone } from './receipts/phones.js';
import { documentDate, documentTime, type Stamp } from './receipts/stamps.js';
import { taxAmountOnLine } from './receipts/taxes.js';
import { maxOf } from '../../util/extremes.js';
import { tableWordSet } from './core/table-words.js';
import { sameWord } from '../../document/document.js';

export interface FieldContext {
  lines: readonly RuleLine[];
  dayFirst: boolean;
  /** The search is limited to a block (e.g. under "Bill to"): its first lines are the block's own. */
  inBlock: boolean;
  /** The languages the document is printed in (English always). */
  languages: ReadingLanguages;
}

const SCORE_TIE = 0.05;
/** Without a label, the first date of a document is its own date (invoice, receipt...), not e.g. a due or effective date. */
const DOCUMENT_DATE_WORDS = tableWordSet((language) => language.documentDateWords);

/** The property's value and the words it was read from; null when the document does not give it. */
export function extractScalar(view: SchemaView, hints: FieldHints, context: FieldContext): Reading | null {
  const kind = kindFor(view, hints);
  const reading = readScalar(kind, view, hints, context);
  return reading && (kind === 'address' || kind === 'business-name') ? { ...reading, role: kind } : reading;
}

function readScalar(kind: ValueKind, view: SchemaView, hints: FieldHints, context: FieldContext): Reading | null {
  const party = kind === 'business-name' || kind === 'text' ? partyRole(hints) : undefined;
  if (party && !context.inBlock) {
    // a party by its role's label in any language, then (a buyer) by the layout of a letter
    const labelled = labelledParty(hints, context.lines);
    if (labelled) return { ...withLegalForm(labelled), role: 'business-name' };
    if (party === 'buyer') return withLegalForm(recipientByLayout(context.lines, context.languages, sellerName(context.lines, context.languages)));
  }
  const candidates = labelledValues(kind, hints, context);
  const chosen = hints.concepts.has('total') && kind === 'amount' ? chooseTotal(candidates, context.lines, hints) : choose(candidates, hints);
  // values stated in sentences (contracts, letters): see prose-fields.ts
  const stated = statedInProse(kind, view, hints, context, chosen?.anchor);
  if (stated) return stated.reading;
  if (chosen) return { ...anchoredReading(chosen, present(chosen.found, kind, view, hints)), competition: competitionAmong(chosen, candidates, (c) => c.score, foundValueKey) };
  return fallback(kind, view, hints, context);
}

function foundValueKey(candidate: AnchoredValue): string {
  return JSON.stringify(candidate.found.value);
}

/** A labelled value: the words of the value itself (and of what it was computed from), scored by its label. */
export function anchoredReading(chosen: AnchoredValue, value: unknown): Reading {
  const reading = readingOn(value, chosen, chosen.score);
  return chosen.also ? { ...reading, words: [...reading.words, ...chosen.also] } : reading;
}

/** Every value announced by a label, with its score; lists of scalars take them all. */
export function labelledValues(kind: ValueKind, hints: FieldHints, context: FieldContext): AnchoredValue[] {
  // a business name is announced by its own words ("Vendor:"), not by a bare "Name:"
  const minWeight = kind === 'business-name' ? 0.9 : 0;
  const values: AnchoredValue[] = [];
  for (const anchor of findAnchors(context.lines, hints, minWeight)) {
    const read = valueAt(anchor, context.lines, kind, context.dayFirst);
    if (!read || !fits(read.found, kind)) continue;
    const value = kind === 'amount' && hints.concepts.has('tax') ? taxAmountOnLine(read) : read;
    // "Food Subtotal" is a narrower label than "Subtotal"
    const narrowing = [1, 0.94, 0.9][anchor.wordsBefore] ?? 0.8;
    values.push({ ...value, score: value.score * narrowing });
  }
  return values;
}

const MAX_TEXT_WORDS = 16;

function fits(found: Found, kind: ValueKind): boolean {
  if (kind === 'business-name' || kind === 'text') {
    const text = String(found.value);
    if (text.split(/\s+/).length > MAX_TEXT_WORDS) return false;
    return /\p{L}{2}/u.test(text) || (kind === 'text' && /\d/.test(text));
  }
  return true;
}

/** Among the best-labelled values, the occurrence the description asks for (first by default); totals: see totals.ts. */
function choose(candidates: AnchoredValue[], hints: FieldHints): AnchoredValue | undefined {
  if (candidates.length === 0) return undefined;
  const best = maxOf(candidates, (c) => c.score);
  const pool = candidates.filter((c) => c.score >= best - SCORE_TIE);
  const order = hints.occurrence ?? 'first';
  const byPosition = (a: AnchoredValue, b: AnchoredValue): number => a.line.index - b.line.index || a.found.start - b.found.start;
  const sorted = pool.sort(byPosition);
  return order === 'last' ? sorted[sorted.length - 1] : sorted[0];
}

/** The candidate in the JSON form its schema type wants. */
function fallback(kind: ValueKind, view: SchemaView, hints: FieldHints, context: FieldContext): Reading | null {
  const { lines } = context;
  const text = (at: Stamp | undefined): Reading | null => (at ? { ...readingOn(at.found.text, at), competition: at.competition } : null);
  switch (kind) {
    case 'date':
    case 'datetime':
      return hints.qualifiers.every((w) => DOCUMENT_DATE_WORDS.has(w)) ? text(documentDate(kind, lines, hints, context.dayFirst)) : null;
    case 'time':
      return text(documentTime(lines, context.dayFirst));
    case 'email':
    case 'url':
      return firstValue(kind, lines, context.dayFirst);
    case 'phone':
      return text(firstUnlabelledPhone(lines));
    case 'business-name':
      if (context.inBlock) return blockName(lines);
      return issuerByLayout(lines, context.languages, hints.negatives, hints.description)?.name ?? null;
    case 'text':
      return context.inBlock && hints.concepts.has('name') ? blockName(lines) : null;
    case 'address': {
      if (context.inBlock) return blockAddress(lines);
      // the buyer's address is the recipient's block, not the letterhead's
      if (partyRole(hints) === 'buyer' || hints.meaning.party === 'buyer') {
        const recipient = recipientBlock(lines, context.languages, sellerName(lines, context.languages));
        return recipient ? blockAddress(recipient.lines) : null;
      }
      const issuer = issuerByLayout(lines, context.languages);
      if (issuer?.address) return issuer.address;
      const name = findBusinessName(lines);
      const address = findHeaderAddress(lines, name);
      if (name && address) {
        // the other column printed between the address's lines, or right under its first line (the address then stops there)
        const column = columnAddress(lines, name);
        const start = address.lines[0]?.words[0]?.ref;
        const last = address.lines[address.lines.length - 1]!;
        const next = lines.find((line) => line.index > last.index);
        // the line that ended the address lies beside the name: its column goes on below it
        const cutShort = next !== undefined && besideName(next, name) && String(column?.value ?? '').length > address.text.length
          && start !== undefined && column?.words[0] !== undefined && sameWord(column.words[0], start);
        // the address's lines as printed (a line cut at its contact details has lost its other cells)
        const printed = address.lines.map((line) => lines.find((other) => other.index === line.index) ?? line);
        if (column && (printed.some((line) => besideName(line, name)) || cutShort)) return column;
      }
      return address ? headerAddressReading(address) : null;
    }
    case 'enum':
      return view.enumValues ? findEnumInLines(lines, view.enumValues) : null;
    case 'currency':
      return documentCurrency(lines, view, hints);
    default:
      return null;
  }
}

function headerAddressReading(address: AddressBlock): Reading {
  return readingSpelled(repairPostcodes(address.text), address.text, address.lines, address.score);
}

/** The header name's cell: the first of its last line that is not a document title. */
function nameCell(name: HeaderName): { line: RuleLine; cell: Cell } | undefined {
  const line = name.lines[name.lines.length - 1]!;
  const cell = line.cells.find((candidate) => !isDocumentTitle(candidate.text));
  return cell && { line, cell };
}

/**
 * A line of the header that prints another column beside the name's, not
 * under it: a line wholly beside it or a labelled field of the invoice
 * ("Rechnungsnummer: 2024-0147"), or any words when the name's own line
 * already has a column beside it
 * ("Solutions Azur SAS   Restaurant Le Cèdre"). Specks and a centred
 * receipt's wider lines are neither: a cell beside needs a word of five
 * letters or digits.
 */
function besideName(line: RuleLine, name: HeaderName): boolean {
  const at = nameCell(name);
  if (!at) return false;
  // a real column's cell: a word of five letters or digits ("Rechnungsnummer:", "Niederlassung"), not a speck at the paper's edge ("Bre", "lea")
  const beside = (cell: Cell): boolean => (cell.x0 > at.cell.x1 || cell.x1 < at.cell.x0) && /[\p{L}\p{N}]{5}/u.test(cell.text);
  const twoColumns = at.line.cells.some((cell) => cell !== at.cell && beside(cell) && !isDocumentTitle(cell.text));
  return line.cells.every(beside) || line.cells.some((cell) => beside(cell) && (twoColumns || /:/.test(cell.text)));
}

/** The address in the name's column, below it: the lines of the other column printed between its lines left out. */
function columnAddress(lines: readonly RuleLine[], name: HeaderName): Reading | null {
  const at = nameCell(name);
  const part = at && sliceLine(at.line, at.cell.x0, at.cell.x1 + 1);
  if (!part) return null;
  const block = collectAddress(columnBelow(lines, part), 0);
  if (block.length === 0) return null;
  const text = joinAddress(block);
  return readingSpelled(repairPostcodes(text), text, block, addressSureness(block));
}

function firstValue(kind: ValueKind, lines: readonly RuleLine[], dayFirst: boolean): Reading | null {
  for (const line of lines) {
    const found = findValues(kind, line.text, dayFirst)[0];
    if (found) return readingOn(found.text, { line, found });
  }
  return null;
}

/** A party's name with its legal form spelled right where OCR misread a letter of it ("S.r.I." -> "S.r.l."), the words as printed. */
function withLegalForm<T extends Reading | null>(reading: T): T {
  if (reading === null || typeof reading.value !== 'string') return reading;
  const repaired = repairLegalForm(reading.value);
  return repaired === reading.value ? reading : { ...reading, value: repaired };
}

/** The sender's name as the recipient's block must not be: its sender reference, its header name or its footer's imprint. */
function sellerName(lines: readonly RuleLine[], languages: ReadingLanguages): string | undefined {
  return senderReference(lines)?.name ?? (issuerByLayout(lines, languages)?.name.value as string | undefined);
}

/** The issuer found by layout, and its address when it was read with it (the footer's imprint); otherwise the header's address is the issuer's. */
export interface Issuer {
  name: Reading;
  address: Reading | null;
}

/**
 * The issuer without a label: the sender reference over a letter's window,
 * else the name at the top of the first page, unless the top names only the
 * recipient (its name is the recipient's block once the footer's imprint is
 * taken as the sender) or nothing: then the imprint at the foot of the page.
 */
export function issuerByLayout(lines: readonly RuleLine[], languages: ReadingLanguages, negatives: readonly string[] = [], description = ''): Issuer | null {
  const reference = sellerByReference(lines);
  if (reference) return { name: withLegalForm(reference), address: null };
  const name = findBusinessName(lines, negatives, description);
  const foot = footerSender(lines);
  if (foot) {
    const footName = String(foot.name.value);
    const recipient = name && !sameName(name.text, footName) ? recipientBlock(lines, languages, footName) : null;
    if (!name || (recipient && sameName(String(recipient.name.value), name.text))) return { name: withLegalForm(foot.name), address: foot.address };
  }
  // the value with its legal form spelled right, the words as printed
  return name ? { name: { ...readingSpelled(repairLegalForm(name.text), name.text, name.lines), competition: name.competition }, address: null } : null;
}

/** Under "Bill to:" the name comes first, before the address and contact lines. */
function blockName(lines: readonly RuleLine[]): Reading | null {
  const first = lines.find((line) => !isNoise(line));
  if (!first || addressEvidence(first) >= 1 || findValues('phone', first.text, true).length > 0 || findValues('email', first.text, true).length > 0) return null;
  const name = mainText(first).replace(/^[\s:#.\-–]+/, '').trim();
  return name ? readingSpelled(name, name, [first]) : null;
}

function blockAddress(lines: readonly RuleLine[]): Reading | null {
  const from = blockName(lines) === null ? 0 : 1;
  for (let i = from; i < Math.min(lines.length, 4); i++) {
    const block = collectAddress(lines, i);
    if (block.length > 0) {
      const address = joinAddress(block);
      return readingSpelled(repairPostcodes(address), address, block, addressSureness(block));
    }
  }
  return null;
}

/** An enum value printed in the document, when exactly one of the allowed values is. */
function findEnumInLines(lines: readonly RuleLine[], allowed: readonly unknown[]): Reading | null {
  const seen = new Map<unknown, Reading>();
  for (const line of lines) {
    const mention = findEnumMention(line.text, allowed);
    if (mention !== undefined && !seen.has(mention.value)) seen.set(mention.value, { value: mention.value, words: wordsInRange(line, mention.start, mention.end) });
  }
  return seen.size === 1 ? [...seen.values()][0]! : null;
}

/** Unlabelled, the currency the document names: the only one it names, or the one it names most, by far (amounts print it again and again). */
function documentCurrency(lines: readonly RuleLine[], view: SchemaView, hints: FieldHints): Reading | null {
  const mentions = new Map<unknown, Array<{ line: RuleLine; found: Found }>>();
  for (const line of lines) {
    for (const found of findValues('currency', line.text, true)) {
      const value = present(found, 'currency', view, hints);
      if (value === null) continue;
      mentions.set(value, [...(mentions.get(value) ?? []), { line, found }]);
    }
  }
  const ranked = [...mentions].sort(([, a], [, b]) => b.length - a.length);
  const [first, second] = ranked;
  if (!first || (second && first[1].length < 2 * second[1].length)) return null;
  return readingOn(first[0], first[1][0]!);
}
