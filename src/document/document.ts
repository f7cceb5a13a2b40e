/**
 * The Document model every engine reads: files -> pages -> lines -> words.
 * Coordinates are in the page's own units (PDF points for text-layer pages,
 * pixels of the OCR raster for OCR pages), origin top-left, y growing down.
 */
export type WordSource = 'text-layer' | 'ocr' | 'e-invoice';
// 'text-layer' is born-digital text: a PDF's text layer, or the text of a file that has no printed page
// (an Office document, a spreadsheet, HTML, CSV, plain text, an e-mail; ingest/formats/)

/** The OCR engines that read pages; their confidences mean different things (evidence/ calibrates each apart). */
export const OCR_ENGINE_NAMES = ['paddle', 'tesseract'] as const;
export type OcrEngineName = (typeof OCR_ENGINE_NAMES)[number];

/**
 * What a page's width, height and word boxes are measured in (origin top-left, y growing down):
 * `pdf-points` for a PDF's text layer (1/72 inch), `raster-pixels` for the image OCR read (a scan's own
 * pixels, or a PDF page rendered at PDF_RENDER_DPI), `text-grid` for a page laid out from a file without
 * printed pages or from an e-invoice's values (boxes of a monospaced grid, made up to keep columns apart).
 * Evidence turns every box into fractions of the page the caller sent (evidence/locate.ts: PageBox).
 */
export type PageUnits = 'pdf-points' | 'raster-pixels' | 'text-grid';

/** A box on a page, in the units of its page (Page.units), origin top-left, y growing down. */
export interface BBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Word {
  text: string;
  bbox: BBox;
  /** 0..1; 1 for text-layer words. */
  confidence: number;
  /**
   * The lowest probability among its characters, where the OCR engine gives
   * one per character (PP-OCR). A misread digit in a sure word ("09/03/12"
   * for "09/08/12") shows here, while the word's mean stays high.
   */
  weakest?: number;
  source: WordSource;
}

export interface Line {
  text: string;
  bbox: BBox;
  words: Word[];
}

/** An affine map [a, b, c, d, e, f]: (x, y) -> (a x + c y + e, b x + d y + f), as PDF and canvas write it. */
export type Affine = readonly [number, number, number, number, number, number];

/**
 * The page as the caller sees it (the file's page, EXIF orientation applied):
 * its size, in the units of the page's boxes, and the map from the page's
 * coordinates to it.
 */
export interface PageView {
  width: number;
  height: number;
  transform: Affine;
}

export interface Page {
  /** 0-based index within its file (frame index for GIFs). */
  index: number;
  /** Size of the frame the word boxes refer to (the page OCR read, which may be turned), in `units`. */
  width: number;
  height: number;
  units: PageUnits;
  /**
   * Where the words came from; 'empty' when neither text layer nor OCR found any. An 'e-invoice' page
   * is no printed page: the values of the e-invoice XML the file is or carries, one labelled line per
   * business term (ingest/einvoice/), after the file's printed pages.
   */
  source: WordSource | 'empty';
  /** The engine that read the page, when OCR did. */
  ocrEngine?: OcrEngineName;
  lines: Line[];
  /**
   * Set when OCR read the page turned by a quarter or straightened: how its
   * boxes map onto the page the caller sent. Absent, the page is as sent.
   */
  shown?: PageView;
  /** On an 'e-invoice' page: where its values come from (ingest/einvoice/). */
  eInvoice?: EInvoiceOrigin;
  /** What part of its file the page is, when the file is more than pages: an e-mail's attachment, a sheet, a slide. */
  part?: PagePart;
  /**
   * On a page laid out from a file without printed pages (ingest/formats/: Office, HTML, CSV, text, e-mail):
   * per line (same positions as Page.lines), where its runs of words stand in the file. Its boxes are made up
   * (a monospaced page, columns of a table kept apart); these places are what a user can follow.
   */
  places?: PlacedWords[][];
}

/** Where a page comes from within its file. */
export interface PagePart {
  /** The e-mail attachment the page belongs to, nested ones as a path: "invoice.pdf", "forwarded.eml/invoice.pdf". */
  attachment?: string;
  /** The page within that attachment (0-based), when the attachment has pages of its own. */
  attachmentPage?: number;
  /** A spreadsheet's sheet, by its name. */
  sheet?: string;
  /** A presentation's slide, 1-based. */
  slide?: number;
}

/**
 * A place in a file without pages: a spreadsheet cell ("B7", of the page's sheet), a paragraph (of a header or footer: `part`, "header1.xml"), a table
 * cell, a line of a text or CSV file (a CSV record's first line, and its column), an XML element or JSON
 * key, an e-mail header. Numbers are 1-based, as a user counts them.
 */
export type Place =
  | { kind: 'cell'; ref: string }
  | { kind: 'paragraph'; paragraph: number; part?: string }
  | { kind: 'table-cell'; table: number; row: number; column: number }
  | { kind: 'line'; line: number; column?: number }
  | { kind: 'path'; path: string }
  | { kind: 'header'; name: string };

/** A run of a line's words, [first, end) positions in Line.words, and its place. */
export interface PlacedWords {
  words: [number, number];
  place: Place;
}

/**
 * An e-invoice page's origin: the XML, its business terms, and per line of
 * the page the values it states.
 */
export interface EInvoiceOrigin {
  /** The attachment's file name when a PDF carries the XML; absent when the XML was sent itself. */
  attachment?: string;
  /** 'CII' (UN/CEFACT Cross Industry Invoice: ZUGFeRD, Factur-X, XRechnung CII) or 'UBL' (UBL 2.1 Invoice or CreditNote). */
  syntax: 'CII' | 'UBL';
  /** What the XML says it follows (ZUGFeRD 1.0, ZUGFeRD 2.x / Factur-X, XRechnung, UBL 2.1) and the guideline it names. */
  standard: string;
  /**
   * The EN 16931 business terms the XML states, as the standard groups them: the invoice's own terms
   * ("BT-1" invoice number, "BT-2" issue date, ...) and its groups (seller "BG-4", buyer "BG-7", lines
   * "BG-25", ...). Left empty (no terms, no groups) on the copy the rules engine's threads get.
   */
  invoice: EInvoiceGroup;
  /** Per line of the page (same positions as Page.lines), the values it states: one after a label, one per cell of an invoice line's row. */
  lines: EInvoiceValueOrigin[][];
}

/**
 * One instance of an EN 16931 group of business terms: the invoice itself
 * (group "invoice"), a party, a VAT breakdown row, an invoice line. Groups
 * the standard nests once (a party's address and contact, a line's price
 * and item) are part of the group that holds them; groups that repeat (the
 * lines, their allowances, the VAT breakdown) are groups of their own.
 */
export interface EInvoiceGroup {
  /** "invoice" for the document, else the group's EN 16931 identifier ("BG-4" seller, "BG-25" invoice line). */
  group: string;
  /** The element the group was read from ("/rsm:CrossIndustryInvoice/.../ram:SellerTradeParty"). */
  path: string;
  /**
   * Its business terms by identifier ("BT-27", and "BG-5" for a whole postal address): each the values
   * the XML states, in document order. Most terms have one; a few may repeat (BT-29 seller identifiers,
   * BT-158 item classifications, BT-20 payment terms). A term the XML does not state is absent.
   */
  terms: Record<string, EInvoiceValue[]>;
  /** The groups within it by identifier ("BG-25" in the invoice, "BG-27" in a line), each its instances in document order. */
  groups: Record<string, EInvoiceGroup[]>;
}

/** One value of a business term, as the XML states it. */
export interface EInvoiceValue {
  /** The XML's text as written, white space collapsed and nothing else ("[Seller name]", "20240315", "850"). */
  raw: string;
  /** What the value means: `raw`, or `raw` normalised where its kind has a rule ("2024-03-15" for a format 102 date, "850.00" for an amount). */
  value: string;
  /** What made `value` from `raw`, when they differ ("date format 102 (CCYYMMDD) written as YYYY-MM-DD"). */
  normalized?: string;
  /** An identifier's scheme (schemeID, listID: "0088", "VA", "EM"). */
  scheme?: string;
  /** An amount's currency (currencyID). */
  currency?: string;
  /** A quantity's unit (unitCode: "C62", "HUR"). */
  unit?: string;
  /** A date's format code as written ("102"). */
  format?: string;
  /** The element it was read from; "/@name" ends the path of an attribute's value. */
  path: string;
  /** Where the e-invoice page shows it: the line (a position in Page.lines) and its words [first, end) on that line. */
  shown?: { line: number; words: [number, number] };
}

/** One value of the XML on an e-invoice page: its EN 16931 business term, the element it was read from, and its words on the line. */
export interface EInvoiceValueOrigin {
  /** "BT-112" */
  term: string;
  /** "Invoice total amount with VAT" */
  name: string;
  /** "/rsm:CrossIndustryInvoice/.../ram:GrandTotalAmount" */
  path: string;
  /** Its words on the line: [first, end) positions in Line.words. */
  words: [number, number];
}

export interface DocumentFile {
  /** 0-based position in the request's `contents`. */
  index: number;
  filename: string;
  mimeType: string;
  pages: Page[];
}

export interface Document {
  files: DocumentFile[];
}

/** The Document as its e-invoice pages and its printed pages, each undefined when it has none (a Document without an e-invoice is all printed). */
export function splitEInvoicePages(document: Document): { eInvoice?: Document; printed?: Document } {
  const only = (keep: (page: Page) => boolean): Document | undefined => {
    const files = document.files.map((file) => ({ ...file, pages: file.pages.filter(keep) })).filter((file) => file.pages.length > 0);
    return files.length > 0 ? { files } : undefined;
  };
  const eInvoice = only((page) => page.source === 'e-invoice');
  if (!eInvoice) return { printed: document };
  const printed = only((page) => page.source !== 'e-invoice');
  return { eInvoice, ...(printed ? { printed } : {}) };
}

export function countPages(document: Document, source?: Page['source']): number {
  let count = 0;
  for (const file of document.files) {
    for (const page of file.pages) if (source === undefined || page.source === source) count++;
  }
  return count;
}

/**
 * One word of a Document: `file` is its position in `contents`, `page` the
 * page's index in its file (Page.index), `line` and `word` positions in
 * page.lines and line.words. Engines say where a value was read with these.
 */
export interface WordRef {
  file: number;
  page: number;
  line: number;
  word: number;
}

export function sameWord(a: WordRef, b: WordRef): boolean {
  return a.file === b.file && a.page === b.page && a.line === b.line && a.word === b.word;
}

/** The word a reference points to, with its page; undefined when the Document has no such word. */
export function wordAt(document: Document, ref: WordRef): { word: Word; page: Page; file: DocumentFile } | undefined {
  const file = document.files.find((f) => f.index === ref.file);
  const page = file?.pages.find((p) => p.index === ref.page);
  const word = page?.lines[ref.line]?.words[ref.word];
  return file && page && word ? { word, page, file } : undefined;
}
