import type { RequestOptions } from '../pipeline.js';
import { describeFailure, type Extractor, type ExtractorAnswer, type FileFailure } from './extractor.js';
import { readContent, type InputFile } from './inputs.js';
import type { RunControl } from './run-control.js';
import { UsageError } from './usage-error.js';

/** One input's outcome: its answer, or why it failed. */
export type FileRecord = { input: InputFile; ms: number } & ({ status: 'ok'; answer: ExtractorAnswer } | { status: 'error'; failure: FileFailure });

/** The run so far, as the progress display and the exit code see it. */
export interface Tally {
  total: number;
  ok: number;
  failed: number;
  /** Pages read so far; undefined when the extractor cannot tell (a remote service). */
  pages: number | undefined;
  inFlight: number;
  /** Set once Ctrl-C (or a fatal error) stopped new files from starting. */
  stopping: boolean;
  /** performance.now() at the start. */
  startedAt: number;
}

export interface BatchRun {
  inputs: InputFile[];
  schema: unknown;
  options: RequestOptions;
  extractor: Extractor;
  concurrency: number;
  control: RunControl;
  onStart: (tally: Tally) => void;
  /**
   * Called as each file finishes, one at a time, before the next result is
   * handled: writes its outputs and may turn the record into a failure
   * (an output that cannot be written).
   */
  onFile: (record: FileRecord) => Promise<FileRecord>;
  onProgress: (record: FileRecord, tally: Tally) => void;
}

/**
 * Each input is its own request (one file in `contents`), `concurrency` at
 * a time, in the order given; results are handled in the order they finish.
 * A file that fails is recorded and the run goes on. A UsageError from the
 * extractor (a refused API key) would fail every file alike: it stops the
 * run, aborts the files in flight and is thrown. Files aborted by Ctrl-C
 * are not recorded (they did not fail; they did not finish).
 */
export async function runBatch(run: BatchRun): Promise<Tally> {
  const { inputs, extractor, control } = run;
  const tally: Tally = { total: inputs.length, ok: 0, failed: 0, pages: undefined, inFlight: 0, stopping: false, startedAt: performance.now() };
  run.onStart(tally);
  let next = 0;
  let fatal: UsageError | undefined;
  // Outputs are written one file at a time, in the order files finish.
  let handled: Promise<unknown> = Promise.resolve();

  async function extractOne(input: InputFile): Promise<FileRecord | undefined> {
    const started = performance.now();
    try {
      const content = await readContent(input);
      const answer = await extractor.extract({ schema: run.schema, contents: [content], options: run.options }, control.signal);
      return { input, ms: performance.now() - started, status: 'ok', answer };
    } catch (error) {
      if (error instanceof UsageError) {
        fatal ??= error;
        control.abort(error);
      }
      if (control.signal.aborted) return undefined;
      return { input, ms: performance.now() - started, status: 'error', failure: describeFailure(error) };
    }
  }

  async function handle(found: FileRecord): Promise<void> {
    const record = await run.onFile(found);
    if (record.status === 'ok') {
      tally.ok++;
      if (record.answer.pages !== undefined) tally.pages = (tally.pages ?? 0) + record.answer.pages;
    } else {
      tally.failed++;
    }
    tally.stopping = control.stopping;
    run.onProgress(record, tally);
  }

  async function lane(): Promise<void> {
    while (!control.stopping && next < inputs.length) {
      const input = inputs[next++] as InputFile;
      tally.inFlight++;
      const record = await extractOne(input);
      tally.inFlight--;
      if (record) {
        handled = handled.then(() => handle(record));
        await handled;
      }
    }
  }

  const lanes = Array.from({ length: Math.max(1, Math.min(run.concurrency, inputs.length)) }, lane);
  await Promise.all(lanes);
  await handled;
  tally.stopping = control.stopping;
  if (fatal) throw fatal;
  return tally;
}
