/**
 * Where the PP-OCR model files are and whether they can be used: one of the
 * sets docshape ships (bundled-models.ts), or a folder the user names in
 * OCR_PADDLE_MODEL_DIR. Problems are found here, at start, with the file
 * named in the message.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DEFAULT_DETECT_OPTIONS, type DetectOptions } from './detect-boxes.js';

export type ModelRole = 'detector' | 'recogniser' | 'classifier' | 'dictionary' | 'quickRecogniser' | 'quickDictionary' | 'jointRecognisers';

/** A role as error messages name it. */
export const ROLE_NAMES: Record<ModelRole, string> = {
  detector: 'detector',
  recogniser: 'recogniser',
  classifier: 'classifier',
  dictionary: 'dictionary',
  quickRecogniser: 'quick recogniser',
  quickDictionary: "quick recogniser's dictionary",
  jointRecognisers: 'recognisers joined in one model',
};

export interface PaddleModelFiles {
  /** What the set is called in logs and /readyz: a bundled set's name, or the user's folder. */
  name: string;
  detector: string;
  recogniser: string;
  /** The 0/180 degree line classifier; without it upside-down lines are read only when the whole page is turned. */
  classifier: string | undefined;
  dictionary: string;
  /**
   * A smaller recogniser (and its dictionary) that reads every line first;
   * only the lines it is unsure of are read again by `recogniser`
   * (read-page.ts, recogniseLines). Absent: `recogniser` reads every line.
   */
  quickRecogniser?: string;
  quickDictionary?: string;
  /**
   * `recogniser` and `quickRecogniser` written as one model (the sets
   * docshape ships), loaded as one session instead of those two files.
   */
  jointRecognisers?: string;
  /** How the detector's probability map becomes line boxes: the settings its authors publish for it. */
  detection: DetectOptions;
  /** The bytes and sha256 a shipped file must have; files npm installed or the user brought have none. */
  expected?: Partial<Record<ModelRole, { bytes: number; sha256: string }>>;
}

export class ModelFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelFileError';
  }
}

const ROLES = [
  { key: 'detector', marker: 'det', extension: '.onnx', required: true },
  { key: 'recogniser', marker: 'rec', extension: '.onnx', required: true },
  { key: 'classifier', marker: 'cls', extension: '.onnx', required: false },
] as const;

/**
 * The model files in a user's folder, recognised by name as PaddleOCR and
 * RapidOCR name them: one `*det*.onnx`, one `*rec*.onnx`, optionally one
 * `*cls*.onnx`, and one dictionary `*.txt` (e.g. ppocr_keys_v1.txt,
 * latin_dict.txt).
 */
export async function modelFilesIn(folder: string): Promise<PaddleModelFiles> {
  const dir = resolve(folder);
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (error) {
    throw new ModelFileError(`OCR_PADDLE_MODEL_DIR "${dir}" cannot be read: ${(error as Error).message}`);
  }
  const found: Partial<Record<(typeof ROLES)[number]['key'], string>> = {};
  for (const role of ROLES) {
    const matches = names.filter((name) => name.toLowerCase().endsWith(role.extension) && name.toLowerCase().includes(role.marker));
    if (matches.length > 1) throw new ModelFileError(`OCR_PADDLE_MODEL_DIR "${dir}" has several ${role.key} models (${matches.join(', ')}); keep one *${role.marker}*${role.extension}`);
    if (matches.length === 0 && role.required) throw new ModelFileError(`OCR_PADDLE_MODEL_DIR "${dir}" has no ${role.key} model: expected a file named *${role.marker}*${role.extension}`);
    if (matches[0]) found[role.key] = join(dir, matches[0]);
  }
  const dictionaries = names.filter((name) => name.toLowerCase().endsWith('.txt'));
  if (dictionaries.length !== 1) {
    throw new ModelFileError(
      `OCR_PADDLE_MODEL_DIR "${dir}" must hold exactly one dictionary *.txt (one character per line, as the recogniser was trained with); found ${dictionaries.length === 0 ? 'none' : dictionaries.join(', ')}`,
    );
  }
  return {
    name: dir,
    detector: found.detector as string,
    recogniser: found.recogniser as string,
    classifier: found.classifier,
    dictionary: join(dir, dictionaries[0] as string),
    // PaddleOCR's settings for PP-OCRv4, what a folder of PP-OCR models has been read with so far.
    detection: DEFAULT_DETECT_OPTIONS,
  };
}

/** The file's sha256, hex; streamed, so the event loop hashes a chunk at a time while the service starts. */
export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Fails, naming the file, when a model file is missing, empty or not a file,
 * or a shipped file is not the one docshape ships (a clone that holds a Git
 * LFS pointer or a truncated file instead). Loading happens in the workers.
 */
export async function checkModelFiles(files: PaddleModelFiles): Promise<void> {
  // a joint model is read instead of the two recognisers' own files
  const recognisers: ModelRole[] = files.jointRecognisers ? ['jointRecognisers'] : ['recogniser', 'quickRecogniser'];
  const roles: ModelRole[] = ['detector', ...recognisers, 'classifier', 'dictionary', 'quickDictionary'];
  for (const role of roles) {
    const path = files[role];
    if (path === undefined) continue;
    const name = ROLE_NAMES[role];
    let size: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) throw new Error('not a regular file');
      size = info.size;
    } catch (error) {
      throw new ModelFileError(`PP-OCR ${name} file ${path} cannot be used: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message}`);
    }
    if (size === 0) throw new ModelFileError(`PP-OCR ${name} file ${path} is empty`);
    const expected = files.expected?.[role];
    if (!expected) continue;
    const mismatch = `PP-OCR ${name} file ${path} is not the file docshape ships for ${files.name}`;
    const restore = 'restore it from the repository (git checkout -- models/ocr) or see models/ocr/README.md';
    if (size !== expected.bytes) throw new ModelFileError(`${mismatch}: ${size} bytes, expected ${expected.bytes}; ${restore}`);
    const sha256 = await sha256Of(path);
    if (sha256 !== expected.sha256) throw new ModelFileError(`${mismatch}: sha256 ${sha256}, expected ${expected.sha256}; ${restore}`);
  }
}

/** The dictionary's characters, one per line, in class order (class 0 is the CTC blank and not listed). */
export async function readDictionary(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ModelFileError(`PP-OCR dictionary ${path} cannot be read: ${(error as Error).message}`);
  }
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw new ModelFileError(`PP-OCR dictionary ${path} lists no characters`);
  return lines;
}
