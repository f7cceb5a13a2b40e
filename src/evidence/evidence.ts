/**
 * Per-value evidence for an answer (the request option `evidence`): for the
 * JSON Pointer of every non-null leaf of the answer, where it was read
 * (locate.ts) and how sure docshape is of it (confidence.ts). A value no word
 * of the document supports is still listed, with a low confidence and no
 * box: it is never dropped.
 */
import type { DateOrder } from '../schema/date-order.js';
import type { Extraction } from '../schema/engine.js';
import type { JsonSchema } from '../schema/json-schema.js';
import type { Document, WordRef } from '../document/document.js';
import { foldText } from '../util/fold-text.js';
import { childPointer, valueAtPointer } from '../util/json-pointer.js';
import { combineReadings, singleReadingConfidence } from './confidence.js';
import { DocumentIndex } from './document-index.js';
import { answerAmounts, valueFeatures, type Agreement, type FeatureContext, type ValueFeatures } from './features.js';
import { comparePrinted, eInvoiceConfidence, eInvoiceOrigin, type EInvoiceEvidence } from './e-invoice.js';
import { locate, type Location } from './locate.js';
import { PrintedValues } from './printed-values.js';
import { Pacer, runPaced, runSync, type PacedWork } from '../util/paced.js';

export interface ValueEvidence extends Partial<Location> {
  /** Probability that the value is right, 0..1. */
  confidence: number;
  /** For a value read from an e-invoice's XML (source 'e-invoice'): its term, element, and what the printed page shows (file, page and box are where it is printed). */
  eInvoice?: EInvoiceEvidence;
}

/** JSON Pointer -> evidence, in the answer's order. */
export type EvidenceMap = Record<string, ValueEvidence>;

export interface EvidenceReport {
  evidence: EvidenceMap;
  /** What each confidence was computed from (the eval's calibration and the fit use them). */
  features: Map<string, ValueFeatures>;
}

/** The answer to explain, and, when a language model gave it, the rules engine's reading of the same document. */
export interface EvidenceInput {
  answer: Extraction & { value: Record<string, unknown> };
  document: Document;
  schema: JsonSchema;
  /** The request's settled date order: the answer's dates are compared with the printed ones read this way. */
  dateOrder: DateOrder;
  /** The rules engine's finalized reading, when the answer came from another engine. */
  crossCheck?: Extraction;
  /**
   * When the Document holds an e-invoice: the rules engine's finalized
   * reading of its printed pages alone (undefined when it has none, an XML
   * file), to say whether page and XML agree.
   */
  printed?: Extraction;
}

interface Leaf {
  pointer: string;
  value: unknown;
}

/** Every leaf that holds a value (strings, numbers, booleans) with its pointer, in document order of the answer, in steps (one per leaf). */
function* collectingLeaves(value: unknown, pointer: string, into: Leaf[]): PacedWork<void> {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* collectingLeaves(item, childPointer(pointer, index), into);
  } else if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) yield* collectingLeaves(item, childPointer(pointer, key), into);
  } else {
    into.push({ pointer, value });
    yield;
  }
}

function leavesOf(value: unknown): Leaf[] {
  const leaves: Leaf[] = [];
  runSync(collectingLeaves(value, '', leaves));
  return leaves;
}

/** Pointers of every leaf that holds a value, in document order of the answer. */
export function leafPointers(value: unknown): string[] {
  return leavesOf(value).map((leaf) => leaf.pointer);
}

export function buildEvidence(input: EvidenceInput): EvidenceReport {
  return runSync(evidenceOf(input));
}

/**
 * buildEvidence on the event loop in turns of `pacer` (util/paced.ts): for
 * an answer of 5,000 rows it held the loop about a second in one piece.
 */
export function buildEvidencePaced(input: EvidenceInput, pacer: Pacer): Promise<EvidenceReport> {
  return runPaced(evidenceOf(input), pacer);
}

/** Yields after each line of the document indexed and each value explained. */
function* evidenceOf(input: EvidenceInput): PacedWork<EvidenceReport> {
  const leaves: Leaf[] = [];
  yield* collectingLeaves(input.answer.value, '', leaves);
  const rulesLeaves: Leaf[] = [];
  if (input.crossCheck) yield* collectingLeaves(input.crossCheck.value, '', rulesLeaves);
  // every text of both readings looked for in the document in one pass over its lines
  const index = yield* DocumentIndex.building(input.document, [...leaves, ...rulesLeaves].map((leaf) => leaf.value));
  const context: FeatureContext = { document: input.document, index, schema: input.schema, dateOrder: input.dateOrder, amounts: answerAmounts(leaves) };
  // the rules engine's own amounts, once: per value they made evidence for a long answer quadratic
  const rulesContext = input.crossCheck ? { ...context, amounts: answerAmounts(rulesLeaves) } : undefined;
  // an e-invoice's values sought on its printed pages, all in one pass over them
  const shown = input.printed ? yield* PrintedValues.building(input.document, leaves.map((leaf) => leaf.value)) : undefined;
  const evidence: EvidenceMap = {};
  const features = new Map<string, ValueFeatures>();
  for (const { pointer, value } of leaves) {
    yield;
    const source = input.answer.provenance.get(pointer);
    const origin = source ? eInvoiceOrigin(source.words, input.document) : undefined;
    if (source && origin) {
      evidence[pointer] = eInvoiceEvidence(pointer, value, source.words, origin, input, source.score, shown);
      continue;
    }
    const agreement = input.crossCheck ? agreementAt(pointer, value, input.crossCheck.value) : 'none';
    const found = valueFeatures(pointer, value, source, agreement, context);
    features.set(pointer, found);
    const confidence = input.crossCheck && rulesContext ? crossCheckedConfidence(pointer, found, input.crossCheck, rulesContext) : singleReadingConfidence(found);
    const location = source ? locate(source.words, input.document) : undefined;
    evidence[pointer] = { ...(location ?? {}), confidence: Math.round(confidence * 1000) / 1000 };
  }
  return { evidence, features };
}

/** A value of the XML: its words' text, its term and element, and where (and whether) the printed pages show it. */
function eInvoiceEvidence(pointer: string, value: unknown, words: readonly WordRef[], origin: NonNullable<ReturnType<typeof eInvoiceOrigin>>, input: EvidenceInput, mapping: number | undefined, shown: PrintedValues | undefined): ValueEvidence {
  const xml = locate(words, input.document);
  const compared = comparePrinted(pointer, value, input.printed, input.document, shown);
  const printedAt = compared.location;
  const eInvoice: EInvoiceEvidence = { ...origin, printed: compared.printed, ...(compared.printed === 'differs' && printedAt ? { printedText: printedAt.text } : {}) };
  return {
    ...(printedAt ? { file: printedAt.file, page: printedAt.page, bbox: printedAt.bbox, ...(printedAt.boxes ? { boxes: printedAt.boxes } : {}) } : { file: xml?.file ?? 0 }),
    text: xml?.text ?? String(value),
    source: 'e-invoice',
    confidence: Math.round(eInvoiceConfidence(compared.printed, mapping) * 1000) / 1000,
    eInvoice,
  };
}

/** A language model's value weighed against the rules engine's reading of the same property (`rulesContext`: the amounts of the rules engine's reading in place of the answer's). */
function crossCheckedConfidence(pointer: string, features: ValueFeatures, crossCheck: Extraction, rulesContext: FeatureContext): number {
  const rulesValue = valueAtPointer(crossCheck.value, pointer);
  const rulesConfidence =
    rulesValue === null || rulesValue === undefined || typeof rulesValue === 'object'
      ? undefined
      : singleReadingConfidence(valueFeatures(pointer, rulesValue, crossCheck.provenance.get(pointer), 'none', rulesContext));
  if (features.agreement === 'none' || rulesConfidence === undefined) return combineReadings(features.kind, 'none', undefined, features.exactness);
  return combineReadings(features.kind, features.agreement, rulesConfidence, features.exactness);
}

/** Whether the other reading holds the same value at the same place. */
export function agreementAt(pointer: string, value: unknown, other: unknown): Agreement {
  const theirs = valueAtPointer(other, pointer);
  if (theirs === null || theirs === undefined || typeof theirs === 'object') return 'none';
  return sameValue(value, theirs) ? 'agrees' : 'differs';
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 0.005;
  return foldText(String(a)) === foldText(String(b));
}
