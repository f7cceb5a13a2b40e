/**
 * Piscina worker: one rules-engine extraction per task, off the event loop
 * (threaded.ts). Input and output are plain data; an aborted request ends
 * the task by terminating this thread, so no signal is needed here.
 */
import type { Document } from '../../ingest/document.js';
import type { JsonSchema } from '../../extract/schema.js';
import { RulesEngine } from './index.js';

export interface RulesTask {
  document: Document;
  layoutText: string;
  schema: JsonSchema;
}

const engine = new RulesEngine();

export default function extractInWorker(task: RulesTask): Promise<unknown> {
  return engine.extract({ ...task, signal: new AbortController().signal });
}
