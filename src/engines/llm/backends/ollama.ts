/**
 * Ollama as the model backend (the default): /api/chat with `format` set to
 * the model schema, temperature 0 and a fixed seed, and a context window
 * sized to the prompt, because Ollama's own default (2-4k tokens) silently
 * cuts long documents.
 */
import { Ollama } from 'ollama';
import type { LlmConfig, OllamaConfig } from '../../../config.js';
import type { EngineStatus } from '../../../extract/engine.js';
import { backendUnavailable, callSignal, describeCallFailure } from './backend-errors.js';
import type { ChatBackend, ChatReply, ChatRequest } from './chat-backend.js';

/** Context windows are asked for in steps, so that Ollama can reuse a loaded model instead of reloading it for every size. */
const CONTEXT_STEP = 2048;

export type OllamaProbe = { state: 'ready'; vision: boolean } | { state: 'down' | 'no-model' | 'error'; detail: string };

interface ResponseErrorLike {
  name: string;
  status_code: number;
  error: string;
}

function isResponseError(error: unknown): error is ResponseErrorLike {
  return error instanceof Error && error.name === 'ResponseError' && typeof (error as Partial<ResponseErrorLike>).status_code === 'number';
}

export function pullHint(model: string): string {
  return `run \`ollama pull ${model}\` on the Ollama host (or set OLLAMA_MODEL to a model it has)`;
}

export class OllamaBackend implements ChatBackend {
  readonly name: string;
  acceptsImages = false;

  constructor(
    private readonly config: OllamaConfig,
    private readonly llm: LlmConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.name = `ollama:${config.model}`;
  }

  /** Is Ollama there, does it have the model, can the model see? Bounded by OLLAMA_PROBE_TIMEOUT_MS. */
  async probe(): Promise<OllamaProbe> {
    const signal = AbortSignal.timeout(this.config.probeTimeoutMs);
    try {
      const client = this.client(signal);
      const { models } = await client.list();
      const wanted = withTag(this.config.model);
      if (!models.some((m) => withTag(m.name) === wanted || withTag(m.model) === wanted)) {
        return { state: 'no-model', detail: `Ollama at ${this.config.host} has no model "${this.config.model}": ${pullHint(this.config.model)}` };
      }
      const shown = await client.show({ model: this.config.model });
      const vision = (shown.capabilities ?? []).includes('vision');
      this.acceptsImages = vision && this.llm.vision;
      return { state: 'ready', vision };
    } catch (error) {
      if (signal.aborted) return { state: 'down', detail: `Ollama at ${this.config.host} did not answer within ${this.config.probeTimeoutMs} ms` };
      const failure = describeCallFailure(error, { backend: 'Ollama', where: this.config.host, requestSignal: new AbortController().signal, timedOut: false, timeoutMs: 0 });
      return { state: failure.code === 'backend_unavailable' ? 'down' : 'error', detail: failure.message };
    }
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    const { signal, timedOut } = callSignal(request.signal, this.llm.timeoutMs);
    try {
      const response = await this.client(signal).chat({
        model: this.config.model,
        messages: request.messages.map((m, i) => (i === request.messages.length - 1 && request.images.length > 0 ? { ...m, images: request.images } : m)),
        format: request.format,
        stream: false,
        keep_alive: this.config.keepAlive,
        ...(request.disableThinking ? { think: false } : {}),
        options: { temperature: 0, seed: this.llm.seed, num_ctx: this.contextSize(request), num_predict: request.maxOutputTokens },
      });
      const usage = typeof response.prompt_eval_count === 'number' && typeof response.eval_count === 'number' ? { promptTokens: response.prompt_eval_count, outputTokens: response.eval_count } : undefined;
      return { content: response.message?.content ?? '', truncated: response.done_reason === 'length', ...(usage ? { usage } : {}) };
    } catch (error) {
      throw this.failure(error, request.signal, timedOut());
    }
  }

  async status(): Promise<EngineStatus> {
    const probe = await this.probe();
    if (probe.state === 'ready') return { ready: true, detail: `Ollama at ${this.config.host}, model ${this.config.model}${probe.vision ? ' (vision)' : ''}` };
    return { ready: false, detail: probe.detail };
  }

  async close(): Promise<void> {}

  private contextSize(request: ChatRequest): number {
    const wanted = request.promptTokens + request.maxOutputTokens + 256;
    return Math.min(this.llm.maxContextTokens, Math.ceil(wanted / CONTEXT_STEP) * CONTEXT_STEP);
  }

  /** A client per call, so each call carries its own abort signal (ollama-js takes `fetch` in its constructor). */
  private client(signal: AbortSignal): Ollama {
    const fetchImpl = this.fetchImpl;
    const boundFetch: typeof fetch = (input, init) => fetchImpl(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
    return new Ollama({ host: this.config.host, fetch: boundFetch });
  }

  private failure(error: unknown, requestSignal: AbortSignal, timedOut: boolean): Error {
    if (isResponseError(error)) {
      if (error.status_code === 404 && /not found/i.test(error.error)) {
        return backendUnavailable(`Ollama at ${this.config.host} has no model "${this.config.model}": ${pullHint(this.config.model)}`, error);
      }
      if (error.status_code === 503) return backendUnavailable(`Ollama at ${this.config.host} is busy or loading (${error.error})`, error);
    }
    return describeCallFailure(error, { backend: 'Ollama', where: this.config.host, requestSignal, timedOut, timeoutMs: this.llm.timeoutMs });
  }
}

/** "qwen2.5" and "qwen2.5:latest" are the same model to Ollama. */
function withTag(name: string): string {
  return name.includes(':') ? name : `${name}:latest`;
}
