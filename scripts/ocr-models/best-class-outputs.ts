/**
 * Per-column summaries of a recogniser's output, computed inside the model.
 * Greedy CTC decoding needs, per output column, only the most likely class,
 * its probability and the space's probability (the last class); the full
 * output is a probability for each of the ~6,600 classes (16 MB for one
 * batch of 2,400 columns), which ONNX Runtime copies into JavaScript where
 * the argmax then read every value. Three small outputs computed by the
 * model (ArgMax, ReduceMax, Gather) cost a fraction of that. The original
 * output stays an output, for the class count read at start.
 */
import { BEST_CLASS_OUTPUTS, type BestClassOutputs } from '../../src/ingest/ocr/paddle/model-outputs.js';
import { intAttribute, intsAttribute, OnnxGraph } from './onnx-graph.js';

export type { BestClassOutputs };

/** ReduceMax takes its axes as an input from opset 18 on; the attribute form is written here. */
const MAX_OPSET = 17;

/**
 * The recogniser with the outputs of BestClassOutputs added after its one
 * output (items x columns x classes), or undefined when its graph is not
 * one this can extend (several outputs, an opset it does not know).
 */
export function addBestClassOutputs(graph: OnnxGraph): BestClassOutputs | undefined {
  const opset = graph.opsetVersion();
  if (graph.outputs.size !== 1 || opset < 1 || opset > MAX_OPSET) return undefined;
  const probabilities = [...graph.outputs][0] as string;
  if (!graph.nodes.some((node) => node.outputs.includes(probabilities))) return undefined;
  const argMax = graph.freshName('docshape_best_class_int64');
  // under the names the service looks for (model-outputs.ts): a model that has them already is not extended again
  if (Object.values(BEST_CLASS_OUTPUTS).some((name) => graph.freshName(name) !== name)) return undefined;
  const names = BEST_CLASS_OUTPUTS;
  const last = graph.addInt64Scalar('docshape_last_class', -1);
  const node = (opType: string, inputs: string[], output: string, attributes: Uint8Array[]) =>
    graph.nodes.push({ opType, domain: '', name: output, inputs, outputs: [output], attributes, other: [] });
  node('ArgMax', [probabilities], argMax, [intAttribute('axis', 2), intAttribute('keepdims', 0)]);
  node('Cast', [argMax], names.best, [intAttribute('to', 6)]);
  node('ReduceMax', [probabilities], names.bestProbability, [intsAttribute('axes', [2]), intAttribute('keepdims', 0)]);
  node('Gather', [probabilities, last], names.lastProbability, [intAttribute('axis', 2)]);
  graph.addOutput(names.best, 'int32');
  graph.addOutput(names.bestProbability, 'float32');
  graph.addOutput(names.lastProbability, 'float32');
  return names;
}
