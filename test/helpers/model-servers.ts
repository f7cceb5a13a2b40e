/**
 * Small HTTP servers that speak the Ollama protocol (/api/tags, /api/show,
 * /api/chat) and the OpenAI chat protocol (/v1/models,
 * /v1/chat/completions), so the real clients are tested over real HTTP.
 * Each request is answered by a `respond` function: backed by the tiny
 * in-process model for real inference, or scripted for the error paths.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatBackend, ChatMessage } from '../../src/engines/llm/backends/chat-backend.js';
import type { JsonSchema } from '../../src/schema/schema.js';

export interface ChatCall {
  messages: ChatMessage[];
  format: JsonSchema;
  body: Record<string, unknown>;
}

/** What the server does with one chat call. */
export type Scripted =
  /** An answer; `usage` as the model counted it, else REPORTED_TOKENS. */
  | { content: string; truncated?: boolean; usage?: { prompt: number; output: number } }
  | { status: number; error: string }
  /** Cut the connection without answering: the backend died mid-request. */
  | { hangUp: true }
  /** Never answer. */
  | { stall: true };

export type Respond = (call: ChatCall, index: number) => Promise<Scripted> | Scripted;

/** Tokens the fake servers report for every answered call, as Ollama (prompt_eval_count, eval_count) and OpenAI (usage) do. */
export const REPORTED_TOKENS = { prompt: 120, output: 30 } as const;

export interface ModelServer {
  url: string;
  calls: ChatCall[];
  close(): Promise<void>;
}

export interface FakeOllamaOptions {
  models?: string[];
  capabilities?: string[];
  /** The model's context length, as /api/show reports it in model_info. */
  contextLength?: number;
  respond: Respond;
}

export interface ResponderOptions {
  /**
   * Report the tokens the model counted (a real model's tokenizer), instead
   * of REPORTED_TOKENS. Not for the tiny GGUF: its one-token-per-byte
   * vocabulary counts three times what any real tokenizer does.
   */
  reportUsage?: boolean;
  timeoutMs?: number;
}

/** Answers chats with a real model behind a ChatBackend (the tiny GGUF, or the real model of the opt-in suite, through LlamaCppBackend), as long as the client asked for. */
export function modelResponder(backend: ChatBackend, options: ResponderOptions = {}): Respond {
  return async (call) => {
    const asked = (call.body['options'] as { num_predict?: unknown } | undefined)?.num_predict ?? call.body['max_tokens'];
    const reply = await backend.chat({
      messages: call.messages,
      format: call.format,
      promptTokens: 0,
      maxOutputTokens: typeof asked === 'number' && asked > 0 ? asked : 512,
      images: [],
      disableThinking: false,
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
    const usage = options.reportUsage && reply.usage ? { usage: { prompt: reply.usage.promptTokens, output: reply.usage.outputTokens } } : {};
    return { content: reply.content, truncated: reply.truncated, ...usage };
  };
}

export function startFakeOllama(options: FakeOllamaOptions): Promise<ModelServer> {
  const models = options.models ?? ['tiny:latest'];
  return startServer(async (req, res, body, calls) => {
    if (req.url === '/api/tags') return json(res, 200, { models: models.map((name) => ({ name, model: name })) });
    if (req.url === '/api/show') {
      if (!models.some((m) => m === body['model'] || m === `${String(body['model'])}:latest`)) return json(res, 404, { error: `model '${String(body['model'])}' not found` });
      const modelInfo = options.contextLength === undefined ? {} : { 'general.architecture': 'llama', 'llama.context_length': options.contextLength };
      return json(res, 200, { capabilities: options.capabilities ?? ['completion'], model_info: modelInfo });
    }
    if (req.url === '/api/chat') {
      const call: ChatCall = { messages: body['messages'] as ChatMessage[], format: body['format'] as JsonSchema, body };
      calls.push(call);
      const scripted = await options.respond(call, calls.length - 1);
      if (!('content' in scripted)) return answerFailure(req, res, scripted);
      // as Ollama does: a prompt longer than num_ctx is cut to num_ctx tokens, and the count says what was kept
      const numCtx = (body['options'] as { num_ctx?: unknown } | undefined)?.num_ctx;
      const prompt = scripted.usage?.prompt ?? REPORTED_TOKENS.prompt;
      return json(res, 200, {
        model: body['model'], message: { role: 'assistant', content: scripted.content }, done: true, done_reason: scripted.truncated ? 'length' : 'stop',
        prompt_eval_count: typeof numCtx === 'number' ? Math.min(prompt, numCtx) : prompt, eval_count: scripted.usage?.output ?? REPORTED_TOKENS.output,
      });
    }
    return json(res, 404, { error: 'not found' });
  });
}

export function startFakeOpenAi(respond: Respond): Promise<ModelServer> {
  return startServer(async (req, res, body, calls) => {
    if (req.url === '/v1/models') return json(res, 200, { data: [{ id: 'tiny' }] });
    if (req.url === '/v1/chat/completions') {
      const responseFormat = body['response_format'] as { json_schema?: { schema?: JsonSchema } } | undefined;
      const call: ChatCall = { messages: body['messages'] as ChatMessage[], format: responseFormat?.json_schema?.schema ?? {}, body };
      calls.push(call);
      const scripted = await respond(call, calls.length - 1);
      if (!('content' in scripted)) return answerFailure(req, res, scripted, true);
      return json(res, 200, {
        choices: [{ index: 0, message: { role: 'assistant', content: scripted.content }, finish_reason: scripted.truncated ? 'length' : 'stop' }],
        usage: { prompt_tokens: scripted.usage?.prompt ?? REPORTED_TOKENS.prompt, completion_tokens: scripted.usage?.output ?? REPORTED_TOKENS.output },
      });
    }
    return json(res, 404, { error: { message: 'not found' } });
  });
}

function answerFailure(req: IncomingMessage, res: ServerResponse, scripted: Exclude<Scripted, { content: string }>, openAiShape = false): void {
  if ('hangUp' in scripted) {
    req.socket.destroy();
    return;
  }
  if ('stall' in scripted) return;
  json(res, scripted.status, openAiShape ? { error: { message: scripted.error } } : { error: scripted.error });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>, calls: ChatCall[]) => Promise<void>;

async function startServer(handle: Handler): Promise<ModelServer> {
  const calls: ChatCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        // left empty: the handler answers what it can
      }
      handle(req, res, body, calls).catch((error: unknown) => {
        if (!res.headersSent) json(res, 500, { error: String(error) });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on: connections are refused at once. */
export async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
