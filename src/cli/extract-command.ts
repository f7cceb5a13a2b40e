import { readFile } from 'node:fs/promises';
import { ConfigError, loadConfig, PDF_THREAD_WARM_UP, type Config } from '../config.js';
import { isAppError } from '../errors.js';
import { compileCallerSchema } from '../schema/schema.js';
import type { ContentItem } from '../ingest/decode.js';
import { parseExtractArgs, USAGE, type ExtractArgs } from './args.js';
import { runBatch } from './batch.js';
import { JOURNAL, runJobsBatch } from './jobs-batch.js';
import { describeFailure, type Extractor, type FileFailure } from './extractor.js';
import { collectInputs, readContent, type InputFile } from './inputs.js';
import { startLocalExtractor } from './local.js';
import { jsonlLine, OutputFolder } from './outputs.js';
import { progressDisplay } from './progress.js';
import { connectRemote } from './remote.js';
import { RunControl } from './run-control.js';
import { UsageError } from './usage-error.js';

/** How long past REQUEST_TIMEOUT_MS a remote run waits for an answer before giving a file up (the service's 504 normally comes first). */
const REMOTE_GRACE_MS = 30_000;

function failureText(failure: FileFailure): string {
  return failure.error + (failure.details ? `\n  ${failure.details.join('\n  ')}` : '');
}

/** The schema file, parsed and checked as the service checks a request's schema, so a bad one stops the run before any file. */
async function readSchema(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--schema ${path}: ${(error as Error).message}`);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--schema ${path} is not JSON: ${(error as Error).message}`);
  }
  try {
    compileCallerSchema(schema);
  } catch (error) {
    if (isAppError(error)) throw new UsageError(`--schema ${path}: ${failureText(describeFailure(error))}`);
    throw error;
  }
  return schema;
}

/** The configuration of a run: the service's, except that pdf.js threads do not warm up unless PDF_THREAD_WARM_UP is set. */
export function readCliConfig(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    // A run is timed by its total: a pdf.js thread's warm-up, there for the latency of a service's
    // first callers, would be readings added to it, not moved.
    return loadConfig({ [PDF_THREAD_WARM_UP.name]: '0', ...env });
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`configuration error: ${error.message}`);
    throw error;
  }
}

type StartExtractor = () => Promise<Extractor>;

/** The extractor and Ctrl-C handling for the time of `work`, then closed: no worker or handler outlives the run. */
async function withExtractor<T>(start: StartExtractor, work: (extractor: Extractor, control: RunControl) => Promise<T>): Promise<T> {
  const extractor = await start();
  const control = new RunControl();
  try {
    return await work(extractor, control);
  } finally {
    control.dispose();
    await extractor.close();
  }
}

/** Today's default: every file in one request, one answer on stdout (or the layout text). */
async function combined(args: ExtractArgs, inputs: InputFile[], schema: unknown, start: StartExtractor): Promise<number> {
  let contents: ContentItem[];
  try {
    // Read before any worker starts: a file that cannot be read or is of an unknown type fails the request at once.
    contents = await Promise.all(inputs.map((input) => readContent(input).catch((error: unknown) => Promise.reject(new Error(`${input.path}: ${(error as Error).message}`)))));
  } catch (error) {
    process.stderr.write(`docshape: ${(error as Error).message}\n`);
    return 1;
  }
  return withExtractor(start, async (extractor, control) => {
    control.watchSignals(false, () => undefined);
    try {
      const answer = await extractor.extract({ schema, contents, options: args.options }, control.signal);
      process.stdout.write(args.layout ? (answer.layout ?? '') : `${JSON.stringify(answer.result, null, args.compact ? undefined : 2)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      if (control.exitCode !== undefined) {
        process.stderr.write(`docshape: ${control.signal.reason instanceof Error ? control.signal.reason.message : 'interrupted'}\n`);
        return control.exitCode;
      }
      const hint = inputs.length > 1 ? `\n(the ${inputs.length} files were one request; --out <dir> or --jsonl extracts each file on its own)` : '';
      process.stderr.write(`docshape: ${failureText(describeFailure(error))}${hint}\n`);
      return 1;
    }
  });
}

/** Each file its own request: outputs per file, progress on stderr. */
async function batch(args: ExtractArgs, inputs: InputFile[], schema: unknown, start: StartExtractor): Promise<number> {
  const out = args.out === undefined ? undefined : await OutputFolder.open(args.out, args.compact);
  return withExtractor(start, async (extractor, control) => {
    const display = progressDisplay(process.stderr, args.quiet);
    const concurrency = args.concurrency ?? extractor.defaultConcurrency;
    control.watchSignals(true, (text) => display.say(text));
    // A reader that went away (`| head`) ends the run like SIGPIPE would, without a stack trace.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      control.exitCode ??= 141;
      control.abort(new Error('stdout closed'));
    });
    const tally = await runBatch({
      inputs,
      schema,
      options: args.options,
      extractor,
      concurrency,
      control,
      onStart: (started) => display.start(started, concurrency, extractor.where),
      async onFile(found) {
        const { record, output } = out ? await out.write(found) : { record: found, output: undefined };
        if (args.jsonl && !process.stdout.destroyed) process.stdout.write(jsonlLine(record, output));
        return record;
      },
      onProgress: (record, now) => display.fileDone(record, now),
    });
    display.finish(tally);
    return control.exitCode ?? (tally.failed > 0 ? 1 : 0);
  });
}

/** --async: every file a job of the service, results written as jobs end; resumable from the journal in --out. */
async function asyncBatch(args: ExtractArgs & { url: string; out: string }, inputs: InputFile[], schema: unknown): Promise<number> {
  const out = await OutputFolder.open(args.out, args.compact);
  const control = new RunControl();
  const display = progressDisplay(process.stderr, args.quiet);
  control.watchSignals(false, (text) => display.say(text));
  try {
    const tally = await runJobsBatch({
      url: args.url,
      apiKey: args.apiKey,
      inputs,
      schema,
      options: args.options,
      concurrency: args.concurrency ?? 8,
      out,
      control,
      display,
      onRecord: (record, output) => {
        if (args.jsonl) process.stdout.write(jsonlLine(record, output));
      },
    });
    display.finish(tally);
    if (control.exitCode !== undefined) {
      display.say(`the jobs go on on the service: run the same command again to collect them (their ids are in ${args.out}/${JOURNAL})`);
      return control.exitCode;
    }
    return tally.failed > 0 ? 1 : 0;
  } finally {
    control.dispose();
  }
}

/** `docshape extract ...`: the exit code (see USAGE). UsageErrors are thrown for cli.ts to print with exit code 2. */
export async function extractCommand(argv: string[]): Promise<number> {
  const args = parseExtractArgs(argv, process.env);
  if (!args) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const schema = await readSchema(args.schemaPath);
  const inputs = await collectInputs(args.paths);
  const config = readCliConfig();
  const { url, apiKey } = args;
  if (args.async && url !== undefined && args.out !== undefined) return asyncBatch({ ...args, url, out: args.out }, inputs, schema);
  const start: StartExtractor = url === undefined ? () => startLocalExtractor(config) : () => connectRemote(url, apiKey, config.limits.requestTimeoutMs + REMOTE_GRACE_MS);
  return args.batch ? batch(args, inputs, schema, start) : combined(args, inputs, schema, start);
}
