import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DATE_ORDERS, DOCSHAPE_API_KEY, E_INVOICE_SETTINGS, type Env } from '../config.js';
import type { RequestOptions } from '../pipeline.js';
import { UsageError } from './usage-error.js';

/** A flag that sets one request option: a boolean option is a bare flag, any other takes one of `values`. */
type FlagFor<K extends keyof RequestOptions> =
  NonNullable<RequestOptions[K]> extends boolean ? { flag: string; option: K; help: string } : { flag: string; option: K; values: readonly NonNullable<RequestOptions[K]>[]; help: string };
type RequestOptionFlag = { [K in keyof RequestOptions]-?: FlagFor<K> }[keyof RequestOptions];

/** The request's `options` (RequestOptions in pipeline.ts) as flags: a new option is one line here. */
const REQUEST_OPTION_FLAGS: readonly RequestOptionFlag[] = [
  { flag: 'date-order', option: 'dateOrder', values: DATE_ORDERS, help: 'how to read 03/04/2024: auto, dmy or mdy (options.dateOrder; default DATE_ORDER)' },
  { flag: 'evidence', option: 'evidence', help: 'answer {data, evidence}: where each value was read and how sure docshape is (options.evidence)' },
  { flag: 'e-invoice', option: 'eInvoice', values: E_INVOICE_SETTINGS, help: 'auto: read the e-invoice XML a PDF carries; ignore: the visible pages only (options.eInvoice; default E_INVOICE)' },
];

export interface ExtractArgs {
  schemaPath: string;
  /** Files and folders as given. */
  paths: string[];
  /** Batch mode (--out and/or --jsonl): each file is its own request. Otherwise all files make one request with one answer. */
  batch: boolean;
  out: string | undefined;
  jsonl: boolean;
  concurrency: number | undefined;
  quiet: boolean;
  layout: boolean;
  compact: boolean;
  url: string | undefined;
  apiKey: string | undefined;
  /** Submit every file as a job of the service (POST /v1/jobs), then collect the results; resumable. */
  async: boolean;
  options: RequestOptions;
}

const optionLines = REQUEST_OPTION_FLAGS.map((entry) => {
  const name = `--${entry.flag}${'values' in entry ? ' <value>' : ''}`;
  return `  ${name.padEnd(23)} ${entry.help}`;
}).join('\n');

export const USAGE = `Usage: docshape extract --schema <schema.json> [options] <file or folder>...

Reads documents with the same pipeline as POST /v1/ and prints JSON that follows the schema.

Two modes:
  combined (default)  all the files are ONE request with ONE answer, as when POST /v1/ gets
                      several files (an invoice and its attachment); printed on stdout
  batch               with --out and/or --jsonl: each file is its own request with its own
                      answer; files run concurrently; a file that fails is recorded and the
                      run goes on

Options:
  -s, --schema <file>     JSON Schema (object root) the answers follow (required)
  -o, --out <dir>         batch: write <dir>/<name>.json for each input (<name>.error.json
                          when it failed). <name> is the input's path below the deepest folder
                          holding all the inputs, extension kept: docs/2024/inv.pdf and
                          docs/2025/inv.pdf -> 2024/inv.pdf.json and 2025/inv.pdf.json
      --jsonl             batch: print one JSON line per input on stdout, as files finish:
                          {"file","status":"ok","result"} or
                          {"file","status":"error","error","details","httpStatus"}
      --concurrency <n>   batch: files in flight (default: OCR or PDF workers + 1 in-process,
                          4 with --url)
  -q, --quiet             batch: no progress on stderr
      --layout            combined, in-process: print the text the engine reads instead
      --compact           JSON on one line (the answer, and each --out file)
${optionLines}
      --url <url>         send the requests to a running docshape service (POST <url>; a
                          bare http://host:port means /v1/) instead of this process
      --api-key <key>     the service's x-api-key, with --url (or set DOCSHAPE_API_KEY,
                          which keeps the key out of the process list)
      --async             with --url and --out: submit every file as a job (POST /v1/jobs)
                          first, then write each result as its job finishes. The job ids are
                          kept in <dir>/.docshape-jobs.jsonl: run the same command again after
                          an interruption and it collects the jobs it submitted (Ctrl-C leaves
                          them running on the service); --concurrency is the jobs watched at once
  -h, --help              this text

Folders are searched (recursively) for every type docshape reads, by extension: .pdf,
images (.png, .jpg, .tif, ...), Office files, .csv, .html, .txt, .md, .eml, .xml, .json.
Progress goes to stderr: a bar on a terminal, one line per file otherwise.
In-process runs take their configuration (engine, OCR, limits) from the same
environment variables as the server.

Exit codes:
  0    every file was extracted
  1    some file failed (batch: the others were still written), or the combined request failed
  2    usage or configuration: a flag, a missing file, the schema file, an environment variable,
       or a --url that cannot be reached or refuses the key
  130  interrupted by Ctrl-C (143: SIGTERM); what was done is written. In a batch the first
       Ctrl-C lets the files in flight finish, a second aborts them`;

const FLAGS = {
  schema: { type: 'string', short: 's' },
  out: { type: 'string', short: 'o' },
  jsonl: { type: 'boolean' },
  concurrency: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  layout: { type: 'boolean' },
  compact: { type: 'boolean' },
  url: { type: 'string' },
  'api-key': { type: 'string' },
  async: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

function readOptions(values: Record<string, string | boolean | undefined>): RequestOptions {
  const options: Record<string, unknown> = {};
  for (const entry of REQUEST_OPTION_FLAGS) {
    const value = values[entry.flag];
    if (value === undefined) continue;
    if ('values' in entry && !(entry.values as readonly unknown[]).includes(value)) {
      throw new UsageError(`--${entry.flag} must be one of ${entry.values.join(', ')}, got ${JSON.stringify(value)}`);
    }
    options[entry.option] = value;
  }
  return options as RequestOptions;
}

function readConcurrency(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 256) throw new UsageError(`--concurrency must be a whole number from 1 to 256, got ${JSON.stringify(raw)}`);
  return value;
}

/** The arguments after `extract`, checked; undefined when help was asked for. Every mistake is a UsageError naming the flag. */
/** `env` supplies DOCSHAPE_API_KEY, so a key need not sit on the command line where `ps` shows it. */
export function parseExtractArgs(argv: string[], env: Env = {}): ExtractArgs | undefined {
  const requestFlags = Object.fromEntries(REQUEST_OPTION_FLAGS.map((entry) => [entry.flag, { type: 'values' in entry ? 'string' : 'boolean' } as const]));
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof FLAGS }>>;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { ...FLAGS, ...requestFlags } as typeof FLAGS });
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (docshape extract --help lists the options)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  const options = readOptions(values as Record<string, string | boolean | undefined>);
  if (!values.schema) throw new UsageError('--schema <schema.json> is required');
  if (positionals.length === 0) throw new UsageError('name at least one file or folder to read');
  const batch = values.out !== undefined || values.jsonl === true;
  const concurrency = readConcurrency(values.concurrency);
  if (!batch && concurrency !== undefined) throw new UsageError('--concurrency is for batch runs (--out or --jsonl); a combined run is one request');
  if (batch && values.layout) throw new UsageError('--layout prints the text of one combined request; it does not go with --out or --jsonl');
  if (values.url !== undefined && values.layout) throw new UsageError('--layout needs the in-process pipeline: the service does not send the text it read');
  if (values['api-key'] !== undefined && values.url === undefined) throw new UsageError('--api-key goes with --url');
  if (values.async && (values.url === undefined || values.out === undefined)) throw new UsageError('--async needs --url (the service runs the jobs) and --out (where results and the job ids go)');
  return {
    schemaPath: values.schema,
    paths: positionals,
    batch,
    out: values.out,
    jsonl: values.jsonl === true,
    concurrency,
    quiet: values.quiet === true,
    layout: values.layout === true,
    compact: values.compact === true,
    url: values.url,
    apiKey: values['api-key'] ?? (values.url !== undefined ? DOCSHAPE_API_KEY.read(env) : undefined),
    async: values.async === true,
    options,
  };
}
