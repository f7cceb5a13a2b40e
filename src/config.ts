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
  pdf: { workers: number; renderDpi: number };
  extractor: 'rules';
  logLevel: string;
  shutdownTimeoutMs: number;
}

export interface Limits {
  maxBodyBytes: number;
  maxFiles: number;
  maxPagesPerRequest: number;
  maxPixelsPerImage: number;
  maxGifFrames: number;
  requestTimeoutMs: number;
}

export interface OcrConfig {
  workers: number;
  langs: string[];
  /** Directory holding <lang>.traineddata.gz; defaults to @tesseract.js-data/eng's best_int model. */
  langPath: string | undefined;
  recycleAfterJobs: number;
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
    .split(/[,\n]/)
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

export function loadConfig(env: Env = process.env): Config {
  const cores = availableParallelism();
  const extractor = (env.EXTRACTOR ?? 'rules').trim();
  if (extractor !== 'rules') throw new ConfigError(`EXTRACTOR must be "rules", got "${extractor}"`);
  const langs = readList(env.OCR_LANGS ?? 'eng');
  if (langs.length === 0) throw new ConfigError('OCR_LANGS must name at least one language, e.g. "eng"');
  const host = (env.HOST ?? '0.0.0.0').trim();

  return {
    port: readInt(env, 'PORT', 8080, 0, 65535),
    host,
    apiKeys: readApiKeys(env),
    limits: {
      maxBodyBytes: readBytes(env, 'MAX_BODY_BYTES', 50 * 1024 ** 2),
      maxFiles: readInt(env, 'MAX_FILES', 20, 1),
      maxPagesPerRequest: readInt(env, 'MAX_PAGES', 100, 1),
      maxPixelsPerImage: readInt(env, 'MAX_PIXELS', 80_000_000, 1),
      maxGifFrames: readInt(env, 'MAX_GIF_FRAMES', 10, 1),
      requestTimeoutMs: readInt(env, 'REQUEST_TIMEOUT_MS', 120_000, 100),
    },
    concurrency: {
      maxActiveRequests: readInt(env, 'MAX_ACTIVE_REQUESTS', Math.max(1, cores), 1),
      maxQueuedRequests: readInt(env, 'MAX_QUEUED_REQUESTS', 16, 0),
      maxQueueWaitMs: readInt(env, 'MAX_QUEUE_WAIT_MS', 30_000, 0),
    },
    ocr: {
      workers: readInt(env, 'OCR_WORKERS', Math.max(1, cores), 1, 64),
      langs,
      langPath: env.OCR_LANG_PATH?.trim() || undefined,
      recycleAfterJobs: readInt(env, 'OCR_RECYCLE_AFTER', 200, 1),
    },
    pdf: {
      workers: readInt(env, 'PDF_WORKERS', Math.max(1, cores), 1, 64),
      renderDpi: readInt(env, 'PDF_RENDER_DPI', 300, 72, 600),
    },
    extractor,
    logLevel: (env.LOG_LEVEL ?? 'info').trim(),
    shutdownTimeoutMs: readInt(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, 0),
  };
}
