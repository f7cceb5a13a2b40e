/**
 * Evidence for a value read from an e-invoice's XML (an 'e-invoice' page of
 * the Document, ingest/einvoice/): the business term and element it states,
 * the attachment, and where the printed page shows the same field. The
 * printed page's own reading of the field (the rules engine on the visible
 * pages alone) says whether page and XML agree; when it has no value, the
 * page is searched for the XML's value. The XML's value stands either way:
 * a page that prints another one is reported, since that is how altered or
 * mistaken invoices show.
 */
import { parseNumber } from '../schema/coerce.js';
import type { Extraction } from '../schema/engine.js';
import { wordAt, type Document, type EInvoiceGroup, type EInvoiceValueOrigin, type Page, type WordRef } from '../document/document.js';
import { foldText } from '../util/fold-text.js';
import { valueAtPointer } from '../util/json-pointer.js';
import { locate, type Location } from './locate.js';
import { searchPrinted, type PrintedValues } from './printed-values.js';

export interface EInvoiceEvidence {
  /** EN 16931 business term, e.g. "BT-112", and its name. */
  term: string;
  name: string;
  /** The element the value was read from. */
  path: string;
  /** The PDF attachment that holds the XML (absent for an XML file). */
  attachment?: string;
  /**
   * What the printed pages show for the same field: 'same' (the box is
   * where), 'differs' (the box and printedText show the other value; the
   * XML's value is the answer), 'not printed' (nothing found on the page),
   * 'no page' (the XML came without one).
   */
  printed: 'same' | 'differs' | 'not printed' | 'no page';
  printedText?: string;
  /** What made the answer's value from the XML's text, when it is not the text as written ("date format 102 (CCYYMMDD) written as YYYY-MM-DD"). */
  normalized?: string;
}

/** The XML value's term and path, when the value's first word lies on an e-invoice page; and what normalised it, if anything did. */
export function eInvoiceOrigin(words: readonly WordRef[], document: Document): (Omit<EInvoiceValueOrigin, 'words'> & { attachment?: string; normalized?: string }) | undefined {
  const first = words[0];
  const found = first ? wordAt(document, first) : undefined;
  const origin = found?.page.eInvoice;
  if (!first || !found || !origin) return undefined;
  const value = origin.lines[first.line]?.find((candidate) => first.word >= candidate.words[0] && first.word < candidate.words[1]);
  if (!value) return undefined;
  const normalized = normalisationsOf(found.page).get(`${first.line}:${value.words[0]}`);
  return { term: value.term, name: value.name, path: value.path, ...(origin.attachment ? { attachment: origin.attachment } : {}), ...(normalized ? { normalized } : {}) };
}

/** Per e-invoice page, what normalised each value the page shows ("line:first word" -> rule), gathered once: an answer may hold thousands of them. */
const normalisations = new WeakMap<Page, Map<string, string>>();

function normalisationsOf(page: Page): Map<string, string> {
  const known = normalisations.get(page);
  if (known) return known;
  const found = new Map<string, string>();
  const walk = (group: EInvoiceGroup): void => {
    for (const values of Object.values(group.terms)) for (const value of values) if (value.normalized && value.shown) found.set(`${value.shown.line}:${value.shown.words[0]}`, value.normalized);
    for (const instances of Object.values(group.groups)) for (const instance of instances) walk(instance);
  };
  if (page.eInvoice) walk(page.eInvoice.invoice);
  normalisations.set(page, found);
  return found;
}

/**
 * Where and whether the printed pages show the value at `pointer`: the page
 * differs when its reading of the field is another value and the XML's
 * value is printed nowhere.
 * `printed`: the printed pages' own reading, finalized (undefined when the
 * Document has no printed page). `shown`: where the pages show the answer's
 * values (printed-values.ts; searched page by page without it).
 */
export function comparePrinted(pointer: string, value: unknown, printed: Extraction | undefined, document: Document, shown?: PrintedValues): { printed: EInvoiceEvidence['printed']; location?: Location } {
  if (!printed) return { printed: 'no page' };
  const theirs = valueAtPointer(printed.value, pointer);
  const read = theirs !== null && theirs !== undefined && typeof theirs !== 'object';
  const readAt = read ? locate(printed.provenance.get(pointer)?.words ?? [], document) : undefined;
  if (read && sameValue(value, theirs)) return { printed: 'same', ...(readAt ? { location: readAt } : {}) };
  // the page's reading of the field may be wrong where the page itself is right: the XML's value printed anywhere is agreement
  const found = shown ? shown.find(value) : searchPrinted(value, document);
  if (found) return { printed: 'same', location: found };
  if (read) return { printed: 'differs', ...(readAt ? { location: readAt } : {}) };
  return { printed: 'not printed' };
}

/**
 * Confidence of an XML value: exact as written, so what is left to doubt is
 * whether it answers the property (the term the schema's words led to); the
 * printed page's own reading of the field confirms or questions that. Set,
 * not fitted: the eval's calibration of e-invoice values shows how they hold.
 */
export const E_INVOICE_CONFIDENCE: Record<EInvoiceEvidence['printed'], number> = { same: 0.995, 'not printed': 0.98, 'no page': 0.98, differs: 0.9 };

/** A mapping at least this sure takes the XML's confidence whole. */
const SURE_MAPPING = 0.95;

/**
 * The confidence of an XML value: the XML's own (E_INVOICE_CONFIDENCE),
 * scaled down as the mapping from the property to its term is less sure
 * (the value's score: engines/e-invoice-terms.ts gives the meaning's
 * certainty; a value the rules engine read off the e-invoice page its
 * label's score). "vat_id" with no party says less than "seller_vat_id".
 */
export function eInvoiceConfidence(printed: EInvoiceEvidence['printed'], mapping: number | undefined): number {
  const sure = Math.min(1, (mapping ?? 1) / SURE_MAPPING);
  return E_INVOICE_CONFIDENCE[printed] * sure;
}

function sameValue(a: unknown, b: unknown): boolean {
  const x = typeof a === 'number' ? a : typeof a === 'string' ? parseNumber(a) : null;
  const y = typeof b === 'number' ? b : typeof b === 'string' ? parseNumber(b) : null;
  if (x !== null && y !== null && (typeof a === 'number' || /^[-+]?\d[\d.,]*$/.test(String(a).trim()))) return Math.abs(x - y) < 0.005;
  return foldText(String(a)) === foldText(String(b));
}
