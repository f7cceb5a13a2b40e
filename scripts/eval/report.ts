import type { UngroundedValue } from '../../src/schema/engine.js';
import type { LayoutText } from '../../src/ingest/layout.js';
import { ACCEPT_AT, calibrationSamples, summariseCalibration, type CalibrationSample, type CalibrationSummary, type ValueConfidence } from './calibration.js';
import type { DateOrder } from './normalise.js';
import { fieldEvidence, buildEvidenceIndex, type EvidenceItem } from './evidence.js';
import { itemColumns, type ItemsSummary } from './items.js';
import { modelSummaryLines, summariseModel, type ModelSummary } from './model-summary.js';
import type { DocumentModelUsage } from './model-usage.js';
import {
  microAverage,
  pairF1,
  scoreDocument,
  summariseField,
  type FieldKind,
  type FieldScore,
  type FieldSummary,
  type MicroAverage,
  type NullGtCounts,
  type NullMeaning,
  type ScoreOptions,
  type SetSummary,
  ratio,
} from './score.js';

/** The OCR engine that read the document's scanned pages and the time it took (local mode, fresh ingestion, some page OCRed). */
export interface OcrRun {
  engine: string;
  seconds: number;
}

/** One document as the runner saw it: the result, or why there is none. */
export type DocumentRun = (
  | { id: string; ok: true; seconds: number; engine: string; result: unknown; layout: LayoutText | undefined; ingest?: 'cached' | 'fresh'; ocr?: OcrRun; confidences?: Record<string, ValueConfidence> }
  | { id: string; ok: false; seconds: number; status: number | null; message: string }
) & {
  /** What the language model did for the document (local runs with a model engine). */
  model?: DocumentModelUsage;
};

/** The answer to one paraphrase of the dataset's schema (paraphrases.ts), its properties already renamed to the dataset's fields. */
export type ParaphraseRun =
  | { ok: true; seconds: number; result: Record<string, unknown>; /** the answer as the paraphrase named it */ answer: unknown }
  | { ok: false; seconds: number; status: number | null; message: string };

export interface DocumentInput {
  id: string;
  expected: Record<string, unknown>;
  run: DocumentRun;
  /** Which variant of the dataset the document is (the manifest's `variant`), when it names one. */
  variant?: string;
  /** The same document answered with each paraphrase of the schema, by paraphrase name. */
  paraphrases?: Record<string, ParaphraseRun>;
  /** The documents kept together when a model is checked on unseen producers and layouts (groups.ts). */
  group?: string;
}

export interface EvidenceMiss {
  id: string;
  field: string;
  expected: string;
  context: string;
}

export interface EvidenceFieldSummary {
  field: string;
  found: number;
  total: number;
  recall: number | null;
  /** Scored wrong although every expected value was in the text: the engine's share of the errors, not OCR's. */
  wrongDespiteEvidence: number;
}

export interface FieldDetail {
  correct?: boolean;
  strict?: boolean;
  anls?: number;
  set?: { tp: number; fp: number; fn: number };
  nullGtPredictedValue?: boolean;
  /** An array of objects: items on each side and cell counts (items.ts). */
  items?: { labelItems: number; answerItems: number; labelled: number; answered: number; equal: number };
}

/** One paraphrase of the schema scored over the dataset's documents, as the dataset's own schema is. */
export interface ParaphraseReport {
  name: string;
  documents: number;
  failed: number;
  fields: FieldSummary[];
  micro: MicroAverage;
  pairF1: SetSummary;
  latency: { medianSeconds: number | null; p95Seconds: number | null };
  errors: { id: string; status: number | null; message: string }[];
  details: { id: string; ok: boolean; answer: unknown; fields: Record<string, FieldDetail> }[];
}

export interface DocumentDetail {
  id: string;
  /** Its group (groups.ts): one producer, layout family or invoice in several profiles. */
  group?: string;
  ok: boolean;
  seconds: number;
  engine: string | null;
  predicted: unknown;
  /** Per field: correct (lenient), strict, ANLS / set counts when they apply. Fields with null ground truth show predictedValue instead. */
  fields: Record<string, FieldDetail>;
  /** The model's calls for this document (language-model engines). */
  model?: { calls: number; retries: number; promptTokens: number; outputTokens: number; ungrounded: UngroundedValue[] };
}

export interface DatasetReport {
  name: string;
  dir: string;
  documents: number;
  failed: number;
  engines: Record<string, number>;
  /** Documents whose ingested Document came from the --reuse-ingest cache (OCR skipped; latency not comparable). */
  cachedIngest: number;
  nullMeaning: NullMeaning;
  dateOrder: DateOrder;
  fields: FieldSummary[];
  micro: MicroAverage;
  pairF1: SetSummary;
  nullGt: NullGtCounts & { hallucinationRate: number | null };
  evidence: {
    available: boolean;
    fields: EvidenceFieldSummary[];
    overall: { found: number; total: number; recall: number | null };
    misses: EvidenceMiss[];
  };
  latency: { medianSeconds: number | null; p95Seconds: number | null };
  /** The language model's calls, tokens, speed and grounding, when a model answered. */
  model?: ModelSummary;
  /** Calibration of the per-value confidence; null when the runs gave none (a service without evidence). */
  calibration: (CalibrationSummary & { sampleList: CalibrationSample[] }) | null;
  /** OCR time per document that went through OCR, by engine; null when none did. */
  ocr: { engines: Record<string, number>; documents: number; medianSeconds: number | null; maxSeconds: number | null } | null;
  errors: { id: string; status: number | null; message: string }[];
  details: DocumentDetail[];
  /** The same figures per variant (born-digital, scanned...), when the dataset's documents come in several. */
  variants?: DatasetReport[];
  /** Each paraphrase of the schema the run asked with, scored the same way (absent: none asked). */
  paraphrases?: ParaphraseReport[];
  /** How many groups of documents (groups.ts) and what joined them; the group of each document is in its details. */
  groups?: { count: number; linkedBy: string[] };
}

export interface EvalReport {
  generatedAt: string;
  mode: 'local' | 'remote';
  url: string | null;
  /** eInvoice: the request option the run set (absent: the service's E_INVOICE). */
  options: { dateOrder: DateOrder; limit: number | null; concurrency: number; eInvoice?: 'auto' | 'ignore' };
  /** Set when --reuse-ingest was used: OCR output came from (or went to) this cache. */
  ingestCache?: { dir: string; fingerprint: string; refresh: boolean; hits: number; misses: number } | null;
  datasets: DatasetReport[];
}

/** Nearest-rank percentile of an unsorted list. */
export function percentile(values: readonly number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1] ?? null;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export interface DatasetInput {
  name: string;
  dir: string;
  /** The dataset's schema, to check the answers against. */
  schema?: unknown;
  kinds: ReadonlyMap<string, FieldKind>;
  nullMeaning: NullMeaning;
  dateOrder: DateOrder;
  documents: readonly DocumentInput[];
  /** The paraphrases the documents were also answered with, in the order to report them. */
  paraphrases?: readonly string[];
  /** What joined the documents' groups (DocumentInput.group). */
  groupLinks?: readonly string[];
}

function fieldDetails(scores: readonly FieldScore[]): Record<string, FieldDetail> {
  const fields: Record<string, FieldDetail> = {};
  for (const score of scores) {
    const entry: FieldDetail = {};
    if (score.correct !== undefined) entry.correct = score.correct;
    if (score.strict !== undefined) entry.strict = score.strict;
    if (score.anls !== undefined) entry.anls = Number(score.anls.toFixed(4));
    if (score.set) entry.set = score.set;
    if (score.items) {
      const { labelItems, answerItems, labelled, answered, equal } = score.items;
      entry.items = { labelItems, answerItems, labelled, answered, equal };
    }
    if (score.expectedMissing && !score.failed && score.kind !== 'items') entry.nullGtPredictedValue = !score.predictedMissing;
    fields[score.field] = entry;
  }
  return fields;
}

function detailOf(input: DocumentInput, scores: readonly FieldScore[]): DocumentDetail {
  const fields = fieldDetails(scores);
  const { run } = input;
  const detail: DocumentDetail = { id: input.id, ...(input.group === undefined ? {} : { group: input.group }), ok: run.ok, seconds: run.seconds, engine: run.ok ? run.engine : null, predicted: run.ok ? run.result : null, fields };
  if (run.model) {
    const { calls, retries, promptTokens, outputTokens, ungrounded } = run.model;
    // the values themselves, so a change to the grounding check can be judged against the answers the model gave
    detail.model = { calls, retries, promptTokens, outputTokens, ungrounded };
  }
  return detail;
}

/**
 * A short name for a variant of a dataset: the manifest's `variant` is a
 * sentence ("the same pages rasterised at 150 dpi into an image-only PDF
 * ..."); scanned copies carry ids ending in `_scan`.
 */
export function variantName(variant: string, ids: readonly string[]): string {
  if (ids.length > 0 && ids.every((id) => id.endsWith('_scan'))) return 'scanned';
  if (/\bborn[- ]digital\b/i.test(variant)) return 'born-digital';
  const head = variant.split(/[(,;]/)[0]!.trim();
  return head.length <= 40 ? head : `${head.slice(0, 39)}…`;
}

/** Scores every document of a dataset and summarises it; a dataset of several variants is also summarised per variant. */
export function buildDatasetReport(input: DatasetInput): DatasetReport {
  const report = buildOneReport(input);
  const groups = new Map<string, DocumentInput[]>();
  for (const document of input.documents) if (document.variant !== undefined) groups.set(document.variant, [...(groups.get(document.variant) ?? []), document]);
  if (groups.size < 2) return report;
  const variants = [...groups].map(([variant, documents]) =>
    buildOneReport({ ...input, name: `${input.name} [${variantName(variant, documents.map((document) => document.id))}]`, documents }),
  );
  return { ...report, variants };
}

/** Every document's answer (undefined: the request failed) scored field by field, and the fields summarised over the documents. */
function scoreAnswers(input: DatasetInput, answers: readonly { expected: Record<string, unknown>; result: unknown }[], options: ScoreOptions) {
  const perDocument = answers.map(({ expected, result }) => scoreDocument(input.kinds, expected, result, options));
  const allScores = perDocument.flat();
  const fields = [...input.kinds].map(([field, kind]) => summariseField(field, kind, allScores.filter((score) => score.field === field)));
  return { perDocument, allScores, fields, micro: microAverage(fields), pairF1: pairF1(allScores, input.nullMeaning) };
}

function paraphraseReport(input: DatasetInput, name: string, options: ScoreOptions): ParaphraseReport {
  const runs = input.documents.map((document): ParaphraseRun => document.paraphrases?.[name] ?? { ok: false, seconds: 0, status: null, message: 'not asked' });
  const { perDocument, fields, micro, pairF1: pairs } = scoreAnswers(input, input.documents.map((document, index) => ({ expected: document.expected, result: runs[index]!.ok ? (runs[index] as { result: unknown }).result : undefined })), options);
  const seconds = runs.map((run) => run.seconds);
  return {
    name,
    documents: input.documents.length,
    failed: runs.filter((run) => !run.ok).length,
    fields,
    micro,
    pairF1: pairs,
    latency: { medianSeconds: median(seconds), p95Seconds: percentile(seconds, 0.95) },
    errors: input.documents.flatMap(({ id }, index) => {
      const run = runs[index]!;
      return run.ok ? [] : [{ id, status: run.status, message: run.message }];
    }),
    details: input.documents.map(({ id }, index) => {
      const run = runs[index]!;
      return { id, ok: run.ok, answer: run.ok ? run.answer : null, fields: fieldDetails(perDocument[index]!) };
    }),
  };
}

function buildOneReport(input: DatasetInput): DatasetReport {
  const options: ScoreOptions = { dateOrder: input.dateOrder, itemColumns: itemColumns(input.schema) };
  const { perDocument, fields, micro, pairF1: pairs } = scoreAnswers(input, input.documents.map((document) => ({ expected: document.expected, result: document.run.ok ? document.run.result : undefined })), options);
  const scored = input.documents.map((document, index) => ({ document, scores: perDocument[index]! }));

  const nullGt = fields.reduce<NullGtCounts>(
    (sum, field) => ({
      total: sum.total + field.nullGt.total,
      predictedNull: sum.predictedNull + field.nullGt.predictedNull,
      predictedValue: sum.predictedValue + field.nullGt.predictedValue,
    }),
    { total: 0, predictedNull: 0, predictedValue: 0 },
  );

  // Evidence needs the layout text; remote runs and failed documents have none, so they are left out rather than counted as misses.
  const withText = scored.filter(({ document }) => document.run.ok && document.run.layout !== undefined);
  const evidenceItems: (EvidenceItem & { id: string; correct: boolean | undefined })[] = [];
  for (const { document, scores } of withText) {
    const layout = document.run.ok ? (document.run.layout ?? { text: '', words: [] }) : { text: '', words: [] };
    const index = buildEvidenceIndex(layout);
    for (const score of scores) {
      for (const item of fieldEvidence(index, score.field, score.kind, score.expected, input.dateOrder)) {
        evidenceItems.push({ ...item, id: document.id, correct: score.correct });
      }
    }
  }
  const evidenceFields = [...input.kinds.keys()].map((field): EvidenceFieldSummary => {
    const items = evidenceItems.filter((item) => item.field === field);
    const found = items.filter((item) => item.found).length;
    const byDocument = new Map<string, typeof items>();
    for (const item of items) byDocument.set(item.id, [...(byDocument.get(item.id) ?? []), item]);
    const wrongDespiteEvidence = [...byDocument.values()].filter((group) => group.every((item) => item.found) && group[0]?.correct === false).length;
    return { field, found, total: items.length, recall: ratio(found, items.length), wrongDespiteEvidence };
  });
  const evidenceFound = evidenceItems.filter((item) => item.found).length;

  const modelDocuments = input.documents.flatMap(({ id, expected, run }) =>
    run.model ? [{ id, expected, ok: run.ok, seconds: run.seconds, result: run.ok ? run.result : undefined, model: run.model }] : [],
  );
  const model = modelDocuments.some((document) => document.model.calls > 0)
    ? summariseModel({ schema: input.schema, kinds: input.kinds, dateOrder: input.dateOrder, documents: modelDocuments, strictCorrect: micro.strictCorrect })
    : undefined;

  const engines: Record<string, number> = {};
  for (const { run } of input.documents) if (run.ok) engines[run.engine] = (engines[run.engine] ?? 0) + 1;
  const calibration = calibrationOf(input, options);
  const seconds = input.documents.map(({ run }) => run.seconds);
  const ocrRuns = input.documents.flatMap(({ run }) => (run.ok && run.ocr ? [run.ocr] : []));
  const ocrEngines: Record<string, number> = {};
  for (const run of ocrRuns) ocrEngines[run.engine] = (ocrEngines[run.engine] ?? 0) + 1;
  const ocrSeconds = ocrRuns.map((run) => run.seconds);

  return {
    name: input.name,
    dir: input.dir,
    documents: input.documents.length,
    failed: input.documents.filter(({ run }) => !run.ok).length,
    engines,
    cachedIngest: input.documents.filter(({ run }) => run.ok && run.ingest === 'cached').length,
    nullMeaning: input.nullMeaning,
    dateOrder: input.dateOrder,
    fields,
    micro,
    pairF1: pairs,
    nullGt: { ...nullGt, hallucinationRate: input.nullMeaning === 'absent' ? ratio(nullGt.predictedValue, nullGt.total) : null },
    evidence: {
      available: withText.length > 0,
      fields: evidenceFields,
      overall: { found: evidenceFound, total: evidenceItems.length, recall: ratio(evidenceFound, evidenceItems.length) },
      misses: evidenceItems.filter((item) => !item.found).map(({ id, field, expected, context }) => ({ id, field, expected, context })),
    },
    latency: { medianSeconds: median(seconds), p95Seconds: percentile(seconds, 0.95) },
    ...(model ? { model } : {}),
    calibration,
    ocr: ocrRuns.length === 0 ? null : { engines: ocrEngines, documents: ocrRuns.length, medianSeconds: median(ocrSeconds), maxSeconds: Math.max(...ocrSeconds) },
    errors: input.documents.flatMap(({ id, run }) => (run.ok ? [] : [{ id, status: run.status, message: run.message }])),
    details: scored.map(({ document, scores }) => detailOf(document, scores)),
    ...(input.paraphrases && input.paraphrases.length > 0 ? { paraphrases: input.paraphrases.map((name) => paraphraseReport(input, name, options)) } : {}),
    ...groupsOf(input),
  };
}

function groupsOf(input: DatasetInput): Pick<DatasetReport, 'groups'> {
  const groups = new Set(input.documents.flatMap((document) => (document.group === undefined ? [] : [document.group])));
  return groups.size === 0 ? {} : { groups: { count: groups.size, linkedBy: [...(input.groupLinks ?? [])] } };
}

/** Samples of every document whose run gave confidences; a failed document's labelled values count as not covered. */
function calibrationOf(input: DatasetInput, options: { dateOrder: DateOrder }): DatasetReport['calibration'] {
  if (!input.documents.some(({ run }) => run.ok && run.confidences !== undefined)) return null;
  const sampleList: CalibrationSample[] = [];
  let labelled = 0;
  for (const { id, expected, run } of input.documents) {
    const predicted = run.ok && typeof run.result === 'object' && run.result !== null ? (run.result as Record<string, unknown>) : {};
    const found = calibrationSamples(id, input.kinds, expected, predicted, (run.ok ? run.confidences : undefined) ?? {}, input.nullMeaning, options);
    sampleList.push(...found.samples);
    labelled += found.labelled;
  }
  return { ...summariseCalibration(sampleList, labelled), sampleList };
}

// ---------------------------------------------------------------------------
// Formatting

const percent = (value: number | null) => (value === null ? '-' : `${(value * 100).toFixed(1)}%`);
const decimal = (value: number | null, digits = 3) => (value === null ? '-' : value.toFixed(digits));
const secondsText = (value: number | null) => (value === null ? '-' : `${value.toFixed(1)} s`);
const preciseSecondsText = (value: number | null) => (value === null ? '-' : `${value.toFixed(2)} s`);

/** Plain-text table with columns padded to their widest cell; numbers right-aligned. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[], rightAligned: readonly boolean[] = []): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (rightAligned[column] ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** Markdown table; pipes inside cells are escaped so a value cannot break the layout. */
export function formatMarkdownTable(headers: readonly string[], rows: readonly (readonly string[])[], rightAligned: readonly boolean[] = []): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    `| ${headers.map(cell).join(' | ')} |`,
    `|${headers.map((_, column) => (rightAligned[column] ? '---:' : '---')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

interface Table {
  headers: string[];
  rows: string[][];
  right: boolean[];
}

function nullGtCell(field: FieldSummary): string {
  return field.nullGt.total === 0 ? '-' : `${field.nullGt.predictedNull} / ${field.nullGt.predictedValue}`;
}

function fieldTable(report: DatasetReport): Table {
  const evidence = new Map(report.evidence.fields.map((field) => [field.field, field]));
  const rows = report.fields.filter((field) => field.items === null).map((field) => {
    const fieldEvidenceSummary = evidence.get(field.field);
    const evidenceCell = !report.evidence.available ? 'n/a' : fieldEvidenceSummary && fieldEvidenceSummary.total > 0 ? `${percent(fieldEvidenceSummary.recall)} (${fieldEvidenceSummary.found}/${fieldEvidenceSummary.total})` : '-';
    return [
      field.field,
      field.kind,
      String(field.expected),
      percent(field.strictAccuracy),
      percent(field.accuracy),
      decimal(field.meanAnls),
      field.set ? `${decimal(field.set.precision, 2)}/${decimal(field.set.recall, 2)}/${decimal(field.set.f1, 2)}` : '-',
      nullGtCell(field),
      evidenceCell,
      report.evidence.available && fieldEvidenceSummary ? String(fieldEvidenceSummary.wrongDespiteEvidence) : '-',
    ];
  });
  return {
    headers: ['field', 'kind', 'n', 'strict acc', 'accuracy', 'mean ANLS', 'set P/R/F1', 'null-GT: null / value', 'evidence recall', 'wrong w/ evidence'],
    rows,
    right: [false, false, true, true, true, true, true, true, true, true],
  };
}

/** Fields that are arrays of objects: their items summaries. */
function itemFields(fields: readonly FieldSummary[]): { field: string; items: ItemsSummary }[] {
  return fields.flatMap((field) => (field.items ? [{ field: field.field, items: field.items }] : []));
}

/** Per column of an array of objects: labelled cells, equal cells, accuracy. */
function itemsTable(report: DatasetReport): Table {
  return {
    headers: ['field', 'column', 'labelled cells', 'equal', 'accuracy'],
    rows: itemFields(report.fields).flatMap(({ field, items }) => items.columns.map((column) => [field, column.column, String(column.labelled), String(column.equal), percent(column.accuracy)])),
    right: [false, false, true, true, true],
  };
}

export function itemsLine(field: string, items: ItemsSummary): string {
  return (
    `${field} (items matched one to one by equal cells): cell F1 ${decimal(items.f1)} (P ${decimal(items.precision)}, R ${decimal(items.recall)}; ` +
    `${items.equalCells} equal of ${items.answeredCells} answered and ${items.labelledCells} labelled cells), ` +
    `item count right in ${items.sameCount}/${items.documents} documents (${percent(items.sameCountShare)})`
  );
}

/** The names of every paraphrase the reports hold, in first-seen order. */
function paraphraseNames(reports: readonly DatasetReport[]): string[] {
  const names: string[] = [];
  for (const report of reports) for (const paraphrase of report.paraphrases ?? []) if (!names.includes(paraphrase.name)) names.push(paraphrase.name);
  return names;
}

/** One dataset's fields (and item columns) by schema: its own, then each paraphrase; strict accuracy. */
function paraphraseTable(report: DatasetReport): Table {
  const schemas: { name: string; fields: FieldSummary[]; micro: MicroAverage; failed: number }[] = [
    { name: 'dataset schema', fields: report.fields, micro: report.micro, failed: report.failed },
    ...(report.paraphrases ?? []),
  ];
  const byField = (summary: { fields: FieldSummary[] }, field: string) => summary.fields.find((candidate) => candidate.field === field);
  const rows: string[][] = [['all fields (strict)', String(report.micro.expected), ...schemas.map((schema) => percent(schema.micro.strictAccuracy))]];
  for (const field of report.fields) {
    if (field.items === null) {
      rows.push([field.field, String(field.expected), ...schemas.map((schema) => percent(byField(schema, field.field)?.strictAccuracy ?? null))]);
      continue;
    }
    const items = (schema: (typeof schemas)[number]) => byField(schema, field.field)?.items ?? null;
    rows.push([`${field.field}: cell F1`, String(field.items.labelledCells), ...schemas.map((schema) => decimal(items(schema)?.f1 ?? null))]);
    for (const column of field.items.columns) {
      rows.push([`${field.field}.${column.column}`, String(column.labelled), ...schemas.map((schema) => percent(items(schema)?.columns.find((candidate) => candidate.column === column.column)?.accuracy ?? null))]);
    }
    rows.push([`${field.field}: item count right`, String(field.items.documents), ...schemas.map((schema) => percent(items(schema)?.sameCountShare ?? null))]);
  }
  rows.push(['failed requests', String(report.documents), ...schemas.map((schema) => String(schema.failed))]);
  return { headers: ['field', 'n', ...schemas.map((schema) => schema.name)], rows, right: [false, ...schemas.map(() => true), true] };
}

/** Every dataset (and variant) by schema: strict accuracy over the scalar fields, and the cell F1 of arrays of objects. */
function paraphraseOverviewTable(report: EvalReport): Table {
  const all = report.datasets.flatMap((dataset) => [dataset, ...(dataset.variants ?? [])]);
  const names = paraphraseNames(all);
  const rows: string[][] = [];
  for (const dataset of all) {
    const cell = (summary: { micro: MicroAverage } | undefined) => (summary ? percent(summary.micro.strictAccuracy) : '-');
    rows.push([dataset.name, 'strict', cell(dataset), ...names.map((name) => cell(dataset.paraphrases?.find((paraphrase) => paraphrase.name === name)))]);
    for (const { field, items } of itemFields(dataset.fields)) {
      const f1 = (fields: readonly FieldSummary[] | undefined) => decimal(fields?.find((candidate) => candidate.field === field)?.items?.f1 ?? null);
      rows.push([dataset.name, `${field} F1`, decimal(items.f1), ...names.map((name) => f1(dataset.paraphrases?.find((paraphrase) => paraphrase.name === name)?.fields))]);
    }
  }
  return { headers: ['dataset', 'measure', 'dataset schema', ...names], rows, right: [false, false, true, ...names.map(() => true)] };
}

function engineText(report: DatasetReport): string {
  const entries = Object.entries(report.engines);
  return entries.length === 0 ? 'none (all requests failed)' : entries.map(([engine, count]) => `${engine} (${count})`).join(', ');
}

function summaryLines(report: DatasetReport): string[] {
  const { micro, pairF1: pairs, nullGt } = report;
  const lines = [
    `micro-average over fields (non-null GT): strict ${percent(micro.strictAccuracy)} (${micro.strictCorrect}/${micro.expected}), accuracy ${percent(micro.accuracy)} (${micro.correct}/${micro.expected})`,
    `key=value pair F1: ${decimal(pairs.f1)} (P ${decimal(pairs.precision)}, R ${decimal(pairs.recall)}; tp ${pairs.tp}, fp ${pairs.fp}, fn ${pairs.fn})`,
    ...itemFields(report.fields).map(({ field, items }) => itemsLine(field, items)),
  ];
  if (nullGt.total > 0) {
    const tail =
      report.nullMeaning === 'absent'
        ? `hallucination rate ${percent(nullGt.hallucinationRate)}`
        : 'null means "not annotated" here, so predicted values are unverifiable, not errors';
    lines.push(`null-GT fields: ${nullGt.total}, predicted null ${nullGt.predictedNull}, predicted a value ${nullGt.predictedValue}; ${tail}`);
  }
  lines.push(
    report.evidence.available
      ? `evidence recall: ${percent(report.evidence.overall.recall)} (${report.evidence.overall.found}/${report.evidence.overall.total})`
      : 'evidence recall: n/a (no layout text in remote mode)',
  );
  lines.push(`latency per document: median ${secondsText(report.latency.medianSeconds)}, p95 ${secondsText(report.latency.p95Seconds)}`);
  if (report.ocr) {
    const engines = Object.entries(report.ocr.engines).map(([name, count]) => `${name} ${count}`).join(', ');
    lines.push(`OCR per OCRed document (${engines}): median ${preciseSecondsText(report.ocr.medianSeconds)}, max ${preciseSecondsText(report.ocr.maxSeconds)}`);
  }
  if (report.model) lines.push(...modelSummaryLines(report.model));
  return lines;
}

function falseNullsTable(report: DatasetReport): Table {
  return {
    headers: ['document', 'field', 'nulled value', 'label'],
    rows: (report.model?.falseNulls ?? []).map((miss) => [miss.id, miss.field, truncate(miss.value, 60), truncate(miss.expected, 60)]),
    right: [],
  };
}

/** The reliability table: confidence buckets against the share of their values that are right. */
export function reliabilityTable(summary: CalibrationSummary): Table {
  return {
    headers: ['confidence', 'values', 'mean confidence', 'share right'],
    rows: summary.buckets.map((bucket) => [
      `${bucket.from.toFixed(1)}-${bucket.to.toFixed(1)}`,
      String(bucket.count),
      decimal(bucket.meanConfidence),
      percent(bucket.shareRight),
    ]),
    right: [false, true, true, true],
  };
}

export function calibrationLine(summary: CalibrationSummary): string {
  const right = summary.precisionAtAccept === null ? 0 : Math.round(summary.precisionAtAccept * summary.accepted);
  return (
    `calibration over ${summary.samples} values (strict match): ECE ${decimal(summary.ece)}; ` +
    `confidence >= ${ACCEPT_AT}: precision ${percent(summary.precisionAtAccept)} (${right}/${summary.accepted}), ` +
    `coverage ${percent(summary.coverageAtAccept)} of ${summary.labelled} labelled values`
  );
}

function missesTable(report: DatasetReport): Table {
  return {
    headers: ['document', 'field', 'expected', 'context'],
    rows: report.evidence.misses.map((miss) => [miss.id, miss.field, truncate(miss.expected, 50), truncate(miss.context, 90)]),
    right: [],
  };
}

function errorsTable(report: DatasetReport): Table {
  return {
    headers: ['document', 'status', 'message'],
    rows: report.errors.map((error) => [error.id, error.status === null ? '-' : String(error.status), truncate(error.message, 120)]),
    right: [false, true, false],
  };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function overviewTable(report: EvalReport): Table {
  return {
    headers: ['dataset', 'docs', 'failed', 'strict acc', 'accuracy', 'pair F1', 'item F1', 'evidence', 'P@0.9', 'cov@0.9', 'ECE', 'median s', 'p95 s', 'engine'],
    rows: report.datasets.flatMap((dataset) => [dataset, ...(dataset.variants ?? [])]).map((dataset) => [
      dataset.name,
      String(dataset.documents),
      String(dataset.failed),
      percent(dataset.micro.strictAccuracy),
      percent(dataset.micro.accuracy),
      decimal(dataset.pairF1.f1),
      itemFields(dataset.fields).map(({ items }) => decimal(items.f1)).join(' ') || '-',
      dataset.evidence.available ? percent(dataset.evidence.overall.recall) : 'n/a',
      dataset.calibration ? percent(dataset.calibration.precisionAtAccept) : 'n/a',
      dataset.calibration ? percent(dataset.calibration.coverageAtAccept) : 'n/a',
      dataset.calibration ? decimal(dataset.calibration.ece) : 'n/a',
      decimal(dataset.latency.medianSeconds, 1),
      decimal(dataset.latency.p95Seconds, 1),
      engineText(dataset),
    ]),
    right: [false, true, true, true, true, true, true, true, true, true, true, true, true, false],
  };
}

function datasetHeading(report: DatasetReport): string {
  const cached = report.cachedIngest > 0 ? `, cached ingestion for ${report.cachedIngest} (OCR skipped; latency excludes it)` : '';
  return `${report.name}: ${report.documents} documents, engine ${engineText(report)}, null means "${report.nullMeaning}", dates ${report.dateOrder}${cached}`;
}

function ingestCacheText(report: EvalReport): string {
  const cache = report.ingestCache;
  if (!cache) return '';
  return ` Ingestion cache ${cache.dir} (fingerprint ${cache.fingerprint}${cache.refresh ? ', refreshed' : ''}): ${cache.hits} documents reused cached OCR output, ${cache.misses} ingested afresh.`;
}

/** The tables of one dataset or variant that follow its field table: item columns, then the paraphrases. */
function extraTables(report: DatasetReport): { title: string; table: Table }[] {
  const tables: { title: string; table: Table }[] = [];
  if (itemFields(report.fields).length > 0) tables.push({ title: 'item columns (equal / labelled cells, after matching items)', table: itemsTable(report) });
  if (report.paraphrases && report.paraphrases.length > 0) tables.push({ title: 'schema paraphrases: strict accuracy per field (answers mapped back to the dataset fields)', table: paraphraseTable(report) });
  return tables;
}

export function renderText(report: EvalReport): string {
  const out: string[] = [];
  const table = (t: Table) => formatTable(t.headers, t.rows, t.right);
  const extras = (dataset: DatasetReport) => extraTables(dataset).flatMap(({ title, table: t }) => [`${title}:`, table(t), '']);
  for (const dataset of report.datasets) {
    out.push(`== ${datasetHeading(dataset)}`, '', table(fieldTable(dataset)), '', ...summaryLines(dataset), '', ...extras(dataset));
    if (dataset.calibration) out.push(calibrationLine(dataset.calibration), table(reliabilityTable(dataset.calibration)), '');
    if (dataset.evidence.misses.length > 0) out.push('evidence misses:', table(missesTable(dataset)), '');
    if (dataset.model && dataset.model.falseNulls.length > 0) out.push('false nulls (values the grounding check nulled that the labels say were right):', table(falseNullsTable(dataset)), '');
    out.push(dataset.errors.length > 0 ? `errors:\n${table(errorsTable(dataset))}` : 'errors: none', '');
    for (const variant of dataset.variants ?? []) {
      out.push(`== ${datasetHeading(variant)}`, '', table(fieldTable(variant)), '', ...summaryLines(variant), '', ...extras(variant));
      if (variant.calibration) out.push(calibrationLine(variant.calibration), '');
    }
  }
  out.push('== overview', '', table(overviewTable(report)), '');
  if (report.datasets.some((dataset) => dataset.paraphrases)) out.push('== schema paraphrases: strict accuracy by schema (item fields: cell F1)', '', table(paraphraseOverviewTable(report)), '');
  if (report.ingestCache) out.push(ingestCacheText(report).trim(), '');
  return out.join('\n');
}

export function renderMarkdown(report: EvalReport): string {
  const table = (t: Table) => formatMarkdownTable(t.headers, t.rows, t.right);
  const out: string[] = [
    '# docshape evaluation',
    '',
    `Generated ${report.generatedAt}, ${report.mode === 'remote' ? `remote (${report.url ?? ''})` : 'local pipeline'}, dates ${report.options.dateOrder}` +
      `${report.options.limit === null ? '' : `, first ${report.options.limit} documents per dataset`}, concurrency ${report.options.concurrency}${report.options.eInvoice ? `, e-invoices ${report.options.eInvoice}` : ''}.${ingestCacheText(report)}`,
    '',
    'Accuracy counts a field right when the normalised values match (amounts as decimals, dates as dates); "accuracy" also accepts names/addresses with ANLS >= 0.5. ' +
      'Fields whose ground truth is null are not in the accuracy; they are counted as "null-GT: predicted null / predicted value". ' +
      'Evidence recall is the share of expected values found in the layout text the engine read; "wrong w/ evidence" counts wrong fields whose value was in the text. ' +
      'Calibration judges the confidence the service gives each value (options.evidence) by the strict match: P@0.9 is the share right among values with confidence >= 0.9, cov@0.9 the share of labelled values returned with confidence >= 0.9, ECE the expected calibration error over ten buckets.',
    '',
    '## Overview',
    '',
    table(overviewTable(report)),
    '',
  ];
  if (report.datasets.some((dataset) => dataset.paraphrases)) {
    out.push(
      '## Schema paraphrases',
      '',
      'Each document was also answered with every paraphrase of its dataset\'s schema (scripts/eval/paraphrases/: other names, languages, no descriptions, descriptions only), from the same ingested document; ' +
        'the answers were mapped back to the dataset\'s fields and scored by the same strict match. Item fields: cell F1 after matching items.',
      '',
      table(paraphraseOverviewTable(report)),
      '',
    );
  }
  const extras = (dataset: DatasetReport, level: string) => extraTables(dataset).flatMap(({ title, table: t }) => [`${level} ${title[0]!.toUpperCase()}${title.slice(1)}`, '', table(t), '']);
  for (const dataset of report.datasets) {
    out.push(`## ${dataset.name}`, '', datasetHeading(dataset), '', table(fieldTable(dataset)), '', ...summaryLines(dataset).map((line) => `* ${line}`), '', ...extras(dataset, '###'));
    if (dataset.calibration) out.push('### Calibration', '', calibrationLine(dataset.calibration), '', table(reliabilityTable(dataset.calibration)), '');
    if (dataset.evidence.misses.length > 0) out.push('### Evidence misses', '', table(missesTable(dataset)), '');
    if (dataset.model && dataset.model.falseNulls.length > 0) out.push('### False nulls', '', table(falseNullsTable(dataset)), '');
    if (dataset.errors.length > 0) out.push('### Errors', '', table(errorsTable(dataset)), '');
    for (const variant of dataset.variants ?? []) {
      out.push(`### ${variant.name}`, '', datasetHeading(variant), '', table(fieldTable(variant)), '', ...summaryLines(variant).map((line) => `* ${line}`), '', ...extras(variant, '####'));
      if (variant.calibration) out.push(calibrationLine(variant.calibration), '');
    }
  }
  return out.join('\n');
}
