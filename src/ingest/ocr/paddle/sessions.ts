/**
 * ONNX Runtime sessions for one worker thread: the detector, recogniser and
 * (optional) classifier loaded from their files, with the recogniser's
 * classes checked against the dictionary. Only worker threads import this:
 * onnxruntime-node runs a model synchronously on the calling thread.
 */
import ort from 'onnxruntime-node';
import { alphabetFor } from './ctc.js';
import { ModelFileError, readDictionary, type PaddleModelFiles } from './model-files.js';
import type { PaddleModels, RunModel } from './read-page.js';

export interface LoadedModels {
  models: PaddleModels;
  release(): Promise<void>;
}

const DEFAULT_CLASSIFIER_SIZE = { height: 48, width: 192 };

async function openSession(role: string, path: string, threads: number): Promise<ort.InferenceSession> {
  try {
    return await ort.InferenceSession.create(path, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      // Input sizes change with every page and line batch; an arena would keep the largest ever needed.
      enableCpuMemArena: false,
      // One planned block per run instead of a buffer per tensor: the detector's working memory at
      // 0.7 MP fell from ~125 to ~45 MB (the allocator keeps the fragments of the latter).
      enableMemPattern: true,
      // Threads that spin between operators took CPU from the other workers and from other processes: 1.7x wall time under load.
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    });
  } catch (error) {
    throw new ModelFileError(`PP-OCR ${role} file ${path} cannot be loaded as an ONNX model: ${(error as Error).message.split('\n')[0]}`);
  }
}

function runner(session: ort.InferenceSession): RunModel {
  const inputName = session.inputNames[0] as string;
  const outputName = session.outputNames[0] as string;
  return async (input, dims) => {
    const feeds = { [inputName]: new ort.Tensor('float32', input, dims) };
    const output = (await session.run(feeds))[outputName] as ort.Tensor;
    const result = { data: output.data as Float32Array, dims: output.dims };
    output.dispose();
    return result;
  };
}

/** A fixed dimension of the session's first input, or undefined when it is dynamic. */
function fixedInputDim(session: ort.InferenceSession, axis: number): number | undefined {
  const metadata = session.inputMetadata[0];
  if (!metadata || !metadata.isTensor) return undefined;
  const value = metadata.shape[axis];
  return typeof value === 'number' && value > 0 ? value : undefined;
}

/**
 * Loads the three models. The recogniser's class count is read from one
 * tiny run, since exported models leave it symbolic; a dictionary that does
 * not match it (another model's dictionary) fails here, naming both files.
 */
export async function loadModels(files: PaddleModelFiles, threads: number): Promise<LoadedModels> {
  const dictionary = await readDictionary(files.dictionary);
  const sessions: ort.InferenceSession[] = [];
  const release = async () => {
    await Promise.all(sessions.map((session) => session.release().catch(() => undefined)));
  };
  try {
    const detector = await openSession('detector', files.detector, threads);
    sessions.push(detector);
    const recogniser = await openSession('recogniser', files.recogniser, threads);
    sessions.push(recogniser);
    const classifier = files.classifier ? await openSession('classifier', files.classifier, threads) : undefined;
    if (classifier) sessions.push(classifier);

    const recogniserHeight = fixedInputDim(recogniser, 2) ?? 48;
    const classifierSize = classifier
      ? { height: fixedInputDim(classifier, 2) ?? DEFAULT_CLASSIFIER_SIZE.height, width: fixedInputDim(classifier, 3) ?? DEFAULT_CLASSIFIER_SIZE.width }
      : DEFAULT_CLASSIFIER_SIZE;
    const recognise = runner(recogniser);
    let probe: { data: Float32Array; dims: readonly number[] };
    try {
      probe = await recognise(new Float32Array(3 * recogniserHeight * 320), [1, 3, recogniserHeight, 320]);
      await runner(detector)(new Float32Array(3 * 64 * 64), [1, 3, 64, 64]);
      if (classifier) {
        const { height, width } = classifierSize;
        await runner(classifier)(new Float32Array(3 * height * width), [1, 3, height, width]);
      }
    } catch (error) {
      throw new ModelFileError(`PP-OCR models in ${files.recogniser} / ${files.detector} do not run as a PP-OCR pipeline: ${(error as Error).message.split('\n')[0]}`);
    }
    const classes = probe.dims[2] ?? 0;
    const alphabet = alphabetFor(dictionary, classes);
    if (!alphabet) {
      throw new ModelFileError(
        `PP-OCR dictionary ${files.dictionary} lists ${dictionary.length} characters, but the recogniser ${files.recogniser} writes ${classes} classes (expected ${dictionary.length + 1} or ${dictionary.length + 2}): use the dictionary the recogniser was trained with`,
      );
    }
    return {
      models: {
        detect: runner(detector),
        recognise,
        classify: classifier ? runner(classifier) : undefined,
        alphabet,
        recogniserHeight,
        classifierSize,
      },
      release,
    };
  } catch (error) {
    await release();
    throw error;
  }
}
