/**
 * Bench rows for the in-process language model (DOCSHAPE_TEST_MODEL=<gguf>):
 * prompt and answer tokens per second through docshape's llama.cpp backend
 * next to node-llama-cpp driven directly on the same prompts, model, context
 * size and threads (their ratio is docshape's overhead), the prompt tokens a
 * same-schema request does not evaluate again, and seconds per receipt over
 * HTTP (OCR and model). Rows skip with a line when the variable is unset.
 */
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { LlamaCppBackend, loadNodeLlamaCpp } from '../../src/engines/llm/backends/llamacpp.js';
import type { ChatMessage } from '../../src/engines/llm/backends/chat-backend.js';
import { LlmEngine } from '../../src/engines/llm/llm-engine.js';
import { toModelSchema } from '../../src/engines/llm/model-schema.js';
import { buildMessages } from '../../src/engines/llm/prompt.js';
import type { ModelCallReport } from '../../src/schema/engine.js';
import type { JsonSchema } from '../../src/schema/json-schema.js';
import { compileCallerSchema } from '../../src/schema/schema.js';
import { renderLayoutText } from '../../src/ingest/layout.js';
import { silentLogger } from '../../src/logger.js';
import { buildDocument } from '../../test/helpers/document-builder.js';
import { startServices } from '../../src/services.js';
import { makeReceiptImage, RECEIPT_LINES } from '../../test/fixtures/images.js';
import { median } from '../eval/report.js';

type Report = (label: string, value: string) => void;

const RECEIPT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { store: { type: 'string' }, date: { type: 'string', description: 'Date of the purchase' }, total: { type: 'number', description: 'Total paid' } },
};
const ITEMS_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } } } },
};
/** Runs per schema; the two schemas alternate, so each call evaluates its schema and document afresh. */
const RUNS = 4;
const MAX_OUTPUT = 256;

interface Rates {
  promptTokens: number;
  promptMs: number;
  outputTokens: number;
  generationMs: number;
}

const perSecond = (tokens: number, ms: number) => (ms > 0 ? tokens / (ms / 1000) : NaN);

function receiptLines(extra: string[] = []): string[] {
  return [...RECEIPT_LINES.map((line) => (typeof line === 'string' ? line : `${line[0]}${' '.repeat(Math.max(2, 30 - line[0].length - line[1].length))}${line[1]}`)), ...extra];
}

/** node-llama-cpp on its own: a context of the same size and threads, LlamaChat on one sequence, the same grammar and limits. */
async function directRunner(modelPath: string, threads: number, contextSize: number) {
  const lib = await loadNodeLlamaCpp();
  const llama = await lib.getLlama({ gpu: false, build: 'never', maxThreads: threads, logLevel: lib.LlamaLogLevel.error, progressLogs: false });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize, threads, sequences: 1 });
  const sequence = context.getSequence();
  const chat = new lib.LlamaChat({ contextSequence: sequence });
  const grammars = new Map<string, Awaited<ReturnType<typeof llama.createGrammarForJsonSchema>>>();
  return {
    async run(messages: ChatMessage[], schema: JsonSchema): Promise<Rates> {
      const format = toModelSchema(schema);
      const key = JSON.stringify(format);
      if (!grammars.has(key)) grammars.set(key, await llama.createGrammarForJsonSchema(format as Parameters<typeof llama.createGrammarForJsonSchema>[0]));
      const history = [
        ...messages.map((m) => (m.role === 'system' ? { type: 'system' as const, text: m.content } : { type: 'user' as const, text: m.content })),
        { type: 'model' as const, response: [] },
      ];
      const meter = sequence.tokenMeter.getState();
      const started = performance.now();
      let first: number | undefined;
      await chat.generateResponse(history, { grammar: grammars.get(key)!, maxTokens: MAX_OUTPUT, temperature: 0, onToken: () => (first ??= performance.now()) });
      const finished = performance.now();
      const used = sequence.tokenMeter.diff(meter);
      return { promptTokens: used.usedInputTokens, promptMs: (first ?? finished) - started, outputTokens: used.usedOutputTokens, generationMs: finished - (first ?? finished) };
    },
    close: async () => {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

/**
 * docshape's side runs the whole language-model engine (prompt, budget,
 * queue, backend, parsing, validation, grounding); node-llama-cpp's side
 * only evaluates the same messages. Everything docshape does before the
 * first answer token counts as its prompt time.
 */
async function benchEngineVsDirect(modelPath: string, report: Report): Promise<void> {
  const config = loadConfig({ ...process.env, LLAMA_MODEL_PATH: modelPath, LLM_MAX_OUTPUT_TOKENS: String(MAX_OUTPUT) });
  const threads = config.llamacpp.threads;
  const backend = await LlamaCppBackend.load(modelPath, config.llamacpp, config.llm);
  const engine = new LlmEngine(backend, config.llm, silentLogger());
  const contextSize = (await backend.capacity()).contextTokens!;
  const direct = await directRunner(modelPath, threads, contextSize);
  const extract = async (schema: JsonSchema, lines: string[]): Promise<Rates & { reusedShare: number }> => {
    const document = buildDocument(lines);
    const calls: ModelCallReport[] = [];
    const started = performance.now();
    await engine.extract({
      compiled: compileCallerSchema(schema),
      document,
      layout: renderLayoutText(document),
      options: { dateOrder: 'dmy' },
      signal: AbortSignal.timeout(600_000),
      usage: { modelCall: (call) => calls.push(call) },
    });
    const wall = performance.now() - started;
    const sum = (key: keyof ModelCallReport) => calls.reduce((total, call) => total + ((call[key] as number | undefined) ?? 0), 0);
    const generationMs = sum('generationMs');
    return { promptTokens: sum('promptTokens') - sum('reusedPromptTokens'), promptMs: wall - generationMs, outputTokens: sum('outputTokens'), generationMs, reusedShare: sum('reusedPromptTokens') / sum('promptTokens') };
  };
  const ours: Rates[] = [];
  const theirs: Rates[] = [];
  const reused: number[] = [];
  try {
    for (let run = 0; run <= RUNS * 2; run++) {
      const schema = run % 2 === 0 ? RECEIPT_SCHEMA : ITEMS_SCHEMA;
      const runDirect = () => direct.run(buildMessages({ schema, documentText: renderLayoutText(buildDocument(receiptLines())).text }), schema);
      // each side goes first every other time: on a shared CPU, what runs first does not always get the quieter moment
      let measuredOurs: Rates;
      let measured: Rates;
      if (run % 4 < 2) {
        measuredOurs = await extract(schema, receiptLines());
        measured = await runDirect();
      } else {
        measured = await runDirect();
        measuredOurs = await extract(schema, receiptLines());
      }
      if (run === 0) continue; // the first call of each side warms caches and builds the grammar
      ours.push(measuredOurs);
      theirs.push(measured);
      // the same schema again right away: what prefix reuse saves
      reused.push((await extract(schema, receiptLines(['Thank you']))).reusedShare);
    }
  } finally {
    await engine.close();
    await direct.close();
  }
  const total = (rates: Rates[], key: keyof Rates) => rates.reduce((sum, r) => sum + r[key], 0);
  const rate = (rates: Rates[], tokens: keyof Rates, ms: keyof Rates) => perSecond(total(rates, tokens), total(rates, ms));
  const promptOurs = rate(ours, 'promptTokens', 'promptMs');
  const promptTheirs = rate(theirs, 'promptTokens', 'promptMs');
  const outOurs = rate(ours, 'outputTokens', 'generationMs');
  const outTheirs = rate(theirs, 'outputTokens', 'generationMs');
  // the ratio of each pair measured back to back, then their median: one call slowed by another process does not decide it
  const pairRatio = (tokens: keyof Rates, ms: keyof Rates) =>
    median(ours.map((mine, i) => perSecond(mine[tokens], mine[ms]) / perSecond(theirs[i]![tokens], theirs[i]![ms]))) ?? NaN;
  report(
    `LLM prompt tokens/s, docshape engine vs node-llama-cpp (${threads} thread(s))`,
    `${promptOurs.toFixed(0)} vs ${promptTheirs.toFixed(0)} (ratio ${(promptOurs / promptTheirs).toFixed(2)}; median of ${ours.length} paired runs ${pairRatio('promptTokens', 'promptMs').toFixed(2)})`,
  );
  report(
    `LLM output tokens/s, docshape engine vs node-llama-cpp (${threads} thread(s))`,
    `${outOurs.toFixed(1)} vs ${outTheirs.toFixed(1)} (ratio ${(outOurs / outTheirs).toFixed(2)}; median of ${ours.length} paired runs ${pairRatio('outputTokens', 'generationMs').toFixed(2)})`,
  );
  report('LLM prompt reused by the next same-schema call', `${((median(reused) ?? NaN) * 100).toFixed(0)}% of its tokens (median of ${reused.length})`);
}

async function benchReceiptOverHttp(modelPath: string, report: Report): Promise<void> {
  const apiKey = 'bench-key';
  const config = loadConfig({ ...process.env, API_KEYS: apiKey, EXTRACTOR: 'llamacpp', LLAMA_MODEL_PATH: modelPath });
  const services = await startServices(config, silentLogger());
  const app = createApp({ config, pipeline: services, logger: silentLogger() });
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as import('node:net').AddressInfo;
  const body = JSON.stringify({ schema: RECEIPT_SCHEMA, contents: [{ mimeType: 'image/png', data: (await makeReceiptImage('png')).toString('base64') }] });
  const times: number[] = [];
  try {
    for (let i = 0; i <= RUNS; i++) {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/v1/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body });
      await response.text();
      if (response.status !== 200) throw new Error(`receipt over HTTP with the model: HTTP ${response.status}`);
      if (i > 0) times.push(performance.now() - started);
    }
  } finally {
    server.close();
    await services.close();
  }
  report(`LLM seconds per receipt (HTTP, OCR + ${config.llamacpp.threads}-thread model)`, `${((median(times) ?? NaN) / 1000).toFixed(2)} s (median of ${times.length})`);
}

export async function benchLanguageModel(report: Report): Promise<void> {
  const modelPath = process.env.DOCSHAPE_TEST_MODEL?.trim();
  if (!modelPath) {
    report('LLM rows', 'skipped: set DOCSHAPE_TEST_MODEL=<path to a GGUF> (scripts/fetch-test-model.sh)');
    return;
  }
  report('LLM model', modelPath.split(/[\\/]/).pop() ?? modelPath);
  await benchEngineVsDirect(modelPath, report);
  await benchReceiptOverHttp(modelPath, report);
}
