/**
 * A recogniser's final classifier layer (hidden -> one score per class,
 * then Softmax) with int8 weights. With a large alphabet that one MatMul is
 * a big share of the recogniser's work (PP-OCRv6 small: 120 x 18,710, ~13 %
 * of its time); ONNX Runtime's DynamicQuantizeMatMul (com.microsoft) runs it
 * on int8 weights, quantized here once per output column, and 8-bit
 * activations it quantizes per batch at run time. The scores move by a
 * fraction of a percent of their range, which leaves the best class of
 * nearly every column and its probability as they were (test:
 * paddle-int8-classifier.test.ts; eval numbers in the README).
 */
import type { OnnxGraph, OnnxNode } from './onnx-graph.js';

export interface QuantizeClassifierOptions {
  /** Only a classifier writing at least this many classes is rewritten: below it the int8 form was measured no faster. */
  minClasses: number;
  /**
   * Largest weight magnitude after quantization. Without VNNI, x86's u8 x s8
   * multiply-add (vpmaddubsw) saturates when two products pass 32,767, that is
   * with weights beyond +-64 against activations near 255: weights at 7 bits
   * keep every CPU exact. ORT's quantize_dynamic calls this reduce_range.
   */
  maxWeight: number;
}

export const DEFAULT_QUANTIZE_CLASSIFIER: QuantizeClassifierOptions = { minClasses: 10_000, maxWeight: 63 };

export interface QuantizedClassifier {
  hidden: number;
  classes: number;
}

/** The standard node producing `value`, looking through Identity nodes. */
function producerOf(graph: OnnxGraph, value: string): OnnxNode | undefined {
  let name = value;
  for (;;) {
    const node = graph.nodes.find((candidate) => candidate.outputs.includes(name));
    if (!node || node.domain !== '') return undefined;
    if (node.opType !== 'Identity') return node;
    name = node.inputs[0] as string;
  }
}

/** How many node inputs and graph outputs read `value`. */
function readers(graph: OnnxGraph, value: string): number {
  return graph.nodes.reduce((count, node) => count + node.inputs.filter((input) => input === value).length, 0) + (graph.outputs.has(value) ? 1 : 0);
}

/**
 * Rewrites the classifier of a recogniser whose one output is
 * Softmax(MatMul(x, W) + b), W a constant [hidden, classes], into
 * Softmax(DynamicQuantizeMatMul(x, int8 W, per-column scales, b)); returns
 * its size, or undefined when the graph has no such layer, writes fewer
 * classes than `minClasses`, or already imports com.microsoft at another
 * version.
 */
export function quantizeClassifier(graph: OnnxGraph, options: QuantizeClassifierOptions = DEFAULT_QUANTIZE_CLASSIFIER): QuantizedClassifier | undefined {
  if (graph.outputs.size < 1) return undefined;
  const softmax = producerOf(graph, [...graph.outputs][0] as string);
  if (!softmax || softmax.opType !== 'Softmax') return undefined;
  const add = producerOf(graph, softmax.inputs[0] as string);
  if (!add || add.opType !== 'Add' || add.inputs.length !== 2) return undefined;
  const matMul = add.inputs.map((input) => ({ input, node: producerOf(graph, input) })).find(({ node }) => node?.opType === 'MatMul');
  if (!matMul || !matMul.node || matMul.node.outputs[0] !== matMul.input || readers(graph, matMul.input) !== 1) return undefined;
  const bias = graph.floatConstant(add.inputs.find((input) => input !== matMul.input) as string);
  const weights = graph.floatConstant(matMul.node.inputs[1] as string);
  if (!weights || !bias || weights.dims.length !== 2) return undefined;
  const [hidden, classes] = weights.dims as [number, number];
  if (classes < options.minClasses || bias.dims.length !== 1 || bias.dims[0] !== classes) return undefined;
  if (!graph.importDomain('com.microsoft', 1)) return undefined;

  // Symmetric per column (zero point 0): scale = largest |w| of the column / maxWeight.
  const scales = new Float32Array(classes);
  for (let row = 0; row < hidden; row++) {
    const offset = row * classes;
    for (let column = 0; column < classes; column++) scales[column] = Math.max(scales[column] as number, Math.abs(weights.data[offset + column] as number));
  }
  for (let column = 0; column < classes; column++) scales[column] = (scales[column] as number) > 0 ? (scales[column] as number) / options.maxWeight : 1;
  const quantized = new Int8Array(hidden * classes);
  for (let i = 0; i < quantized.length; i++) quantized[i] = Math.round((weights.data[i] as number) / (scales[i % classes] as number));

  const base = matMul.node.name || matMul.input;
  const node = matMul.node;
  node.opType = 'DynamicQuantizeMatMul';
  node.domain = 'com.microsoft';
  node.inputs = [
    node.inputs[0] as string,
    graph.addInt8Initializer(`${base}_int8_w`, [hidden, classes], quantized),
    graph.addInitializer(`${base}_int8_scale`, { dims: [classes], data: scales }),
    '',
    add.inputs.find((input) => input !== matMul.input) as string,
  ];
  node.outputs = [add.outputs[0] as string];
  node.attributes = [];
  graph.nodes.splice(graph.nodes.indexOf(add), 1);
  graph.dropUnused();
  return { hidden, classes };
}
