/**
 * A rules-engine thread (threaded.ts): one extraction per task, off the event
 * loop. Input and output are plain data (the Document packed, the Extraction
 * packed: schema/extraction-pack.ts); an aborted request ends the task by
 * stopping this thread, so no signal is needed here.
 */
import { packExtraction, type PackedExtraction } from '../../schema/extraction-pack.js';
import { unpackDocument } from '../../ingest/document-pack.js';
import { serveTasks } from '../../threads/serve-tasks.js';
import { extractByRules, type PackedRulesTask } from './index.js';

const never = new AbortController().signal;

async function extractInThread(task: PackedRulesTask): Promise<PackedExtraction> {
  return packExtraction(await extractByRules({ ...task, document: unpackDocument(task.document) }, never));
}

serveTasks<PackedRulesTask>({ run: extractInThread });
