import type { EngineStatus } from '../../../schema/engine.js';
import type { JsonSchema } from '../../../schema/schema.js';

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
  /** Tokens of the whole conversation (counted when the backend has a tokenizer, else estimated high), so the backend can size its context window. */
  promptTokens: number;
  maxOutputTokens: number;
  /**
   * Characters of document text the model reads: no value copied from it is
   * longer, so a backend that sees the answer as it is written may stop a
   * string that outgrows it (a model counting on and on). Undefined: no limit.
   */
  documentChars?: number;
  /** Page images (base64 PNG/JPEG) for models that can see; empty otherwise. */
  images: string[];
  /** Thinking models may spend the whole answer thinking; retries ask them not to. */
  disableThinking: boolean;
  signal: AbortSignal;
}

/** Tokens as the model server counted them, when it says (for metrics, the eval and the bench). */
export interface ChatUsage {
  promptTokens: number;
  outputTokens: number;
  /** Prompt tokens that were not evaluated again: the start of the previous prompt, still in the context (in-process engine). */
  reusedPromptTokens?: number;
  /** Milliseconds reading the prompt (to the first answer token) and writing the answer (in-process engine). */
  promptMs?: number;
  generationMs?: number;
}

export interface ChatReply {
  content: string;
  /** The answer hit the output limit and may be cut off. */
  truncated: boolean;
  usage?: ChatUsage;
}

/** How many tokens the model can hold, and who says so. */
export interface ModelCapacity {
  /** Prompt and answer together; undefined when the backend cannot tell (then LLM_MAX_CONTEXT_TOKENS alone decides). */
  contextTokens: number | undefined;
  /** Where the number comes from, for logs and errors, e.g. "the GGUF's context length". */
  source: string;
}

/** The model's own tokenizer, where it is at hand (in-process); elsewhere the engine estimates. */
export interface TokenCounter {
  /** Tokens of a piece of text. */
  text(text: string): number;
  /** Tokens of a whole chat as the model reads it, chat template included, up to where the answer starts. */
  chat(messages: ChatMessage[]): number;
}

export interface ChatBackend {
  /** Engine name shown in x-docshape-engine and /readyz, e.g. "ollama:qwen2.5:7b-instruct". */
  readonly name: string;
  /** Whether page images help: the model has vision and config allows it. */
  readonly acceptsImages: boolean;
  /** Present when the backend can count tokens exactly. */
  readonly tokenizer?: TokenCounter;
  chat(request: ChatRequest): Promise<ChatReply>;
  /** What the model holds; asked before sizing windows. */
  capacity(): Promise<ModelCapacity>;
  status(): Promise<EngineStatus>;
  close(): Promise<void>;
}
