import { loadConfig } from '../../src/config.js';
import { OllamaBackend } from '../../src/engines/llm/backends/ollama.js';

const ENGINES = ['auto', 'rules', 'ollama', 'openai', 'llamacpp'] as const;

/**
 * Applies `--engine` to the local pipeline (it reads EXTRACTOR like the
 * service). For `ollama` the run is opt-in: when OLLAMA_HOST does not answer
 * with the model, it returns why, and the caller skips the run instead of
 * failing it, so the evaluation works on machines with no model server.
 */
export async function selectEngine(engine: string | undefined): Promise<{ skip?: string }> {
  if (engine === undefined) return {};
  if (!(ENGINES as readonly string[]).includes(engine)) throw new Error(`--engine must be one of ${ENGINES.join(', ')}`);
  process.env.EXTRACTOR = engine;
  if (engine !== 'ollama') return {};
  const config = loadConfig();
  const probe = await new OllamaBackend(config.ollama, config.llm).probe();
  return probe.state === 'ready' ? {} : { skip: `skipped the Ollama evaluation: ${probe.detail}` };
}
