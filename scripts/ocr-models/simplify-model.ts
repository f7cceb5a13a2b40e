/**
 * Rewrites that give a PP-OCR model the same outputs for less work. Models
 * exported by paddle2onnx (PP-OCRv3/v4/v5 det, rec and cls among them) spell
 * hard-swish as four element-wise operators and follow each convolution with
 * a learnable scale and bias (two more); ONNX Runtime fuses neither, and those
 * passes over the feature maps took ~40% of the recogniser's time. Here:
 *
 * - Conv followed by Mul / Div / Add / Sub with a one-element constant: the
 *   factor and offset are folded into the convolution's weights and bias.
 * - x * Clip(x + 3, 0, 6) / 6 (hard-swish): x * HardSigmoid(x) with alpha 1/6,
 *   beta 1/2, two operators where there were four.
 *
 * Both are exact up to float rounding. A model without these patterns comes
 * out as it went in.
 */
import { addBestClassOutputs, type BestClassOutputs } from './best-class-outputs.js';
import { DEFAULT_QUANTIZE_CLASSIFIER, quantizeClassifier, type QuantizeClassifierOptions, type QuantizedClassifier } from './int8-classifier.js';
import { floatAttribute, nodeFloatAttribute, OnnxGraph, type FloatTensor, type OnnxNode } from './onnx-graph.js';

export interface Simplified {
  model: Uint8Array;
  /** Element-wise operators folded into a convolution. */
  foldedIntoConv: number;
  /** Four-operator hard-swishes turned into HardSigmoid and Mul. */
  hardSwishes: number;
  /** Names of the per-column outputs added to a recogniser (when asked for and its graph allows). */
  bestClass?: BestClassOutputs;
  /** The recogniser's classifier layer, when it was rewritten to int8 weights (int8-classifier.ts). */
  int8Classifier?: QuantizedClassifier;
}

/** Nodes reading each value. */
function consumersOf(nodes: OnnxNode[]): Map<string, OnnxNode[]> {
  const consumers = new Map<string, OnnxNode[]>();
  for (const node of nodes) {
    for (const input of node.inputs) {
      const list = consumers.get(input);
      if (list) list.push(node);
      else consumers.set(input, [node]);
    }
  }
  return consumers;
}

interface ScalarStep {
  op: 'Mul' | 'Div' | 'Add' | 'Sub';
  value: number;
  /** The non-constant input. */
  input: string;
}

/** A standard Mul/Div/Add/Sub of a value with a one-element float constant (the constant second for Div and Sub). */
function scalarStep(graph: OnnxGraph, node: OnnxNode): ScalarStep | undefined {
  if (node.domain !== '' || node.inputs.length !== 2 || node.outputs.length !== 1) return undefined;
  const op = node.opType;
  if (op !== 'Mul' && op !== 'Div' && op !== 'Add' && op !== 'Sub') return undefined;
  const [a, b] = node.inputs as [string, string];
  const second = graph.scalar(b);
  if (second !== undefined) return { op, value: second, input: a };
  const first = graph.scalar(a);
  if (first !== undefined && (op === 'Mul' || op === 'Add')) return { op, value: first, input: b };
  return undefined;
}

class Rewriter {
  private consumers: Map<string, OnnxNode[]>;
  private readonly removed = new Set<OnnxNode>();

  constructor(private readonly graph: OnnxGraph) {
    this.consumers = consumersOf(graph.nodes);
  }

  /** The one node reading `value`, when exactly one does and it is no graph output. */
  private soleConsumer(value: string): OnnxNode | undefined {
    const readers = this.consumers.get(value);
    return readers?.length === 1 && !this.graph.outputs.has(value) ? readers[0] : undefined;
  }

  private commit(): void {
    const kept = this.graph.nodes.filter((node) => !this.removed.has(node));
    this.graph.nodes.splice(0, this.graph.nodes.length, ...kept);
    this.removed.clear();
    this.consumers = consumersOf(this.graph.nodes);
  }

  foldScalarsIntoConvs(): number {
    let folded = 0;
    for (const conv of this.graph.nodes) {
      if (conv.opType !== 'Conv' || conv.domain !== '' || conv.outputs.length !== 1 || conv.inputs.length < 2) continue;
      const chain: { node: OnnxNode; step: ScalarStep }[] = [];
      let value = conv.outputs[0] as string;
      for (let next = this.soleConsumer(value); next; next = this.soleConsumer(value)) {
        const step = scalarStep(this.graph, next);
        if (!step || step.input !== value) break;
        chain.push({ node: next, step });
        value = next.outputs[0] as string;
      }
      if (chain.length === 0) continue;
      const weights = this.graph.floatConstant(conv.inputs[1] as string);
      const biasName = conv.inputs[2];
      const bias: FloatTensor | undefined = biasName ? this.graph.floatConstant(biasName) : weights && { dims: [weights.dims[0] ?? 0], data: new Float32Array(weights.dims[0] ?? 0) };
      if (!weights || !bias || bias.data.length !== weights.dims[0]) continue;
      let scale = 1;
      const shift = Float64Array.from(bias.data);
      for (const { step } of chain) {
        // y = scale * (W x) + shift, carried through each step
        if (step.op === 'Mul' || step.op === 'Div') {
          const factor = step.op === 'Mul' ? step.value : 1 / step.value;
          scale *= factor;
          for (let i = 0; i < shift.length; i++) shift[i] = (shift[i] as number) * factor;
        } else {
          const offset = step.op === 'Add' ? step.value : -step.value;
          for (let i = 0; i < shift.length; i++) shift[i] = (shift[i] as number) + offset;
        }
      }
      const base = conv.name || (conv.outputs[0] as string);
      const newWeights = this.graph.addInitializer(`${base}_folded_w`, { dims: weights.dims, data: weights.data.map((w) => w * scale) });
      const newBias = this.graph.addInitializer(`${base}_folded_b`, { dims: bias.dims, data: Float32Array.from(shift) });
      conv.inputs = [conv.inputs[0] as string, newWeights, newBias];
      conv.outputs = [value];
      for (const { node } of chain) this.removed.add(node);
      folded += chain.length;
    }
    this.commit();
    return folded;
  }

  private clipBounds(clip: OnnxNode): [number | undefined, number | undefined] {
    // Opset < 11 gives the bounds as attributes, later opsets as inputs.
    if (clip.inputs.length >= 3) return [this.graph.scalar(clip.inputs[1] as string), this.graph.scalar(clip.inputs[2] as string)];
    return [nodeFloatAttribute(clip, 'min'), nodeFloatAttribute(clip, 'max')];
  }

  /** The Add(x, 3) -> Clip(0, 6) -> Mul(x, .) -> Div(6) chain starting at `add`, if it is one. */
  private hardSwishAt(add: OnnxNode): { x: string; clip: OnnxNode; multiply: OnnxNode; divide: OnnxNode } | undefined {
    const step = scalarStep(this.graph, add);
    if (!step || step.op !== 'Add' || step.value !== 3) return undefined;
    const x = step.input;
    const clip = this.soleConsumer(add.outputs[0] as string);
    if (!clip || clip.opType !== 'Clip' || clip.domain !== '' || clip.inputs[0] !== add.outputs[0]) return undefined;
    const [min, max] = this.clipBounds(clip);
    if (min !== 0 || max !== 6) return undefined;
    const multiply = this.soleConsumer(clip.outputs[0] as string);
    if (!multiply || multiply.opType !== 'Mul' || multiply.domain !== '' || !multiply.inputs.includes(x) || !multiply.inputs.includes(clip.outputs[0] as string)) return undefined;
    const divide = this.soleConsumer(multiply.outputs[0] as string);
    const last = divide && scalarStep(this.graph, divide);
    const sixth = last && ((last.op === 'Div' && last.value === 6) || (last.op === 'Mul' && Math.abs(last.value - 1 / 6) < 1e-6));
    if (!divide || !last || !sixth || last.input !== multiply.outputs[0]) return undefined;
    return { x, clip, multiply, divide };
  }

  hardSwishes(): number {
    let count = 0;
    for (const add of this.graph.nodes) {
      if (this.removed.has(add)) continue;
      const found = this.hardSwishAt(add);
      if (!found) continue;
      const { x, clip, multiply, divide } = found;
      // HardSigmoid takes the Add's place and Mul the Clip's, so the nodes stay in topological order.
      add.opType = 'HardSigmoid';
      add.inputs = [x];
      add.attributes = [floatAttribute('alpha', 1 / 6), floatAttribute('beta', 0.5)];
      const gate = add.outputs[0] as string;
      clip.opType = 'Mul';
      clip.inputs = [x, gate];
      clip.attributes = [];
      clip.outputs = [divide.outputs[0] as string];
      this.removed.add(multiply);
      this.removed.add(divide);
      count++;
    }
    this.commit();
    return count;
  }
}

/**
 * The model rewritten as described above, and for a recogniser
 * (`recogniser: true`) with the outputs of best-class-outputs.ts. Throws on
 * bytes that are no protobuf message; a model with subgraphs is returned
 * unchanged.
 */
export function simplifyModel(bytes: Uint8Array, options: { recogniser?: boolean; int8Classifier?: QuantizeClassifierOptions | false } = {}): Simplified {
  const graph = new OnnxGraph(bytes);
  if (graph.hasSubgraphs) return { model: bytes, foldedIntoConv: 0, hardSwishes: 0 };
  const rewriter = new Rewriter(graph);
  const foldedIntoConv = rewriter.foldScalarsIntoConvs();
  const hardSwishes = rewriter.hardSwishes();
  if (foldedIntoConv > 0 || hardSwishes > 0) graph.dropUnused();
  const int8 = options.recogniser && options.int8Classifier !== false ? quantizeClassifier(graph, options.int8Classifier ?? DEFAULT_QUANTIZE_CLASSIFIER) : undefined;
  const bestClass = options.recogniser ? addBestClassOutputs(graph) : undefined;
  if (foldedIntoConv === 0 && hardSwishes === 0 && !bestClass && !int8) return { model: bytes, foldedIntoConv, hardSwishes };
  return { model: graph.write(), foldedIntoConv, hardSwishes, ...(bestClass ? { bestClass } : {}), ...(int8 ? { int8Classifier: int8 } : {}) };
}
