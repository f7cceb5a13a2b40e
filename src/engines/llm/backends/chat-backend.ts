import type { EngineStatus } from '../../../extract/engine.js';
import type { JsonSchema } from '../../../extract/schema.js';

/**
 * The one thing a language-model engine needs from a model server or an
 * in-process model: answer a chat, constrained to a JSON Schema. Prompting,
 * validation, retries and long documents live in LlmEngine, once, for all.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Grammar-friendly schema (see engines/llm/model-schema.ts) the answer must follow. */
  format: JsonSchema;
  /** Estimated tokens of the whole conversation, so the backend can size its context window. */
  promptTokens: number;
  maxOutputTokens: number;
  /** Page images (base64 PNG/JPEG) for models that can see; empty otherwise. */
  images: string[];
  /** Thinking models may spend the whole answer thinking; retries ask them not to. */
  disableThinking: boolean;
  signal: AbortSignal;
}

export interface ChatReply {
  content: string;
  /** The answer hit the output limit and may be cut off. */
  truncated: boolean;
  /** Tokens as the model server counted them, when it says (for metrics). */
  usage?: { promptTokens: number; outputTokens: number };
}

export interface ChatBackend {
  /** Engine name shown in x-docshape-engine and /readyz, e.g. "ollama:qwen2.5:7b-instruct". */
  readonly name: string;
  /** Whether page images help: the model has vision and config allows it. */
  readonly acceptsImages: boolean;
  chat(request: ChatRequest): Promise<ChatReply>;
  status(): Promise<EngineStatus>;
  close(): Promise<void>;
}
