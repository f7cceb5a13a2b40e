/**
 * The parties of an invoice, by role and by layout. By role: the name under
 * the seller's or the buyer's label in any language ("Verkäufer",
 * "Käufer/Leistungsempfänger", "Lieferant   Käufer" side by side, "CLIENT :"),
 * read past the lines of numbers and ids a block opens with ("Nummer:
 * 549910", "GLN 4304171000002") and at a "Name:" label of its own. By layout,
 * as letters are printed: the recipient's block at the top of the first
 * page, opened by a salutation ("Herrn", "Madame") or under a one-line
 * sender reference ("Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen"), a name
 * with its address that is neither the sender's nor a delivery address; and
 * the sender as that reference names it.
 */
import { tokenize } from '../../../meaning/words.js';
import { findAnchors, type Anchor } from '../core/anchors.js';
import { labelWords, phraseLabels, type FieldHints, type ReadingLanguages } from '../core/labels.js';
import { LANGUAGES } from '../../../meaning/languages/index.js';
import { matchPhrase, wordSimilarity } from '../core/fuzzy.js';
import { cellAt, sliceLine, type Cell, type RuleLine } from '../core/lines.js';
import { findDateSpans } from '../../../schema/dates.js';
import { findEmails, findPhones, findUrls } from '../core/parsers.js';
import { readingSpelled, type Reading } from '../core/reading.js';
import { addressEvidence } from './address.js';

export type PartyRole = 'seller' | 'buyer';

/** The role of a property that names a party: its business (seller, supplier...) or its customer (buyer, client...). */
export function partyRole(hints: FieldHints): PartyRole | undefined {
  if (hints.concepts.has('customer')) return 'buyer';
  return hints.concepts.has('business') ? 'seller' : undefined;
}

/** How strongly a name read from layout alone counts, against one read under its role's label. */
const LAYOUT_SCORE = 0.6;

// ---------------------------------------------------------------------------
// By role: the block under the role's label

/** Lines a party's block holds below its label. */
const BLOCK_LINES = 8;
/** A vertical gap of this many line heights ends a block. */
const BLOCK_GAP = 1.5;

/** The party's name where a label of its role announces it, the strongest label first. */
export function labelledParty(hints: FieldHints, lines: readonly RuleLine[]): Reading | null {
  // a label opens its cell and ends at a colon, a column gap or another label after a slash ("Käufer/Leistungsempfänger"); "from the date of..." is prose
  const anchors = findAnchors(lines, hints, 0.9).filter((anchor) => anchor.opensCell && (anchor.terminated || SLASHED_LABEL.test(restOfCell(anchor))));
  anchors.sort((a, b) => b.score - a.score || a.position - b.position);
  for (const anchor of anchors) {
    const name = inlineName(anchor) ?? nameInBlock(partyBlock(anchor, lines), hints.negatives);
    if (name) return { ...name, score: Math.min(1, anchor.score) };
  }
  return null;
}

/** Another label after a slash, to the end of the cell ("/Leistungsempfänger", OCR's "/Leist ungsempfanger:"). */
const SLASHED_LABEL = /^\s*\/[^:\d]*:?\s*$/;

function restOfCell(anchor: Anchor): string {
  const cell = cellAt(anchor.line, anchor.start);
  return anchor.line.text.slice(anchor.end, cell?.end ?? anchor.line.text.length);
}

/** "Kunde: Max Mustermann": the name after the label in its cell, unless the rest only continues the label ("Käufer/Leistungsempfänger"). */
function inlineName(anchor: Anchor): Reading | null {
  const { line } = anchor;
  const cell = cellAt(line, anchor.start);
  if (!cell) return null;
  const rest = line.text.slice(anchor.end, cell.end);
  if (/^\s*\//.test(rest)) return null;
  const text = rest.replace(/^[\s:#.\-–]+/, '').trim();
  if (text === '' || !isNameText(text)) return null;
  return readingSpelled(text, text, [line]);
}

/**
 * The lines under a label that heads a block, in the label's column: up to
 * the next cell of a row of side-by-side headings ("Lieferant   Käufer"),
 * or the whole width under a heading alone on its line.
 */
function partyBlock(anchor: Anchor, lines: readonly RuleLine[]): RuleLine[] {
  const { line } = anchor;
  const cell = cellAt(line, anchor.start);
  if (!cell || !isHeadingCell(line, cell, anchor)) return [];
  const left = cell.x0 - 2 * line.charWidth;
  const next = line.cells.find((other) => other.x0 > cell.x1);
  const right = next ? next.x0 - line.charWidth : Infinity;
  const block: RuleLine[] = [];
  let previous = line;
  for (let i = anchor.position + 1; i < lines.length && block.length < BLOCK_LINES; i++) {
    const candidate = lines[i]!;
    if (candidate.page !== line.page) break;
    const height = Math.max(previous.y1 - previous.y0, 0.01);
    if (candidate.y0 - previous.y1 > BLOCK_GAP * height) break;
    const part = sliceLine(candidate, left, right);
    if (!part) continue;
    previous = candidate;
    // a heading of its own ("Käufer/Leistungsempfänger:", "Abweichender Warenempfänger:") opens the next block
    if (part.cells.length === 1 && /:\s*$/.test(part.cells[0]!.text)) break;
    block.push(part);
  }
  return block;
}

/**
 * The label's cell holds the label alone (with a colon, or another label
 * after a slash), and no value follows it in the next cell: "MERCHANT
 * 04003590007" is a labelled field, "Lieferant   Käufer" a row of headings.
 */
function isHeadingCell(line: RuleLine, cell: Cell, anchor: Anchor): boolean {
  const rest = line.text.slice(anchor.end, cell.end);
  const next = line.cells[line.cells.indexOf(cell) + 1];
  return (/^[\s:]*$/.test(rest) || SLASHED_LABEL.test(rest)) && !(next !== undefined && /\d/.test(next.text));
}

/**
 * The party's name in its block: the value of a "Name:" line (with a
 * value-column line above or below it that carries no label: a name broken
 * over two lines), else the first line that is a name, past numbers, ids,
 * labelled fields and a salutation, before the address.
 */
function nameInBlock(block: readonly RuleLine[], negatives: readonly string[]): Reading | null {
  const labelled = labelledName(block);
  if (labelled) return labelled;
  for (const line of block) {
    if (isKeyValue(line) || isIdentifierLine(line) || isSalutationOnly(line.text)) continue;
    if (addressEvidence(line) >= 1 || isContact(line.text)) return null;
    const text = withoutSalutation(line.text).trim();
    if (!isNameText(text) || tokenize(text).some((token) => negatives.includes(token.norm))) return null;
    return readingSpelled(text, text, [line]);
  }
  return null;
}

function labelledName(block: readonly RuleLine[]): Reading | null {
  for (const [index, line] of block.entries()) {
    const first = line.cells[0];
    if (!first || !NAME_LABEL.test(first.text.trim())) continue;
    const inCell = first.text.replace(NAME_LABEL_PREFIX, '').trim();
    const valueCell = inCell !== '' ? first : line.cells[1];
    const value = inCell !== '' ? inCell : valueCell?.text.trim();
    if (!valueCell || !value || !isNameText(value)) continue;
    const continues = (other: RuleLine | undefined): other is RuleLine =>
      other !== undefined && other.cells.length === 1 && Math.abs(other.cells[0]!.x0 - valueCell.x0) <= 2 * line.charWidth && !/:/.test(other.text)
      && !isSalutationOnly(other.text) && isNameText(other.text) && addressEvidence(other) < 1 && !isContact(other.text);
    const parts = [line];
    const above = block[index - 1];
    if (continues(above) && !isKeyValue(above)) parts.unshift(above);
    const text = parts.map((part) => (part === line ? value : part.text.trim())).join(' ');
    return readingSpelled(text, text, parts);
  }
  return null;
}

/** "Name:", "Firma :", "Nom:", "Razón social:" and the like, in every language. */
const NAME_LABELS = [...new Set(LANGUAGES.flatMap((language) => language.concepts.name?.labels ?? []))];
const NAME_LABEL_SOURCE = NAME_LABELS.map((label) => labelWords(label).map(escapeLetters).join(String.raw`[\s.]+`)).join('|');
const NAME_LABEL = new RegExp(String.raw`^(?:${NAME_LABEL_SOURCE})\s*:`, 'iu');
const NAME_LABEL_PREFIX = new RegExp(String.raw`^(?:${NAME_LABEL_SOURCE})\s*:`, 'iu');

/** A normalised word as a pattern on printed text: its letters with or without their accents. */
function escapeLetters(word: string): string {
  return [...word].map((letter) => (/\p{L}/u.test(letter) ? `${letter}\\p{M}*` : letter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
}

/** "Nummer : 549910", "Globale Nummer: 43…", "GLN 4333741000005 Lief-Nr: 549910": a labelled field of the block. */
function isKeyValue(line: RuleLine): boolean {
  return line.cells.some((cell) => /^\s*:|:\s*$/.test(cell.text)) || /^[^:]{1,40}:\s*\S/.test(line.text);
}

/** "GLN 4304171000002", "8211": numbers and ids, at most a short word before them. */
function isIdentifierLine(line: RuleLine): boolean {
  const digits = (line.text.match(/\d/g) ?? []).length;
  const words = line.tokens.filter((token) => /^\p{L}{3,}$/u.test(token.norm)).length;
  return digits >= 4 && words <= 1;
}

function isContact(text: string): boolean {
  return findPhones(text).length > 0 || findEmails(text).length > 0 || findUrls(text).length > 0 || findDateSpans(text).length > 0;
}

/** Words of a name: mostly letters, a real word among them. */
function isNameText(text: string): boolean {
  const visible = text.replace(/\s/g, '');
  const letters = (visible.match(/\p{L}/gu) ?? []).length;
  return letters >= 2 && letters / Math.max(visible.length, 1) >= 0.6 && /\p{L}{2}/u.test(text) && !isContact(text);
}

// ---------------------------------------------------------------------------
// Salutations

const SALUTATIONS = [...new Set(LANGUAGES.flatMap((language) => language.salutations))].sort((a, b) => b.length - a.length);
const SALUTATION_SOURCE = SALUTATIONS.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, String.raw`\s+`)).join('|');
/** A salutation opening a line, as a word of its own ("Herrn", "M. Dupont", "Sr. García"). */
const SALUTATION = new RegExp(String.raw`^\s*(?:${SALUTATION_SOURCE})(?=\s|$)`, 'iu');

function isSalutationOnly(text: string): boolean {
  return SALUTATION.test(text) && text.replace(SALUTATION, '').trim() === '';
}

function withoutSalutation(text: string): string {
  return text.replace(SALUTATION, '').trim();
}

// ---------------------------------------------------------------------------
// By layout

/** Share of the first page's lines where a letter prints its addresses. */
const TOP_SHARE = 0.5;
/** Lines a name may stand above the first line of its address ("Hôtel Saint Denis / Stéphanie Hoarau / 42 rue du stade"). */
const NAME_TO_ADDRESS = 2;

/** A party read from the layout: its name, and the lines of its block in its column (the name's first, then its address). */
export interface PartyBlock {
  name: Reading;
  lines: RuleLine[];
}

/**
 * The recipient of a letter-style invoice, without a label: after a
 * salutation alone on its line ("Herrn" / "Max Mustermann") or opening it
 * ("Madame Claire Martin"), else the first name followed by its address in
 * the top of the first page that is not the sender's and not under a
 * delivery heading.
 */
export function recipientByLayout(lines: readonly RuleLine[], languages: ReadingLanguages, sender: string | undefined): Reading | null {
  return recipientBlock(lines, languages, sender)?.name ?? null;
}

/** The recipient's block by layout (see recipientByLayout): its name and the lines under it in its column. */
export function recipientBlock(lines: readonly RuleLine[], languages: ReadingLanguages, sender: string | undefined): PartyBlock | null {
  const top = topOfFirstPage(lines);
  for (const [index, line] of top.entries()) {
    const column = firstColumn(line);
    if (!SALUTATION.test(column.text) || column.tokens.length > 6) continue;
    // "Vastgoed Hendriks B.V." / "t.a.v. mevrouw Anouk Smit": a person to the attention of whom a company's block is sent; the company is the recipient
    if (underName(top, index, column)) continue;
    const rest = withoutSalutation(column.text);
    const named = rest !== '' ? column : top[index + 1] && sameColumn(column, firstColumn(top[index + 1]!)) ? firstColumn(top[index + 1]!) : undefined;
    const text = named === column ? rest : named?.text.trim();
    if (named && text && isNameText(text) && addressEvidence(named) < 1) {
      return { name: { ...readingSpelled(text, text, [named]), score: LAYOUT_SCORE }, lines: [named, ...columnBelow(top, named)] };
    }
  }
  const delivery = phraseLabels('delivery address', languages);
  const blocks = addressBlocks(top);
  // a block beside the sender's, on its lines (its branch office, its contact), is the sender's letterhead too
  const senderLines = new Set(blocks.filter((block) => sender && sameName(block.name.text.trim(), sender)).map((block) => block.name.index));
  for (const block of blocks) {
    const text = block.name.text.trim();
    if ((sender && sameName(text, sender)) || senderLines.has(block.name.index)) continue;
    if (block.heading && delivery.some((label) => (matchPhrase(block.heading!.tokens, label)?.score ?? 0) >= 0.9)) continue;
    if (block.heading && isKeyValue(block.heading)) continue;
    return { name: { ...readingSpelled(text, text, [block.name]), score: LAYOUT_SCORE }, lines: [block.name, ...columnBelow(top, block.name)] };
  }
  return null;
}

/** Whether the line right above `column` (the first column of top[index]), close above it in its column, is a name: the block's first line. */
function underName(top: readonly RuleLine[], index: number, column: RuleLine): boolean {
  const above = top.slice(0, index).reverse().map(firstColumn).find((other) => sameColumn(other, column));
  if (!above || column.y0 - above.y1 > BLOCK_GAP * lineHeight(above)) return false;
  return isNameText(above.text) && !SALUTATION.test(above.text) && !isKeyValue(above) && addressEvidence(above) < 1 && !isSenderReference(above) && !isHeadingLine(above);
}

/** Lines a party's block holds below its name. */
const COLUMN_LINES = 6;

/**
 * The lines below `first` in its column, down to a blank line's worth of
 * space: the cells that start where it starts, whatever other columns print
 * between them (a letter's window beside the invoice's fields).
 */
export function columnBelow(lines: readonly RuleLine[], first: RuleLine): RuleLine[] {
  const below: RuleLine[] = [];
  let previous = first;
  const start = lines.findIndex((line) => line.index === first.index);
  for (let i = start + 1; i >= 1 && i < lines.length && below.length < COLUMN_LINES; i++) {
    const line = lines[i]!;
    if (line.page !== first.page) break;
    const cell = line.cells.find((candidate) => Math.abs(candidate.x0 - (first.words[0]?.x0 ?? 0)) <= 3 * Math.max(line.charWidth, first.charWidth));
    if (!cell) {
      // a line that crosses the column (a title, a table) ends the block
      if (line.cells.some((other) => other.x0 < (first.words[0]?.x0 ?? 0) && other.x1 > (first.words[0]?.x0 ?? 0))) break;
      continue;
    }
    if (line.y0 - previous.y1 > BLOCK_GAP * lineHeight(previous)) break;
    const part = sliceLine(line, cell.x0, cell.x1 + 1);
    if (!part) continue;
    below.push(part);
    previous = part;
  }
  return below;
}

interface AddressBlock {
  /** The name line, in its column. */
  name: RuleLine;
  /** The line above the block in its column, when one heads it ("Adresse de livraison"). */
  heading: RuleLine | undefined;
}

/** Columns of the top of the page that hold a name line and, within two lines below it, an address line. */
function addressBlocks(top: readonly RuleLine[]): AddressBlock[] {
  const blocks: AddressBlock[] = [];
  const columns = top.flatMap((line, index) => line.cells.map((cell) => ({ index, part: sliceLine(line, cell.x0, cell.x1 + 1) })))
    .filter((entry): entry is { index: number; part: RuleLine } => entry.part !== undefined);
  for (const { index, part } of columns) {
    if (!isNameText(part.text) || looksLikeStreet(part) || isKeyValue(part) || isSalutationOnly(part.text) || isSenderReference(part) || isHeadingLine(part)) continue;
    // the next lines of its column (the other column's lines come between), close below it
    // a line to someone's attention ("Attn: Helen Morris", "z. Hd. Frau Schulz") between the name and its address does not count
    const below = columns.filter((other) => other.index > index && sameColumn(part, other.part) && other.part.y0 - part.y1 <= (NAME_TO_ADDRESS + 2) * lineHeight(part))
      .filter((other, at) => at > 0 || !(isKeyValue(other.part) || SALUTATION.test(other.part.text))).slice(0, NAME_TO_ADDRESS);
    if (!below.some((other) => addressEvidence(other.part) >= 1)) continue;
    const above = [...columns].reverse().find((other) => other.index < index && sameColumn(part, other.part));
    // a name is the first line of its block: the line right above in its column, if any, heads the block or is a salutation
    if (above && above.index === index - 1 && part.y0 - above.part.y1 <= BLOCK_GAP * lineHeight(above.part) && isNameText(above.part.text) && !isSalutationOnly(above.part.text) && addressEvidence(above.part) < 1 && !isKeyValue(above.part)) {
      if (!isHeadingLine(above.part)) continue;
    }
    blocks.push({ name: part, heading: above && index - above.index <= 2 ? above.part : undefined });
  }
  return blocks;
}

/** A street line rather than a name: address evidence, or a street word opening it ("Rue de la Paix"); a street word inside a name does not count ("Hotel Plaza Mayor"). */
function looksLikeStreet(line: RuleLine): boolean {
  const evidence = addressEvidence(line);
  if (evidence >= 1 || evidence === 0) return evidence >= 1;
  const first = line.text.trim().split(/\s+/)[0] ?? '';
  return addressEvidence({ text: first }) > 0;
}

/** A line that reads as a heading, not as a name: a label (with a colon) or a delivery or role heading. */
function isHeadingLine(line: RuleLine): boolean {
  return /:\s*$/.test(line.text) || phraseLabels('delivery address').some((label) => (matchPhrase(line.tokens, label)?.score ?? 0) >= 0.9);
}

function lineHeight(line: RuleLine): number {
  return Math.max(line.y1 - line.y0, 0.01);
}

/** Lines of the first page, down to TOP_SHARE of its lines. */
function topOfFirstPage(lines: readonly RuleLine[]): RuleLine[] {
  const firstPage = lines.filter((line) => line.page === lines[0]?.page);
  return firstPage.slice(0, Math.max(12, Math.ceil(firstPage.length * TOP_SHARE)));
}

function firstColumn(line: RuleLine): RuleLine {
  const first = line.cells[0];
  return (first && sliceLine(line, first.x0, first.x1 + 1)) ?? line;
}

function sameColumn(a: RuleLine, b: RuleLine): boolean {
  const ax = a.words[0]?.x0 ?? 0;
  const bx = b.words[0]?.x0 ?? 0;
  return Math.abs(ax - bx) <= 3 * Math.max(a.charWidth, b.charWidth);
}

/** The same name, whatever its blanks, case and accents; `exact` asks for no more than a letter or two of difference (OCR), else one may start the other. */
function sameName(a: string, b: string, exact = false): boolean {
  // a capital I and a small l are the same letter to OCR ("S.r.I." is "S.r.l.")
  const key = (text: string): string => text.normalize('NFKD').replace(/[^\p{L}\p{N}]/gu, '').replace(/I/g, 'l').toLowerCase();
  const [x, y] = [key(a), key(b)];
  if (x === '' || y === '') return false;
  if (exact) return x === y || (Math.abs(x.length - y.length) <= 2 && wordSimilarity(x, y) >= 0.85);
  return x === y || x.startsWith(y) || y.startsWith(x);
}

// ---------------------------------------------------------------------------
// The sender's reference line

/** Separators between the parts of a one-line sender reference. */
const REFERENCE_SEPARATOR = /\s*(?:[●•·|]|\s[-–]\s)\s*/u;
/** Lines of the first page where a sender reference or a letterhead is printed. */
const REFERENCE_LINES = 6;

/**
 * "Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen", "Au bon moulin SARL - 1242
 * chemin de l'olive - 84340 Malaucène - France": the sender's name, street
 * and town on one line, as letters print them above the recipient's address
 * or as a letterhead.
 */
function isSenderReference(line: RuleLine): boolean {
  const parts = line.text.split(REFERENCE_SEPARATOR).map((part) => part.trim()).filter(Boolean);
  return parts.length >= 3 && isNameText(parts[0]!) && addressEvidence({ text: parts[0]! }) < 1 && parts.slice(1).some((part) => addressEvidence({ text: part }) >= 1);
}

/** The sender named by a one-line reference at the top of the first page, and the line it was read from. */
export function senderReference(lines: readonly RuleLine[]): { name: string; line: RuleLine } | undefined {
  const line = topOfFirstPage(lines).slice(0, REFERENCE_LINES).find(isSenderReference);
  return line && { name: line.text.split(REFERENCE_SEPARATOR)[0]!.trim(), line };
}

/** The seller by the sender reference, written as a header line that spells it (OCR may have run its words together there). */
export function sellerByReference(lines: readonly RuleLine[]): Reading | null {
  const reference = senderReference(lines);
  if (!reference) return null;
  const spelled = topOfFirstPage(lines).slice(0, REFERENCE_LINES * 2).flatMap((line) => line.cells.map((cell) => ({ line, cell })))
    .find(({ cell }) => cell.text.trim() !== reference.name && sameName(cell.text.trim(), reference.name, true));
  if (spelled) {
    const text = spelled.cell.text.trim();
    return { ...readingSpelled(text, text, [spelled.line]), score: LAYOUT_SCORE };
  }
  return { ...readingSpelled(reference.name, reference.name, [reference.line]), score: LAYOUT_SCORE };
}

// ---------------------------------------------------------------------------
// The footer's imprint

/** Share of the first page's height, from its foot, where a footer's small print stands. */
const FOOT_SHARE = 0.2;
/** Blank space, in line heights, that sets a footer apart from the body above it. */
const FOOT_GAP = 2;
/** Parts of a reference line that make its address: street, town, perhaps a country. */
const ADDRESS_PARTS = 3;

/**
 * The issuer as the foot of the first page prints it, set apart from the
 * body: a reference line ("Weberei Lindner e.K. · Lindenallee 27 · 50668
 * Köln · Tel. …"), or a column of small print headed by a name with its
 * address under it ("Nordlicht Medien GmbH" / "Kundenweg 8" / "10115
 * Berlin"). Its name, and its address lines (or the reference line).
 */
export function footerSender(lines: readonly RuleLine[]): (PartyBlock & { address: Reading | null }) | null {
  const page = lines.filter((line) => line.page === lines[0]?.page);
  if (page.length < 6) return null;
  const top = Math.min(...page.map((line) => line.y0));
  const bottom = Math.max(...page.map((line) => line.y1));
  const limit = bottom - FOOT_SHARE * (bottom - top);
  const first = page.findIndex((line, i) => i > 0 && line.y0 >= limit && line.y0 - page[i - 1]!.y1 >= FOOT_GAP * lineHeight(page[i - 1]!));
  if (first < 0) return null;
  const foot = page.slice(first);
  for (const line of foot) {
    if (isSenderReference(line)) {
      const parts = line.text.split(REFERENCE_SEPARATOR).map((part) => part.trim()).filter(Boolean);
      const name = parts[0]!;
      const address = parts.slice(1, 1 + ADDRESS_PARTS).filter((part, i, all) => all.slice(0, i + 1).every((p) => !isContact(p) && !/:/.test(p)) && /\p{L}{2}/u.test(part));
      const addressText = address.join(', ');
      return { name: { ...readingSpelled(name, name, [line]), score: LAYOUT_SCORE }, lines: [line], address: address.length > 0 ? readingSpelled(addressText, address.join(' '), [line]) : null };
    }
    for (const cell of line.cells) {
      const part = sliceLine(line, cell.x0, cell.x1 + 1);
      if (!part || !isNameText(part.text) || isKeyValue(part) || addressEvidence(part) >= 0.5) continue;
      const below = columnBelow(foot, part);
      const street = below.slice(0, NAME_TO_ADDRESS).findIndex((other) => addressEvidence(other) >= 1);
      if (street < 0) continue;
      const text = part.text.trim();
      const addressLines = below.slice(0, Math.min(below.length, street + 2)).filter((other) => !isContact(other.text) && !isKeyValue(other));
      const addressText = addressLines.map((other) => other.text.trim()).join(', ');
      return { name: { ...readingSpelled(text, text, [part]), score: LAYOUT_SCORE }, lines: [part, ...below], address: addressLines.length > 0 ? readingSpelled(addressText, addressLines.map((other) => other.text.trim()).join(' '), addressLines) : null };
    }
  }
  return null;
}

export { sameName };
