/**
 * A GGUF model run in this process by node-llama-cpp, on the CPU unless
 * LLAMA_GPU is set: no model server at all. node-llama-cpp is loaded only
 * when this engine is chosen, so the service starts (with another engine)
 * even where its native binary is missing.
 *
 * The model and one context stay loaded between requests: the context holds
 * min(GGUF context length, LLM_MAX_CONTEXT_TOKENS) tokens, and the engine
 * sizes its windows to it, counting with the model's own tokenizer and chat
 * template. Calls take turns on that context (turn-queue.ts). Each call
 * starts from what the context already holds: the tokens a prompt shares
 * with the one before (system prompt and schema, when the schema is the
 * same) are not evaluated again. An answer that falls into a loop is
 * stopped there (runaway.ts) and returned as cut off.
 */
import { AppError } from '../../../errors.js';
import type { LlamaCppConfig, LlmConfig } from '../../../config.js';
import type { EngineStatus } from '../../../schema/engine.js';
import type { JsonSchema } from '../../../schema/schema.js';
import { backendTimeout, callSignal, describeCallFailure } from './backend-errors.js';
import type { ChatBackend, ChatMessage, ChatReply, ChatRequest, ModelCapacity, TokenCounter } from './chat-backend.js';
import { RunawayWatch } from './runaway.js';
import { TurnQueue } from './turn-queue.js';

type NodeLlamaCpp = typeof import('node-llama-cpp');
type Llama = Awaited<ReturnType<NodeLlamaCpp['getLlama']>>;
type LlamaModel = Awaited<ReturnType<Llama['loadModel']>>;
type LlamaContext = Awaited<ReturnType<LlamaModel['createContext']>>;
type LlamaChat = InstanceType<NodeLlamaCpp['LlamaChat']>;
type Grammar = Awaited<ReturnType<Llama['createGrammarForJsonSchema']>>;
type HistoryItem = import('node-llama-cpp').ChatHistoryItem;

const GRAMMAR_CACHE_LIMIT = 32;
/** Smallest context worth running with when memory does not allow the whole size. */
const MIN_CONTEXT_TOKENS = 1024;

export async function loadNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  try {
    return await import('node-llama-cpp');
  } catch (error) {
    throw new AppError('backend_unavailable', `node-llama-cpp cannot be loaded on this platform (${(error as Error).message}); install it or use EXTRACTOR=ollama`, { cause: error });
  }
}

/** The chat as node-llama-cpp's chat wrappers read it, ending where the model's answer begins. */
function toHistory(messages: ChatMessage[]): HistoryItem[] {
  const history: HistoryItem[] = messages.map((message) => {
    if (message.role === 'system') return { type: 'system', text: message.content };
    if (message.role === 'user') return { type: 'user', text: message.content };
    return { type: 'model', response: [message.content] };
  });
  history.push({ type: 'model', response: [] });
  return history;
}

/** Thrown instead of letting node-llama-cpp drop the start of the chat to make room: an answer from half a document is worse than none. */
function refuseToShift(): never {
  throw new AppError('engine_failed', "the prompt and the answer outgrew the model's context; the document text would have been cut, so the call was stopped");
}

export class LlamaCppBackend implements ChatBackend {
  readonly name: string;
  readonly acceptsImages = false;
  readonly tokenizer: TokenCounter;
  private readonly grammars = new Map<string, Promise<Grammar>>();
  private readonly turns = new TurnQueue();
  private readonly chatSession: LlamaChat;

  private constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    lib: NodeLlamaCpp,
    private readonly modelPath: string,
    private readonly config: LlamaCppConfig,
    private readonly llm: LlmConfig,
  ) {
    this.name = `llamacpp:${modelPath.split(/[\\/]/).pop() ?? modelPath}`;
    this.chatSession = new lib.LlamaChat({ contextSequence: context.getSequence() });
    this.tokenizer = {
      text: (text) => model.tokenize(text).length,
      chat: (messages) => this.chatTokens(toHistory(messages)),
    };
  }

  static async load(modelPath: string, config: LlamaCppConfig, llm: LlmConfig): Promise<LlamaCppBackend> {
    const lib = await loadNodeLlamaCpp();
    // build: 'never' -- a missing prebuilt binary must fail now, not start a compiler download on an offline host
    const llama = await lib.getLlama({ gpu: config.gpu ? 'auto' : false, build: 'never', maxThreads: config.threads, logLevel: lib.LlamaLogLevel.error, progressLogs: false });
    let model: LlamaModel | undefined;
    try {
      model = await llama.loadModel({ modelPath });
      const wanted = Math.min(model.trainContextSize, llm.maxContextTokens);
      // node-llama-cpp lowers the size (not below min) when memory is short; capacity() reports what it got
      const context = await model.createContext({ contextSize: { min: Math.min(wanted, MIN_CONTEXT_TOKENS), max: wanted }, threads: config.threads, sequences: 1 });
      return new LlamaCppBackend(llama, model, context, lib, modelPath, config, llm);
    } catch (error) {
      await model?.dispose();
      await llama.dispose();
      throw new AppError('backend_unavailable', `cannot load the GGUF model ${modelPath}: ${(error as Error).message}`, { cause: error });
    }
  }

  chat(request: ChatRequest): Promise<ChatReply> {
    return this.turns.run(request.signal, () => this.run(request));
  }

  async capacity(): Promise<ModelCapacity> {
    const size = this.context.contextSize;
    const trained = this.model.trainContextSize;
    const source = size < trained ? `the in-process context (the GGUF holds ${trained}; LLM_MAX_CONTEXT_TOKENS or memory allowed ${size})` : "the GGUF's context length";
    return { contextTokens: size, source };
  }

  async status(): Promise<EngineStatus> {
    const waiting = this.turns.length > 0 ? `, ${this.turns.length} call(s) waiting` : '';
    return { ready: true, detail: `in-process llama.cpp, model ${this.modelPath}, context ${this.context.contextSize} tokens, ${this.config.threads} thread(s)${this.config.gpu ? ', GPU allowed' : ', CPU'}${waiting}` };
  }

  async close(): Promise<void> {
    await this.turns.drained();
    await this.context.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }

  private chatTokens(history: HistoryItem[]): number {
    const { contextText } = this.chatSession.chatWrapper.generateContextState({ chatHistory: history });
    return contextText.tokenize(this.model.tokenizer).length;
  }

  private async run(request: ChatRequest): Promise<ChatReply> {
    request.signal.throwIfAborted();
    const history = toHistory(request.messages);
    const promptTokens = this.chatTokens(history);
    const contextSize = this.context.contextSize;
    // the engine sized the prompt with this same tokenizer, so this only trips when a caller skipped that
    if (promptTokens >= contextSize) {
      throw new AppError('engine_failed', `the prompt (${promptTokens} tokens) does not fit the model's context of ${contextSize} tokens`);
    }
    const { signal, timedOut, clear } = callSignal(request.signal, this.llm.timeoutMs);
    const loop = new AbortController();
    const watch = new RunawayWatch(request.documentChars);
    const sequence = this.chatSession.sequence;
    const meter = sequence.tokenMeter.getState();
    const started = performance.now();
    let firstToken: number | undefined;
    try {
      const answer = await this.chatSession.generateResponse(history, {
        grammar: await this.grammar(request.format),
        maxTokens: Math.min(request.maxOutputTokens, contextSize - promptTokens),
        temperature: 0,
        seed: this.llm.seed,
        // a loop ends the answer where it is; the request's own abort and the time limit are errors, checked below
        signal: AbortSignal.any([signal, loop.signal]),
        stopOnAbortSignal: true,
        contextShift: { strategy: refuseToShift },
        onToken: () => {
          firstToken ??= performance.now();
        },
        onTextChunk: (text) => {
          if (watch.push(text)) loop.abort();
        },
      });
      request.signal.throwIfAborted();
      if (timedOut()) throw backendTimeout('llama.cpp', this.llm.timeoutMs);
      const finished = performance.now();
      const used = sequence.tokenMeter.diff(meter);
      const usage = {
        promptTokens,
        outputTokens: used.usedOutputTokens,
        reusedPromptTokens: Math.max(0, promptTokens - used.usedInputTokens),
        promptMs: (firstToken ?? finished) - started,
        generationMs: finished - (firstToken ?? finished),
      };
      return { content: answer.response, truncated: answer.metadata.stopReason === 'maxTokens' || loop.signal.aborted, usage };
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason;
      throw describeCallFailure(error, { backend: 'llama.cpp', where: this.modelPath, requestSignal: request.signal, timedOut: timedOut(), timeoutMs: this.llm.timeoutMs });
    } finally {
      clear();
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
