/**
 * Loaded into a service process by fault tests (node --import): records every
 * worker thread as it is created and, over IPC, counts the live ones or
 * terminates them by kind, so a test can kill an OCR or pdf.js worker in the
 * middle of a page. Kinds come from the module a thread runs: 'watchdog'
 * (util/loop-watchdog-thread), 'schema' (extract/schema-compile-worker: started
 * by a new schema, ended when idle), 'pool' (the pdf.js threads, and the rules
 * engine's when EXTRACTOR=rules), 'decode' (large base64, a thread per request),
 * 'ocr' (any other: the OCR engine's workers, ours or tesseract.js's).
 *
 * 'kill-on-job' arms a kill for the next message a thread of that kind is sent
 * (the next page handed to it): the thread is terminated right after the page
 * is posted, while the service counts it as reading. Terminating an OCR thread
 * while ONNX Runtime runs a model inside it aborts the whole process (a native
 * completion lands on a torn-down thread), which no thread crash of ours can
 * cause, so the kill is placed before the page's first model call.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { Worker as WorkerType, WorkerOptions } from 'node:worker_threads';

export type ThreadKind = 'ocr' | 'pool' | 'watchdog' | 'schema' | 'decode';
export type ThreadCommand = { command: 'count' } | { command: 'kill'; kind: ThreadKind } | { command: 'kill-on-job'; kind: ThreadKind };
export interface ThreadReply {
  counts: Record<ThreadKind, number>;
  killed?: number;
}

const threads = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
const live = new Map<WorkerType, ThreadKind>();
let killOnJob: ThreadKind | undefined;

function kindOf(module: string): ThreadKind {
  if (module.includes('loop-watchdog')) return 'watchdog';
  if (module.includes('schema-compile-worker')) return 'schema';
  if (module.includes('pdf-worker') || module.includes('rules-worker')) return 'pool';
  if (module.includes('decode-worker')) return 'decode';
  return 'ocr';
}

const Original = threads.Worker;
class TrackedWorker extends Original {
  constructor(filename: string | URL, options?: WorkerOptions) {
    super(filename, options);
    live.set(this, kindOf(String(filename)));
    this.once('exit', () => live.delete(this));
  }

  override postMessage(...args: Parameters<WorkerType['postMessage']>): void {
    super.postMessage(...args);
    if (killOnJob !== undefined && live.get(this) === killOnJob) {
      killOnJob = undefined;
      void this.terminate();
    }
  }
}
threads.Worker = TrackedWorker as typeof threads.Worker;
syncBuiltinESMExports();

function counts(): Record<ThreadKind, number> {
  const result: Record<ThreadKind, number> = { ocr: 0, pool: 0, watchdog: 0, schema: 0, decode: 0 };
  for (const kind of live.values()) result[kind]++;
  return result;
}

process.on('message', (message: ThreadCommand) => {
  let killed: number | undefined;
  if (message.command === 'kill-on-job') killOnJob = message.kind;
  if (message.command === 'kill') {
    const victims = [...live].filter(([, kind]) => kind === message.kind).map(([worker]) => worker);
    for (const worker of victims) void worker.terminate();
    killed = victims.length;
  }
  process.send?.({ counts: counts(), ...(killed === undefined ? {} : { killed }) } satisfies ThreadReply);
});
process.channel?.unref();
