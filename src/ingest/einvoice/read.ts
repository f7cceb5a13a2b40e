/**
 * XML bytes -> an e-invoice, when the root is one docshape reads: a CII
 * invoice (ZUGFeRD 1.0 CrossIndustryDocument, or CrossIndustryInvoice of
 * ZUGFeRD 2.x, Factur-X, XRechnung) or a UBL 2.1 Invoice or CreditNote.
 * Runs on a worker thread (ingest/pdf-worker.ts): parsing grows with the
 * bytes.
 */
import { isCii, readCii } from './cii.js';
import type { EInvoice } from './terms.js';
import { isUbl, readUbl } from './ubl.js';
import { parseXml } from './xml.js';

export type EInvoiceReading = { kind: 'invoice'; invoice: EInvoice } | { kind: 'other'; root: string };

/** Throws XmlProblem (xml.ts) when the bytes are no well-formed XML or declare a DTD. */
export function readEInvoiceXml(bytes: Uint8Array): EInvoiceReading {
  const root = parseXml(bytes);
  if (isCii(root)) return { kind: 'invoice', invoice: readCii(root) };
  if (isUbl(root)) return { kind: 'invoice', invoice: readUbl(root) };
  return { kind: 'other', root: root.uri ? `${root.local} (${root.uri})` : root.local };
}

/** What the syntaxes' roots are, for messages. */
export const E_INVOICE_ROOTS = 'CII CrossIndustryInvoice (ZUGFeRD 2.x, Factur-X, XRechnung), ZUGFeRD 1.0 CrossIndustryDocument, UBL 2.1 Invoice or CreditNote';
