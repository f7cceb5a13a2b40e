/**
 * Piscina worker: one rules-engine extraction per task, off the event loop
 * (threaded.ts). Input and output are plain data (the Extraction's
 * provenance is a Map, which structured clone carries); an aborted request
 * ends the task by terminating this thread, so no signal is needed here.
 */
import type { Extraction } from '../../extract/engine.js';
import { extractByRules, type RulesTask } from './index.js';

const never = new AbortController().signal;

export default function extractInWorker(task: RulesTask): Promise<Extraction> {
  return extractByRules(task, never);
}
