/**
 * The issuer printed at the top of a receipt or invoice: its name is the most
 * prominent of the first lines that is not a date, number, price, address,
 * contact detail or document title; its address is the run of address lines
 * below. A legal form ("Sdn Bhd", "Ltd") favours a line unless the caller's
 * examples show trading names without one ("e.g. 'COSTCO'").
 */
import { findDateSpans, findTimes } from '../../../schema/dates.js';
import { competitionAmong, type Competition } from '../../../schema/provenance.js';
import { median } from '../../../util/median.js';
import { addressEvidence, addressSureness, collectAddress, PRICE } from './address.js';
import { COMPANY_SUFFIX, examplesHaveLegalForm, opensCut, stripRegistration } from './company.js';
import { mainText, type Cell, type RuleLine } from '../core/lines.js';
import { findEmails, findPhones, findUrls } from '../core/parsers.js';
import { LANGUAGES } from '../../../meaning/languages/index.js';
import { tokenize } from '../../../meaning/words.js';

const HEADER_LINES = 12;

const TITLE_WORDS = new Set([
  'invoice', 'receipt', 'tax', 'bill', 'cash', 'sale', 'sales', 'official', 'order', 'table', 'cashier', 'welcome', 'thank',
  'thanks', 'date', 'time', 'copy', 'original', 'duplicate', 'page', 'no', 'number', 'tel', 'phone', 'fax', 'email', 'gst',
  'vat', 'reg', 'registration', 'abn', 'tin', 'id', 'customer', 'statement', 'quotation', 'quote', 'delivery', 'note',
  'simplified', 'server', 'guest', 'check', 'transaction', 'terminal', 'pos', 'member', 'to', 'bill', 'of', 'from', 'the',
]);

export interface HeaderName {
  text: string;
  lines: RuleLine[];
  /** The other header lines that could have been the name, and how far this one scored ahead (share of its score). */
  competition: Competition;
}

/** The business name in the first lines of the first page, registration numbers removed. */
export function findBusinessName(lines: readonly RuleLine[], negatives: readonly string[] = [], description = ''): HeaderName | undefined {
  const top = headerLines(lines);
  const typicalHeight = median(top.map(lineHeight)) ?? 1;
  // examples without a legal form ask for the trading name at the top, not the "Stores Ltd" line under it
  const suffixWeight = examplesHaveLegalForm(description) === false ? 1 : 2;
  const scored: Array<{ score: number; at: number }> = [];
  top.forEach((line, at) => {
    const score = nameScore(line, at, typicalHeight, negatives, suffixWeight, top[at + 1]);
    if (score > 0) scored.push({ score, at });
  });
  const highest = scored.reduce<{ score: number; at: number } | undefined>((winner, candidate) => (!winner || candidate.score > winner.score ? candidate : winner), undefined);
  if (!highest) return undefined;
  const best = letterheadAbove(top, scored, highest) ?? highest;
  const competition = competitionAmong(best, scored, (c) => c.score / best.score, (c) => String(c.at));
  const picked = [top[best.at]!];
  const next = top[best.at + 1];
  // a legal form continued on the next line ("MR D.I.Y. (JOHOR)" / "SDN BHD"), when legal forms are wanted
  if (next && suffixWeight > 1 && continuesName(picked[0]!, next, negatives)) picked.push(next);
  // a name opening with a legal form or connector ("CO. (M) SDN BHD", "& TEA LEAF") began on the line above
  for (let above = best.at - 1; above >= Math.max(0, best.at - MAX_LINES_ABOVE) && opensCut(picked.map((line) => nameText(line)).join(' ')); above--) {
    if (!opensName(top[above]!, picked[0]!, negatives)) break;
    picked.unshift(top[above]!);
  }
  const text = picked.map((line) => nameText(line, top[top.indexOf(line) + 1])).join(' ').replace(/\s+/g, ' ').trim();
  return text ? { text, lines: picked, competition } : undefined;
}

/**
 * The title of the document ("INVOICE", "Tax Invoice", "RECEIPT"), printed
 * in its own cell beside the name on the same line, is not part of the name.
 */
const DOCUMENT_TITLE = /^(?:tax\s+|sales\s+|cash\s+|official\s+)?(?:invoice|receipt|bill|quotation|quote|statement|credit\s+note|delivery\s+note|pro[\s-]?forma(?:\s+invoice)?)$/i;
/** The titles of invoices and credit notes in every language of the tables ("Rechnung", "Facture", "Nota de crédito"), as folded words. */
const TABLE_TITLES = new Set(LANGUAGES.flatMap((language) => language.titles).map(foldedWords));

function foldedWords(text: string): string {
  return tokenize(text).map((token) => token.norm).join(' ');
}

/** A document's title alone: "INVOICE", "Tax Invoice", "RECHNUNG", "Factura". */
export function isDocumentTitle(text: string): boolean {
  const trimmed = text.trim();
  return DOCUMENT_TITLE.test(trimmed) || TABLE_TITLES.has(foldedWords(trimmed));
}

/**
 * A header line's name: its main text without a document title cell,
 * labelled fields printed beside it ("LE FOURNISSEUR      FACTURE N° :
 * F20260023") and registration numbers.
 */
function nameText(line: RuleLine, below?: RuleLine): string {
  const labelled = line.cells.findIndex((cell, index) => index > 0 && LABELLED_FIELD.test(cell.text.trim()));
  const kept = (labelled > 0 ? line.cells.slice(0, labelled) : line.cells).filter((cell) => !isDocumentTitle(cell.text));
  // two blocks side by side ("Northgate Logistics PLC   Branch office Bath", their addresses under each): the name heads the first
  const cells = kept.length > 1 && below && headsColumns(kept, line, below) ? kept.slice(0, 1) : kept;
  const untitled = cells.length > 0 && cells.length < line.cells.length ? { ...line, cells, text: cells.map((cell) => cell.text).join(' ') } : line;
  return stripRegistration(mainText(untitled));
}

/**
 * A letterhead above the best-scored name: the first candidate, printed at
 * least as large, with its address right under it, and a blank space of
 * several lines between that block and the best-scored name, which heads an
 * address block of its own lower on the page (the recipient's: "Elbtal
 * Kliniken gGmbH" under "Malerbetrieb Jens Hoffmann", whatever legal form
 * the recipient's name carries). A receipt's name, legal-form line and
 * address follow one another without such a space.
 */
function letterheadAbove(top: readonly RuleLine[], scored: ReadonlyArray<{ score: number; at: number }>, best: { score: number; at: number }): { score: number; at: number } | undefined {
  const first = scored.find((candidate) => candidate.at < best.at);
  if (!first) return undefined;
  const head = top[first.at]!;
  const name = top[best.at]!;
  if (lineHeight(head) < lineHeight(name)) return undefined;
  const own = collectAddress(top, first.at + 1);
  // the recipient's address may come after a line to someone's attention
  const recipients = collectAddress(top, best.at + 1).length > 0 ? collectAddress(top, best.at + 1) : collectAddress(top, best.at + 2);
  if (own.length === 0 || recipients.length === 0 || own[0]!.index !== first.at + top[0]!.index + 1) return undefined;
  const between = top.slice(first.at, best.at + 1);
  const apart = between.some((line, i) => i > 0 && line.y0 - Math.max(...between.slice(0, i).map((above) => above.y1)) >= LETTERHEAD_GAP * lineHeight(name));
  return apart ? first : undefined;
}

/** Blank space, in line heights, between a letterhead's block and a recipient's name. */
const LETTERHEAD_GAP = 3;

/** Whether the line below prints under the first cell and under another one, far apart: the cells head columns of their own. */
function headsColumns(cells: readonly Cell[], line: RuleLine, below: RuleLine): boolean {
  if (below.page !== line.page || below.y0 - line.y1 > 2 * lineHeight(line)) return false;
  const tolerance = 2 * Math.max(line.charWidth, below.charWidth);
  const under = (x: number): boolean => below.cells.some((cell) => Math.abs(cell.x0 - x) <= tolerance);
  const [first, ...others] = cells;
  return under(first!.x0) && others.some((cell) => cell.x0 - first!.x1 > COLUMN_GAP * line.charWidth && under(cell.x0));
}

/** Blank space between two columns of a header, in character widths. */
const COLUMN_GAP = 6;

/** A cell that labels a field: "FACTURE N° :", "Date:", "Invoice No: 123". */
const LABELLED_FIELD = /^[^:]{1,40}:(?:\s|$)/;

/** An address and the lines it was read from. */
export interface AddressBlock {
  text: string;
  lines: RuleLine[];
  /** How surely it is an address (addressSureness). */
  score: number;
}

/** The address printed under the business name (or, without a name, the first address block of the header). */
export function findHeaderAddress(lines: readonly RuleLine[], after?: HeaderName): AddressBlock | undefined {
  const top = headerLines(lines, HEADER_LINES + 4);
  const lastName = after?.lines[after.lines.length - 1];
  const start = lastName ? top.indexOf(lastName) + 1 : 0;
  return firstAddressBlock(top, Math.max(0, start), lastName ? 4 : top.length) ?? (lastName ? firstAddressBlock(top, 0, top.length) : undefined);
}

function firstAddressBlock(lines: readonly RuleLine[], from: number, tries: number): AddressBlock | undefined {
  for (let i = from; i < Math.min(lines.length, from + tries); i++) {
    const block = collectAddress(lines, i);
    if (block.length > 0) return { text: joinAddress(block), lines: block, score: addressSureness(block) };
  }
  return undefined;
}

function headerLines(lines: readonly RuleLine[], count = HEADER_LINES): RuleLine[] {
  const firstPage = lines[0]?.page;
  return lines.filter((line) => line.page === firstPage).slice(0, count);
}

function lineHeight(line: RuleLine): number {
  return Math.max(line.y1 - line.y0, 0);
}

/** Characters that occur in business names; anything else is usually a logo read as text. */
const NAME_CHARACTERS = /[\p{L}\p{N}\s.,&'"`‘’“”()\-/@+!:#]/u;

function nameScore(line: RuleLine, at: number, medianHeight: number, negatives: readonly string[], suffixWeight: number, below?: RuleLine): number {
  const text = nameText(line, below);
  const visible = [...text.replace(/\s/g, '')];
  const letters = visible.filter((c) => /\p{L}/u.test(c)).length;
  if (letters < 2 || letters / Math.max(visible.length, 1) < 0.6) return 0;
  if (!line.tokens.some((t) => /^\p{L}{3,}$/u.test(t.norm))) return 0;
  const junk = visible.filter((c) => !NAME_CHARACTERS.test(c)).length;
  if (isContactOrDate(text) || addressEvidence({ text }) >= 1 || PRICE.test(line.text) || isDocumentTitle(text)) return 0;
  const words = line.tokens.map((t) => t.norm);
  if (words.some((w) => negatives.includes(w))) return 0;
  const titleShare = words.filter((w) => TITLE_WORDS.has(w)).length / words.length;
  if (titleShare >= 0.5) return 0;
  let score = (1 - at * 0.06) * line.confidence * line.confidence;
  if (medianHeight > 0) score *= Math.min(2, Math.max(0.5, lineHeight(line) / medianHeight));
  score *= Math.max(0, 1 - (3 * junk) / visible.length);
  // OCR of a logo or stamp tends to come out as short fragments ("CER ER"); names have a real word
  if (!line.tokens.some((t) => /^\p{L}{4,}$/u.test(t.norm))) score *= 0.5;
  // a legal form or trade word ("Sdn Bhd", "Ltd", "Market") marks a name, but does not make a misread line legible
  if (suffixWeight > 1 && COMPANY_SUFFIX.test(text)) score = score * suffixWeight + 0.2;
  if (text === text.toUpperCase()) score += 0.1;
  if (addressEvidence(line) > 0) score -= 0.3;
  return score - titleShare;
}

function continuesName(name: RuleLine, next: RuleLine, negatives: readonly string[]): boolean {
  if (COMPANY_SUFFIX.test(stripRegistration(name.text)) || !COMPANY_SUFFIX.test(next.text)) return false;
  if (isContactOrDate(next.text) || addressEvidence(next) >= 1 || /\d/.test(stripRegistration(next.text))) return false;
  if (next.tokens.some((t) => negatives.includes(t.norm))) return false;
  const ratio = lineHeight(next) / Math.max(lineHeight(name), 0.01);
  return ratio > 0.7 && ratio < 1.4 && next.tokens.length <= 6;
}

/** Lines above a cut name that may hold its beginning. */
const MAX_LINES_ABOVE = 2;

/** Whether the line above a cut name can be its beginning: words of a name in a similar print, not a title, contact, date or address. */
function opensName(above: RuleLine, name: RuleLine, negatives: readonly string[]): boolean {
  const text = nameText(above);
  if (!/\p{L}{2}/u.test(text) || isContactOrDate(text) || addressEvidence(above) >= 1 || PRICE.test(above.text)) return false;
  const words = above.tokens.map((t) => t.norm);
  if (words.some((w) => negatives.includes(w)) || words.filter((w) => TITLE_WORDS.has(w)).length / words.length >= 0.5) return false;
  const ratio = lineHeight(above) / Math.max(lineHeight(name), 0.01);
  return ratio > 0.6 && ratio < 2 && above.tokens.length <= 6;
}

function isContactOrDate(text: string): boolean {
  return findDateSpans(text).length > 0 || findTimes(text).length > 0 || findPhones(text).length > 0
    || findEmails(text).length > 0 || findUrls(text).length > 0;
}

export function joinAddress(block: readonly RuleLine[]): string {
  return block.map((line) => mainText(line).trim()).join(' ').replace(/\s+/g, ' ');
}
