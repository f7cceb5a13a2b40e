/**
 * The language-model engine, whatever serves the model: builds the prompt,
 * asks the backend for JSON constrained to the schema, checks the answer
 * (parse, shape and validate as finalize() will, grounding in the text,
 * which also says where each value was read) and asks again with the
 * problems, a bounded number of times. Long documents go window by window
 * (windowed.ts).
 */
import type { LlmConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Engine, EngineStatus, Extraction, ExtractionInput } from '../../extract/engine.js';
import { isDayFirst } from '../../extract/date-order.js';
import { answerProblems } from '../../extract/finalize.js';
import type { JsonSchema } from '../../extract/json-schema.js';
import type { Provenance } from '../../extract/provenance.js';
import type { Logger } from '../../logger.js';
import type { ChatBackend, ChatMessage, ChatReply } from './backends/chat-backend.js';
import { checkGrounding, DocumentText } from './grounding.js';
import { toModelSchema } from './model-schema.js';
import { parseAnswer, type ParsedAnswer } from './parse-answer.js';
import { buildMessages, buildRetryMessages, estimateTokens, promptOverheadTokens } from './prompt.js';
import { extractInWindows } from './windowed.js';
import type { DocumentWindow } from './windows.js';

/** Page pictures per model call: more would crowd the context and slow every call. */
const MAX_IMAGES_PER_CALL = 4;

/** Below this many tokens of room for document text, splitting would make windows too small to be useful. */
const MIN_WINDOW_TOKENS = 256;

type Assessment = ParsedAnswer & { provenance: Provenance };

interface WindowTask {
  window: DocumentWindow;
  windowCount: number;
  input: ExtractionInput;
  format: JsonSchema;
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
    const room = this.config.maxContextTokens - this.config.maxOutputTokens - promptOverheadTokens(schema);
    if (room < MIN_WINDOW_TOKENS) {
      throw new AppError('engine_failed', `the schema leaves no room for document text within LLM_MAX_CONTEXT_TOKENS=${this.config.maxContextTokens}; raise it or lower LLM_MAX_OUTPUT_TOKENS`);
    }
    return extractInWindows(input, { maxTokens: room, concurrency: this.config.chunkConcurrency }, (window, windowCount) =>
      this.extractWindow({ window, windowCount, input, format }),
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
    const pages = task.window.document.files.flatMap((file) => file.pages.map((page) => ({ file: file.index, page: page.index })));
    return task.input.pageImages(pages.slice(0, MAX_IMAGES_PER_CALL));
  }

  /** Asks, checks, asks again with the problems (at most LLM_MAX_RETRIES more times); returns the best answer. */
  private async extractWindow(task: WindowTask): Promise<Extraction> {
    const first = buildMessages({ schema: task.input.compiled.schema, documentText: task.window.layout.text, ...(task.windowCount > 1 ? { part: task.window.label } : {}) });
    const text = new DocumentText(task.window.layout, isDayFirst(task.input.options.dateOrder));
    const images = await this.imagesFor(task);
    let messages: ChatMessage[] = first;
    let disableThinking = false;
    let best: Assessment | undefined;
    let last: Assessment | undefined;
    for (let attempt = 0; attempt <= this.config.maxRetries; attempt++) {
      let reply: ChatReply;
      try {
        reply = await this.backend.chat({
          messages,
          format: task.format,
          promptTokens: messages.reduce((sum, m) => sum + estimateTokens(m.content) + 4, 0),
          maxOutputTokens: this.config.maxOutputTokens,
          images,
          disableThinking,
          signal: task.input.signal,
        });
      } catch (error) {
        task.input.usage?.modelCall({ outcome: 'failed', retry: attempt > 0 });
        throw error;
      }
      task.input.usage?.modelCall({ outcome: 'ok', retry: attempt > 0, ...reply.usage });
      last = this.assess(reply.content, task, text);
      // a thinking model that spent its answer thinking is asked again without thinking
      if (last.kind === 'empty') disableThinking = true;
      // a retry can be worse than the answer before it: keep the one with the fewest problems
      if (last.value !== undefined && (best === undefined || last.problems.length <= best.problems.length)) best = last;
      if (last.value !== undefined && last.problems.length === 0) break;
      // an answer cut off by the output limit would be cut off again: keep what was salvaged
      if (last.kind === 'salvaged' && reply.truncated) break;
      this.logger.debug({ engine: this.name, attempt, kind: last.kind, problems: last.problems.length }, 'model answer needs another try');
      messages = buildRetryMessages(first, reply.content, last.problems);
    }
    if (best === undefined) {
      throw new AppError('engine_failed', `${this.name} gave no usable answer after ${this.config.maxRetries + 1} attempts`, { details: (last?.problems ?? []).slice(0, 10) });
    }
    return { value: best.value, provenance: best.provenance };
  }

  /** Parses one answer, lists what is wrong with it, and gives up values the document does not contain. */
  private assess(content: string, task: WindowTask, text: DocumentText): Assessment {
    const parsed = parseAnswer(content);
    if (parsed.value === undefined) return { ...parsed, provenance: new Map() };
    const { compiled, options } = task.input;
    const problems = [...parsed.problems, ...answerProblems(parsed.value, compiled, options)];
    const grounded = checkGrounding(parsed.value, compiled.schema, text, this.config.ungrounded === 'null');
    if (grounded.ungrounded.length > 0) {
      this.logger.debug({ engine: this.name, ungrounded: grounded.ungrounded.length, policy: this.config.ungrounded }, 'values not found in the document text');
    }
    return { kind: parsed.kind, value: grounded.value, problems, provenance: grounded.provenance };
  }
}
