import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { MIME_TYPES_BY_EXTENSION, type ContentItem, type SupportedMimeType } from '../ingest/decode.js';
import { UsageError } from './usage-error.js';

/** The file types the service reads, by file name extension (ingest/formats/registry.ts; the bytes are checked again when decoded). */
const MIME_BY_EXTENSION: Record<string, SupportedMimeType> = MIME_TYPES_BY_EXTENSION;

const EXTENSIONS = Object.keys(MIME_BY_EXTENSION).join(', ');

/** One document named on the command line (or found in a folder named there). */
export interface InputFile {
  /** The path as the user wrote it (joined to its folder when found by walking one): how outputs and messages name it. */
  path: string;
  /** Undefined when the extension is not one the service reads: the file fails on its own, the others still run. */
  mimeType: SupportedMimeType | undefined;
  /** Where its results go inside --out, without extension: the path below the deepest folder holding every input. */
  outputName: string;
}

function mimeTypeOf(path: string): SupportedMimeType | undefined {
  return MIME_BY_EXTENSION[extname(path).toLowerCase()];
}

/** Every file of a supported type below `dir`, sorted, so a run over a folder is repeatable. */
async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await walk(path)));
    else if (entry.isFile() && mimeTypeOf(entry.name)) found.push(path);
  }
  return found;
}

/** The deepest folder containing every path (absolute paths). */
function commonFolder(paths: string[]): string {
  const split = paths.map((path) => dirname(path).split(sep));
  const first = split[0] ?? [];
  let depth = first.length;
  for (const parts of split) {
    let same = 0;
    while (same < depth && parts[same] === first[same]) same++;
    depth = same;
  }
  return first.slice(0, depth).join(sep) || sep;
}

/**
 * The files of a run: paths as given, folders walked for supported files,
 * a file named twice (overlapping globs) run once. A path that does not exist
 * is a usage error before any work starts (a glob that matched nothing
 * reaches us as its own text). Output names keep the folders below the
 * deepest folder common to all inputs, so docs/2023/inv.pdf and
 * docs/2024/inv.pdf become 2023/inv.pdf and 2024/inv.pdf and never collide.
 */
export async function collectInputs(paths: string[]): Promise<InputFile[]> {
  const found: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new UsageError(`${path}: no such file or folder`);
    if (info.isDirectory()) {
      const inside = await walk(path);
      if (inside.length === 0) throw new UsageError(`${path}: no ${EXTENSIONS} files in this folder`);
      found.push(...inside);
    } else {
      found.push(path);
    }
  }
  const byAbsolute = new Map<string, string>();
  for (const path of found) if (!byAbsolute.has(resolve(path))) byAbsolute.set(resolve(path), path);
  const root = commonFolder([...byAbsolute.keys()]);
  return [...byAbsolute].map(([absolute, path]) => ({ path, mimeType: mimeTypeOf(path), outputName: relative(root, absolute) }));
}

/**
 * The file as one entry of the request's `contents`, read now (a batch reads
 * each file only when its turn comes): its bytes as they are, which the
 * pipeline takes without base64 and --url sends as a multipart file part.
 */
export async function readContent(input: InputFile): Promise<ContentItem> {
  if (!input.mimeType) throw new Error(`unsupported file type ${JSON.stringify(extname(input.path))}: use ${EXTENSIONS}`);
  return { filename: basename(input.path), mimeType: input.mimeType, data: await readFile(input.path) };
}
