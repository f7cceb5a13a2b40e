/**
 * A Document as a few strings and typed arrays, for posting to a worker
 * thread: structured clone of a Document serialises one object per word
 * and box on the event loop (100,000 words: 90 ms); this copies memory.
 * unpackDocument(packDocument(d)) deep-equals d. On the event loop the
 * copy is paced (`packingDocument`, `unpackingPage`: a step per line; 5,000
 * e-invoice lines took 0.08-0.15 s in one piece).
 */
import type { Document, DocumentFile, EInvoiceOrigin, Line, Page, PageView, PlacedWords, Word, WordSource } from '../document/document.js';
import { runSync, type PacedWork } from '../util/paced.js';
import { buildingOriginLines } from './einvoice/page.js';

export interface PackedPage {
  index: number;
  width: number;
  height: number;
  units: Page['units'];
  /**
   * An e-invoice page's origin (Page.eInvoice) as JSON: an invoice of
   * thousands of lines has tens of thousands of values, which a structured
   * clone copies object by object on the event loop (5,000 lines: 0.7 s).
   */
  eInvoice?: PackedEInvoice;
  /** Page.places, per line as JSON: unpacked a line a step, as the words are. */
  places?: string[];
  source: Page['source'];
  shown?: PageView;
  /** Every line's text, then every word's text, back to back; their lengths in `lengths`. */
  texts: string;
  /** Line count, then per line its text length and word count, then per word its text length. */
  lengths: Uint32Array;
  /** x0, y0, x1, y1 of each line, then of each word. */
  boxes: Float64Array;
  confidences: Float64Array;
  /** Each word's weakest character (NaN where the OCR engine gave none). */
  weakest: Float64Array;
  /** Each word's source: its position in WORD_SOURCES. */
  sources: Uint8Array;
}

const WORD_SOURCES: readonly WordSource[] = ['text-layer', 'ocr', 'e-invoice'];

/**
 * Page.eInvoice in pieces, each parsed in a step of its own: the origin with
 * the invoice's own terms, then each instance of its groups (an invoice line,
 * a VAT breakdown row). The origins per line of the page are left out and
 * rebuilt from the values' `shown` (they say the same): the values travel once.
 */
export interface PackedEInvoice {
  head: string;
  /** Each piece's element paths are written from its own element's ("~/..."): an invoice line's values share their line's path. */
  groups: Array<[id: string, path: string, json: string]>;
  /** Whether the page had its origins per line (the rules engine's copy has none). */
  originLines: boolean;
}

export interface PackedDocument {
  files: Array<Omit<DocumentFile, 'pages'> & { pages: PackedPage[] }>;
}

/** `withOrigins: false` leaves out an e-invoice page's terms and where its values come from (the rules engine reads only the lines). */
export function packDocument(document: Document, options: { withOrigins?: boolean } = {}): PackedDocument {
  return runSync(packingDocument(document, options));
}

/** packDocument in steps: one per line. */
export function* packingDocument(document: Document, { withOrigins = true }: { withOrigins?: boolean } = {}): PacedWork<PackedDocument> {
  const files: PackedDocument['files'] = [];
  for (const { pages, ...file } of document.files) {
    const packed: PackedPage[] = [];
    for (const page of pages) packed.push(yield* packingPage(withOrigins ? page : withoutOrigins(page)));
    files.push({ ...file, pages: packed });
  }
  return { files };
}

function withoutOrigins({ eInvoice, places: _places, ...page }: Page): Page {
  return eInvoice ? { ...page, eInvoice: { ...eInvoice, invoice: { ...eInvoice.invoice, terms: {}, groups: {} }, lines: [] } } : page;
}

/** JSON with every "path" under `prefix` written from it; JSON escapes a quote inside a string, so only keys named "path" match. */
function shortenPaths(json: string, prefix: string): string {
  return json.split(`"path":"${prefix}/`).join('"path":"~/').split(`"path":"${prefix}"`).join('"path":"~"');
}

function restorePaths(json: string, prefix: string): string {
  return json.split('"path":"~').join(`"path":"${prefix}`);
}

function* packingEInvoice({ lines, invoice, ...origin }: EInvoiceOrigin): PacedWork<PackedEInvoice> {
  const groups: PackedEInvoice['groups'] = [];
  for (const [id, instances] of Object.entries(invoice.groups)) {
    for (const instance of instances) {
      yield;
      groups.push([id, instance.path, shortenPaths(JSON.stringify(instance), instance.path)]);
    }
  }
  return { head: JSON.stringify({ ...origin, invoice: { ...invoice, groups: {} } }), groups, originLines: lines.length > 0 };
}

function* unpackingEInvoice(packed: PackedEInvoice, lineCount: number): PacedWork<EInvoiceOrigin> {
  const origin = JSON.parse(packed.head) as EInvoiceOrigin;
  for (const [id, path, json] of packed.groups) {
    yield;
    (origin.invoice.groups[id] ??= []).push(JSON.parse(restorePaths(json, path)) as EInvoiceOrigin['invoice']);
  }
  origin.lines = packed.originLines ? yield* buildingOriginLines(origin.invoice, lineCount) : [];
  return origin;
}

export function unpackDocument(packed: PackedDocument): Document {
  return { files: packed.files.map(({ pages, ...file }) => ({ ...file, pages: pages.map(unpackPage) })) };
}

export function packPage(page: Page): PackedPage {
  return runSync(packingPage(page));
}

function* packingPage({ lines, eInvoice, places, ...page }: Page): PacedWork<PackedPage> {
  const words = lines.reduce((count, line) => count + line.words.length, 0);
  const lengths = new Uint32Array(1 + 2 * lines.length + words);
  const boxes = new Float64Array(4 * (lines.length + words));
  const confidences = new Float64Array(words);
  const weakest = new Float64Array(words);
  const sources = new Uint8Array(words);
  const texts: string[] = [];
  lengths[0] = lines.length;
  let box = 0;
  const putBox = ({ bbox }: { bbox: Word['bbox'] }) => {
    boxes[box++] = bbox.x0;
    boxes[box++] = bbox.y0;
    boxes[box++] = bbox.x1;
    boxes[box++] = bbox.y1;
  };
  for (const [i, line] of lines.entries()) {
    texts.push(line.text);
    lengths[1 + 2 * i] = line.text.length;
    lengths[2 + 2 * i] = line.words.length;
    putBox(line);
  }
  let w = 0;
  for (const line of lines) {
    yield;
    for (const word of line.words) {
      texts.push(word.text);
      lengths[1 + 2 * lines.length + w] = word.text.length;
      putBox(word);
      confidences[w] = word.confidence;
      weakest[w] = word.weakest ?? NaN;
      sources[w] = WORD_SOURCES.indexOf(word.source);
      w++;
    }
  }
  const packedPlaces = places?.map((line) => JSON.stringify(line));
  return { ...page, ...(eInvoice ? { eInvoice: yield* packingEInvoice(eInvoice) } : {}), ...(packedPlaces ? { places: packedPlaces } : {}), texts: texts.join(''), lengths, boxes, confidences, weakest, sources };
}

export function unpackPage(packed: PackedPage): Page {
  return runSync(unpackingPage(packed));
}

/** unpackPage in steps: one per line. */
export function* unpackingPage({ texts, lengths, boxes, confidences, weakest, sources, eInvoice, places: packedPlaces, ...page }: PackedPage): PacedWork<Page> {
  const lineCount = lengths[0]!;
  let at = 0;
  const text = (length: number) => texts.slice(at, (at += length));
  let box = 0;
  const takeBox = () => ({ x0: boxes[box++]!, y0: boxes[box++]!, x1: boxes[box++]!, y1: boxes[box++]! });
  const lines: Line[] = [];
  for (let i = 0; i < lineCount; i++) lines.push({ text: text(lengths[1 + 2 * i]!), bbox: takeBox(), words: [] });
  let w = 0;
  const places: PlacedWords[][] = [];
  for (const [i, line] of lines.entries()) {
    yield;
    if (packedPlaces) places.push(JSON.parse(packedPlaces[i] ?? '[]') as PlacedWords[]);
    for (let k = 0; k < lengths[2 + 2 * i]!; k++, w++) {
      const source = WORD_SOURCES[sources[w]!]!;
      const word: Word = { text: text(lengths[1 + 2 * lineCount + w]!), bbox: takeBox(), confidence: confidences[w]!, source };
      if (!Number.isNaN(weakest[w])) word.weakest = weakest[w]!;
      line.words.push(word);
    }
  }
  return { ...page, lines, ...(eInvoice ? { eInvoice: yield* unpackingEInvoice(eInvoice, lines.length) } : {}), ...(packedPlaces ? { places } : {}) };
}
