import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LlamaCppConfig } from '../../../config.js';

/** LLAMA_MODEL_PATH, else the first *.gguf (by name) in MODELS_DIR; undefined when there is none. */
export function findGguf(config: Pick<LlamaCppConfig, 'modelPath' | 'modelsDir'>): string | undefined {
  if (config.modelPath) return config.modelPath;
  let names: string[];
  try {
    names = readdirSync(config.modelsDir);
  } catch {
    return undefined;
  }
  const gguf = names.filter((name) => name.toLowerCase().endsWith('.gguf')).sort()[0];
  return gguf === undefined ? undefined : join(config.modelsDir, gguf);
}
