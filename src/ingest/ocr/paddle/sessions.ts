/**
 * ONNX Runtime sessions for one worker thread: the detector, recogniser and
 * (optional) classifier loaded from their files as they are, with the
 * recogniser's classes checked against the dictionary. The models docshape
 * ships were rewritten once, ahead of time (scripts/ocr-models.ts: the same
 * outputs for less work, per-column outputs, two recognisers in one model);
 * a model without those rewrites runs too. Only worker threads import this:
 * onnxruntime-node runs a model synchronously on the calling thread.
 */
import { readFile } from 'node:fs/promises';
import ort from 'onnxruntime-node';
import { alphabetFor, columnClasses, type Alphabet } from './ctc.js';
import { ModelFileError, readDictionary, ROLE_NAMES, type ModelRole, type PaddleModelFiles } from './model-files.js';
import { BEST_CLASS_OUTPUTS, JOINT_PREFIXES, type BestClassOutputs } from './model-outputs.js';
import type { PaddleModels, RunModel, RunRecogniser } from './read-page.js';

export interface LoadedModels {
  models: PaddleModels;
  /** Whether the recogniser and the quick one run as one session (loadJointRecognisers). */
  recognisersJoined: boolean;
  release(): Promise<void>;
}

const DEFAULT_CLASSIFIER_SIZE = { height: 48, width: 192 };

async function modelBytes(role: ModelRole, path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new ModelFileError(`PP-OCR ${ROLE_NAMES[role]} file ${path} cannot be read: ${(error as Error).message}`);
  }
}

/** The per-column outputs (model-outputs.ts) of the part named by `prefix`, when the model has them. */
function bestClassOutputs(session: ort.InferenceSession, prefix = ''): BestClassOutputs | undefined {
  const named = { best: prefix + BEST_CLASS_OUTPUTS.best, bestProbability: prefix + BEST_CLASS_OUTPUTS.bestProbability, lastProbability: prefix + BEST_CLASS_OUTPUTS.lastProbability };
  return Object.values(named).every((name) => session.outputNames.includes(name)) ? named : undefined;
}

function sessionOptions(threads: number): ort.InferenceSession.SessionOptions {
  return {
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
  };
}

/** One model's input and outputs, in a session of its own or in a joint one (join-models.ts). */
interface ModelHandle {
  session: ort.InferenceSession;
  input: string;
  /** The model's main output. */
  output: string;
  /** The recogniser's per-column outputs, when they could be added. */
  bestClass?: BestClassOutputs;
  /** Every other input of a joint session, with a minimal tensor: a run computes every part of it. */
  idle: Record<string, ort.Tensor>;
}

async function openSession(role: ModelRole, path: string, threads: number): Promise<ModelHandle> {
  const bytes = await modelBytes(role, path);
  try {
    const session = await ort.InferenceSession.create(bytes, sessionOptions(threads));
    const bestClass = bestClassOutputs(session);
    return { session, input: session.inputNames[0] as string, output: session.outputNames[0] as string, ...(bestClass ? { bestClass } : {}), idle: {} };
  } catch (error) {
    throw new ModelFileError(`PP-OCR ${ROLE_NAMES[role]} file ${path} cannot be loaded as an ONNX model: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** Runs the model's main output only. */
function runner(model: ModelHandle): RunModel {
  return async (input, dims) => {
    const feeds = { ...model.idle, [model.input]: new ort.Tensor('float32', input, dims) };
    const output = (await model.session.run(feeds, [model.output]))[model.output] as ort.Tensor;
    const result = { data: output.data as Float32Array, dims: output.dims };
    output.dispose();
    return result;
  };
}

/** The recogniser's per-column classes: from the outputs added to its graph, or read out of its full output. */
function recogniserRunner(model: ModelHandle): RunRecogniser {
  const outputs = model.bestClass;
  if (!outputs) {
    const run = runner(model);
    return async (input, dims) => {
      const { data, dims: shape } = await run(input, dims);
      return columnClasses(data, shape[0] as number, shape[1] as number, shape[2] as number);
    };
  }
  const names = [outputs.best, outputs.bestProbability, outputs.lastProbability];
  return async (input, dims) => {
    const result = await model.session.run({ ...model.idle, [model.input]: new ort.Tensor('float32', input, dims) }, names);
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

/** A fixed dimension of one of the session's inputs, or undefined when it is dynamic. */
function fixedInputDim(session: ort.InferenceSession, axis: number, input = session.inputNames[0]): number | undefined {
  const metadata = session.inputMetadata[session.inputNames.indexOf(input as string)];
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
 * A recogniser, checked in one small run: its per-column outputs cover
 * every column, and its class count (exported models leave it symbolic)
 * matches its dictionary, else the error names both files.
 */
async function checkRecogniser(role: 'recogniser' | 'quickRecogniser', model: ModelHandle, path: string, dictionaryPath: string): Promise<LoadedRecogniser> {
  const dictionary = await readDictionary(dictionaryPath);
  const height = fixedInputDim(model.session, 2, model.input) ?? 48;
  const recognise = recogniserRunner(model);
  let probe: { data: Float32Array; dims: readonly number[] };
  try {
    probe = await runner(model)(new Float32Array(3 * height * 320), [1, 3, height, 320]);
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

async function loadRecogniser(role: 'recogniser' | 'quickRecogniser', path: string, dictionaryPath: string, threads: number, sessions: ort.InferenceSession[]): Promise<LoadedRecogniser> {
  const model = await openSession(role, path, threads);
  sessions.push(model.session);
  return checkRecogniser(role, model, path, dictionaryPath);
}

/** What the idle part of a joint session is fed: a line this many pixels wide, the fewest its layers take. */
const IDLE_LINE_WIDTH = 8;

/**
 * The recogniser and the quick one in one session (their joint model,
 * scripts/ocr-models/join-models.ts), so that one ONNX Runtime arena serves
 * both: they never run at once, and as two sessions each kept an arena
 * sized by its own largest batch (the service's peak over 20 photos: see
 * docs/deployment.md, memory). Every name of each part starts with its prefix
 * (JOINT_PREFIXES); a run computes both parts, so the idle one is fed a
 * minimal strip.
 */
async function loadJointRecognisers(files: PaddleModelFiles & { jointRecognisers: string; quickDictionary: string }, threads: number, sessions: ort.InferenceSession[]): Promise<{ full: LoadedRecogniser; quick: LoadedRecogniser }> {
  const model = await openSession('jointRecognisers', files.jointRecognisers, threads);
  sessions.push(model.session);
  const { session } = model;
  const part = (prefix: string) => ({ input: session.inputNames.find((name) => name.startsWith(prefix)), output: session.outputNames.find((name) => name.startsWith(prefix)) });
  const full = part(JOINT_PREFIXES.full);
  const quick = part(JOINT_PREFIXES.quick);
  if (!full.input || !full.output || !quick.input || !quick.output) {
    throw new ModelFileError(`PP-OCR ${ROLE_NAMES.jointRecognisers} file ${files.jointRecognisers} has no parts named ${JOINT_PREFIXES.full}* and ${JOINT_PREFIXES.quick}*`);
  }
  const handle = (own: { input?: string; output?: string }, other: { input?: string }, prefix: string): ModelHandle => {
    const otherInput = other.input as string;
    const height = fixedInputDim(session, 2, otherInput) ?? 48;
    const idle = { [otherInput]: new ort.Tensor('float32', new Float32Array(3 * height * IDLE_LINE_WIDTH), [1, 3, height, IDLE_LINE_WIDTH]) };
    const bestClass = bestClassOutputs(session, prefix);
    return { session, input: own.input as string, output: own.output as string, ...(bestClass ? { bestClass } : {}), idle };
  };
  return {
    full: await checkRecogniser('recogniser', handle(full, quick, JOINT_PREFIXES.full), files.jointRecognisers, files.dictionary),
    quick: await checkRecogniser('quickRecogniser', handle(quick, full, JOINT_PREFIXES.quick), files.jointRecognisers, files.quickDictionary),
  };
}

/** Loads the models: detector, recogniser, the quick recogniser and the classifier when the set has them. */
export async function loadModels(files: PaddleModelFiles, threads: number): Promise<LoadedModels> {
  const sessions: ort.InferenceSession[] = [];
  const release = async () => {
    await Promise.all(sessions.map((session) => session.release().catch(() => undefined)));
  };
  try {
    const detector = await openSession('detector', files.detector, threads);
    sessions.push(detector.session);
    const { quickRecogniser, quickDictionary, jointRecognisers } = files;
    const joint = jointRecognisers && quickDictionary ? await loadJointRecognisers({ ...files, jointRecognisers, quickDictionary }, threads, sessions) : undefined;
    const recogniser = joint?.full ?? (await loadRecogniser('recogniser', files.recogniser, files.dictionary, threads, sessions));
    const quick = joint?.quick ?? (quickRecogniser && quickDictionary ? await loadRecogniser('quickRecogniser', quickRecogniser, quickDictionary, threads, sessions) : undefined);
    if (quick && quick.height !== recogniser.height) throw new ModelFileError(`PP-OCR quick recogniser ${files.quickRecogniser} reads lines ${quick.height} px tall, the recogniser ${files.recogniser} ${recogniser.height} px: they cannot share line strips`);
    const classifier = files.classifier ? await openSession('classifier', files.classifier, threads) : undefined;
    if (classifier) sessions.push(classifier.session);
    const classifierSize = classifier
      ? { height: fixedInputDim(classifier.session, 2) ?? DEFAULT_CLASSIFIER_SIZE.height, width: fixedInputDim(classifier.session, 3) ?? DEFAULT_CLASSIFIER_SIZE.width }
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
      recognisersJoined: joint !== undefined,
      release,
    };
  } catch (error) {
    await release();
    throw error;
  }
}
