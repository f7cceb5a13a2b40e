/**
 * An ONNX model's main graph as nodes and constant tensors that can be
 * edited and written back. Only what the rewrites in simplify-model.ts need is
 * decoded (ONNX's onnx.proto field numbers: onnx-fields.ts); every other field
 * of the model, graph and nodes is written back as it was read.
 */
import {
  ATTRIBUTE_FLOAT,
  ATTRIBUTE_GRAPH,
  ATTRIBUTE_GRAPHS,
  ATTRIBUTE_NAME,
  ATTRIBUTE_TENSOR,
  DATA_LOCATION_EXTERNAL,
  DATA_TYPE_FLOAT,
  DATA_TYPE_INT32,
  DATA_TYPE_INT64,
  DATA_TYPE_INT8,
  GRAPH_INITIALIZER,
  GRAPH_INPUT,
  GRAPH_NODE,
  GRAPH_OUTPUT,
  MODEL_GRAPH,
  MODEL_OPSET_IMPORT,
  NODE_ATTRIBUTE,
  NODE_DOMAIN,
  NODE_INPUT,
  NODE_NAME,
  NODE_OP_TYPE,
  NODE_OUTPUT,
  OPSET_DOMAIN,
  OPSET_VERSION,
  TENSOR_DATA_LOCATION,
  TENSOR_DATA_TYPE,
  TENSOR_DIMS,
  TENSOR_FLOAT_DATA,
  TENSOR_NAME,
  TENSOR_RAW_DATA,
  TENSOR_TYPE_ELEM_TYPE,
  TYPE_TENSOR,
  VALUE_INFO_NAME,
  VALUE_INFO_TYPE,
  tensorName,
  valueInfoName,
} from './onnx-fields.js';
import { asString, floats, MessageWriter, readFields, varints, Wire, type Field } from './onnx-protobuf.js';

export interface OnnxNode {
  opType: string;
  /** '' for the standard operators. */
  domain: string;
  name: string;
  inputs: string[];
  outputs: string[];
  /** AttributeProto payloads, as read or built. */
  attributes: Uint8Array[];
  /** Fields not decoded here (doc_string, ...), written back as read. */
  other: Field[];
}

export interface FloatTensor {
  dims: number[];
  data: Float32Array;
}

export class OnnxGraph {
  readonly nodes: OnnxNode[];
  /** TensorProto payloads of the initializers, by name. */
  readonly initializers = new Map<string, Uint8Array>();
  readonly inputs = new Set<string>();
  readonly outputs = new Set<string>();
  /** Whether any node carries a subgraph (If, Loop, Scan), whose inner nodes may read outer values by name. */
  readonly hasSubgraphs: boolean;
  private readonly modelFields: Field[];
  private readonly graphFields: Field[];
  /** ValueInfoProto payloads of outputs added by a rewrite. */
  private readonly addedOutputs: Uint8Array[] = [];
  private readonly floatCache = new Map<string, FloatTensor | undefined>();
  /** Constant nodes by their output, as read (rewrites add none). */
  private readonly constantNodes = new Map<string, OnnxNode>();

  constructor(model: Uint8Array) {
    // A plain view: Buffer's own subarray is several times slower, and fields are read by the thousand.
    this.modelFields = readFields(new Uint8Array(model.buffer, model.byteOffset, model.byteLength));
    const graph = this.modelFields.find((field) => field.number === MODEL_GRAPH);
    if (!graph) throw new Error('the model has no graph');
    this.graphFields = readFields(graph.value as Uint8Array);
    this.nodes = [];
    for (const field of this.graphFields) {
      const payload = field.value as Uint8Array;
      if (field.number === GRAPH_NODE) this.nodes.push(readNode(payload));
      else if (field.number === GRAPH_INITIALIZER) this.initializers.set(tensorName(payload), payload);
      else if (field.number === GRAPH_INPUT) this.inputs.add(valueInfoName(payload));
      else if (field.number === GRAPH_OUTPUT) this.outputs.add(valueInfoName(payload));
    }
    for (const node of this.nodes) if (node.opType === 'Constant' && node.domain === '' && node.outputs.length === 1) this.constantNodes.set(node.outputs[0] as string, node);
    this.hasSubgraphs = this.nodes.some((node) =>
      node.attributes.some((attribute) => readFields(attribute).some((field) => field.number === ATTRIBUTE_GRAPH || field.number === ATTRIBUTE_GRAPHS)),
    );
  }

  /** A float constant (initializer or Constant node output) by name, or undefined when the value is not one. */
  floatConstant(name: string): FloatTensor | undefined {
    if (!this.floatCache.has(name)) this.floatCache.set(name, this.readFloatConstant(name));
    return this.floatCache.get(name);
  }

  /** The value of a one-element float constant of rank 0 or 1 (one that broadcasts without adding a dimension). */
  scalar(name: string): number | undefined {
    const tensor = this.floatConstant(name);
    return tensor && tensor.data.length === 1 && tensor.dims.length <= 1 ? tensor.data[0] : undefined;
  }

  /** Adds a float initializer under a name not yet used in the graph, and returns that name. */
  addInitializer(wanted: string, tensor: FloatTensor): string {
    const name = this.freshName(wanted);
    this.initializers.set(name, encodeFloatTensor(name, tensor));
    this.floatCache.set(name, tensor);
    return name;
  }

  /** Adds an int8 initializer under a name not yet used in the graph, and returns that name. */
  addInt8Initializer(wanted: string, dims: number[], data: Int8Array): string {
    const name = this.freshName(wanted);
    const writer = new MessageWriter();
    for (const dim of dims) writer.varint(TENSOR_DIMS, dim);
    const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.initializers.set(name, writer.varint(TENSOR_DATA_TYPE, DATA_TYPE_INT8).string(TENSOR_NAME, name).bytes(TENSOR_RAW_DATA, raw).finish());
    return name;
  }

  /** The version of the standard operator set the model imports (0 when it names none). */
  opsetVersion(): number {
    return this.importedVersion('');
  }

  /** The version of an operator domain the model imports ('' the standard one), 0 when it imports none. */
  importedVersion(wanted: string): number {
    const standard = (name: string) => name === '' || name === 'ai.onnx';
    for (const field of this.modelFields) {
      if (field.number !== MODEL_OPSET_IMPORT) continue;
      const opset = readFields(field.value as Uint8Array);
      const domainField = opset.find((f) => f.number === OPSET_DOMAIN);
      const domain = domainField ? asString(domainField) : '';
      if (domain === wanted || (standard(domain) && standard(wanted))) return Number(varints(opset, OPSET_VERSION)[0] ?? 0);
    }
    return 0;
  }

  /** Makes the model import an operator domain (com.microsoft, ...) at `version`, for nodes a rewrite adds; false when it imports another version already. */
  importDomain(domain: string, version: number): boolean {
    const imported = this.importedVersion(domain);
    if (imported !== 0) return imported === version;
    const opset = new MessageWriter().string(OPSET_DOMAIN, domain).varint(OPSET_VERSION, version).finish();
    this.modelFields.push({ number: MODEL_OPSET_IMPORT, wire: Wire.Bytes, value: opset, raw: new MessageWriter().bytes(MODEL_OPSET_IMPORT, opset).finish() });
    return true;
  }

  /** A name for a new value or initializer, `wanted` unless the graph already uses it. */
  freshName(wanted: string): string {
    let name = wanted;
    for (let i = 1; this.isNameTaken(name); i++) name = `${wanted}_${i}`;
    return name;
  }

  /** Adds a rank-0 int64 initializer under a fresh name, and returns that name. */
  addInt64Scalar(wanted: string, value: number): string {
    const name = this.freshName(wanted);
    const raw = new Uint8Array(8);
    new DataView(raw.buffer).setBigInt64(0, BigInt(value), true);
    this.initializers.set(name, new MessageWriter().varint(TENSOR_DATA_TYPE, DATA_TYPE_INT64).string(TENSOR_NAME, name).bytes(TENSOR_RAW_DATA, raw).finish());
    return name;
  }

  /** Makes `name` (a node's output) an output of the graph, a tensor of float or int32 elements. */
  addOutput(name: string, type: 'float32' | 'int32'): void {
    const tensorType = new MessageWriter().varint(TENSOR_TYPE_ELEM_TYPE, type === 'float32' ? DATA_TYPE_FLOAT : DATA_TYPE_INT32).finish();
    const typeProto = new MessageWriter().bytes(TYPE_TENSOR, tensorType).finish();
    this.addedOutputs.push(new MessageWriter().string(VALUE_INFO_NAME, name).bytes(VALUE_INFO_TYPE, typeProto).finish());
    this.outputs.add(name);
  }

  /** Drops Constant nodes and initializers that nothing reads any more (graph inputs stay). */
  dropUnused(): void {
    const used = new Set<string>(this.outputs);
    for (const node of this.nodes) for (const input of node.inputs) used.add(input);
    for (let i = this.nodes.length - 1; i >= 0; i--) {
      const node = this.nodes[i] as OnnxNode;
      if (node.opType === 'Constant' && node.domain === '' && !node.outputs.some((output) => used.has(output))) this.nodes.splice(i, 1);
    }
    for (const name of [...this.initializers.keys()]) {
      if (!used.has(name) && !this.inputs.has(name)) this.initializers.delete(name);
    }
  }

  /** The model with this graph. */
  write(): Uint8Array {
    const graph = new MessageWriter();
    for (const field of this.graphFields) if (field.number !== GRAPH_NODE && field.number !== GRAPH_INITIALIZER) graph.raw(field.raw);
    for (const node of this.nodes) graph.bytes(GRAPH_NODE, writeNode(node));
    for (const tensor of this.initializers.values()) graph.bytes(GRAPH_INITIALIZER, tensor);
    for (const output of this.addedOutputs) graph.bytes(GRAPH_OUTPUT, output);
    const model = new MessageWriter();
    for (const field of this.modelFields) {
      if (field.number === MODEL_GRAPH) model.bytes(MODEL_GRAPH, graph.finish());
      else model.raw(field.raw);
    }
    return model.finish();
  }

  private isNameTaken(name: string): boolean {
    return this.initializers.has(name) || this.inputs.has(name) || this.nodes.some((node) => node.outputs.includes(name));
  }

  private readFloatConstant(name: string): FloatTensor | undefined {
    const initializer = this.initializers.get(name);
    if (initializer) return this.inputs.has(name) ? undefined : readFloatTensor(initializer); // a graph input may be overridden by the caller
    const node = this.constantNodes.get(name);
    if (!node || node.attributes.length !== 1) return undefined;
    const fields = readFields(node.attributes[0] as Uint8Array);
    const attributeName = fields.find((field) => field.number === ATTRIBUTE_NAME);
    const kind = attributeName ? asString(attributeName) : '';
    if (kind === 'value') {
      const tensor = fields.find((field) => field.number === ATTRIBUTE_TENSOR);
      return tensor ? readFloatTensor(tensor.value as Uint8Array) : undefined;
    }
    if (kind === 'value_float') return { dims: [], data: Float32Array.from(floats(fields, ATTRIBUTE_FLOAT)) };
    return undefined;
  }
}

function readNode(payload: Uint8Array): OnnxNode {
  const node: OnnxNode = { opType: '', domain: '', name: '', inputs: [], outputs: [], attributes: [], other: [] };
  for (const field of readFields(payload)) {
    if (field.number === NODE_INPUT) node.inputs.push(asString(field));
    else if (field.number === NODE_OUTPUT) node.outputs.push(asString(field));
    else if (field.number === NODE_NAME) node.name = asString(field);
    else if (field.number === NODE_OP_TYPE) node.opType = asString(field);
    else if (field.number === NODE_DOMAIN) node.domain = asString(field) === 'ai.onnx' ? '' : asString(field);
    else if (field.number === NODE_ATTRIBUTE) node.attributes.push(field.value as Uint8Array);
    else node.other.push(field);
  }
  return node;
}

function writeNode(node: OnnxNode): Uint8Array {
  const writer = new MessageWriter();
  for (const input of node.inputs) writer.string(NODE_INPUT, input);
  for (const output of node.outputs) writer.string(NODE_OUTPUT, output);
  if (node.name !== '') writer.string(NODE_NAME, node.name);
  writer.string(NODE_OP_TYPE, node.opType);
  for (const attribute of node.attributes) writer.bytes(NODE_ATTRIBUTE, attribute);
  if (node.domain !== '') writer.string(NODE_DOMAIN, node.domain);
  for (const field of node.other) writer.raw(field.raw);
  return writer.finish();
}

function readFloatTensor(payload: Uint8Array): FloatTensor | undefined {
  const fields = readFields(payload);
  const type = varints(fields, TENSOR_DATA_TYPE)[0];
  const location = varints(fields, TENSOR_DATA_LOCATION)[0];
  if (type !== BigInt(DATA_TYPE_FLOAT) || location === BigInt(DATA_LOCATION_EXTERNAL)) return undefined;
  const dims = varints(fields, TENSOR_DIMS).map(Number);
  const count = dims.reduce((product, dim) => product * dim, 1);
  const raw = fields.find((field) => field.number === TENSOR_RAW_DATA);
  let data: Float32Array;
  if (raw) {
    const bytes = raw.value as Uint8Array;
    // Copied to an aligned buffer; ONNX stores raw data little-endian, as every platform Node's onnxruntime runs on is.
    data = new Float32Array(bytes.slice(0, bytes.length - (bytes.length % 4)).buffer);
  } else {
    data = Float32Array.from(floats(fields, TENSOR_FLOAT_DATA));
  }
  return data.length === count ? { dims, data } : undefined;
}

function encodeFloatTensor(name: string, tensor: FloatTensor): Uint8Array {
  const raw = new Uint8Array(tensor.data.length * 4);
  const view = new DataView(raw.buffer);
  tensor.data.forEach((value, i) => view.setFloat32(i * 4, value, true));
  const writer = new MessageWriter();
  for (const dim of tensor.dims) writer.varint(TENSOR_DIMS, dim);
  return writer.varint(TENSOR_DATA_TYPE, DATA_TYPE_FLOAT).string(TENSOR_NAME, name).bytes(TENSOR_RAW_DATA, raw).finish();
}

/** An AttributeProto of type FLOAT. */
export function floatAttribute(name: string, value: number): Uint8Array {
  const ATTRIBUTE_TYPE = 20;
  const TYPE_FLOAT = 1;
  return new MessageWriter().string(ATTRIBUTE_NAME, name).float(ATTRIBUTE_FLOAT, value).varint(ATTRIBUTE_TYPE, TYPE_FLOAT).finish();
}

/** An AttributeProto of type INT. */
export function intAttribute(name: string, value: number): Uint8Array {
  const ATTRIBUTE_INT = 3;
  const ATTRIBUTE_TYPE = 20;
  const TYPE_INT = 2;
  return new MessageWriter().string(ATTRIBUTE_NAME, name).varint(ATTRIBUTE_INT, value).varint(ATTRIBUTE_TYPE, TYPE_INT).finish();
}

/** An AttributeProto of type INTS (non-negative values). */
export function intsAttribute(name: string, values: number[]): Uint8Array {
  const ATTRIBUTE_INTS = 8;
  const ATTRIBUTE_TYPE = 20;
  const TYPE_INTS = 7;
  const writer = new MessageWriter().string(ATTRIBUTE_NAME, name);
  for (const value of values) writer.varint(ATTRIBUTE_INTS, value);
  return writer.varint(ATTRIBUTE_TYPE, TYPE_INTS).finish();
}

/** A float attribute of the node (min and max of an opset-9 Clip, ...), or undefined. */
export function nodeFloatAttribute(node: OnnxNode, name: string): number | undefined {
  for (const attribute of node.attributes) {
    const fields = readFields(attribute);
    const attributeName = fields.find((field) => field.number === ATTRIBUTE_NAME);
    if (attributeName && asString(attributeName) === name) return floats(fields, ATTRIBUTE_FLOAT)[0];
  }
  return undefined;
}
