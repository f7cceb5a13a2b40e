/**
 * ONNX Runtime sessions for one worker thread: the detector, recogniser and
 * (optional) classifier loaded from their files, with the recogniser's
 * classes checked against the dictionary. Only worker threads import this:
 * onnxruntime-node runs a model synchronously on the calling thread.
 */
import { readFile } from 'node:fs/promises';
import ort from 'onnxruntime-node';
import type { BestClassOutputs } from './best-class-outputs.js';
import { alphabetFor, columnClasses, type Alphabet } from './ctc.js';
import { ModelFileError, readDictionary, ROLE_NAMES, type ModelRole, type PaddleModelFiles } from './model-files.js';
import { simplifyModel } from './simplify-model.js';
import type { PaddleModels, RunModel, RunRecogniser } from './read-page.js';

export interface LoadedModels {
  models: PaddleModels;
  release(): Promise<void>;
}

const DEFAULT_CLASSIFIER_SIZE = { height: 48, width: 192 };

interface ModelBytes {
  bytes: Uint8Array;
  /** The per-column outputs added to a recogniser, when they could be. */
  bestClass?: BestClassOutputs;
}

/**
 * The model file, with the rewrites of simplify-model.ts (the bundled
 * recogniser then takes ~30% less CPU, the detector ~15%); bytes that are no
 * ONNX model go to ONNX Runtime as they are, whose error names the problem.
 */
async function modelBytes(role: ModelRole, path: string): Promise<ModelBytes> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new ModelFileError(`PP-OCR ${ROLE_NAMES[role]} file ${path} cannot be read: ${(error as Error).message}`);
  }
  try {
    const simplified = simplifyModel(bytes, { recogniser: role === 'recogniser' || role === 'quickRecogniser' });
    return { bytes: simplified.model, ...(simplified.bestClass ? { bestClass: simplified.bestClass } : {}) };
  } catch {
    return { bytes };
  }
}

async function openSession(role: ModelRole, path: string, threads: number): Promise<{ session: ort.InferenceSession; bestClass?: BestClassOutputs }> {
  const { bytes, bestClass } = await modelBytes(role, path);
  try {
    const session = await ort.InferenceSession.create(bytes, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      // ONNX Runtime's own arena rather than a malloc per tensor: input sizes change with every page and
      // line batch, and glibc kept the fragments of the per-tensor buffers. The arena keeps what the largest
      // run needed (the detector's page at its pixel budget, a recogniser batch at MAX_BATCH_COLUMNS) and
      // reuses it: the worker's peak over 20 photos fell from ~410 to ~370 MB, and 5-7% less CPU. A memory
      // pattern is planned per input shape, which never repeats here: off.
      enableCpuMemArena: true,
      enableMemPattern: false,
      // Threads that spin between operators took CPU from the other workers and from other processes: 1.7x wall time under load.
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    });
    return { session, ...(bestClass ? { bestClass } : {}) };
  } catch (error) {
    throw new ModelFileError(`PP-OCR ${ROLE_NAMES[role]} file ${path} cannot be loaded as an ONNX model: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** Runs the session's first output only (a recogniser's added outputs are not computed). */
function runner(session: ort.InferenceSession): RunModel {
  const inputName = session.inputNames[0] as string;
  const outputName = session.outputNames[0] as string;
  return async (input, dims) => {
    const feeds = { [inputName]: new ort.Tensor('float32', input, dims) };
    const output = (await session.run(feeds, [outputName]))[outputName] as ort.Tensor;
    const result = { data: output.data as Float32Array, dims: output.dims };
    output.dispose();
    return result;
  };
}

/** The recogniser's per-column classes: from the outputs added to its graph, or read out of its full output. */
function recogniserRunner(session: ort.InferenceSession, outputs: BestClassOutputs | undefined): RunRecogniser {
  if (!outputs) {
    const run = runner(session);
    return async (input, dims) => {
      const { data, dims: shape } = await run(input, dims);
      return columnClasses(data, shape[0] as number, shape[1] as number, shape[2] as number);
    };
  }
  const inputName = session.inputNames[0] as string;
  const names = [outputs.best, outputs.bestProbability, outputs.lastProbability];
  return async (input, dims) => {
    const result = await session.run({ [inputName]: new ort.Tensor('float32', input, dims) }, names);
    const [best, bestProbability, lastProbability] = names.map((name) => result[name] as ort.Tensor) as [ort.Tensor, ort.Tensor, ort.Tensor];
    return {
      items: best.dims[0] as number,
      columns: best.dims[1] as number,
      best: best.data as Int32Array,
      bestProbability: bestProbability.data as Float32Array,
      lastProbability: lastProbability.data as Float32Array,
    };
  };
}

/** A fixed dimension of the session's first input, or undefined when it is dynamic. */
function fixedInputDim(session: ort.InferenceSession, axis: number): number | undefined {
  const metadata = session.inputMetadata[0];
  if (!metadata || !metadata.isTensor) return undefined;
  const value = metadata.shape[axis];
  return typeof value === 'number' && value > 0 ? value : undefined;
}

interface LoadedRecogniser {
  recognise: RunRecogniser;
  alphabet: Alphabet;
  height: number;
}

/**
 * A recogniser's session, checked in one small run: its per-column outputs
 * cover every column, and its class count (exported models leave it
 * symbolic) matches its dictionary, else the error names both files.
 */
async function loadRecogniser(role: 'recogniser' | 'quickRecogniser', path: string, dictionaryPath: string, threads: number, sessions: ort.InferenceSession[]): Promise<LoadedRecogniser> {
  const dictionary = await readDictionary(dictionaryPath);
  const { session, bestClass } = await openSession(role, path, threads);
  sessions.push(session);
  const height = fixedInputDim(session, 2) ?? 48;
  const recognise = recogniserRunner(session, bestClass);
  let probe: { data: Float32Array; dims: readonly number[] };
  try {
    probe = await runner(session)(new Float32Array(3 * height * 320), [1, 3, height, 320]);
    // The per-column outputs (best-class-outputs.ts) run as well, one value per column of the full output.
    const compact = await recognise(new Float32Array(3 * height * 320), [1, 3, height, 320]);
    if (compact.best.length !== (probe.dims[0] ?? 0) * (probe.dims[1] ?? 0)) throw new Error(`the recogniser's per-column outputs hold ${compact.best.length} columns, its output ${probe.dims.join('x')}`);
  } catch (error) {
    throw new ModelFileError(`PP-OCR ${ROLE_NAMES[role]} ${path} does not run as a PP-OCR recogniser: ${(error as Error).message.split('\n')[0]}`);
  }
  const classes = probe.dims[2] ?? 0;
  const alphabet = alphabetFor(dictionary, classes);
  if (!alphabet) {
    throw new ModelFileError(
      `PP-OCR dictionary ${dictionaryPath} lists ${dictionary.length} characters, but the recogniser ${path} writes ${classes} classes (expected ${dictionary.length + 1} or ${dictionary.length + 2}): use the dictionary the recogniser was trained with`,
    );
  }
  return { recognise, alphabet, height };
}

/** Loads the models: detector, recogniser, the quick recogniser and the classifier when the set has them. */
export async function loadModels(files: PaddleModelFiles, threads: number): Promise<LoadedModels> {
  const sessions: ort.InferenceSession[] = [];
  const release = async () => {
    await Promise.all(sessions.map((session) => session.release().catch(() => undefined)));
  };
  try {
    const { session: detector } = await openSession('detector', files.detector, threads);
    sessions.push(detector);
    const recogniser = await loadRecogniser('recogniser', files.recogniser, files.dictionary, threads, sessions);
    const quick = files.quickRecogniser && files.quickDictionary ? await loadRecogniser('quickRecogniser', files.quickRecogniser, files.quickDictionary, threads, sessions) : undefined;
    if (quick && quick.height !== recogniser.height) throw new ModelFileError(`PP-OCR quick recogniser ${files.quickRecogniser} reads lines ${quick.height} px tall, the recogniser ${files.recogniser} ${recogniser.height} px: they cannot share line strips`);
    const classifier = files.classifier ? (await openSession('classifier', files.classifier, threads)).session : undefined;
    if (classifier) sessions.push(classifier);
    const classifierSize = classifier
      ? { height: fixedInputDim(classifier, 2) ?? DEFAULT_CLASSIFIER_SIZE.height, width: fixedInputDim(classifier, 3) ?? DEFAULT_CLASSIFIER_SIZE.width }
      : DEFAULT_CLASSIFIER_SIZE;
    try {
      await runner(detector)(new Float32Array(3 * 64 * 64), [1, 3, 64, 64]);
      if (classifier) {
        const { height, width } = classifierSize;
        await runner(classifier)(new Float32Array(3 * height * width), [1, 3, height, width]);
      }
    } catch (error) {
      throw new ModelFileError(`PP-OCR models in ${files.recogniser} / ${files.detector} do not run as a PP-OCR pipeline: ${(error as Error).message.split('\n')[0]}`);
    }
    return {
      models: {
        detect: runner(detector),
        detection: files.detection,
        recognise: recogniser.recognise,
        ...(quick ? { quickReader: { recognise: quick.recognise, alphabet: quick.alphabet } } : {}),
        classify: classifier ? runner(classifier) : undefined,
        alphabet: recogniser.alphabet,
        recogniserHeight: recogniser.height,
        classifierSize,
      },
      release,
    };
  } catch (error) {
    await release();
    throw error;
  }
}
