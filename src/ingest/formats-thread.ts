/**
 * The files without printed pages (Office, spreadsheets, CSV, HTML, text,
 * e-mail, XML and JSON that are no e-invoice; formats/) read on a pool of
 * worker threads: unzipping, XML, HTML and CSV parsing of many megabytes
 * would hold the event loop. Threads start with the first such file and end
 * when idle; each task gets a copy of the file's bytes, moved to the thread.
 * Pages come back packed and are unpacked a line per step (paced), so a
 * sheet of 200,000 words never holds the loop in one piece.
 */
import { AppError, badRequest } from '../errors.js';
import type { Page } from '../document/document.js';
import { ThreadPool } from '../threads/pool.js';
import { taskThreads } from '../threads/task-thread.js';
import { deadline } from '../util/deadline.js';
import { Pacer, runPaced } from '../util/paced.js';
import { dataField, type DecodedFile } from './decode.js';
import { unpackingPage } from './document-pack.js';
import type { FormatOutcome, FormatTask, PackedAttachment } from './formats-protocol.js';
import type { FormatLimits } from './formats/read.js';

export interface FormatReaderOptions {
  workers: number;
  /** A task still unfinished after this long is stopped (its thread replaced). */
  taskTimeoutMs?: number;
}

export interface FormatFileReading {
  pages: Page[];
  attachments: PackedAttachment[];
}

const DEFAULT_TASK_TIMEOUT_MS = 120_000;
const IDLE_WORKER_EXIT_MS = 60_000;

export class FormatReader {
  private readonly pool: ThreadPool<FormatTask, FormatOutcome>;
  private readonly taskTimeoutMs: number;

  constructor(options: FormatReaderOptions) {
    this.taskTimeoutMs = options.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
    this.pool = new ThreadPool({
      label: 'formats',
      // the file's bytes are a private copy: moved to the thread, not cloned again
      start: taskThreads<FormatTask, FormatOutcome>(new URL('./formats-worker.js', import.meta.url), { prepare: (task) => ({ task, transfer: [task.bytes.buffer] }) }),
      maxThreads: options.workers,
      idleMs: IDLE_WORKER_EXIT_MS,
      // a parser deep in a hostile file is not interrupted: an aborted or timed-out task ends its thread
      runningAbort: 'stop',
    });
  }

  /** The file's pages (and an e-mail's attachments); a 400 naming the file when it cannot be read or passes a limit. */
  async read(file: Pick<DecodedFile, 'index' | 'mimeType' | 'bytes'>, limits: FormatLimits, signal?: AbortSignal, label = dataField(file)): Promise<FormatFileReading> {
    const task: FormatTask = { mimeType: file.mimeType, bytes: new Uint8Array(file.bytes), limits };
    const limit = deadline(this.taskTimeoutMs, signal ? [signal] : []);
    let outcome: FormatOutcome;
    try {
      outcome = await this.pool.run(task, limit.signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (limit.expired()) throw new AppError('timeout', `${label}: reading the ${file.mimeType} file took longer than ${this.taskTimeoutMs / 1000} s`, { cause: error });
      throw new AppError('internal', `${label}: reading the ${file.mimeType} file failed`, { cause: error });
    } finally {
      limit.clear();
    }
    if (!outcome.ok) {
      if ('problem' in outcome) throw badRequest(`${label}: ${outcome.problem}`);
      throw new AppError('internal', `${label}: reading the ${file.mimeType} file failed`, { cause: new Error(outcome.fault) });
    }
    const pages: Page[] = [];
    const pacer = new Pacer(signal);
    for (const page of outcome.pages) pages.push(await runPaced(unpackingPage(page), pacer));
    return { pages, attachments: outcome.attachments };
  }

  status(): { workers: number; queued: number } {
    const { workers, queued } = this.pool.status();
    return { workers, queued };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
