/**
 * The language-model engine, whatever serves the model: builds the prompt,
 * asks the backend for JSON constrained to the schema, checks the answer
 * (parse, shape, Ajv against the caller's schema, grounding in the text) and
 * asks again with the problems, a bounded number of times. Long documents go
 * window by window (engines/windowed.ts).
 */
import type { LlmConfig } from '../config.js';
import { AppError } from '../errors.js';
import type { DocumentWindow } from '../extract/chunk.js';
import type { Engine, EngineStatus, ExtractionInput } from '../extract/engine.js';
import { checkGrounding, DocumentText } from '../extract/grounding.js';
import { toModelSchema } from '../extract/llm-schema.js';
import { parseAnswer, type ParsedAnswer } from '../extract/parse-answer.js';
import { describeAjvErrors } from '../extract/repair.js';
import { buildMessages, buildRetryMessages, estimateTokens, promptOverheadTokens } from '../extract/prompt.js';
import { compileCallerSchema, type CompiledSchema, type JsonSchema } from '../extract/schema.js';
import { shapeValue } from '../extract/shape.js';
import type { Logger } from '../logger.js';
import type { ChatBackend, ChatMessage, ChatReply } from './chat-backend.js';
import { extractInWindows } from './windowed.js';

/** Page pictures per model call: more would crowd the context and slow every call. */
const MAX_IMAGES_PER_CALL = 4;

/** Below this many tokens of room for document text, splitting would make windows too small to be useful. */
const MIN_WINDOW_TOKENS = 256;

type Assessment = ParsedAnswer;

interface WindowTask {
  window: DocumentWindow;
  windowCount: number;
  input: ExtractionInput;
  compiled: CompiledSchema;
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

  async extract(input: ExtractionInput): Promise<unknown> {
    const compiled = compileCallerSchema(input.schema);
    const format = toModelSchema(input.schema);
    const room = this.config.maxContextTokens - this.config.maxOutputTokens - promptOverheadTokens(input.schema);
    if (room < MIN_WINDOW_TOKENS) {
      throw new AppError('engine_failed', `the schema leaves no room for document text within LLM_MAX_CONTEXT_TOKENS=${this.config.maxContextTokens}; raise it or lower LLM_MAX_OUTPUT_TOKENS`);
    }
    return extractInWindows(input, { maxTokens: room, concurrency: this.config.chunkConcurrency }, (window, windowCount) =>
      this.extractWindow({ window, windowCount, input, compiled, format }),
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
  private async extractWindow(task: WindowTask): Promise<unknown> {
    const first = buildMessages({ schema: task.input.schema, documentText: task.window.text, ...(task.windowCount > 1 ? { part: task.window.label } : {}) });
    const text = new DocumentText(task.window.text);
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
    return best.value;
  }

  /** Parses one answer, lists what is wrong with it, and gives up values the document does not contain. */
  private assess(content: string, task: WindowTask, text: DocumentText): Assessment {
    const parsed = parseAnswer(content);
    if (parsed.value === undefined) return parsed;
    const problems = [...parsed.problems, ...validationProblems(parsed.value, task.compiled)];
    const grounded = checkGrounding(parsed.value, task.input.schema, text, this.config.ungrounded === 'null');
    if (grounded.ungrounded.length > 0) {
      this.logger.debug({ engine: this.name, ungrounded: grounded.ungrounded.length, policy: this.config.ungrounded }, 'values not found in the document text');
    }
    return { kind: parsed.kind, value: grounded.value, problems };
  }
}

/** What Ajv says about the answer once shaped (types coerced, missing values null): the problems worth a retry. */
function validationProblems(value: unknown, compiled: CompiledSchema): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['the answer must be a JSON object'];
  const shaped = shapeValue(value, compiled.schema, { root: compiled.schema, dayFirst: true });
  if (compiled.validateNullable(shaped)) return [];
  return describeAjvErrors(compiled.validateNullable.errors ?? []);
}
