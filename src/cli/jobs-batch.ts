import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestOptions } from '../pipeline.js';
import { mapConcurrent } from '../util/map-concurrent.js';
import type { FileRecord, Tally } from './batch.js';
import { describeFailure, ServiceError } from './extractor.js';
import { readContent, type InputFile } from './inputs.js';
import type { OutputFolder } from './outputs.js';
import type { ProgressDisplay } from './progress.js';
import { checkReachable, endpointOf, errorFrom, MAX_RETRIES, reasonOf, retryAfter } from './remote.js';
import { requestDigest, requestForm } from './request-form.js';
import type { RunControl } from './run-control.js';
import { UsageError } from './usage-error.js';

/**
 * `docshape extract --async --url <service> --out <dir>`: every file is
 * submitted as a job (POST /v1/jobs) before any result is awaited, so the
 * service's queue absorbs the batch; then the jobs are watched in the order
 * they were submitted, `concurrency` long polls at a time, and each result
 * is written as its job ends. Each job's id is appended to
 * <dir>/.docshape-jobs.jsonl: a run that was interrupted (Ctrl-C, a closed
 * laptop) is resumed by running the same command again, which collects
 * the jobs it had submitted instead of submitting them again (a job that
 * failed is submitted anew). A file's request is also sent with an
 * Idempotency-Key made from its content, so even an id that was never
 * written down does not make a second job.
 */

export const JOURNAL = '.docshape-jobs.jsonl';
/** Seconds each long poll waits for a change. */
const WAIT_SECONDS = 20;
/** Files submitted at once. */
const SUBMITS_AT_ONCE = 4;

/** A job submitted for a file; its result written; or a job to forget (it failed, or the service lost it): the next run submits the file anew. */
type JournalEntry = { file: string; id: string; key: string } | { file: string; done: string } | { file: string; forget: string };

interface JournalFile {
  id?: string;
  key?: string;
  done?: boolean;
  /** The job forgotten last: a new submit's Idempotency-Key names it, or the service would answer with that job again. */
  forgotten?: string;
}

/** The last word of the journal on each file. */
async function readJournal(path: string): Promise<Map<string, JournalFile>> {
  const known = new Map<string, JournalFile>();
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return known;
  }
  for (const line of text.split('\n')) {
    let entry: JournalEntry;
    try {
      entry = JSON.parse(line) as JournalEntry;
    } catch {
      continue; // a line cut by an interruption
    }
    const job = known.get(entry.file);
    if ('id' in entry) known.set(entry.file, { ...job, id: entry.id, key: entry.key, done: false });
    else if ('done' in entry) {
      if (job && job.id === entry.done) job.done = true;
    } else known.set(entry.file, { forgotten: entry.forget });
  }
  return known;
}

interface JobView {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';
  progress: { pagesDone: number };
  error: { error: string; details?: string[] } | null;
  errorStatus: number | null;
}

export interface JobsBatchRun {
  url: string;
  apiKey: string | undefined;
  inputs: InputFile[];
  schema: unknown;
  options: RequestOptions;
  concurrency: number;
  out: OutputFolder;
  control: RunControl;
  display: ProgressDisplay;
  /** Called with each record after its output was written (--jsonl). */
  onRecord: (record: FileRecord, output: string | undefined) => void;
}

export async function runJobsBatch(run: JobsBatchRun): Promise<Tally> {
  const endpoint = endpointOf(run.url);
  await checkReachable(endpoint);
  const jobsUrl = new URL(`${endpoint.pathname.replace(/\/?$/, '/')}jobs`, endpoint);
  // a submit is multipart (request-form.ts), whose Content-Type with its boundary is fetch's to set
  const headers: Record<string, string> = run.apiKey ? { 'x-api-key': run.apiKey } : {};
  const { control, display, out } = run;
  const journalPath = join(out.root, JOURNAL);
  const journal = await readJournal(journalPath);
  const note = (entry: JournalEntry) => appendFile(journalPath, `${JSON.stringify(entry)}\n`);
  const tally: Tally = { total: run.inputs.length, ok: 0, failed: 0, pages: 0, inFlight: 0, stopping: false, startedAt: performance.now() };

  async function send(url: URL, init: RequestInit): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        // the request's own headers (a submit's Idempotency-Key) beside the run's
        response = await fetch(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) }, signal: control.signal });
      } catch (error) {
        if (control.signal.aborted) throw control.signal.reason;
        throw new Error(`cannot reach the service at ${url.origin}: ${reasonOf(error)}`);
      }
      if (response.status === 401) throw new UsageError('the service refused the API key (401 Unauthorized): pass the service\'s key with --api-key or DOCSHAPE_API_KEY');
      const wait = retryAfter(response);
      if (wait === undefined || attempt >= MAX_RETRIES) return response;
      await response.body?.cancel();
      await sleep(Math.max(wait, 1) * 1000, undefined, { signal: control.signal });
    }
  }

  const finish = async (record: FileRecord) => {
    const written = await out.write(record);
    if (written.record.status === 'ok') {
      tally.ok++;
      tally.pages = (tally.pages ?? 0) + (written.record.answer.pages ?? 0);
    } else tally.failed++;
    run.onRecord(written.record, written.output);
    display.fileDone(written.record, tally);
    return written.record;
  };
  const failed = (input: InputFile, started: number, error: unknown) => finish({ input, ms: performance.now() - started, status: 'error', failure: describeFailure(error) });

  display.start(tally, run.concurrency, `as jobs of ${jobsUrl.origin}`);
  const watched: { input: InputFile; id: string; started: number }[] = [];
  let fatal: unknown;
  // 1. every file submitted (or found in the journal), in order
  await mapConcurrent(run.inputs, SUBMITS_AT_ONCE, async (input) => {
    if (control.stopping) return;
    const started = performance.now();
    try {
      const request = { schema: run.schema, contents: [await readContent(input)], options: run.options };
      const known = journal.get(input.path);
      const key = requestDigest(request, known?.forgotten);
      if (known?.id && known.key === key && known.done) {
        tally.total--; // written by an earlier run
        return;
      }
      if (known?.id && known.key === key) return void watched.push({ input, id: known.id, started });
      const response = await send(jobsUrl, { method: 'POST', body: requestForm(request), headers: { 'idempotency-key': key } });
      if (response.status !== 202) throw await errorFrom(response);
      const { id } = (await response.json()) as { id: string };
      await note({ file: input.path, id, key });
      watched.push({ input, id, started });
    } catch (error) {
      if (error instanceof UsageError) {
        fatal ??= error;
        control.abort(error);
      }
      if (!control.signal.aborted) await failed(input, started, error);
    }
  });
  // 2. the jobs watched in the order they were submitted (the queue's order), a few long polls at a time
  watched.sort((a, b) => run.inputs.indexOf(a.input) - run.inputs.indexOf(b.input));
  tally.inFlight = watched.length;
  await mapConcurrent(watched, run.concurrency, async ({ input, id, started }) => {
    try {
      let view: JobView;
      for (;;) {
        if (control.signal.aborted) return;
        const response = await send(new URL(`${jobsUrl.pathname}/${id}?wait=${WAIT_SECONDS}`, jobsUrl), { method: 'GET' });
        if (response.status === 404) {
          await note({ file: input.path, forget: id });
          throw new ServiceError(`the service no longer knows job ${id} (it expired, or Redis lost it); run again to submit the file anew`, 404);
        }
        if (!response.ok) throw await errorFrom(response);
        view = (await response.json()) as JobView;
        if (view.status !== 'queued' && view.status !== 'running') break;
      }
      tally.inFlight--;
      if (view.status !== 'succeeded') {
        await note({ file: input.path, forget: id });
        const error = view.error ?? { error: `job ${id} was ${view.status}` };
        await failed(input, started, new ServiceError(error.error, view.errorStatus ?? 500, error.details));
        return;
      }
      const response = await send(new URL(`${jobsUrl.pathname}/${id}/result`, jobsUrl), { method: 'GET' });
      if (!response.ok) throw await errorFrom(response);
      const record = await finish({ input, ms: performance.now() - started, status: 'ok', answer: { result: await response.json(), engine: 'unknown', pages: view.progress.pagesDone, layout: undefined } });
      if (record.status === 'ok') await note({ file: input.path, done: id });
    } catch (error) {
      if (error instanceof UsageError) {
        fatal ??= error;
        control.abort(error);
      }
      if (!control.signal.aborted) await failed(input, started, error);
    }
  });
  tally.stopping = control.stopping;
  if (fatal) throw fatal;
  return tally;
}
