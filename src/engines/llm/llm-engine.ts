/**
 * The language-model engine, whatever serves the model: builds the prompt,
 * asks the backend for JSON constrained to the schema, checks the answer
 * (parse, shape and validate as finalize() will, grounding in the text,
 * which also says where each value was read) and asks again with the
 * problems, a bounded number of times. Long documents go window by window
 * (windowed.ts), sized to what the model holds (budget.ts).
 */
import type { LlmConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Engine, EngineStatus, Extraction, ExtractionInput, UngroundedValue } from '../../schema/engine.js';
import { isDayFirst } from '../../schema/date-order.js';
import { answerProblems } from '../../schema/finalize.js';
import type { JsonSchema } from '../../schema/json-schema.js';
import type { Provenance } from '../../schema/provenance.js';
import type { Logger } from '../../logger.js';
import { valueAtPointer } from '../../util/json-pointer.js';
import type { ChatBackend, ChatMessage, ChatReply } from './backends/chat-backend.js';
import { planBudget, type TokenBudget } from './budget.js';
import { checkGrounding, DocumentText } from './grounding.js';
import { toModelSchema } from './model-schema.js';
import { parseAnswer, type ParsedAnswer } from './parse-answer.js';
import { buildMessages, buildRetryMessages, buildShortRetryMessages } from './prompt.js';
import { extractInWindows } from './windowed.js';
import type { DocumentWindow } from './windows.js';

/** Page pictures per model call: more would crowd the context and slow every call. */
const MAX_IMAGES_PER_CALL = 4;
/** Room a new answer needs beyond the length of the one it corrects. */
const RETRY_ANSWER_SLACK = 64;

type Assessment = ParsedAnswer & { provenance: Provenance; ungrounded: UngroundedValue[] };

interface WindowTask {
  window: DocumentWindow;
  windowCount: number;
  input: ExtractionInput;
  format: JsonSchema;
  budget: TokenBudget;
}

export class LlmEngine implements Engine {
  readonly name: string;

  constructor(
    private readonly backend: ChatBackend,
    private readonly config: LlmConfig,
    private readonly logger: Logger,
  ) {
    this.name = backend.name;
  }

  async extract(input: ExtractionInput): Promise<Extraction> {
    const schema = input.compiled.schema;
    const format = toModelSchema(schema);
    const budget = planBudget(this.config, await this.backend.capacity(), this.backend.tokenizer, schema);
    return extractInWindows(input, { maxTokens: budget.windowTokens, concurrency: this.config.chunkConcurrency, count: budget.countText }, (window, windowCount) =>
      this.extractWindow({ window, windowCount, input, format, budget }),
    );
  }

  status(): Promise<EngineStatus> {
    return this.backend.status();
  }

  close(): Promise<void> {
    return this.backend.close();
  }

  private async imagesFor(task: WindowTask): Promise<string[]> {
    if (!this.backend.acceptsImages || !task.input.pageImages) return [];
    // an e-invoice page is no picture: its values are text (ingest/einvoice/)
    const pages = task.window.document.files.flatMap((file) => file.pages.filter((page) => page.source !== 'e-invoice').map((page) => ({ file: file.index, page: page.index })));
    return task.input.pageImages(pages.slice(0, MAX_IMAGES_PER_CALL));
  }

  /** Asks, checks, asks again with the problems (at most LLM_MAX_RETRIES more times); returns the best answer. */
  private async extractWindow(task: WindowTask): Promise<Extraction> {
    const first = buildMessages({ schema: task.input.compiled.schema, documentText: task.window.layout.text, ...(task.windowCount > 1 ? { part: task.window.label } : {}) });
    const text = new DocumentText(task.window.layout, isDayFirst(task.input.options.dateOrder));
    const images = await this.imagesFor(task);
    const { budget } = task;
    let messages: ChatMessage[] | undefined = first;
    let disableThinking = false;
    let best: Assessment | undefined;
    let last: Assessment | undefined;
    for (let attempt = 0; attempt <= this.config.maxRetries && messages; attempt++) {
      const promptTokens = budget.countChat(messages);
      let reply: ChatReply;
      try {
        reply = await this.backend.chat({
          messages,
          format: task.format,
          promptTokens,
          maxOutputTokens: Math.min(budget.outputTokens, budget.contextTokens - promptTokens),
          documentChars: task.window.layout.text.length,
          images,
          disableThinking,
          signal: task.input.signal,
        });
      } catch (error) {
        task.input.usage?.modelCall({ outcome: 'failed', retry: attempt > 0 });
        throw error;
      }
      last = this.assess(reply.content, task, text);
      task.input.usage?.modelCall({ outcome: 'ok', retry: attempt > 0, ...reply.usage, answer: last.value === undefined ? 'unusable' : last.problems.length === 0 ? 'valid' : 'invalid' });
      // a thinking model that spent its answer thinking is asked again without thinking
      if (last.kind === 'empty') disableThinking = true;
      // a retry can be worse than the answer before it: keep the one with the fewest problems
      if (last.value !== undefined && (best === undefined || last.problems.length <= best.problems.length)) best = last;
      if (last.value !== undefined && last.problems.length === 0) break;
      // an answer cut off by the output limit would be cut off again: keep what was salvaged
      if (last.kind === 'salvaged' && reply.truncated) break;
      this.logger.debug({ engine: this.name, attempt, kind: last.kind, problems: last.problems.length }, 'model answer needs another try');
      messages = this.retryMessages(first, reply.content, last.problems, budget);
    }
    if (best === undefined) {
      throw new AppError('engine_failed', `${this.name} gave no usable answer after ${this.config.maxRetries + 1} attempts`, { details: (last?.problems ?? []).slice(0, 10) });
    }
    if (best.ungrounded.length > 0) task.input.usage?.ungrounded?.(best.ungrounded, this.config.ungrounded === 'null');
    return { value: best.value, provenance: best.provenance };
  }

  /**
   * The conversation for another try: the answer and its problems when a new
   * answer of about its length still fits the context, else the first
   * request with the problems added; undefined when neither leaves room.
   */
  private retryMessages(first: ChatMessage[], answer: string, problems: string[], budget: TokenBudget): ChatMessage[] | undefined {
    const needed = Math.min(budget.outputTokens, budget.countText(answer) + RETRY_ANSWER_SLACK);
    const full = buildRetryMessages(first, answer, problems);
    if (budget.contextTokens - budget.countChat(full) >= needed) return full;
    const short = buildShortRetryMessages(first, problems);
    if (budget.contextTokens - budget.countChat(short) >= Math.min(needed, RETRY_ANSWER_SLACK)) return short;
    this.logger.debug({ engine: this.name }, 'no room in the context for another try');
    return undefined;
  }

  /** Parses one answer, lists what is wrong with it, and gives up values the document does not contain. */
  private assess(content: string, task: WindowTask, text: DocumentText): Assessment {
    const parsed = parseAnswer(content);
    if (parsed.value === undefined) return { ...parsed, provenance: new Map(), ungrounded: [] };
    const { compiled, options } = task.input;
    const problems = [...parsed.problems, ...answerProblems(parsed.value, compiled, options)];
    const grounded = checkGrounding(parsed.value, compiled.schema, text, this.config.ungrounded === 'null');
    if (grounded.ungrounded.length > 0) {
      this.logger.debug({ engine: this.name, ungrounded: grounded.ungrounded.length, policy: this.config.ungrounded }, 'values not found in the document text');
    }
    const ungrounded = grounded.ungrounded.map((pointer) => ({ pointer, value: pointer === '/' ? parsed.value : valueAtPointer(parsed.value, pointer) }));
    return { kind: parsed.kind, value: grounded.value, problems, provenance: grounded.provenance, ungrounded };
  }
}
