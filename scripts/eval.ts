import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isAppError } from '../src/errors.js';
import type { LayoutText } from '../src/ingest/layout.js';
import type { ExtractionRequest } from '../src/pipeline.js';
import type { IngestCache } from './eval/ingest-cache.js';
import { mapConcurrent } from '../src/util/map-concurrent.js';
import type { DateOrder } from './eval/normalise.js';
import { buildDatasetReport, renderMarkdown, renderText, type DatasetReport, type DocumentInput, type DocumentRun, type EvalReport, type OcrRun, type ParaphraseRun } from './eval/report.js';
import { selectEngine } from './eval/engine-option.js';
import { emptyUsage, engineCounting, type DocumentModelUsage } from './eval/model-usage.js';
import type { ValueConfidence } from './eval/calibration.js';
import { classifyFields, nullMeaningFromReadme, type NullMeaning } from './eval/score.js';
import { loadParaphrases, mapAnswer, selectParaphrases, type Paraphrase } from './eval/paraphrases.js';
import { documentGroups } from './eval/groups.js';

const USAGE = `Usage: npm run eval -- [options] <dataset-dir>...

Runs every document of each dataset through the extraction pipeline and
scores the results against the ground truth (see scripts/eval/*.ts for the rules).
A dataset dir holds schema.json, manifest.jsonl, docs/ and README.md.

  --url <url>          score a running service (POST <url>) instead of the local pipeline
  --api-key <key>      x-api-key for --url
  --out <dir>          where report.json and report.md go (default .eval/)
  --limit <n>          only the first n documents of each dataset
  --day-first          ambiguous numeric dates are dd/mm (default)
  --month-first        ambiguous numeric dates are mm/dd
  --concurrency <n>    documents in flight (default 1; >1 inflates per-document latency)
  --timeout <seconds>  per-request limit in remote mode (default 300)
  --reuse-ingest <dir> local mode: keep each document's ingested Document (OCR
                       output) in <dir>, keyed by the file hash and a hash of the
                       ingest sources and settings; later runs skip decode/OCR
                       and run only layout + engine + finalize
  --refresh            with --reuse-ingest: ingest afresh and overwrite entries
  --engine <name>      local mode: auto, rules, ollama, openai or llamacpp (sets
                       EXTRACTOR); with ollama the run is skipped, exit 0, when
                       OLLAMA_HOST does not answer with OLLAMA_MODEL
  --model <model>      with --engine: the GGUF file (llamacpp, sets
                       LLAMA_MODEL_PATH) or the model name (ollama, openai)
                       With a language model the report adds, per dataset:
                       schema-valid answers, model calls, retries and tokens
                       per document, speed, and the values the grounding check
                       nulled, with those the labels say were right (false nulls)
  --e-invoice <mode>   auto or ignore: sets options.eInvoice on every request
                       (ignore: a PDF's e-invoice XML is not read, only its
                       visible pages; default: the service's E_INVOICE)
  --paraphrases <a,b>  answer each document also with only these paraphrases of
                       its dataset's schema (default: every one in
                       scripts/eval/paraphrases/<dataset>.json: other names,
                       languages, no descriptions, descriptions only); each
                       answer is mapped back to the dataset's fields and
                       scored like the dataset's own (locally from the same
                       ingested document; remotely one request per schema)
  --no-paraphrases     the dataset's own schema only
  --json               print the report JSON on stdout instead of tables`;

interface ManifestEntry extends Record<string, unknown> {
  id: string;
  document: string;
  ground_truth: string;
  /** Which form of the document this is (e.g. born-digital or scanned); the report also scores each variant on its own. */
  variant?: string;
}

interface Dataset {
  name: string;
  dir: string;
  schema: unknown;
  nullMeaning: NullMeaning;
  entries: { id: string; documentPath: string; expected: Record<string, unknown>; variant?: string; group: string }[];
  /** What joined documents into groups (groups.ts): the unit fit-confidence leaves out to check the confidence on unseen producers and layouts. */
  groupLinks: string[];
  /** The paraphrases of the schema each document is also answered with (scripts/eval/paraphrases/). */
  paraphrases: Paraphrase[];
}

/** One schema's answer to a document. */
interface Answered {
  result: unknown;
  engine: string;
  layout: LayoutText | undefined;
  /** Per-value confidence (and, locally, its features) from the evidence the run asks for. */
  confidences?: Record<string, ValueConfidence>;
}

/**
 * A document read once, to be answered with several schemas: locally the
 * Document ingested (or taken from --reuse-ingest) once and answered by
 * answerFromDocument per schema; remotely one request per schema.
 */
interface Reading {
  ingest?: 'cached' | 'fresh';
  /** Fresh ingestion that OCRed a page: which engine and how long. */
  ocr?: OcrRun;
  /** Answers with `schema`; a local run reports the model's calls into `usage`. Evidence only where asked (the dataset's own schema). */
  answer(schema: unknown, usage: DocumentModelUsage, evidence: boolean): Promise<Answered>;
}

type Read = (request: ExtractionRequest) => Promise<Reading>;

class RequestFailure extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

const MIME_BY_EXTENSION: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.xml': 'application/xml',
};

function parsePositiveInt(name: string, raw: string | undefined, fallback: number | null): number | null {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return value;
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown;
}

async function loadDataset(dir: string, limit: number | null): Promise<Dataset> {
  const absolute = resolve(dir);
  const schema = await readJson(join(absolute, 'schema.json'));
  const readme = await readFile(join(absolute, 'README.md'), 'utf8').catch(() => '');
  const manifest = (await readFile(join(absolute, 'manifest.jsonl'), 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ManifestEntry);
  const selected = limit === null ? manifest : manifest.slice(0, limit);
  const loaded = await Promise.all(
    selected.map(async (entry) => {
      const expected = await readJson(join(absolute, entry.ground_truth));
      if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) throw new Error(`${entry.ground_truth}: ground truth is not an object`);
      const variant = typeof entry.variant === 'string' ? { variant: entry.variant } : {};
      return { id: entry.id, documentPath: join(absolute, entry.document), expected: expected as Record<string, unknown>, manifest: entry, ...variant };
    }),
  );
  const { groupOf, linkedBy } = documentGroups(loaded);
  const entries = loaded.map(({ manifest: _line, ...entry }) => ({ ...entry, group: groupOf.get(entry.id)! }));
  return { name: basename(absolute), dir: absolute, schema, nullMeaning: nullMeaningFromReadme(readme), entries, groupLinks: linkedBy, paraphrases: [] };
}

type EInvoiceMode = 'auto' | 'ignore';

async function buildRequest(schema: unknown, documentPath: string, eInvoice?: EInvoiceMode): Promise<ExtractionRequest> {
  const mimeType = MIME_BY_EXTENSION[extname(documentPath).toLowerCase()];
  if (!mimeType) throw new RequestFailure(null, `${documentPath}: unknown file type`);
  const bytes = await readFile(documentPath);
  // evidence is asked for to measure the calibration of its confidence; the object itself does not change
  return { schema, contents: [{ filename: basename(documentPath), mimeType, data: bytes.toString('base64') }], options: { evidence: true, ...(eInvoice ? { eInvoice } : {}) } };
}

/** A request with another schema, and evidence only when asked for (the service then answers {data, evidence}). */
function withSchema(request: ExtractionRequest, schema: unknown, evidence: boolean): ExtractionRequest {
  const { evidence: _asked, ...options } = request.options ?? {};
  return { ...request, schema, options: evidence ? { ...options, evidence: true } : options };
}

function remoteReader(url: string, apiKey: string | undefined, timeoutMs: number): Read {
  const post = remotePost(url, apiKey, timeoutMs);
  return async (request) => ({ answer: (schema, _usage, evidence) => post(withSchema(request, schema, evidence)) });
}

function remotePost(url: string, apiKey: string | undefined, timeoutMs: number): (request: ExtractionRequest) => Promise<Answered> {
  return async (request) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey) headers['x-api-key'] = apiKey;
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(request), signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new RequestFailure(null, `request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const message = typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : text.slice(0, 200);
      throw new RequestFailure(response.status, message);
    }
    if (body === undefined) throw new RequestFailure(response.status, 'response is not JSON');
    const engine = response.headers.get('x-docshape-engine') ?? 'unknown';
    const wrapped = body as { data?: unknown; evidence?: Record<string, { confidence?: unknown }> };
    if (typeof wrapped.evidence !== 'object' || wrapped.evidence === null || !('data' in wrapped)) return { result: body, engine, layout: undefined };
    const confidences: Record<string, ValueConfidence> = {};
    for (const [pointer, item] of Object.entries(wrapped.evidence)) if (typeof item?.confidence === 'number') confidences[pointer] = { confidence: item.confidence };
    return { result: wrapped.data, engine, layout: undefined, confidences };
  };
}

interface Backend {
  read: Read;
  close: () => Promise<void>;
  cache: IngestCache | undefined;
}

/**
 * The service's own pipeline, in this process: prepareRequest, then
 * readDocument (or the Document kept by --reuse-ingest), then
 * answerFromDocument, the same functions runExtraction runs. `requests` are
 * the requests the run will make, read beforehand so that no OCR or PDF
 * worker starts when every Document is cached (a run then takes seconds).
 * The pipeline is imported here, on demand: remote runs need neither its
 * workers nor its native modules.
 */
async function localReader(reuse: { dir: string; refresh: boolean } | undefined, requests: () => AsyncIterable<ExtractionRequest>, eInvoice: EInvoiceMode | undefined): Promise<Backend> {
  const [{ loadConfig }, { silentLogger }, pipeline, { compileCallerSchemaOffThread }, { startServices }, { createEngine }, { PdfProcessor }, { contentsKey, ingestFingerprint, IngestCache }] = await Promise.all([
    import('../src/config.js'),
    import('../src/logger.js'),
    import('../src/pipeline.js'),
    import('../src/schema/schema.js'),
    import('../src/services.js'),
    import('../src/engines/create-engine.js'),
    import('../src/ingest/pdf.js'),
    import('./eval/ingest-cache.js'),
  ]);
  const config = loadConfig();
  const logger = silentLogger();

  let cache: IngestCache | undefined;
  let allCached = false;
  if (reuse) {
    // Everything that decides the Document besides the bytes and the ingest sources.
    const settings = { ocr: config.ocr, pdf: config.pdf, limits: { ...config.limits, requestTimeoutMs: undefined }, eInvoice: eInvoice ?? config.eInvoice };
    cache = new IngestCache(reuse.dir, await ingestFingerprint(settings), reuse.refresh);
    allCached = true;
    for await (const request of requests()) {
      if (!(await cache.has(contentsKey(request)))) {
        allCached = false;
        break;
      }
    }
  }

  // OCR and PDF workers only when some document must really be ingested.
  const services = allCached ? undefined : await startServices(config, logger);
  const { engine, crossCheck } = services ?? (await createEngine(config, logger));
  let lazyPdf: InstanceType<typeof PdfProcessor> | undefined;
  const pdf = () => services?.pdf ?? (lazyPdf ??= new PdfProcessor({ workers: 1, maxPixelsPerPage: config.limits.maxPixelsPerImage, renderDpi: config.pdf.renderDpi, maxStreamBytes: config.pdf.maxStreamBytes }));
  // Page pictures are rendered only if the engine asks (vision models); a PDF worker starts then.
  const answerDeps = { engine, ...(crossCheck ? { crossCheck } : {}), dates: config.dates, limits: config.limits, pdf: { render: (...args: Parameters<InstanceType<typeof PdfProcessor>['render']>) => pdf().render(...args) } };

  const read: Read = async (request) => {
    const signal = AbortSignal.timeout(config.limits.requestTimeoutMs);
    const prepared = await pipeline.prepareRequest(request, config.limits, signal);
    const key = cache ? contentsKey(request) : '';
    let document = cache ? await cache.get(key) : undefined;
    const ingest = document ? 'cached' : 'fresh';
    let ocr: OcrRun | undefined;
    if (document) cache!.hits += 1;
    else {
      if (!services) throw new Error('ingest cache entry vanished during the run');
      const fresh = await pipeline.readDocument(services, prepared, signal);
      document = fresh.document;
      if (fresh.stats.ocrPages > 0) ocr = { engine: services.ocr.name, seconds: fresh.stats.ocrMs / 1000 };
      if (cache) {
        cache.misses += 1;
        await cache.put(key, document);
      }
    }
    const ingested = document;
    const answer = async (schema: unknown, usage: DocumentModelUsage, evidence: boolean): Promise<Answered> => {
      const own = schema === request.schema;
      // the request's own answer shares its time limit with the reading; each paraphrase has a request's limit of its own
      const answerSignal = own ? signal : AbortSignal.timeout(config.limits.requestTimeoutMs);
      const compiled = own ? prepared.compiled : await compileCallerSchemaOffThread(schema, 'schema', answerSignal);
      const { evidence: _asked, ...options } = prepared.options;
      const asked = { ...prepared, compiled, options: evidence ? { ...options, evidence: true } : options };
      const answered = await pipeline.answerFromDocument({ ...answerDeps, engine: engineCounting(engine, usage) }, asked, ingested, answerSignal);
      if (!evidence) return { result: answered.result, engine: answered.engine, layout: undefined };
      const confidences: Record<string, ValueConfidence> = {};
      for (const [pointer, item] of Object.entries(answered.evidence?.evidence ?? {})) {
        const features = answered.evidence?.features.get(pointer);
        confidences[pointer] = features ? { confidence: item.confidence, features } : { confidence: item.confidence };
      }
      return { result: answered.result, engine: answered.engine, layout: answered.layout(), confidences };
    };
    return { ingest, answer, ...(ocr ? { ocr } : {}) };
  };

  return {
    read,
    cache,
    close: async () => {
      if (services) await services.close();
      else await Promise.all([engine.close(), crossCheck?.close()]);
      if (lazyPdf) await lazyPdf.close();
    },
  };
}

function failureOf(error: unknown): { status: number | null; message: string } {
  if (error instanceof RequestFailure) return { status: error.status, message: error.message };
  // a 500's cause is what someone measuring needs (the service logs it; here it would be lost)
  if (isAppError(error)) return { status: error.status, message: error.status >= 500 && error.cause !== undefined ? `${error.message} (cause: ${error.cause instanceof Error ? error.cause.message : String(error.cause)})` : error.message };
  return { status: null, message: error instanceof Error ? error.message : String(error) };
}

/**
 * The document read once and answered with the dataset's schema (timed as
 * today: decoding, reading and answering), then with each paraphrase from the
 * same reading, each answer mapped back to the dataset's fields.
 */
async function runDocument(read: Read, dataset: Dataset, entry: Dataset['entries'][number], eInvoice: EInvoiceMode | undefined): Promise<{ run: DocumentRun; paraphrases: Record<string, ParaphraseRun> }> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const usage = emptyUsage();
  // only a run whose engine called a model has model figures
  const model = () => (usage.calls > 0 ? { model: usage } : {});
  let reading: Reading | undefined;
  let run: DocumentRun;
  try {
    const request = await buildRequest(dataset.schema, entry.documentPath, eInvoice);
    reading = await read(request);
    const outcome = await reading.answer(dataset.schema, usage, true);
    run = { id: entry.id, ok: true, seconds: seconds(), engine: outcome.engine, result: outcome.result, layout: outcome.layout, ...model() };
    if (outcome.confidences) run.confidences = outcome.confidences;
    run = { ...run, ...(reading.ingest ? { ingest: reading.ingest } : {}), ...(reading.ocr ? { ocr: reading.ocr } : {}) };
  } catch (error) {
    run = { id: entry.id, ok: false, seconds: seconds(), ...failureOf(error), ...model() };
  }
  const paraphrases: Record<string, ParaphraseRun> = {};
  for (const paraphrase of dataset.paraphrases) {
    const askedAt = performance.now();
    const took = () => (performance.now() - askedAt) / 1000;
    if (!reading) {
      // reading failed (a bad file, a timeout): so does every paraphrase, for the same reason
      paraphrases[paraphrase.name] = { ok: false, seconds: 0, ...(run.ok ? { status: null, message: 'the document was not read' } : { status: run.status, message: `the document was not read: ${run.message}` }) };
      continue;
    }
    try {
      const answered = await reading.answer(paraphrase.schema, emptyUsage(), false);
      paraphrases[paraphrase.name] = { ok: true, seconds: took(), result: mapAnswer(answered.result, paraphrase.map), answer: answered.result };
    } catch (error) {
      paraphrases[paraphrase.name] = { ok: false, seconds: took(), ...failureOf(error) };
    }
  }
  return { run, paraphrases };
}

async function evaluateDataset(read: Read, dataset: Dataset, dateOrder: DateOrder, concurrency: number, eInvoice: EInvoiceMode | undefined): Promise<DatasetReport> {
  let done = 0;
  const runs = await mapConcurrent(dataset.entries, concurrency, async (entry) => {
    const outcome = await runDocument(read, dataset, entry, eInvoice);
    const { run } = outcome;
    done += 1;
    const status = run.ok ? `ok${run.ingest === 'cached' ? ' (cached ingest)' : ''}` : `FAILED${run.status === null ? '' : ` ${run.status}`}: ${run.message}`;
    const failedParaphrases = Object.entries(outcome.paraphrases).filter(([, paraphrase]) => !paraphrase.ok).map(([name]) => name);
    const paraphraseStatus = dataset.paraphrases.length === 0 ? '' : `; ${dataset.paraphrases.length - failedParaphrases.length}/${dataset.paraphrases.length} paraphrases answered${failedParaphrases.length > 0 ? ` (failed: ${failedParaphrases.join(', ')})` : ''}`;
    process.stderr.write(`[${dataset.name} ${done}/${dataset.entries.length}] ${entry.id} ${run.seconds.toFixed(1)}s ${status}${paraphraseStatus}\n`);
    return outcome;
  });
  const documents: DocumentInput[] = dataset.entries.map((entry, index) => ({
    id: entry.id,
    expected: entry.expected,
    run: runs[index]!.run,
    group: entry.group,
    ...(entry.variant === undefined ? {} : { variant: entry.variant }),
    ...(dataset.paraphrases.length === 0 ? {} : { paraphrases: runs[index]!.paraphrases }),
  }));
  return buildDatasetReport({
    name: dataset.name,
    dir: dataset.dir,
    schema: dataset.schema,
    kinds: classifyFields(dataset.schema, dataset.entries.map((entry) => entry.expected)),
    nullMeaning: dataset.nullMeaning,
    dateOrder,
    documents,
    paraphrases: dataset.paraphrases.map((paraphrase) => paraphrase.name),
    groupLinks: dataset.groupLinks,
  });
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      'api-key': { type: 'string' },
      out: { type: 'string', default: '.eval' },
      limit: { type: 'string' },
      'day-first': { type: 'boolean' },
      'month-first': { type: 'boolean' },
      concurrency: { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
      'reuse-ingest': { type: 'string' },
      refresh: { type: 'boolean' },
      engine: { type: 'string' },
      model: { type: 'string' },
      'e-invoice': { type: 'string' },
      paraphrases: { type: 'string' },
      'no-paraphrases': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (values['day-first'] && values['month-first']) throw new Error('--day-first and --month-first exclude each other');
  const dateOrder: DateOrder = values['month-first'] ? 'month-first' : 'day-first';
  const limit = parsePositiveInt('limit', values.limit, null);
  const concurrency = parsePositiveInt('concurrency', values.concurrency, 1) ?? 1;
  const timeoutSeconds = parsePositiveInt('timeout', values.timeout, 300) ?? 300;
  const eInvoiceArg = values['e-invoice'];
  if (eInvoiceArg !== undefined && eInvoiceArg !== 'auto' && eInvoiceArg !== 'ignore') throw new Error(`--e-invoice must be auto or ignore, got "${eInvoiceArg}"`);
  const eInvoice: EInvoiceMode | undefined = eInvoiceArg;

  if (values.url && values.engine) throw new Error('--engine selects the local pipeline\'s engine; a remote service uses its own');
  const { skip } = await selectEngine(values.engine, values.model);
  if (skip) {
    process.stdout.write(`${skip}\n`);
    return 0;
  }

  // Load every dataset first, so a typo in the last path fails before minutes of OCR.
  const datasets = await Promise.all(positionals.map((dir) => loadDataset(dir, limit)));
  if (values['no-paraphrases'] && values.paraphrases !== undefined) throw new Error('--paraphrases and --no-paraphrases exclude each other');
  if (!values['no-paraphrases']) {
    const names = values.paraphrases?.split(',').map((name) => name.trim()).filter((name) => name !== '');
    const available = new Map(await Promise.all(datasets.map(async (dataset) => [dataset.name, await loadParaphrases(dataset.name, dataset.schema)] as const)));
    const chosen = selectParaphrases(available, names);
    for (const dataset of datasets) dataset.paraphrases = chosen.get(dataset.name) ?? [];
  }

  if (values.url && values['reuse-ingest']) throw new Error('--reuse-ingest needs the local pipeline; it cannot be used with --url');
  if (values.refresh && !values['reuse-ingest']) throw new Error('--refresh only applies with --reuse-ingest');
  const reuse = values['reuse-ingest'] ? { dir: resolve(values['reuse-ingest']), refresh: values.refresh === true } : undefined;
  const backend: Backend = values.url
    ? { read: remoteReader(values.url, values['api-key'], timeoutSeconds * 1000), close: async () => undefined, cache: undefined }
    : await localReader(reuse, async function* () {
        for (const dataset of datasets) for (const entry of dataset.entries) yield await buildRequest(dataset.schema, entry.documentPath, eInvoice).catch(() => ({ schema: null, contents: [] }));
      }, eInvoice);
  const reports: DatasetReport[] = [];
  try {
    for (const dataset of datasets) reports.push(await evaluateDataset(backend.read, dataset, dateOrder, concurrency, eInvoice));
  } finally {
    await backend.close();
  }

  const report: EvalReport = {
    generatedAt: new Date().toISOString(),
    mode: values.url ? 'remote' : 'local',
    url: values.url ?? null,
    options: { dateOrder, limit, concurrency, ...(eInvoice ? { eInvoice } : {}) },
    ingestCache: backend.cache ? { dir: backend.cache.dir, fingerprint: backend.cache.fingerprint, refresh: reuse?.refresh ?? false, hits: backend.cache.hits, misses: backend.cache.misses } : null,
    datasets: reports,
  };
  const outDir = resolve(values.out ?? '.eval');
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(join(outDir, 'report.md'), renderMarkdown(report));
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderText(report));
  process.stderr.write(`wrote ${join(outDir, 'report.json')} and ${join(outDir, 'report.md')}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`eval: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
