/**
 * How the model's context is shared between the fixed prompt, the document
 * text and the answer. The context is the smaller of LLM_MAX_CONTEXT_TOKENS
 * and what the model holds (the backend says: the GGUF's context length,
 * Ollama's /api/show, OPENAI_CONTEXT_TOKENS), so that a user never has to
 * tune it by hand for a small model. Tokens are counted with the model's
 * tokenizer where the backend has it, else estimated high.
 */
import type { LlmConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import type { JsonSchema } from '../../schema/json-schema.js';
import type { ChatMessage, ModelCapacity, TokenCounter } from './backends/chat-backend.js';
import { buildMessages, estimateTokens } from './prompt.js';
import type { CountTokens } from './windows.js';

/** Below this many tokens of room for document text, splitting would make windows too small to be useful. */
export const MIN_WINDOW_TOKENS = 256;
/** The answer may take at most this share of the context, so a small model still reads a useful window. */
const OUTPUT_SHARE = 4;
/** When the context is tight, the answer gives way to the document down to this many tokens. */
const MIN_OUTPUT_TOKENS = 128;
/** Counted windows are joined page by page, and a join can tokenize a little differently from its parts. */
const COUNTED_MARGIN = 0.98;
/** The longest part label a window's prompt can carry ("pages 1-2 of 60"). */
const WIDEST_PART = 'pages 99999-99999 of 99999';

export interface TokenBudget {
  /** Prompt and answer together. */
  contextTokens: number;
  /** Longest answer. */
  outputTokens: number;
  /** Document text one window may hold. */
  windowTokens: number;
  countText: CountTokens;
  countChat: (messages: ChatMessage[]) => number;
  /** Whether the counts are the model's own (else estimates). */
  counted: boolean;
}

/** A chat's tokens without a tokenizer: each message's estimate and a few tokens of template around it. */
export function estimateChatTokens(messages: ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateTokens(message.content) + 4, 0);
}

export function planBudget(config: LlmConfig, capacity: ModelCapacity, tokenizer: TokenCounter | undefined, schema: JsonSchema): TokenBudget {
  const modelLimited = capacity.contextTokens !== undefined && capacity.contextTokens < config.maxContextTokens;
  const contextTokens = modelLimited ? capacity.contextTokens! : config.maxContextTokens;
  const countText = tokenizer ? (text: string) => tokenizer.text(text) : estimateTokens;
  const countChat = tokenizer ? (messages: ChatMessage[]) => tokenizer.chat(messages) : estimateChatTokens;
  const margin = tokenizer ? COUNTED_MARGIN : 1;
  const fixed = countChat(buildMessages({ schema, documentText: '', part: WIDEST_PART }));
  const leastForDocument = Math.ceil(MIN_WINDOW_TOKENS / margin);
  let outputTokens = Math.min(config.maxOutputTokens, Math.floor(contextTokens / OUTPUT_SHARE));
  if (contextTokens - fixed - outputTokens < leastForDocument) outputTokens = Math.max(Math.min(outputTokens, MIN_OUTPUT_TOKENS), contextTokens - fixed - leastForDocument);
  const windowTokens = Math.floor((contextTokens - outputTokens - fixed) * margin);
  if (windowTokens < MIN_WINDOW_TOKENS) {
    const limit = modelLimited
      ? `the model's context of ${contextTokens} tokens (${capacity.source}); use a smaller schema or a model with a longer context`
      : `LLM_MAX_CONTEXT_TOKENS=${config.maxContextTokens}; raise it or lower LLM_MAX_OUTPUT_TOKENS`;
    throw new AppError('engine_failed', `the schema and instructions (${fixed} tokens) and the answer (${outputTokens}) leave no room for document text within ${limit}`);
  }
  return { contextTokens, outputTokens, windowTokens, countText, countChat, counted: tokenizer !== undefined };
}
