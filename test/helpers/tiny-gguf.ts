/**
 * Writes a tiny llama-architecture GGUF (2 layers, 64 dims, byte-level SPM
 * vocabulary, f32 random weights, ~0.5 MB) so the real llama.cpp inference
 * path can be tested without downloading a model. Its answers are
 * meaningless; under a JSON-schema grammar they are still valid JSON.
 * See DESIGN.md section 4 for the keys llama.cpp insists on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const EMBED = 64;
const LAYERS = 2;
const HEADS = 4;
const FEED_FORWARD = 128;
/** The context length the model declares, unless a test asks for another. */
const CONTEXT = 16384;
const ALIGNMENT = 32;

const enum ValueType { UINT32 = 4, INT32 = 5, FLOAT32 = 6, BOOL = 7, STRING = 8, ARRAY = 9 }
const enum TokenType { NORMAL = 1, UNKNOWN = 2, CONTROL = 3, BYTE = 6 }

interface Vocabulary {
  tokens: string[];
  types: number[];
}

function buildVocabulary(): Vocabulary {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types: number[] = [TokenType.UNKNOWN, TokenType.CONTROL, TokenType.CONTROL];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TokenType.BYTE);
  }
  tokens.push('<|im_start|>', '<|im_end|>');
  types.push(TokenType.CONTROL, TokenType.CONTROL);
  return { tokens, types };
}

/** Deterministic weights, so every run of the suite sees the same model. */
function randomGenerator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

class Writer {
  private readonly chunks: Buffer[] = [];
  length = 0;

  push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }
  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }
  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }
  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad(alignment: number): void {
    const rest = this.length % alignment;
    if (rest !== 0) this.push(Buffer.alloc(alignment - rest));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

type Metadata = [key: string, write: (w: Writer) => void][];

function metadata(vocabulary: Vocabulary, contextLength: number): Metadata {
  const u32 = (value: number) => (w: Writer) => { w.u32(ValueType.UINT32); w.u32(value); };
  const str = (value: string) => (w: Writer) => { w.u32(ValueType.STRING); w.string(value); };
  return [
    ['general.architecture', str('llama')],
    ['general.name', str('docshape-tiny-test')],
    ['llama.context_length', u32(contextLength)],
    ['llama.embedding_length', u32(EMBED)],
    ['llama.block_count', u32(LAYERS)],
    ['llama.feed_forward_length', u32(FEED_FORWARD)],
    ['llama.attention.head_count', u32(HEADS)],
    ['llama.attention.head_count_kv', u32(HEADS)],
    ['llama.attention.layer_norm_rms_epsilon', (w) => { w.u32(ValueType.FLOAT32); w.f32(1e-5); }],
    ['tokenizer.ggml.model', str('llama')],
    ['tokenizer.ggml.tokens', (w) => {
      w.u32(ValueType.ARRAY); w.u32(ValueType.STRING); w.u64(vocabulary.tokens.length);
      for (const token of vocabulary.tokens) w.string(token);
    }],
    ['tokenizer.ggml.scores', (w) => {
      w.u32(ValueType.ARRAY); w.u32(ValueType.FLOAT32); w.u64(vocabulary.tokens.length);
      for (let i = 0; i < vocabulary.tokens.length; i++) w.f32(0);
    }],
    ['tokenizer.ggml.token_type', (w) => {
      w.u32(ValueType.ARRAY); w.u32(ValueType.INT32); w.u64(vocabulary.types.length);
      for (const type of vocabulary.types) w.i32(type);
    }],
    ['tokenizer.ggml.bos_token_id', u32(1)],
    ['tokenizer.ggml.eos_token_id', u32(vocabulary.tokens.indexOf('<|im_end|>'))],
    ['tokenizer.ggml.unknown_token_id', u32(0)],
    ['tokenizer.ggml.add_space_prefix', (w) => { w.u32(ValueType.BOOL); w.push(Buffer.from([0])); }],
    ['tokenizer.ggml.add_bos_token', (w) => { w.u32(ValueType.BOOL); w.push(Buffer.from([0])); }],
    ['tokenizer.chat_template', str(
      "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}",
    )],
  ];
}

interface Tensor {
  name: string;
  /** ggml order: the first dimension is the row length. */
  dims: number[];
  data: Float32Array;
}

/**
 * Output-layer bias towards short, printable answers: dimension 0 of every
 * embedding is a large constant, so it survives the random layers with a
 * fixed sign and the output weights on it act as a per-token bias. JSON
 * punctuation is favoured (strings and lists end soon), bytes that are not
 * printable ASCII are pushed down (no invalid UTF-8), whitespace too (no
 * endless indentation).
 */
function outputBias(token: string): number {
  const match = /^<0x([0-9A-F]{2})>$/.exec(token);
  if (!match) return token === '<|im_end|>' ? 0.5 : -4;
  const byte = parseInt(match[1]!, 16);
  if (byte >= 0x80 || byte < 0x20 || byte === 0x7f) return -4;
  if (byte === 0x20) return -2;
  const char = String.fromCharCode(byte);
  if (char === '"') return 1.5;
  // a list gets one item, then ends: '{' beats ']' at the start, ']' beats ',' after an item
  if (char === '{') return 0.7;
  if (char === ']' || char === '}') return 0.6;
  if (char === ',') return 0.3;
  return 0;
}

function buildTensors(vocabulary: Vocabulary): Tensor[] {
  const random = randomGenerator(20240611);
  const matrix = (name: string, cols: number, rows: number, scale: number): Tensor => {
    const data = new Float32Array(cols * rows);
    for (let i = 0; i < data.length; i++) data[i] = random() * scale;
    return { name, dims: [cols, rows], data };
  };
  const ones = (name: string): Tensor => ({ name, dims: [EMBED], data: new Float32Array(EMBED).fill(1) });
  const vocab = vocabulary.tokens.length;

  const embeddings = matrix('token_embd.weight', EMBED, vocab, 0.2);
  for (let token = 0; token < vocab; token++) embeddings.data[token * EMBED] = 4;
  const output = matrix('output.weight', EMBED, vocab, 0.4);
  vocabulary.tokens.forEach((token, index) => {
    output.data[index * EMBED] = outputBias(token);
  });

  const tensors: Tensor[] = [embeddings, ones('output_norm.weight'), output];
  for (let layer = 0; layer < LAYERS; layer++) {
    const p = `blk.${layer}`;
    tensors.push(
      ones(`${p}.attn_norm.weight`),
      matrix(`${p}.attn_q.weight`, EMBED, EMBED, 0.2),
      matrix(`${p}.attn_k.weight`, EMBED, EMBED, 0.2),
      matrix(`${p}.attn_v.weight`, EMBED, EMBED, 0.2),
      matrix(`${p}.attn_output.weight`, EMBED, EMBED, 0.1),
      ones(`${p}.ffn_norm.weight`),
      matrix(`${p}.ffn_gate.weight`, EMBED, FEED_FORWARD, 0.2),
      matrix(`${p}.ffn_up.weight`, EMBED, FEED_FORWARD, 0.2),
      matrix(`${p}.ffn_down.weight`, FEED_FORWARD, EMBED, 0.1),
    );
  }
  return tensors;
}

export function buildTinyGguf(contextLength = CONTEXT): Buffer {
  const vocabulary = buildVocabulary();
  const entries = metadata(vocabulary, contextLength);
  const tensors = buildTensors(vocabulary);
  const w = new Writer();
  w.push(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(entries.length);
  for (const [key, write] of entries) {
    w.string(key);
    write(w);
  }
  let offset = 0;
  for (const tensor of tensors) {
    w.string(tensor.name);
    w.u32(tensor.dims.length);
    for (const dim of tensor.dims) w.u64(dim);
    w.u32(0); // GGML_TYPE_F32
    w.u64(offset);
    offset += Math.ceil((tensor.data.length * 4) / ALIGNMENT) * ALIGNMENT;
  }
  w.pad(ALIGNMENT);
  for (const tensor of tensors) {
    w.push(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    w.pad(ALIGNMENT);
  }
  return w.toBuffer();
}

const written = new Map<number, string>();
let directory: string | undefined;

/** Path of the tiny model declaring `contextLength` tokens, written once per test run into a temp directory. */
export function tinyGgufPath(contextLength = CONTEXT): string {
  let path = written.get(contextLength);
  if (!path) {
    if (!directory) {
      const dir = mkdtempSync(join(tmpdir(), 'docshape-tiny-gguf-'));
      // generated per run, so nothing is left behind
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      directory = dir;
    }
    // the default keeps the name tests and engine names know
    path = join(directory, contextLength === CONTEXT ? 'tiny.gguf' : `tiny-${contextLength}.gguf`);
    writeFileSync(path, buildTinyGguf(contextLength));
    written.set(contextLength, path);
  }
  return path;
}
