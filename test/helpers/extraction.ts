/** Runs an engine the way the pipeline does (layout, settled options, finalize), for engine tests. */
import type { DateOrder } from '../../src/schema/date-order.js';
import type { Engine, Extraction, ExtractionInput } from '../../src/schema/engine.js';
import { finalize } from '../../src/schema/finalize.js';
import { compileCallerSchema, type JsonSchema } from '../../src/schema/schema.js';
import type { Document } from '../../src/document/document.js';
import { renderLayoutText } from '../../src/ingest/layout.js';

export function engineInput(document: Document, schema: JsonSchema, overrides: Partial<ExtractionInput> = {}): ExtractionInput {
  return {
    compiled: compileCallerSchema(schema),
    document,
    layout: renderLayoutText(document),
    options: { dateOrder: 'dmy' },
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** The engine's answer, finalized: the object a caller gets and where each value was read. */
export async function extractFinal(engine: Engine, document: Document, schema: JsonSchema, dateOrder: DateOrder = 'dmy'): Promise<Extraction & { value: Record<string, unknown> }> {
  const input = engineInput(document, schema, { options: { dateOrder } });
  return finalize(await engine.extract(input), input.compiled, input.options);
}

/** finalize() on a bare candidate (no provenance), returning the object. */
export function finalizeValue(candidate: unknown, schema: JsonSchema, dateOrder: DateOrder = 'dmy'): Record<string, unknown> {
  return finalize({ value: candidate, provenance: new Map() }, compileCallerSchema(schema), { dateOrder }).value;
}
