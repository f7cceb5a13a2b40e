/**
 * The language model's side of an eval run: whether its answers fit the
 * schema, how many calls, retries and tokens a document took, how fast, and
 * what the grounding check cost: the values it nulled (not found in the
 * document), and how many of those the labels say were right (false nulls).
 */
import { compileCallerSchema } from '../../src/schema/schema.js';
import { splitPointer } from '../../src/util/json-pointer.js';
import type { DocumentModelUsage } from './model-usage.js';
import type { DateOrder } from './normalise.js';
import { isMissing, matchSets, ratio, scoreField, type FieldKind } from './score.js';

export interface FalseNull {
  id: string;
  field: string;
  value: string;
  expected: string;
}

export interface ModelSummary {
  /** Documents the model was asked about (answered or not). */
  documents: number;
  answered: number;
  /** Answered documents whose result validates against the dataset's schema (null allowed for a missing value). */
  schemaValid: number;
  calls: number;
  retries: number;
  failedCalls: number;
  answers: DocumentModelUsage['answers'];
  promptTokens: number;
  outputTokens: number;
  reusedPromptTokens: number;
  /** Tokens per second reading prompts and writing answers, where the engine measures them. */
  promptTokensPerSecond: number | null;
  outputTokensPerSecond: number | null;
  secondsPerDocument: number | null;
  grounding: {
    /** Values not found in the document. */
    ungrounded: number;
    /** Whether they were replaced by null (LLM_UNGROUNDED=null) or kept. */
    nulled: boolean;
    /** Of those, the ones the labels say were right. */
    rightByLabels: number;
    /** Right values: fields scored strictly right plus the false nulls. */
    rightValues: number;
    falseNullRate: number | null;
  };
  falseNulls: FalseNull[];
}

export interface ModelDocument {
  id: string;
  expected: Record<string, unknown>;
  ok: boolean;
  seconds: number;
  result: unknown;
  model: DocumentModelUsage;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

/** Would this value, had it not been nulled, have been right for its field? */
function rightByLabels(kinds: ReadonlyMap<string, FieldKind>, expected: Record<string, unknown>, pointer: string, value: unknown, dateOrder: DateOrder): { field: string; right: boolean } {
  const field = splitPointer(pointer)[0] ?? '';
  const kind = kinds.get(field);
  const label = expected[field];
  if (kind === undefined || isMissing(label) || isMissing(value)) return { field, right: false };
  if (kind === 'name-list' || kind === 'text-list') {
    const items = (Array.isArray(label) ? label : [label]).filter((item) => !isMissing(item)).map(text);
    return { field, right: matchSets([text(value)], items, false).tp > 0 };
  }
  return { field, right: scoreField(field, kind, label, value, false, { dateOrder }).strict === true };
}

export function summariseModel(input: {
  schema: unknown;
  kinds: ReadonlyMap<string, FieldKind>;
  dateOrder: DateOrder;
  documents: readonly ModelDocument[];
  /** Fields the run got strictly right (the micro-average's count). */
  strictCorrect: number;
}): ModelSummary {
  const { documents } = input;
  let validate: ((value: unknown) => boolean) | undefined;
  try {
    validate = compileCallerSchema(input.schema).validateNullable;
  } catch {
    validate = undefined;
  }
  const answered = documents.filter((document) => document.ok);
  const sum = (pick: (usage: DocumentModelUsage) => number) => documents.reduce((total, document) => total + pick(document.model), 0);
  const answers = { valid: sum((u) => u.answers.valid), invalid: sum((u) => u.answers.invalid), unusable: sum((u) => u.answers.unusable) };
  const promptMs = sum((u) => u.promptMs);
  const generationMs = sum((u) => u.generationMs);
  const promptTokens = sum((u) => u.promptTokens);
  const reusedPromptTokens = sum((u) => u.reusedPromptTokens);
  const outputTokens = sum((u) => u.outputTokens);

  const falseNulls: FalseNull[] = [];
  let ungrounded = 0;
  for (const document of answered) {
    for (const { pointer, value } of document.model.ungrounded) {
      ungrounded += 1;
      const { field, right } = rightByLabels(input.kinds, document.expected, pointer, value, input.dateOrder);
      if (right) falseNulls.push({ id: document.id, field, value: text(value), expected: text(document.expected[field]) });
    }
  }
  const rightValues = input.strictCorrect + falseNulls.length;
  return {
    documents: documents.length,
    answered: answered.length,
    schemaValid: validate ? answered.filter((document) => validate!(document.result)).length : 0,
    calls: sum((u) => u.calls),
    retries: sum((u) => u.retries),
    failedCalls: sum((u) => u.failedCalls),
    answers,
    promptTokens,
    outputTokens,
    reusedPromptTokens,
    // prompt speed counts the tokens really evaluated, not the ones reused
    promptTokensPerSecond: promptMs > 0 ? (promptTokens - reusedPromptTokens) / (promptMs / 1000) : null,
    outputTokensPerSecond: generationMs > 0 ? outputTokens / (generationMs / 1000) : null,
    secondsPerDocument: ratio(documents.reduce((total, document) => total + document.seconds, 0), documents.length),
    grounding: { ungrounded, nulled: documents.every((document) => document.model.nulled), rightByLabels: falseNulls.length, rightValues, falseNullRate: ratio(falseNulls.length, rightValues) },
    falseNulls,
  };
}

const fixed = (value: number | null, digits: number) => (value === null ? '-' : value.toFixed(digits));
const percent = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);

/** The summary as report lines (plain text; the Markdown report bullets them). */
export function modelSummaryLines(summary: ModelSummary): string[] {
  const perDocument = (total: number) => fixed(ratio(total, summary.documents), 2);
  const answered = summary.answers.valid + summary.answers.invalid + summary.answers.unusable;
  const speed =
    summary.promptTokensPerSecond === null ? '' : `; ${fixed(summary.promptTokensPerSecond, 0)} prompt tokens/s, ${fixed(summary.outputTokensPerSecond, 1)} output tokens/s`;
  const { grounding } = summary;
  return [
    `model: schema-valid answers ${summary.schemaValid}/${summary.documents} (${percent(summary.schemaValid, summary.documents)}); answers that fit the schema as given ${summary.answers.valid}/${answered} (${percent(summary.answers.valid, answered)}), unusable ${summary.answers.unusable}`,
    `model calls per document ${perDocument(summary.calls)} (retries ${perDocument(summary.retries)}, failed ${perDocument(summary.failedCalls)}); tokens per document: prompt ${perDocument(summary.promptTokens)} (${percent(summary.reusedPromptTokens, summary.promptTokens)} reused), output ${perDocument(summary.outputTokens)}; ${fixed(summary.secondsPerDocument, 1)} s per document${speed}`,
    `grounding: ${grounding.ungrounded} values not found in the document, ${grounding.nulled ? 'nulled' : 'kept (LLM_UNGROUNDED=keep)'}; ${grounding.rightByLabels} of them right by the labels (false nulls: ${fixed(grounding.falseNullRate === null ? null : grounding.falseNullRate * 100, 1)}% of ${grounding.rightValues} right values)`,
  ];
}
