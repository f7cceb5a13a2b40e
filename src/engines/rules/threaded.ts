/**
 * The rules engine on a pool of worker threads. It is synchronous and its
 * cost grows with the document and the schema (60 lines and 100 properties
 * take seconds): on the main thread that froze /healthz, the request time
 * limit and SIGTERM for as long. Here an extraction runs on a pool thread,
 * and an aborted request (time limit, client gone) terminates its thread.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Engine, EngineStatus, Extraction, ExtractionInput } from '../../extract/engine.js';
import { packDocument } from '../../ingest/document-pack.js';
import { rulesTaskOf, type PackedRulesTask } from './index.js';
import { ESM_WORKER_EXEC_ARGV } from '../../util/esm-worker.js';

/** A thread above the one kept ready ends after this long without work. */
const IDLE_THREAD_EXIT_MS = 60_000;

export class ThreadedRulesEngine implements Engine {
  readonly name = 'rules';
  private readonly pool: Piscina;

  /**
   * One thread is kept ready (none with `onDemand`: the cross-check, which only evidence requests use); the
   * others start only when extractions overlap and end after a minute idle. Each thread is a V8 isolate with
   * the engine and its language tables (~30-40 MB of the service's peak RSS over 20 photo requests on 2 cores):
   * behind OCR, which takes a second or more a page, extractions of a few milliseconds seldom overlap, while
   * born-digital PDFs, read in milliseconds, still get a thread per core.
   */
  constructor(
    private readonly threads: number,
    { onDemand = false }: { onDemand?: boolean } = {},
  ) {
    this.pool = new Piscina({
      filename: fileURLToPath(new URL('./rules-worker.js', import.meta.url)),
      minThreads: onDemand ? 0 : 1,
      maxThreads: threads,
      idleTimeout: IDLE_THREAD_EXIT_MS,
      concurrentTasksPerWorker: 1,
      execArgv: [...ESM_WORKER_EXEC_ARGV],
    });
    // a thread dying between tasks is replaced by Piscina; without a listener the 'error' event would end the process
    this.pool.on('error', () => undefined);
  }

  async extract(input: ExtractionInput): Promise<Extraction> {
    input.signal.throwIfAborted();
    try {
      const task = rulesTaskOf(input);
      const packed: PackedRulesTask = { ...task, document: packDocument(task.document, { withOrigins: false }) };
      return (await this.pool.run(packed, { signal: input.signal })) as Extraction;
    } catch (error) {
      if (input.signal.aborted) throw input.signal.reason;
      throw error;
    }
  }

  /** Threads alive now: the one kept ready and those started for overlapping extractions. */
  get liveThreads(): number {
    return this.pool.threads.length;
  }

  async status(): Promise<EngineStatus> {
    return { ready: true, detail: `rules engine on up to ${this.threads} worker thread(s): labels, positions and tables; no model` };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
