import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileRecord } from './batch.js';
import type { FileFailure } from './extractor.js';
import { UsageError } from './usage-error.js';

/**
 * --out DIR: for input <name> (its path below the inputs' common folder,
 * e.g. 2024/inv.pdf) the answer goes to DIR/<name>.json, exactly the body
 * POST /v1/ answers; a failure goes to DIR/<name>.error.json instead
 * ({file, error, details?, httpStatus?}). Writing one removes the other, so
 * after a rerun DIR shows each file's latest outcome. Files are written
 * whole (a temporary file renamed), so an interrupted run leaves no
 * half-written JSON.
 */
export class OutputFolder {
  private constructor(
    readonly root: string,
    private readonly compact: boolean,
  ) {}

  static async open(root: string, compact: boolean): Promise<OutputFolder> {
    try {
      await mkdir(root, { recursive: true });
    } catch (error) {
      throw new UsageError(`--out ${root}: cannot create the folder (${(error as Error).message})`);
    }
    return new OutputFolder(root, compact);
  }

  /** Writes the record's file; returns the record with `output` set, or turned into a failure if it cannot be written. */
  async write(record: FileRecord): Promise<{ record: FileRecord; output?: string }> {
    const base = join(this.root, record.input.outputName);
    const [path, stale] = record.status === 'ok' ? [`${base}.json`, `${base}.error.json`] : [`${base}.error.json`, `${base}.json`];
    const content = record.status === 'ok' ? record.answer.result : { file: record.input.path, ...record.failure };
    try {
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(content, null, this.compact ? undefined : 2)}\n`);
      await rename(temporary, path);
      await rm(stale, { force: true });
      return { record, output: path };
    } catch (error) {
      const failure: FileFailure = { error: `cannot write ${path}: ${(error as Error).message}` };
      return { record: { input: record.input, ms: record.ms, status: 'error', failure } };
    }
  }
}

/** --jsonl: one line per input, {file, status: "ok", result} or {file, status: "error", error, details?, httpStatus?}, and `output` with --out. */
export function jsonlLine(record: FileRecord, output: string | undefined): string {
  const where = output === undefined ? {} : { output };
  const line =
    record.status === 'ok'
      ? { file: record.input.path, status: 'ok', result: record.answer.result, ...where }
      : { file: record.input.path, status: 'error', ...record.failure, ...where };
  return `${JSON.stringify(line)}\n`;
}
