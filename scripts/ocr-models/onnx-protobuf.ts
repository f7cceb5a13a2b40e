/**
 * Protocol Buffers at the wire level: a message read as its fields in order,
 * each with the bytes it was written as, so a message can be written back
 * with a few fields changed and every other one (including fields of ONNX
 * versions newer than this code) byte for byte as it was.
 */

export const Wire = { Varint: 0, Fixed64: 1, Bytes: 2, Fixed32: 5 } as const;
export type Wire = (typeof Wire)[keyof typeof Wire];

export interface Field {
  number: number;
  wire: Wire;
  /** The value: a varint as bigint, or the payload bytes (length-delimited and fixed-width fields). */
  value: bigint | Uint8Array;
  /** The whole field as written (tag and payload). */
  raw: Uint8Array;
}

export class ProtobufError extends Error {}

function readVarint(bytes: Uint8Array, at: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (let i = at; i < bytes.length && i < at + 10; i++) {
    const byte = bytes[i] as number;
    result |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return [result, i + 1];
    shift += 7n;
  }
  throw new ProtobufError('truncated varint');
}

/** The fields of one message, in the order they were written. */
export function readFields(bytes: Uint8Array): Field[] {
  const fields: Field[] = [];
  let at = 0;
  while (at < bytes.length) {
    const start = at;
    const [tag, afterTag] = readVarint(bytes, at);
    const number = Number(tag >> 3n);
    const wire = Number(tag & 7n) as Wire;
    let value: bigint | Uint8Array;
    if (wire === Wire.Varint) {
      [value, at] = readVarint(bytes, afterTag);
    } else if (wire === Wire.Bytes) {
      const [length, afterLength] = readVarint(bytes, afterTag);
      at = afterLength + Number(length);
      value = bytes.subarray(afterLength, at);
    } else if (wire === Wire.Fixed64 || wire === Wire.Fixed32) {
      at = afterTag + (wire === Wire.Fixed64 ? 8 : 4);
      value = bytes.subarray(afterTag, at);
    } else {
      throw new ProtobufError(`unsupported wire type ${wire}`);
    }
    if (number < 1 || at > bytes.length) throw new ProtobufError('truncated or malformed message');
    fields.push({ number, wire, value, raw: bytes.subarray(start, at) });
  }
  return fields;
}

const textDecoder = new TextDecoder();
const textEncoder = new TextEncoder();

export function asString(field: Field): string {
  return textDecoder.decode(field.value as Uint8Array);
}

/** Every value of a repeated varint field, packed or not. */
export function varints(fields: Field[], number: number): bigint[] {
  const values: bigint[] = [];
  for (const field of fields) {
    if (field.number !== number) continue;
    if (field.wire === Wire.Varint) {
      values.push(field.value as bigint);
      continue;
    }
    const packed = field.value as Uint8Array;
    for (let at = 0; at < packed.length; ) {
      const [value, next] = readVarint(packed, at);
      values.push(value);
      at = next;
    }
  }
  return values;
}

/** Every value of a repeated float field, packed or not. */
export function floats(fields: Field[], number: number): number[] {
  const values: number[] = [];
  for (const field of fields) {
    if (field.number !== number) continue;
    const bytes = field.value as Uint8Array;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at + 4 <= bytes.length; at += 4) values.push(view.getFloat32(at, true));
  }
  return values;
}

function varintBytes(value: bigint): number[] {
  // Negative int64 values are written as their 64-bit two's complement.
  let rest = BigInt.asUintN(64, value);
  const out: number[] = [];
  while (rest >= 0x80n) {
    out.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  out.push(Number(rest));
  return out;
}

/** Builds a message field by field. */
export class MessageWriter {
  private readonly parts: Uint8Array[] = [];

  raw(bytes: Uint8Array): this {
    this.parts.push(bytes);
    return this;
  }

  varint(number: number, value: bigint | number): this {
    this.parts.push(Uint8Array.from([...varintBytes(BigInt(number << 3)), ...varintBytes(BigInt(value))]));
    return this;
  }

  bytes(number: number, payload: Uint8Array): this {
    this.parts.push(Uint8Array.from([...varintBytes(BigInt((number << 3) | Wire.Bytes)), ...varintBytes(BigInt(payload.length))]), payload);
    return this;
  }

  string(number: number, text: string): this {
    return this.bytes(number, textEncoder.encode(text));
  }

  float(number: number, value: number): this {
    const payload = new Uint8Array(4);
    new DataView(payload.buffer).setFloat32(0, value, true);
    this.parts.push(Uint8Array.from(varintBytes(BigInt((number << 3) | Wire.Fixed32))), payload);
    return this;
  }

  finish(): Uint8Array {
    const length = this.parts.reduce((sum, part) => sum + part.length, 0);
    const out = new Uint8Array(length);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}
