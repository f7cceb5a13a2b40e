/**
 * Ollama as the model backend (the default): /api/chat with `format` set to
 * the model schema, temperature 0 and a fixed seed, and a context window
 * (num_ctx) sized to the prompt, because Ollama's own default (2-4k tokens)
 * silently cuts long documents. The model's own context length comes from
 * /api/show; the engine sizes windows to it. Ollama cuts a prompt that does
 * not fit num_ctx without saying so, and reports the tokens it kept
 * (prompt_eval_count): an answer whose count shows the context was full is
 * refused rather than read from part of a document.
 */
import { Ollama } from 'ollama';
import type { LlmConfig, OllamaConfig } from '../../../config.js';
import { AppError } from '../../../errors.js';
import type { EngineStatus } from '../../../schema/engine.js';
import { silentLogger, type Logger } from '../../../logger.js';
import { deadline } from '../../../util/deadline.js';
import { backendUnavailable, callSignal, describeCallFailure } from './backend-errors.js';
import type { ChatBackend, ChatReply, ChatRequest, ModelCapacity } from './chat-backend.js';

/** Context windows are asked for in steps, so that Ollama can reuse a loaded model instead of reloading it for every size. */
const CONTEXT_STEP = 2048;
/** Room for the chat template's tokens around the estimated messages. */
const TEMPLATE_TOKENS = 256;
/** A prompt counted within this many tokens of num_ctx filled the context: Ollama cut it to fit. */
const FULL_CONTEXT_SLACK = 8;

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
  /** The model's context length from /api/show, once shown (undefined also when /api/show does not say). */
  private modelContext: number | undefined;
  private shown = false;

  constructor(
    private readonly config: OllamaConfig,
    private readonly llm: LlmConfig,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly logger: Logger = silentLogger(),
  ) {
    this.name = `ollama:${config.model}`;
  }

  /** Is Ollama there, does it have the model, can the model see? Bounded by OLLAMA_PROBE_TIMEOUT_MS. */
  async probe(): Promise<OllamaProbe> {
    const limit = deadline(this.config.probeTimeoutMs);
    try {
      const client = this.client(limit.signal);
      const { models } = await client.list();
      const wanted = withTag(this.config.model);
      if (!models.some((m) => withTag(m.name) === wanted || withTag(m.model) === wanted)) {
        return { state: 'no-model', detail: `Ollama at ${this.config.host} has no model "${this.config.model}": ${pullHint(this.config.model)}` };
      }
      const shown = await client.show({ model: this.config.model });
      const vision = (shown.capabilities ?? []).includes('vision');
      this.acceptsImages = vision && this.llm.vision;
      this.modelContext = contextLength(shown.model_info);
      this.shown = true;
      return { state: 'ready', vision };
    } catch (error) {
      if (limit.expired()) return { state: 'down', detail: `Ollama at ${this.config.host} did not answer within ${this.config.probeTimeoutMs} ms` };
      const failure = describeCallFailure(error, { backend: 'Ollama', where: this.config.host, requestSignal: new AbortController().signal, timedOut: false, timeoutMs: 0 });
      return { state: failure.code === 'backend_unavailable' ? 'down' : 'error', detail: failure.message };
    } finally {
      limit.clear();
    }
  }

  async chat(request: ChatRequest): Promise<ChatReply> {
    const { signal, timedOut, clear } = callSignal(request.signal, this.llm.timeoutMs);
    const numCtx = this.contextSize(request);
    let response: Awaited<ReturnType<Ollama['chat']>>;
    try {
      response = await this.client(signal).chat({
        model: this.config.model,
        messages: request.messages.map((m, i) => (i === request.messages.length - 1 && request.images.length > 0 ? { ...m, images: request.images } : m)),
        format: request.format,
        stream: false,
        keep_alive: this.config.keepAlive,
        ...(request.disableThinking ? { think: false } : {}),
        options: { temperature: 0, seed: this.llm.seed, num_ctx: numCtx, num_predict: request.maxOutputTokens },
      });
    } catch (error) {
      throw this.failure(error, request.signal, timedOut());
    } finally {
      clear();
    }
    const usage = typeof response.prompt_eval_count === 'number' && typeof response.eval_count === 'number' ? { promptTokens: response.prompt_eval_count, outputTokens: response.eval_count } : undefined;
    if (usage) this.checkNotCut(usage, request.promptTokens, numCtx);
    return { content: response.message?.content ?? '', truncated: response.done_reason === 'length', ...(usage ? { usage } : {}) };
  }

  /**
   * Ollama reports the prompt tokens it kept. The estimate that sized
   * num_ctx errs high, so an intact prompt counts fewer tokens than num_ctx
   * less the answer's room; a count that reaches num_ctx (or an answer that
   * ran past it) means Ollama cut the prompt, or shifted it out while
   * answering: the answer was read from part of the document.
   */
  private checkNotCut(usage: { promptTokens: number; outputTokens: number }, estimated: number, numCtx: number): void {
    const filled = usage.promptTokens >= numCtx - FULL_CONTEXT_SLACK || usage.promptTokens + usage.outputTokens > numCtx;
    const detail = { engine: this.name, promptEvalCount: usage.promptTokens, evalCount: usage.outputTokens, estimatedPromptTokens: estimated, numCtx };
    if (filled) {
      this.logger.warn(detail, 'Ollama cut the prompt to fit its context');
      throw new AppError(
        'engine_failed',
        `Ollama cut the prompt: it kept ${usage.promptTokens} tokens of a ${numCtx}-token context (num_ctx) for a prompt estimated at ${estimated}; an answer from part of the document was refused. Lower LLM_MAX_CONTEXT_TOKENS or use a model with a longer context`,
      );
    }
    if (usage.promptTokens > estimated) this.logger.warn(detail, 'the prompt counted more tokens than estimated');
  }

  async status(): Promise<EngineStatus> {
    const probe = await this.probe();
    if (probe.state === 'ready') return { ready: true, detail: `Ollama at ${this.config.host}, model ${this.config.model}${probe.vision ? ' (vision)' : ''}` };
    return { ready: false, detail: probe.detail };
  }

  /** The model's context length from /api/show (asked again while Ollama has not answered). */
  async capacity(): Promise<ModelCapacity> {
    if (!this.shown) await this.probe();
    return this.modelContext === undefined
      ? { contextTokens: undefined, source: 'Ollama did not say' }
      : { contextTokens: this.modelContext, source: `${this.config.model}'s context length in Ollama's /api/show` };
  }

  async close(): Promise<void> {}

  private contextSize(request: ChatRequest): number {
    const wanted = request.promptTokens + request.maxOutputTokens + TEMPLATE_TOKENS;
    const limit = Math.min(this.llm.maxContextTokens, this.modelContext ?? Number.POSITIVE_INFINITY);
    return Math.min(limit, Math.ceil(wanted / CONTEXT_STEP) * CONTEXT_STEP);
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

/** `<architecture>.context_length` of /api/show's model_info (a plain object on the wire, typed as a Map by ollama-js). */
function contextLength(info: unknown): number | undefined {
  const entries = info instanceof Map ? [...info.entries()] : typeof info === 'object' && info !== null ? Object.entries(info) : [];
  const found = entries.find(([key, value]) => typeof key === 'string' && key.endsWith('.context_length') && typeof value === 'number' && value > 0);
  return found ? (found[1] as number) : undefined;
}

/** "qwen2.5" and "qwen2.5:latest" are the same model to Ollama. */
function withTag(name: string): string {
  return name.includes(':') ? name : `${name}:latest`;
}
