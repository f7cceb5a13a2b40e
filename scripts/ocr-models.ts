/**
 * `npm run ocr-models`: writes the rewritten PP-OCR models docshape ships
 * (models/ocr/rewritten/, see ocr-models/rewrite.ts) and prints each file's
 * size and sha256 for bundled-models.ts and models/ocr/README.md.
 *   --check            only compares: exits 1 when a committed file is not what the rewrite makes
 *   --folder IN OUT    rewrites your own PP-OCR models (OCR_PADDLE_MODEL_DIR) from IN into OUT
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SHIPPED_MODELS_DIR } from '../src/ingest/ocr/paddle/bundled-models.js';
import { rewriteFolder, rewriteShippedModels, writeShippedModels } from './ocr-models/rewrite.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function main(args: string[]): Promise<number> {
  if (args[0] === '--folder') {
    const [input, output] = args.slice(1);
    if (!input || !output) throw new Error('usage: --folder IN OUT');
    process.stdout.write(`${(await rewriteFolder(input, output)).map((name) => join(output, name)).join('\n')}\n`);
    return 0;
  }
  const models = await rewriteShippedModels();
  let differing = 0;
  for (const model of models) {
    const committed = await readFile(join(SHIPPED_MODELS_DIR, model.path)).catch(() => undefined);
    const same = committed !== undefined && sha256(committed) === sha256(model.bytes);
    if (!same) differing++;
    process.stdout.write(`${model.path}\t${model.bytes.length}\t${sha256(model.bytes)}\t${same ? 'as committed' : 'differs from the committed file'}\t${model.what}\n`);
  }
  if (args[0] === '--check') return differing === 0 ? 0 : 1;
  await writeShippedModels(models);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
