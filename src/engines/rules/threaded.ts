/**
 * The rules engine on a pool of worker threads. It is synchronous and its
 * cost grows with the document and the schema (60 lines and 100 properties
 * take seconds): on the main thread that froze /healthz, the request time
 * limit and SIGTERM for as long. Here an extraction runs on a pool thread,
 * and an aborted request (time limit, client gone) terminates its thread.
 * A small one (a one-page invoice, a handful of fields) runs on the calling
 * thread instead: a few milliseconds, less than handing it to a thread and
 * waking the thread and the event loop again on a busy machine.
 */
import type { Document } from '../../document/document.js';
import type { Engine, EngineStatus, Extraction, ExtractionInput } from '../../schema/engine.js';
import { unpackingExtraction, type PackedExtraction } from '../../schema/extraction-pack.js';
import type { JsonSchema } from '../../schema/json-schema.js';
import { childSchemas, isSchemaObject } from '../../schema/schema-walk.js';
import { packingDocument } from '../../ingest/document-pack.js';
import { ThreadPool } from '../../threads/pool.js';
import { taskThreads } from '../../threads/task-thread.js';
import { Pacer, runPaced } from '../../util/paced.js';
import { extractByRules, rulesTaskOf, type PackedRulesTask } from './index.js';

/**
 * Words times schema fields up to which an extraction runs on the calling
 * thread. The engine's work grows with both (each field's labels are sought
 * on every line); at this bound, on a 2-core machine at load 7, it took 5-11
 * ms of CPU (median; 35 at most) whatever the words were (tables, prose,
 * dates and amounts, the long-line tokens), inside the 100 ms /healthz must
 * answer in. The tests' invoice: 69 words, 3 properties (4 schemas).
 */
export const INLINE_MAX_WORK = 600;
/** Characters per word allowed on average, for documents of few but long words. */
const INLINE_CHARACTERS_PER_WORD = 8;

/** Words and characters of the document, counted until the characters pass `maxCharacters`. */
function documentSize(document: Document, maxCharacters: number): { words: number; characters: number } {
  let words = 0;
  let characters = 0;
  for (const file of document.files) {
    for (const page of file.pages) {
      for (const line of page.lines) {
        words += line.words.length;
        characters += line.text.length;
        if (characters > maxCharacters) return { words, characters };
      }
    }
  }
  return { words, characters };
}

/** Schemas in the caller's schema (the root, each property, item, branch), or Infinity past `most` or at a $ref, which can stand for any number. */
function schemaFields(schema: JsonSchema, most: number): number {
  let fields = 0;
  const visit = (node: JsonSchema): boolean => {
    if ('$ref' in node || '$dynamicRef' in node || ++fields > most) return false;
    return childSchemas(node).every((child) => !isSchemaObject(child.schema) || visit(child.schema));
  };
  return visit(schema) ? fields : Infinity;
}

/** Whether an extraction is small enough to run on the calling thread: words times fields at most `maxWork` (INLINE_MAX_WORK). */
export function runsInline(document: Document, schema: JsonSchema, maxWork = INLINE_MAX_WORK): boolean {
  const fields = schemaFields(schema, maxWork);
  if (fields > maxWork) return false;
  const maxCharacters = (INLINE_CHARACTERS_PER_WORD * maxWork) / fields;
  const { words, characters } = documentSize(document, maxCharacters);
  return words * fields <= maxWork && characters <= maxCharacters;
}

/** A thread above the one kept ready ends after this long without work. */
const IDLE_THREAD_EXIT_MS = 60_000;

export class ThreadedRulesEngine implements Engine {
  readonly name = 'rules';
  private readonly pool: ThreadPool<PackedRulesTask, PackedExtraction>;
  private readonly inlineMaxWork: number;

  /**
   * One thread is kept ready (none with `onDemand`: the cross-check, which only evidence requests use); the
   * others start only when extractions overlap and end after a minute idle. Each thread is a V8 isolate with
   * the engine and its language tables (~30-40 MB of the service's peak RSS over 20 photo requests on 2 cores):
   * behind OCR, which takes a second or more a page, extractions of a few milliseconds seldom overlap, while
   * born-digital PDFs, read in milliseconds, still get a thread per core.
   * `inlineMaxWork`: words times fields run on the calling thread (0: every extraction on a thread).
   */
  constructor(
    private readonly threads: number,
    { onDemand = false, inlineMaxWork = INLINE_MAX_WORK }: { onDemand?: boolean; inlineMaxWork?: number } = {},
  ) {
    this.inlineMaxWork = inlineMaxWork;
    this.pool = new ThreadPool({
      label: 'rules engine',
      start: taskThreads(new URL('./rules-worker.js', import.meta.url)),
      minThreads: onDemand ? 0 : 1,
      maxThreads: threads,
      idleMs: IDLE_THREAD_EXIT_MS,
      // the engine is synchronous and never looks up: an aborted request ends its thread
      runningAbort: 'stop',
    });
  }

  async extract(input: ExtractionInput): Promise<Extraction> {
    input.signal.throwIfAborted();
    const task = rulesTaskOf(input);
    if (runsInline(task.document, task.schema, this.inlineMaxWork)) return extractByRules(task, input.signal);
    try {
      // packed in turns: a document of thousands of lines took the loop 0.15 s in one piece
      const pacer = new Pacer(input.signal);
      const packed: PackedRulesTask = { ...task, document: await runPaced(packingDocument(task.document, { withOrigins: false }), pacer) };
      // and the answer unpacked in turns: the clone of 20,000 values' sources took the loop 35-47 ms in one piece
      return await runPaced(unpackingExtraction(await this.pool.run(packed, input.signal)), pacer);
    } catch (error) {
      if (input.signal.aborted) throw input.signal.reason;
      throw error;
    }
  }

  /** Extractions run on the pool's threads so far (not those run inline). */
  get threadRuns(): number {
    return this.pool.status().tasksDone;
  }

  /** Threads alive now: the one kept ready and those started for overlapping extractions. */
  get liveThreads(): number {
    return this.pool.status().workers;
  }

  async status(): Promise<EngineStatus> {
    return { ready: true, detail: `rules engine on up to ${this.threads} worker thread(s): labels, positions and tables; no model` };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
