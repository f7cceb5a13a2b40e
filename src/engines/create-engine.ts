import { availableParallelism } from 'node:os';
import type { Config } from '../config.js';
import type { Engine } from '../schema/engine.js';
import type { Logger } from '../logger.js';
import { crossCheckerFor } from './cross-check.js';
import { EInvoiceTermsEngine } from './e-invoice-terms.js';
import { findGguf } from './llm/backends/find-gguf.js';
import { LlamaCppBackend } from './llm/backends/llamacpp.js';
import { LlmEngine } from './llm/llm-engine.js';
import { OllamaBackend } from './llm/backends/ollama.js';
import { OpenAiBackend } from './llm/backends/openai.js';
import { ThreadedRulesEngine } from './rules/threaded.js';

export type EngineConfig = Pick<Config, 'extractor' | 'llm' | 'ollama' | 'openai' | 'llamacpp' | 'concurrency'>;

export interface EngineChoice {
  engine: Engine;
  /** Why this engine, for the start-up log. */
  reason: string;
  /** Reads the engine's answers again for evidence (cross-check.ts); absent for the rules engine itself. */
  crossCheck?: Engine;
}

export interface EngineFactoryOptions {
  /** Lets tests point the Ollama client at their own server or a failing fetch. */
  fetch?: typeof fetch;
}

/**
 * The one place an engine is chosen from config. EXTRACTOR=auto takes, in
 * order: Ollama when it answers and has the model; an OpenAI-compatible
 * server when OPENAI_BASE_URL is set; the in-process engine when a GGUF is
 * configured or found in MODELS_DIR; else the rules engine. Any other value
 * is taken as an order: that engine or a failure to start (except Ollama,
 * which may come up later: requests get 503 until it does).
 */
export async function createEngine(config: EngineConfig, logger: Logger, options: EngineFactoryOptions = {}): Promise<EngineChoice> {
  const chosen = await chooseEngine(config, logger, options);
  // whichever engine reads, an e-invoice's business terms are answered from its XML (e-invoice-terms.ts)
  const choice = { ...chosen, engine: new EInvoiceTermsEngine(chosen.engine) };
  const crossCheck = crossCheckerFor(choice.engine, rulesThreads(config));
  return crossCheck ? { ...choice, crossCheck } : choice;
}

async function chooseEngine(config: EngineConfig, logger: Logger, options: EngineFactoryOptions): Promise<EngineChoice> {
  const llm = (backend: ConstructorParameters<typeof LlmEngine>[0]) => new LlmEngine(backend, config.llm, logger);
  switch (config.extractor) {
    case 'rules':
      return { engine: rulesEngine(config), reason: 'EXTRACTOR=rules' };
    case 'ollama': {
      const backend = new OllamaBackend(config.ollama, config.llm, options.fetch, logger);
      const probe = await backend.probe();
      if (probe.state !== 'ready') logger.warn({ engine: backend.name, problem: probe.detail }, 'Ollama is not ready; requests get 503 until it is');
      return { engine: llm(backend), reason: 'EXTRACTOR=ollama' };
    }
    case 'openai':
      return { engine: llm(openAiBackend(config, options)), reason: 'EXTRACTOR=openai' };
    case 'llamacpp': {
      const path = findGguf(config.llamacpp);
      if (!path) throw new Error(`EXTRACTOR=llamacpp needs a GGUF model: set LLAMA_MODEL_PATH or put a .gguf file in ${config.llamacpp.modelsDir}/`);
      return { engine: llm(await LlamaCppBackend.load(path, config.llamacpp, config.llm)), reason: 'EXTRACTOR=llamacpp' };
    }
    case 'auto':
      return chooseAutomatically(config, logger, options, llm);
  }
}

async function chooseAutomatically(
  config: EngineConfig,
  logger: Logger,
  options: EngineFactoryOptions,
  llm: (backend: ConstructorParameters<typeof LlmEngine>[0]) => LlmEngine,
): Promise<EngineChoice> {
  const ollama = new OllamaBackend(config.ollama, config.llm, options.fetch, logger);
  const probe = await ollama.probe();
  if (probe.state === 'ready') return { engine: llm(ollama), reason: `auto: Ollama at ${config.ollama.host} has ${config.ollama.model}` };
  const skipped = [`Ollama: ${probe.detail}`];

  if (config.openai.baseUrl) {
    const backend = openAiBackend(config, options);
    const status = await backend.status();
    if (status.ready) return { engine: llm(backend), reason: `auto: ${status.detail}; skipped ${skipped.join('; ')}` };
    skipped.push(status.detail ?? 'OpenAI-compatible server not ready');
  }

  const gguf = findGguf(config.llamacpp);
  if (gguf) {
    try {
      const backend = await LlamaCppBackend.load(gguf, config.llamacpp, config.llm);
      return { engine: llm(backend), reason: `auto: GGUF ${gguf}; skipped ${skipped.join('; ')}` };
    } catch (error) {
      skipped.push(`llama.cpp: ${(error as Error).message}`);
    }
  } else {
    skipped.push(`llama.cpp: no LLAMA_MODEL_PATH and no .gguf in ${config.llamacpp.modelsDir}/`);
  }
  logger.debug({ skipped }, 'no language model found');
  return { engine: rulesEngine(config), reason: `auto: no language model (${skipped.join('; ')})` };
}

/** One thread per request that can run at once, at most one per core: the engine is pure CPU. */
function rulesEngine(config: EngineConfig): ThreadedRulesEngine {
  return new ThreadedRulesEngine(rulesThreads(config));
}

function rulesThreads(config: EngineConfig): number {
  return Math.max(1, Math.min(availableParallelism(), config.concurrency.maxActiveRequests));
}

function openAiBackend(config: EngineConfig, options: EngineFactoryOptions): OpenAiBackend {
  const baseUrl = config.openai.baseUrl;
  if (!baseUrl) throw new Error('EXTRACTOR=openai needs OPENAI_BASE_URL, e.g. http://127.0.0.1:8081/v1');
  return new OpenAiBackend({ ...config.openai, baseUrl }, config.llm, options.fetch);
}
