/** What one corpus case is, and the helpers every family builds its requests with. */
import type { Random } from './random.js';

export interface FuzzCase {
  family: string;
  /** Short label of what was done, e.g. "truncate application/pdf at 812". */
  variant: string;
  method?: string;
  /** Default /v1/. */
  path?: string;
  /** Sent as is, after the defaults (content-type JSON and the API key); null removes a default. */
  headers?: Record<string, string | null>;
  body?: string | Buffer;
  /** The schema of a well-formed request: a 200 must validate against it with null allowed. */
  schema?: unknown;
  /** When set, the only statuses this case may get (on top of 503 when saturated). */
  allowed?: number[];
}

/** The real files the corpus mutates (built by seeds.ts). */
export interface SeedFile {
  name: string;
  mimeType: MimeType;
  bytes: Buffer;
}

export interface SeedFiles {
  all: SeedFile[];
  byType(mimeType: MimeType): SeedFile[];
  textPdf: Buffer;
  scannedPdf: Buffer;
  png: Buffer;
  encryptedPdf: Buffer;
}

export interface CaseContext {
  seeds: SeedFiles;
}

export interface Family {
  name: string;
  /** Share of the corpus, relative to the other families. */
  weight: number;
  generate(rng: Random, context: CaseContext): FuzzCase | Promise<FuzzCase>;
}

export type MimeType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif' | 'application/pdf';
export const MIME_TYPES: readonly MimeType[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf'];

export interface ContentEntry {
  filename?: unknown;
  mimeType?: unknown;
  data?: unknown;
  [key: string]: unknown;
}

export function entry(bytes: Buffer, mimeType: string, filename?: string): ContentEntry {
  return { ...(filename ? { filename } : {}), mimeType, data: bytes.toString('base64') };
}

export function requestBody(schema: unknown, contents: unknown): string {
  return JSON.stringify({ schema, contents });
}

/** A case for a well-formed request: schema and files as given. */
export function requestCase(family: string, variant: string, schema: unknown, contents: ContentEntry[], extra: Partial<FuzzCase> = {}): FuzzCase {
  return { family, variant, body: requestBody(schema, contents), schema, ...extra };
}

/** Distinctive strings planted in generated documents: they must never appear in logs or error messages. */
export const DOCUMENT_MARKERS = ['QZXDOC7731', 'Zephyrine Quaxworth', 'qzx-secret-4471@example.org', '7731-QZX-2209'] as const;
/** Planted in schemas: they may be named in a 400 (a property path) but never logged. */
export const SCHEMA_MARKER = 'QZXSCHEMA5517';

/** The lines of every generated document: labelled values the rules engine can read, markers among them. */
export const DOCUMENT_LINES = [
  `Invoice number: ${DOCUMENT_MARKERS[0]}`,
  `Customer: ${DOCUMENT_MARKERS[1]}`,
  `Email: ${DOCUMENT_MARKERS[2]}`,
  'Date: 2024-03-14',
  'Total: 42.50',
  `Reference: ${DOCUMENT_MARKERS[3]}`,
];

/** A schema whose labels match DOCUMENT_LINES, with the schema marker in a description. */
export function basicSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      invoice_number: { type: 'string', description: `Invoice number ${SCHEMA_MARKER}` },
      customer: { type: 'string', description: 'Customer name' },
      email: { type: 'string', format: 'email' },
      date: { type: 'string', format: 'date' },
      total: { type: 'number', description: 'Total amount' },
      reference: { type: 'string' },
      items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } },
    },
    required: ['invoice_number'],
  };
}

/** A random offset biased towards both ends of a file, where headers and trailers live. */
export function offsetIn(rng: Random, length: number): number {
  if (length <= 1) return 0;
  const roll = rng.next();
  if (roll < 0.35) return rng.int(0, Math.min(length - 1, 64));
  if (roll < 0.55) return rng.int(Math.max(0, length - 64), length - 1);
  return rng.int(0, length - 1);
}

const memoised = new Map<string, unknown>();

/** Large deterministic blobs (bombs, huge blank images) are built once per run. */
export function memo<T>(key: string, make: () => T): T {
  if (!memoised.has(key)) memoised.set(key, make());
  return memoised.get(key) as T;
}
