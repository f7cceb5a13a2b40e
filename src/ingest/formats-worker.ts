/**
 * The thread of formats-thread.ts's pool: a file of a type without printed
 * pages read (ingest/formats/): unzipping, XML, HTML, CSV and e-mail parsing
 * grow with the caller's bytes, so none of it runs on the event loop. Pages
 * go back packed (document-pack.ts), their buffers and the attachments'
 * bytes moved, not copied; failures go back as data.
 */
import { serveTasks, transferred } from '../threads/serve-tasks.js';
import { packPage } from './document-pack.js';
import type { FormatOutcome, FormatTask } from './formats-protocol.js';
import { TooManyWords } from './formats/page-builder.js';
import { FormatProblem } from './formats/problem.js';
import { readFormat } from './formats/read.js';

/** Bytes in an ArrayBuffer of their own, so that moving it moves nothing else. */
function own(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

async function outcomeOf(task: FormatTask): Promise<{ outcome: FormatOutcome; buffers: ArrayBufferLike[] }> {
  try {
    const reading = await readFormat(task.mimeType, task.bytes, task.limits);
    const pages = reading.pages.map(packPage);
    const attachments = (reading.attachments ?? []).map((attachment) => ({ ...attachment, bytes: own(attachment.bytes) }));
    const buffers = [...new Set([...pages.flatMap((page) => [page.lengths.buffer, page.boxes.buffer, page.confidences.buffer, page.weakest.buffer, page.sources.buffer]), ...attachments.map((a) => a.bytes.buffer)])];
    return { outcome: { ok: true, pages, attachments }, buffers };
  } catch (error) {
    if (error instanceof TooManyWords) return { outcome: { ok: false, problem: error.message, tooManyWords: error.limit }, buffers: [] };
    if (error instanceof FormatProblem) return { outcome: { ok: false, problem: error.message }, buffers: [] };
    return { outcome: { ok: false, fault: error instanceof Error ? error.message : String(error) }, buffers: [] };
  }
}

async function readFormatTask(task: FormatTask): Promise<unknown> {
  const { outcome, buffers } = await outcomeOf(task);
  return transferred(outcome, buffers);
}

serveTasks<FormatTask>({ run: readFormatTask });
