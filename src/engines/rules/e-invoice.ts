/**
 * An e-invoice's XML before its printed page. A Document that holds an
 * e-invoice page (ingest/einvoice/: the XML's business terms as labelled
 * lines) is read twice by the same rules: the e-invoice lines alone, then
 * the printed pages alone. Where the XML gives a value a label or a column
 * heading announced, it wins; the printed pages fill in what the XML does
 * not hold (a phone number, a field no business term covers), and a value
 * read from the XML without a label (the first date of the page) only where
 * the printed pages have none.
 */
import { splitEInvoicePages, type Document } from '../../document/document.js';
import type { Extraction } from '../../schema/engine.js';
import type { Provenance } from '../../schema/provenance.js';
import { childPointer, valueAtPointer } from '../../util/json-pointer.js';

/** `read` on the e-invoice lines first, the printed pages for the rest; just `read` for a Document without an e-invoice. */
export async function readEInvoiceFirst(document: Document, read: (document: Document) => Promise<Extraction>): Promise<Extraction> {
  const { eInvoice, printed } = splitEInvoicePages(document);
  if (!eInvoice) return read(document);
  const fromXml = await read(eInvoice);
  if (!printed) return fromXml;
  const fromPage = await read(printed);
  const provenance: Provenance = new Map();
  const value = preferred(fromXml, fromPage, '', provenance);
  return { value, provenance };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** The value at `pointer` of the XML reading, or of the page's; copies the provenance of what it takes. */
function preferred(xml: Extraction, page: Extraction, pointer: string, provenance: Provenance): unknown {
  const ours = valueAtPointer(xml.value, pointer);
  const theirs = valueAtPointer(page.value, pointer);
  if (isRecord(ours) && isRecord(theirs)) {
    const merged: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs)])) merged[key] = preferred(xml, page, childPointer(pointer, key), provenance);
    return merged;
  }
  const announced = !isEmpty(ours) && (Array.isArray(ours) || isRecord(ours) || xml.provenance.get(pointer)?.score !== undefined);
  const chosen = announced || isEmpty(theirs) ? xml : page;
  copyProvenance(chosen.provenance, pointer, provenance);
  return chosen === xml ? ours : theirs;
}

function copyProvenance(from: Provenance, pointer: string, into: Provenance): void {
  for (const [at, source] of from) if (at === pointer || at.startsWith(`${pointer}/`)) into.set(at, source);
}
