import type { Engine, EngineUsage, Extraction, ExtractionInput, ModelCallReport, UngroundedValue } from '../../src/schema/engine.js';

/** What the language model did for one document: calls, tokens, time, and the values grounding gave up. */
export interface DocumentModelUsage {
  calls: number;
  retries: number;
  failedCalls: number;
  /** Answered calls whose answer fit the schema as given / had problems / gave nothing usable. */
  answers: { valid: number; invalid: number; unusable: number };
  promptTokens: number;
  outputTokens: number;
  /** Prompt tokens not evaluated again (in-process prefix reuse). */
  reusedPromptTokens: number;
  /** Milliseconds reading prompts and writing answers, where the engine measures them. */
  promptMs: number;
  generationMs: number;
  /** Values not found in the document, and whether they were replaced by null (LLM_UNGROUNDED). */
  ungrounded: UngroundedValue[];
  nulled: boolean;
}

export function emptyUsage(): DocumentModelUsage {
  return { calls: 0, retries: 0, failedCalls: 0, answers: { valid: 0, invalid: 0, unusable: 0 }, promptTokens: 0, outputTokens: 0, reusedPromptTokens: 0, promptMs: 0, generationMs: 0, ungrounded: [], nulled: true };
}

function sink(usage: DocumentModelUsage): EngineUsage {
  return {
    modelCall: (report: ModelCallReport) => {
      usage.calls += 1;
      if (report.retry) usage.retries += 1;
      if (report.outcome === 'failed') usage.failedCalls += 1;
      if (report.answer) usage.answers[report.answer] += 1;
      usage.promptTokens += report.promptTokens ?? 0;
      usage.outputTokens += report.outputTokens ?? 0;
      usage.reusedPromptTokens += report.reusedPromptTokens ?? 0;
      usage.promptMs += report.promptMs ?? 0;
      usage.generationMs += report.generationMs ?? 0;
    },
    ungrounded: (values, nulled) => {
      usage.ungrounded.push(...values);
      usage.nulled = nulled;
    },
  };
}

/**
 * The engine, reporting into one document's usage: the eval wraps the
 * shared engine once per document (as the service's MeteredEngine does per
 * request), so documents in flight at once keep their counts apart.
 */
export function engineCounting(engine: Engine, usage: DocumentModelUsage): Engine {
  const usageSink = sink(usage);
  return {
    name: engine.name,
    extract: (input: ExtractionInput): Promise<Extraction> => engine.extract({ ...input, usage: usageSink }),
    status: () => engine.status(),
    close: () => engine.close(),
  };
}
