import type { Extraction, ExtractionInput } from '../../schema/engine.js';
import { shapeCandidate } from '../../schema/finalize.js';
import { mapConcurrent } from '../../util/map-concurrent.js';
import { mergeWindowResults } from './merge.js';
import { splitIntoWindows, type CountTokens, type DocumentWindow } from './windows.js';

export interface WindowOptions {
  /** Tokens of document text one window may hold. */
  maxTokens: number;
  concurrency: number;
  /** The model's token count (or the estimate) the budget is in. */
  count?: CountTokens;
}

export type WindowExtractor = (window: DocumentWindow, windowCount: number) => Promise<Extraction>;

/**
 * Runs an extraction over a document that may be longer than one model
 * context: one call for a short document, else one per window of pages (a
 * few at once) and a merge in page order. Each window's answer is shaped to
 * the schema first so that equal rows compare equal across windows.
 */
export async function extractInWindows(input: ExtractionInput, options: WindowOptions, extract: WindowExtractor): Promise<Extraction> {
  const windows = splitIntoWindows(input.document, input.layout, options.maxTokens, options.count);
  if (windows.length === 1) return extract(windows[0]!, 1);
  const results = await mapConcurrent(windows, options.concurrency, async (window) => {
    input.signal.throwIfAborted();
    return shapeCandidate(await extract(window, windows.length), input.compiled, input.options);
  });
  return mergeWindowResults(results);
}
