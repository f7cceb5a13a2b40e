/**
 * On-disk cache of ingested Documents for `eval --reuse-ingest <dir>`.
 *
 * OCR is most of an eval run's time and does not change while one works on
 * an engine, so the Document a request ingests to is stored under
 *   <dir>/<sha256 of the request's files>-<fingerprint of the ingest setup>.json
 * The fingerprint covers the source of the modules that shape the Document
 * (src/ingest: decode, preprocessing, OCR, line grouping, but not layout.ts,
 * which runs on every path; and the page model in src/document) and the
 * OCR/PDF/limits configuration. Any edit to those modules or settings
 * therefore misses the cache instead of serving a stale Document;
 * `--refresh` rebuilds entries regardless.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Document } from '../../src/document/document.js';
import type { ExtractionRequest } from '../../src/pipeline.js';

/**
 * Ingest modules that do not change the Document: layout text is rendered afresh on every run, and the base64
 * decoding comes before the cache key (contentsKey hashes the decoded bytes; decoding only accepts or refuses).
 */
const NOT_SHAPING_THE_DOCUMENT = new Set(
  ['layout', 'decode', 'decode-off-thread', 'decode-worker', 'decode-protocol'].flatMap((name) => [`${name}.ts`, `${name}.js`]),
);

/** Bump when the stored format changes. */
const FORMAT_VERSION = 1;

/** Folders whose source shapes the Document: ingest itself and the page model it fills (src/document/). */
const SHAPING_FOLDERS = ['ingest', 'document'];

/** Source of src/ingest/ and src/document/, or the compiled dist/src/... when the sources are not shipped. */
async function ingestSources(): Promise<{ name: string; text: string }[]> {
  const here = dirname(fileURLToPath(import.meta.url)); // dist/scripts/eval
  const root = resolve(here, '../../..');
  for (const [base, ext] of [
    [join(root, 'src'), '.ts'],
    [resolve(here, '../../src'), '.js'],
  ] as const) {
    const sources: { name: string; text: string }[] = [];
    for (const folder of SHAPING_FOLDERS) {
      // Recursive: the OCR engines live in subfolders (ocr/paddle, ocr/tesseract).
      const names = await readdir(join(base, folder), { recursive: true }).catch(() => [] as string[]);
      const selected = names.filter((name) => name.endsWith(ext) && !NOT_SHAPING_THE_DOCUMENT.has(name)).sort();
      for (const name of selected) sources.push({ name: `${folder}/${name}`, text: await readFile(join(base, folder, name), 'utf8') });
    }
    if (sources.length > 0) return sources;
  }
  throw new Error('--reuse-ingest: cannot find the ingest sources to fingerprint');
}

/** Hash of everything that decides what ingestion produces for given bytes. */
export async function ingestFingerprint(settings: unknown): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`v${FORMAT_VERSION}\n${JSON.stringify(settings)}\n`);
  for (const source of await ingestSources()) hash.update(`${source.name}\n${source.text}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** Hash of the request's files in order, with their declared types (a type decides the decoder). */
export function contentsKey(request: ExtractionRequest): string {
  const hash = createHash('sha256');
  for (const item of request.contents) hash.update(`${item.mimeType}\n`).update(item.data instanceof Uint8Array ? item.data : Buffer.from(typeof item.data === 'string' ? item.data : item.data.text(), 'base64'));
  return hash.digest('hex');
}

export class IngestCache {
  hits = 0;
  misses = 0;

  constructor(
    readonly dir: string,
    readonly fingerprint: string,
    private readonly refresh: boolean,
  ) {}

  private path(key: string): string {
    return join(this.dir, `${key}-${this.fingerprint}.json`);
  }

  /** The stored Document, or undefined on a miss (or always under --refresh). */
  async get(key: string): Promise<Document | undefined> {
    if (this.refresh) return undefined;
    try {
      return JSON.parse(await readFile(this.path(key), 'utf8')) as Document;
    } catch {
      return undefined;
    }
  }

  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  /** Written via a temporary file, so an interrupted run never leaves half a Document behind. */
  async put(key: string, document: Document): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const target = this.path(key);
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(document));
    await rename(temporary, target);
  }
}
