/**
 * Field numbers of ONNX's onnx.proto that the model rewrites read and
 * write (onnx-graph.ts, join-models.ts), and the names of a tensor and a
 * value as written in their messages.
 */
import { asString, readFields } from './onnx-protobuf.js';

// ModelProto
export const MODEL_IR_VERSION = 1;
export const MODEL_GRAPH = 7;
export const MODEL_OPSET_IMPORT = 8;
export const MODEL_TRAINING_INFO = 20;
export const MODEL_FUNCTIONS = 25;

// OperatorSetIdProto
export const OPSET_DOMAIN = 1;
export const OPSET_VERSION = 2;

// GraphProto
export const GRAPH_NODE = 1;
export const GRAPH_NAME = 2;
export const GRAPH_INITIALIZER = 5;
export const GRAPH_DOC_STRING = 10;
export const GRAPH_INPUT = 11;
export const GRAPH_OUTPUT = 12;
export const GRAPH_VALUE_INFO = 13;
export const GRAPH_METADATA_PROPS = 16;

// NodeProto
export const NODE_INPUT = 1;
export const NODE_OUTPUT = 2;
export const NODE_NAME = 3;
export const NODE_OP_TYPE = 4;
export const NODE_ATTRIBUTE = 5;
export const NODE_DOMAIN = 7;

// AttributeProto
export const ATTRIBUTE_NAME = 1;
export const ATTRIBUTE_FLOAT = 2;
export const ATTRIBUTE_TENSOR = 5;
export const ATTRIBUTE_GRAPH = 6;
export const ATTRIBUTE_GRAPHS = 11;

// TensorProto and its data types and locations
export const TENSOR_DIMS = 1;
export const TENSOR_DATA_TYPE = 2;
export const TENSOR_FLOAT_DATA = 4;
export const TENSOR_NAME = 8;
export const TENSOR_RAW_DATA = 9;
export const TENSOR_DATA_LOCATION = 14;
export const DATA_TYPE_FLOAT = 1;
export const DATA_TYPE_INT8 = 3;
export const DATA_TYPE_INT32 = 6;
export const DATA_TYPE_INT64 = 7;
export const DATA_LOCATION_EXTERNAL = 1;

// ValueInfoProto, TypeProto, TypeProto.Tensor, TensorShapeProto, Dimension
export const VALUE_INFO_NAME = 1;
export const VALUE_INFO_TYPE = 2;
export const TYPE_TENSOR = 1;
export const TENSOR_TYPE_ELEM_TYPE = 1;
export const TENSOR_TYPE_SHAPE = 2;
export const SHAPE_DIM = 1;
export const DIM_PARAM = 2;

/** A TensorProto's name ('' when it has none). */
export function tensorName(payload: Uint8Array): string {
  const name = readFields(payload).find((field) => field.number === TENSOR_NAME);
  return name ? asString(name) : '';
}

/** A ValueInfoProto's name ('' when it has none). */
export function valueInfoName(payload: Uint8Array): string {
  const name = readFields(payload).find((field) => field.number === VALUE_INFO_NAME);
  return name ? asString(name) : '';
}
