/**
 * Piscina worker: one rules-engine extraction per task, off the event loop
 * (threaded.ts). Input and output are plain data (the Document packed, the
 * Extraction packed: extract/extraction-pack.ts); an aborted request
 * ends the task by terminating this thread, so no signal is needed here.
 */
import { packExtraction, type PackedExtraction } from '../../extract/extraction-pack.js';
import { unpackDocument } from '../../ingest/document-pack.js';
import { extractByRules, type PackedRulesTask } from './index.js';

const never = new AbortController().signal;

export default async function extractInWorker(task: PackedRulesTask): Promise<PackedExtraction> {
  return packExtraction(await extractByRules({ ...task, document: unpackDocument(task.document) }, never));
}
