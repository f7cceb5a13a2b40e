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

export class ThreadedRulesEngine implements Engine {
  readonly name = 'rules';
  private readonly pool: Piscina;

  /** `onDemand`: start threads only when work comes, and end them after a minute idle (the cross-check, which only evidence requests use). */
  constructor(
    private readonly threads: number,
    { onDemand = false }: { onDemand?: boolean } = {},
  ) {
    this.pool = new Piscina({
      filename: fileURLToPath(new URL('./rules-worker.js', import.meta.url)),
      minThreads: onDemand ? 0 : threads,
      maxThreads: threads,
      idleTimeout: onDemand ? 60_000 : 0,
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

  async status(): Promise<EngineStatus> {
    return { ready: true, detail: `rules engine on ${this.threads} worker thread(s): labels, positions and tables; no model` };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
