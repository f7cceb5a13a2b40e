/**
 * Any OpenAI-compatible chat server (llama.cpp llama-server, vLLM, LM Studio,
 * Ollama's /v1): /chat/completions with response_format json_schema. Plain
 * fetch: the protocol is one POST and a client library would add nothing.
 * The protocol has no way to ask a server its context size, so it is
 * configured (OPENAI_CONTEXT_TOKENS); these servers refuse a prompt that does
 * not fit rather than cut it.
 */
import type { LlmConfig, OpenAiConfig } from '../../../config.js';
import { AppError } from '../../../errors.js';
import type { EngineStatus } from '../../../schema/engine.js';
import { backendUnavailable, callSignal, describeCallFailure } from './backend-errors.js';
import type { ChatBackend, ChatReply, ChatRequest, ModelCapacity } from './chat-backend.js';

const PROBE_TIMEOUT_MS = 2000;

interface CompletionResponse {
  choices?: { message?: { content?: string | null; reasoning_content?: string | null }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  error?: { message?: string } | string;
}

export class OpenAiBackend implements ChatBackend {
  readonly name: string;
  readonly acceptsImages = false;
  private readonly baseUrl: string;

  constructor(
    private readonly config: OpenAiConfig & { baseUrl: string },
    private readonly llm: LlmConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.name = `openai:${config.model}`;
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    const { signal, timedOut, clear } = callSignal(request.signal, this.llm.timeoutMs);
    let response: Response;
    let body: CompletionResponse;
    try {
      response = await this.fetchImpl(`${this.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: this.headers(),
        body: JSON.stringify({
          model: this.config.model,
          messages: request.messages,
          temperature: 0,
          seed: this.llm.seed,
          max_tokens: request.maxOutputTokens,
          response_format: { type: 'json_schema', json_schema: { name: 'extraction', strict: true, schema: request.format } },
        }),
        signal,
      });
      body = (await response.json().catch(() => ({}))) as CompletionResponse;
    } catch (error) {
      throw describeCallFailure(error, { backend: 'the OpenAI-compatible server', where: this.baseUrl, requestSignal: request.signal, timedOut: timedOut(), timeoutMs: this.llm.timeoutMs });
    } finally {
      clear();
    }
    if (!response.ok) throw this.httpFailure(response.status, body);
    const choice = body.choices?.[0];
    const { prompt_tokens: promptTokens, completion_tokens: outputTokens } = body.usage ?? {};
    const usage = typeof promptTokens === 'number' && typeof outputTokens === 'number' ? { promptTokens, outputTokens } : undefined;
    return { content: choice?.message?.content ?? '', truncated: choice?.finish_reason === 'length', ...(usage ? { usage } : {}) };
  }

  async status(): Promise<EngineStatus> {
    try {
      const response = await this.fetchImpl(`${this.baseUrl}/models`, { headers: this.headers(), signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      if (!response.ok) return { ready: false, detail: `OpenAI-compatible server at ${this.baseUrl} answered ${response.status} to /models` };
      return { ready: true, detail: `OpenAI-compatible server at ${this.baseUrl}, model ${this.config.model}` };
    } catch {
      return { ready: false, detail: `OpenAI-compatible server at ${this.baseUrl} is not reachable` };
    }
  }

  async capacity(): Promise<ModelCapacity> {
    return this.config.contextTokens === undefined
      ? { contextTokens: undefined, source: 'OPENAI_CONTEXT_TOKENS is not set' }
      : { contextTokens: this.config.contextTokens, source: 'OPENAI_CONTEXT_TOKENS' };
  }

  async close(): Promise<void> {}

  private headers(): Record<string, string> {
    return { 'content-type': 'application/json', ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}) };
  }

  private httpFailure(status: number, body: CompletionResponse): AppError {
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? `HTTP ${status}`);
    if (status === 404 && /model/i.test(message)) {
      return backendUnavailable(`the OpenAI-compatible server at ${this.baseUrl} has no model "${this.config.model}" (${message}); load it there or set OPENAI_MODEL`);
    }
    if (status === 401 || status === 403) return new AppError('engine_failed', `the OpenAI-compatible server at ${this.baseUrl} refused the API key (OPENAI_API_KEY): ${message}`);
    if (status === 503 || status === 429) return backendUnavailable(`the OpenAI-compatible server at ${this.baseUrl} is busy (${status}: ${message})`);
    if (status === 400 && /context/i.test(message) && this.config.contextTokens === undefined) {
      return new AppError('engine_failed', `the OpenAI-compatible server at ${this.baseUrl} refused the prompt (${message}); set OPENAI_CONTEXT_TOKENS to the context size it serves, so documents are split to fit`);
    }
    return new AppError('engine_failed', `the OpenAI-compatible server at ${this.baseUrl} failed (${status}: ${message})`);
  }
}
