/**
 * Two or more ONNX models written as one, side by side: every name of each
 * model (values, nodes, initializers, symbolic dimensions) gets the model's
 * prefix, so the joint model computes each part's outputs from that part's
 * own input exactly as the part alone does.
 *
 * Why: ONNX Runtime gives every session its own memory arena, which keeps
 * what its largest run needed. The default OCR has two recognisers (tiny
 * reads every line, small re-reads the unsure ones) that never run at the
 * same time; as two sessions they kept two arenas, as one they share one.
 *
 * A run computes every part (ONNX Runtime's node binding cannot limit a run
 * to the fetched outputs), so the caller feeds the parts it does not want a
 * minimal input. Only models that import the same operator set versions are
 * joined (nothing is converted between versions), and only plain graphs:
 * a model with subgraphs, functions or training info is refused.
 */
import {
  ATTRIBUTE_GRAPH,
  ATTRIBUTE_GRAPHS,
  DIM_PARAM,
  GRAPH_DOC_STRING,
  GRAPH_INITIALIZER,
  GRAPH_INPUT,
  GRAPH_METADATA_PROPS,
  GRAPH_NAME,
  GRAPH_NODE,
  GRAPH_OUTPUT,
  GRAPH_VALUE_INFO,
  MODEL_FUNCTIONS,
  MODEL_GRAPH,
  MODEL_IR_VERSION,
  MODEL_OPSET_IMPORT,
  MODEL_TRAINING_INFO,
  NODE_ATTRIBUTE,
  NODE_INPUT,
  NODE_NAME,
  NODE_OUTPUT,
  OPSET_DOMAIN,
  OPSET_VERSION,
  SHAPE_DIM,
  TENSOR_NAME,
  TENSOR_TYPE_SHAPE,
  TYPE_TENSOR,
  VALUE_INFO_NAME,
  VALUE_INFO_TYPE,
  tensorName,
  valueInfoName,
} from './onnx-fields.js';
import { asString, MessageWriter, readFields, varints, Wire, type Field } from './onnx-protobuf.js';

export interface JointPart {
  /** Put before every name of the part: it must end the part's names apart from every other part's ("quick/"). */
  prefix: string;
  bytes: Uint8Array;
}

export interface JointModel {
  bytes: Uint8Array;
  /** Per part, in the order given: its graph inputs and outputs as named in the joint model, in the part's own order. */
  parts: { inputs: string[]; outputs: string[] }[];
}

export class JoinError extends Error {}

const standardDomain = (domain: string) => (domain === 'ai.onnx' ? '' : domain);

function opsetImports(modelFields: Field[]): Map<string, bigint> {
  const imports = new Map<string, bigint>();
  for (const field of modelFields) {
    if (field.number !== MODEL_OPSET_IMPORT) continue;
    const opset = readFields(field.value as Uint8Array);
    const domainField = opset.find((f) => f.number === OPSET_DOMAIN);
    imports.set(standardDomain(domainField ? asString(domainField) : ''), varints(opset, OPSET_VERSION)[0] ?? 0n);
  }
  return imports;
}

/** A message with the string fields `numbers` renamed (empty strings, ONNX's "no value", stay empty). */
function renameStrings(payload: Uint8Array, numbers: readonly number[], rename: (name: string) => string): Uint8Array {
  const writer = new MessageWriter();
  for (const field of readFields(payload)) {
    if (numbers.includes(field.number) && field.wire === Wire.Bytes) {
      const name = asString(field);
      writer.string(field.number, name === '' ? '' : rename(name));
    } else {
      writer.raw(field.raw);
    }
  }
  return writer.finish();
}

/** Rewrites one nested message field (by number) of `payload` with `edit`, every other field as it was. */
function editField(payload: Uint8Array, number: number, edit: (inner: Uint8Array) => Uint8Array): Uint8Array {
  const writer = new MessageWriter();
  for (const field of readFields(payload)) {
    if (field.number === number && field.wire === Wire.Bytes) writer.bytes(number, edit(field.value as Uint8Array));
    else writer.raw(field.raw);
  }
  return writer.finish();
}

/**
 * A value's name and its symbolic dimensions renamed. Two parts exported
 * with the same dimension name ("DynamicDimension.0") would otherwise be
 * held to the same size: ONNX Runtime then refuses a run that feeds them
 * different batch sizes.
 */
function renameValueInfo(payload: Uint8Array, rename: (name: string) => string): Uint8Array {
  const named = renameStrings(payload, [VALUE_INFO_NAME], rename);
  return editField(named, VALUE_INFO_TYPE, (type) =>
    editField(type, TYPE_TENSOR, (tensor) => editField(tensor, TENSOR_TYPE_SHAPE, (shape) => editField(shape, SHAPE_DIM, (dim) => renameStrings(dim, [DIM_PARAM], rename)))),
  );
}

function renameNode(payload: Uint8Array, rename: (name: string) => string): Uint8Array {
  for (const field of readFields(payload)) {
    if (field.number !== NODE_ATTRIBUTE) continue;
    // Names inside a subgraph may refer to the outer graph's values: not renamed here, so refused.
    if (readFields(field.value as Uint8Array).some((f) => f.number === ATTRIBUTE_GRAPH || f.number === ATTRIBUTE_GRAPHS)) throw new JoinError('a node carries a subgraph');
  }
  return renameStrings(payload, [NODE_INPUT, NODE_OUTPUT, NODE_NAME], rename);
}

/** The parts as one model; throws JoinError naming why they cannot be joined. */
export function joinModels(parts: JointPart[]): JointModel {
  const prefixes = new Set(parts.map((part) => part.prefix));
  if (parts.length < 2 || prefixes.size !== parts.length || [...prefixes].some((prefix) => prefix === '')) throw new JoinError('joining needs two or more parts with distinct, non-empty prefixes');
  const graph = new MessageWriter().string(GRAPH_NAME, 'joint');
  const joined: JointModel['parts'] = [];
  let irVersion = 0n;
  let imports: Map<string, bigint> | undefined;
  for (const part of parts) {
    const modelFields = readFields(new Uint8Array(part.bytes.buffer, part.bytes.byteOffset, part.bytes.byteLength));
    if (modelFields.some((field) => field.number === MODEL_FUNCTIONS || field.number === MODEL_TRAINING_INFO)) throw new JoinError('a model has functions or training info');
    irVersion = varints(modelFields, MODEL_IR_VERSION).reduce((max, version) => (version > max ? version : max), irVersion);
    const partImports = opsetImports(modelFields);
    if (!imports) {
      imports = partImports;
    } else {
      for (const [domain, version] of partImports) {
        const known = imports.get(domain);
        if (known !== undefined && known !== version) throw new JoinError(`the models import ${domain === '' ? 'the standard operators' : domain} at versions ${known} and ${version}`);
        imports.set(domain, version);
      }
    }
    const graphField = modelFields.find((field) => field.number === MODEL_GRAPH);
    if (!graphField) throw new JoinError('a model has no graph');
    const rename = (name: string) => (name === '' ? '' : part.prefix + name);
    const inputs: string[] = [];
    const outputs: string[] = [];
    const initializers = new Set<string>();
    for (const field of readFields(graphField.value as Uint8Array)) {
      const payload = field.value as Uint8Array;
      switch (field.number) {
        case GRAPH_NODE:
          graph.bytes(GRAPH_NODE, renameNode(payload, rename));
          break;
        case GRAPH_INITIALIZER:
          graph.bytes(GRAPH_INITIALIZER, renameStrings(payload, [TENSOR_NAME], rename));
          initializers.add(rename(tensorName(payload)));
          break;
        case GRAPH_INPUT:
        case GRAPH_OUTPUT:
        case GRAPH_VALUE_INFO: {
          graph.bytes(field.number, renameValueInfo(payload, rename));
          if (field.number === GRAPH_INPUT) inputs.push(rename(valueInfoName(payload)));
          if (field.number === GRAPH_OUTPUT) outputs.push(rename(valueInfoName(payload)));
          break;
        }
        case GRAPH_NAME:
        case GRAPH_DOC_STRING:
        case GRAPH_METADATA_PROPS:
          break;
        default:
          throw new JoinError(`a graph has field ${field.number}, which joining does not know`);
      }
    }
    // An input that is also an initializer has a value of its own: the caller need not feed it.
    joined.push({ inputs: inputs.filter((name) => !initializers.has(name)), outputs });
  }
  const model = new MessageWriter().varint(MODEL_IR_VERSION, irVersion).bytes(MODEL_GRAPH, graph.finish());
  for (const [domain, version] of imports ?? []) model.bytes(MODEL_OPSET_IMPORT, new MessageWriter().string(OPSET_DOMAIN, domain).varint(OPSET_VERSION, version).finish());
  return { bytes: model.finish(), parts: joined };
}
