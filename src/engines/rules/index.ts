/**
 * The rules engine: extraction without a language model, driven only by the
 * caller's schema (property names, descriptions, types, formats, enums) and
 * the document's words and positions. It never invents a value: what it
 * cannot find is null. Useful offline, as a baseline, and in tests. Every
 * value it returns comes with the Document words it was read from.
 *
 * This folder owns the engine; objects.ts walks the schema and fields.ts
 * picks the strategy for one value. The strategies, and when each runs:
 *
 * | strategy                      | file                     | runs for                                                              |
 * |-------------------------------|--------------------------|-----------------------------------------------------------------------|
 * | label and value               | core/anchors.ts          | every scalar: a printed label ("Total:") and the typed value after or below it |
 * | labelled block                | core/blocks.ts           | nested objects (customer, vendor): the lines under "Bill to:" and the like |
 * | table                         | tables/tables.ts         | lists of objects: a heading naming the item's properties (or rows of one shape), rows below |
 * | every occurrence              | objects.ts (extractList) | lists of scalars: each labelled value; e-mails, phones, links also unlabelled |
 * | final total                   | receipts/totals.ts       | amounts named like a total: the payable one among several total lines |
 * | rounding                      | receipts/rounding.ts     | totals whose description asks for the amount after rounding           |
 * | tax on its line               | receipts/taxes.ts        | tax amounts: the tax, not the rate or the taxable amount beside it     |
 * | consistency                   | receipts/consistency.ts  | after an object is filled: a tax not smaller than the total is dropped |
 * | document stamp                | receipts/stamps.ts       | dates and times without a label: the document's own date and time     |
 * | header name and address       | receipts/header.ts       | business names and addresses without a label: the issuer at the top   |
 * | parties                       | receipts/parties.ts      | seller and buyer names and addresses: under their role labels, else by a letter's layout (window, footer imprint) |
 * | unlabelled phone              | receipts/phones.ts       | phones without a label: phone-shaped numbers not announced as another id |
 * | stated in prose               | prose/prose-values.ts    | dates, durations and places a sentence states ("governed by the laws of") |
 * | parties of an agreement       | prose/parties.ts         | lists named like parties: the opening clause, the signature blocks     |
 * | e-invoice first               | e-invoice.ts             | a Document with an e-invoice page: its lines first, the printed pages for the rest |
 *
 * core/ is the general machinery (lines, labels, kinds, typed values);
 * tables/ reads lists of objects from printed tables; receipts/ knows
 * receipts and invoices; prose/ knows running text. The words of each
 * language it reads are data in meaning/languages/.
 * A new strategy goes in the folder of what it knows and is called from
 * fields.ts (scalars) or objects.ts (objects and lists).
 */
import type { DateOrder } from '../../schema/date-order.js';
import type { Engine, EngineStatus, Extraction, ExtractionInput } from '../../schema/engine.js';
import { isDayFirst } from '../../schema/date-order.js';
import type { JsonSchema } from '../../schema/json-schema.js';
import { viewSchema } from '../../schema/schema-view.js';
import type { Document } from '../../document/document.js';
import type { PackedDocument } from '../../ingest/document-pack.js';
import { documentLanguages } from './core/language-detect.js';
import { readLines } from './core/lines.js';
import { readEInvoiceFirst } from './e-invoice.js';
import { extractObject } from './objects.js';

/** What the rules engine reads: plain data (no validators, no signal), so that it can cross to a worker thread (threaded.ts). */
export interface RulesTask {
  document: Document;
  schema: JsonSchema;
  dateOrder: DateOrder;
}

export function rulesTaskOf(input: ExtractionInput): RulesTask {
  return { document: input.document, schema: input.compiled.schema, dateOrder: input.options.dateOrder };
}

/** A RulesTask with its Document packed (ingest/document-pack.ts), as it is posted to a worker thread. */
export type PackedRulesTask = Omit<RulesTask, 'document'> & { document: PackedDocument };

/** The extraction and where each value was read; checks `signal` between properties. */
export async function extractByRules(task: RulesTask, signal: AbortSignal): Promise<Extraction> {
  signal.throwIfAborted();
  // the languages of each reading from its own lines: an e-invoice page names its terms in English, the printed page in its own language
  const read = (document: Document) => {
    const lines = readLines(document);
    return extractObject(viewSchema(task.schema, task.schema), lines, { root: task.schema, dayFirst: isDayFirst(task.dateOrder), languages: documentLanguages(lines), signal });
  };
  return readEInvoiceFirst(task.document, read);
}

/** The rules engine on the calling thread, for tests; the service runs it on worker threads (ThreadedRulesEngine). */
export class RulesEngine implements Engine {
  readonly name = 'rules';

  extract(input: ExtractionInput): Promise<Extraction> {
    return extractByRules(rulesTaskOf(input), input.signal);
  }

  async status(): Promise<EngineStatus> {
    return { ready: true, detail: 'rules engine: labels, positions and tables; no model' };
  }

  async close(): Promise<void> {}
}
