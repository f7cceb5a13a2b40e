/**
 * The e-invoice XML a PDF carries (ZUGFeRD, Factur-X: a PDF/A-3 with the XML
 * attached), found on the pdf.js worker thread.
 *
 * pdf.js's `getAttachments()` lists the files of the catalog's
 * /Names /EmbeddedFiles tree with their names, but decodes every one of them
 * whole, with no size limit, and does not look at /AF. So the PDF's
 * embedded-file streams are first scanned in the raw bytes (as
 * ingest/pdf-streams.ts scans the others), each decoded up to the XML limit:
 * that bounds what pdf.js would decode, and finds files that only /AF (or a
 * file annotation) names. When every embedded file is within the limit,
 * pdf.js lists them (names, and streams the scan cannot decode); the scan's
 * XML-looking files are tried too. The first that is an invoice wins; known
 * e-invoice names first (factur-x.xml, zugferd-invoice.xml, xrechnung.xml).
 * An attachment that is broken, too large or not an invoice is skipped: the
 * PDF is still read as a PDF.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { looksLikeXml } from './einvoice/sniff.js';
import { readEInvoiceXml } from './einvoice/read.js';
import type { EInvoice } from './einvoice/terms.js';
import { decodedPrefix, filtersOf, streamsOf } from './pdf-streams.js';

export interface FoundEInvoice {
  invoice: EInvoice;
  /** The attachment's name, when pdf.js listed it. */
  attachment?: string;
}

interface Candidate {
  name?: string;
  bytes: Uint8Array;
}

const KNOWN_NAMES = /^(?:factur-x|zugferd-invoice|xrechnung|zugferd|order-x)\.xml$/i;
/** Embedded files decoded at most, all together, before pdf.js may list them: a PDF of many large attachments is read by the scan alone. */
const TOTAL_LIMIT_FACTOR = 4;
/** XML-looking attachments tried at most. */
const MAX_CANDIDATES = 16;
const EMBEDDED_FILE = /\/Type\s*\/EmbeddedFile\b/;

/** What the raw scan found: XML-looking embedded files, and whether pdf.js may be left to decode the attachments. */
export interface ScannedEmbeddedFiles {
  xml: Uint8Array[];
  oversized: boolean;
}

/**
 * The e-invoice among the PDF's attachments, or undefined. `scanned` comes
 * from scanEmbeddedFiles on the bytes before pdf.js took them;
 * `maxXmlBytes`: the most an attachment may decode to.
 */
export async function findEInvoice(scanned: ScannedEmbeddedFiles, doc: PDFDocumentProxy, maxXmlBytes: number): Promise<FoundEInvoice | undefined> {
  const candidates: Candidate[] = [];
  if (!scanned.oversized) {
    const listed = (await doc.getAttachments().catch(() => null)) as Record<string, { filename?: string; content?: Uint8Array }> | null;
    for (const entry of Object.values(listed ?? {})) {
      if (entry.content && entry.content.length <= maxXmlBytes && looksLikeXml(entry.content)) candidates.push({ name: entry.filename ?? '', bytes: entry.content });
    }
  }
  candidates.sort((a, b) => Number(KNOWN_NAMES.test(b.name ?? '')) - Number(KNOWN_NAMES.test(a.name ?? '')));
  // the scan's files that pdf.js did not list (same bytes are tried once)
  for (const bytes of scanned.xml) if (!candidates.some((c) => equalBytes(c.bytes, bytes))) candidates.push({ bytes });
  for (const candidate of candidates.slice(0, MAX_CANDIDATES)) {
    try {
      const reading = readEInvoiceXml(candidate.bytes);
      if (reading.kind === 'invoice') return { invoice: reading.invoice, ...(candidate.name ? { attachment: candidate.name } : {}) };
    } catch {
      // broken, hostile (a DTD) or cut: not the invoice; the PDF is still read as a PDF
    }
  }
  return undefined;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/**
 * Every embedded-file stream of the raw PDF, decoded up to `limit` + 1 bytes:
 * the XML-looking ones within the limit, and whether any (or all together)
 * went past what pdf.js may be left to decode.
 */
export async function scanEmbeddedFiles(pdf: Uint8Array, limit: number): Promise<ScannedEmbeddedFiles> {
  const xml: Uint8Array[] = [];
  let total = 0;
  let oversized = false;
  for (const { dictionary, data } of streamsOf(pdf)) {
    if (!EMBEDDED_FILE.test(dictionary)) continue;
    const decoded = await decodedPrefix(data, filtersOf(dictionary), limit, dictionary);
    total += decoded.length;
    if (decoded.length > limit || total > TOTAL_LIMIT_FACTOR * limit) oversized = true;
    // a copy: the undecoded ones share the PDF's bytes, which pdf.js takes over
    else if (xml.length < MAX_CANDIDATES && looksLikeXml(decoded)) xml.push(new Uint8Array(decoded));
  }
  return { xml, oversized };
}
