/**
 * A GGUF model run in this process by node-llama-cpp, on the CPU unless
 * LLAMA_GPU is set: no model server at all. node-llama-cpp is loaded only
 * when this engine is chosen, so the service starts (with another engine)
 * even where its native binary is missing. Calls run one at a time: they
 * use every configured thread, and two at once would only contend.
 */
import { AppError } from '../../../errors.js';
import type { LlamaCppConfig, LlmConfig } from '../../../config.js';
import type { EngineStatus } from '../../../extract/engine.js';
import type { JsonSchema } from '../../../extract/schema.js';
import { callSignal, describeCallFailure } from './backend-errors.js';
import type { ChatBackend, ChatReply, ChatRequest } from './chat-backend.js';

type NodeLlamaCpp = typeof import('node-llama-cpp');
type Llama = Awaited<ReturnType<NodeLlamaCpp['getLlama']>>;
type LlamaModel = Awaited<ReturnType<Llama['loadModel']>>;
type Grammar = Awaited<ReturnType<Llama['createGrammarForJsonSchema']>>;
type HistoryItem = import('node-llama-cpp').ChatHistoryItem;

const GRAMMAR_CACHE_LIMIT = 32;
/** Room for the chat template's own tokens around the messages. */
const TEMPLATE_TOKENS = 256;

export async function loadNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  try {
    return await import('node-llama-cpp');
  } catch (error) {
    throw new AppError('backend_unavailable', `node-llama-cpp cannot be loaded on this platform (${(error as Error).message}); install it or use EXTRACTOR=ollama`, { cause: error });
  }
}

export class LlamaCppBackend implements ChatBackend {
  readonly name: string;
  readonly acceptsImages = false;
  private readonly grammars = new Map<string, Promise<Grammar>>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly lib: NodeLlamaCpp,
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly modelPath: string,
    private readonly config: LlamaCppConfig,
    private readonly llm: LlmConfig,
  ) {
    this.name = `llamacpp:${modelPath.split(/[\\/]/).pop() ?? modelPath}`;
  }

  static async load(modelPath: string, config: LlamaCppConfig, llm: LlmConfig): Promise<LlamaCppBackend> {
    const lib = await loadNodeLlamaCpp();
    // build: 'never' -- a missing prebuilt binary must fail now, not start a compiler download on an offline host
    const llama = await lib.getLlama({ gpu: config.gpu ? 'auto' : false, build: 'never', maxThreads: config.threads, logLevel: lib.LlamaLogLevel.error, progressLogs: false });
    try {
      const model = await llama.loadModel({ modelPath });
      return new LlamaCppBackend(lib, llama, model, modelPath, config, llm);
    } catch (error) {
      await llama.dispose();
      throw new AppError('backend_unavailable', `cannot load the GGUF model ${modelPath}: ${(error as Error).message}`, { cause: error });
    }
  }

  chat(request: ChatRequest): Promise<ChatReply> {
    const turn = this.queue.then(() => this.run(request));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  async status(): Promise<EngineStatus> {
    return { ready: true, detail: `in-process llama.cpp, model ${this.modelPath}, ${this.config.threads} thread(s)${this.config.gpu ? ', GPU allowed' : ', CPU'}` };
  }

  async close(): Promise<void> {
    await this.queue;
    await this.model.dispose();
    await this.llama.dispose();
  }

  private async run(request: ChatRequest): Promise<ChatReply> {
    request.signal.throwIfAborted();
    const { signal, timedOut } = callSignal(request.signal, this.llm.timeoutMs);
    const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
    const turns = request.messages.filter((m) => m.role !== 'system');
    const last = turns.pop();
    if (!last || last.role !== 'user') throw new AppError('internal', 'a chat must end with a user message');
    const promptTokens = this.model.tokenize(request.messages.map((m) => m.content).join('\n')).length + TEMPLATE_TOKENS;
    const contextSize = Math.min(this.model.trainContextSize, promptTokens + request.maxOutputTokens);
    if (promptTokens >= contextSize) {
      throw new AppError('engine_failed', `the prompt (${promptTokens} tokens) does not fit the model's context of ${this.model.trainContextSize} tokens; lower LLM_MAX_CONTEXT_TOKENS`);
    }
    const context = await this.model.createContext({ contextSize, threads: this.config.threads });
    try {
      const session = new this.lib.LlamaChatSession({ contextSequence: context.getSequence(), systemPrompt: system });
      const history: HistoryItem[] = [{ type: 'system', text: system }];
      for (const turn of turns) history.push(turn.role === 'assistant' ? { type: 'model', response: [turn.content] } : { type: 'user', text: turn.content });
      session.setChatHistory(history);
      const answer = await session.promptWithMeta(last.content, {
        grammar: await this.grammar(request.format),
        maxTokens: Math.min(request.maxOutputTokens, contextSize - promptTokens),
        temperature: 0,
        seed: this.llm.seed,
        signal,
      });
      const usage = { promptTokens, outputTokens: this.model.tokenize(answer.responseText).length };
      return { content: answer.responseText, truncated: answer.stopReason === 'maxTokens', usage };
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason;
      throw describeCallFailure(error, { backend: 'llama.cpp', where: this.modelPath, requestSignal: request.signal, timedOut: timedOut(), timeoutMs: this.llm.timeoutMs });
    } finally {
      await context.dispose();
    }
  }

  /** Grammars take a moment to build; callers tend to send the same schema again. */
  private grammar(format: JsonSchema): Promise<Grammar> {
    const key = JSON.stringify(format);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      grammar = this.llama.createGrammarForJsonSchema(format as Parameters<Llama['createGrammarForJsonSchema']>[0]);
      grammar.catch(() => this.grammars.delete(key));
      this.grammars.set(key, grammar);
      if (this.grammars.size > GRAMMAR_CACHE_LIMIT) this.grammars.delete(this.grammars.keys().next().value!);
    }
    return grammar;
  }
}
