/**
 * Piscina worker: one rules-engine extraction per task, off the event loop
 * (threaded.ts). Input and output are plain data (the Document packed, the
 * Extraction's provenance a Map, which structured clone carries); an aborted request
 * ends the task by terminating this thread, so no signal is needed here.
 */
import type { Extraction } from '../../extract/engine.js';
import { unpackDocument } from '../../ingest/document-pack.js';
import { extractByRules, type PackedRulesTask } from './index.js';

const never = new AbortController().signal;

export default function extractInWorker(task: PackedRulesTask): Promise<Extraction> {
  return extractByRules({ ...task, document: unpackDocument(task.document) }, never);
}
