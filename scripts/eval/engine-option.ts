import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { OllamaBackend } from '../../src/engines/llm/backends/ollama.js';

const ENGINES = ['auto', 'rules', 'ollama', 'openai', 'llamacpp'] as const;

/** The variable `--model` sets for each engine that takes a model. */
const MODEL_VARIABLES: Record<string, string> = { llamacpp: 'LLAMA_MODEL_PATH', ollama: 'OLLAMA_MODEL', openai: 'OPENAI_MODEL' };

/**
 * Applies `--engine` (and `--model`) to the local pipeline (it reads
 * EXTRACTOR, LLAMA_MODEL_PATH, OLLAMA_MODEL, OPENAI_MODEL like the service).
 * For `ollama` the run is opt-in: when OLLAMA_HOST does not answer with the
 * model, it returns why, and the caller skips the run instead of failing it,
 * so the evaluation works on machines with no model server.
 */
export async function selectEngine(engine: string | undefined, model?: string): Promise<{ skip?: string }> {
  if (model !== undefined && (engine === undefined || MODEL_VARIABLES[engine] === undefined)) {
    throw new Error(`--model needs --engine ${Object.keys(MODEL_VARIABLES).join('|')}`);
  }
  if (engine === undefined) return {};
  if (!(ENGINES as readonly string[]).includes(engine)) throw new Error(`--engine must be one of ${ENGINES.join(', ')}`);
  process.env.EXTRACTOR = engine;
  if (model !== undefined) {
    if (engine === 'llamacpp' && !existsSync(model)) throw new Error(`--model ${model}: no such GGUF file`);
    process.env[MODEL_VARIABLES[engine]!] = engine === 'llamacpp' ? resolve(model) : model;
  }
  if (engine !== 'ollama') return {};
  const config = loadConfig();
  const probe = await new OllamaBackend(config.ollama, config.llm).probe();
  return probe.state === 'ready' ? {} : { skip: `skipped the Ollama evaluation: ${probe.detail}` };
}
