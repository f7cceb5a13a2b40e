/**
 * OCR time per document for both engines in one run, on a dataset's images:
 * each image is decoded once and read by paddle and by tesseract in turn
 * (alternating which goes first), each engine started as the service would
 * start it (OCR_WORKERS, OCR_THREADS, OCR_ROTATION from the environment).
 * On a shared machine wall-clock times drift; reading the same page with
 * both engines back to back keeps the comparison fair. Prints median, p90
 * and max seconds per engine, the paddle/tesseract ratio of the medians and
 * the documents above --slow seconds.
 *
 *   npm run build && node dist/scripts/ocr-timing.js [--limit n] [--slow 3] <dataset-dir>...
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { decodeContents } from '../src/ingest/decode.js';
import { loadImagePages } from '../src/ingest/image.js';
import { createOcrEngine, workersFor, type OcrEngine } from '../src/ingest/ocr-choice.js';
import { percentile } from './eval/report.js';

const IMAGE_TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif' };

interface Timing {
  id: string;
  /** Wall-clock seconds. */
  seconds: Record<'paddle' | 'tesseract', number>;
  /** CPU seconds of the whole process (all threads) while the engine read the page: the work, whatever else loads the machine. */
  cpu: Record<'paddle' | 'tesseract', number>;
}

async function imagesOf(dir: string, limit: number | undefined): Promise<string[]> {
  const docs = join(resolve(dir), 'docs');
  const names = (await readdir(docs)).filter((name) => IMAGE_TYPES[extname(name).toLowerCase()]).sort();
  return (limit === undefined ? names : names.slice(0, limit)).map((name) => join(docs, name));
}

async function timeOne(engine: OcrEngine, raster: Parameters<OcrEngine['recognize']>[0]): Promise<{ seconds: number; cpu: number }> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await engine.recognize(raster);
  const cpu = process.cpuUsage(cpuBefore);
  return { seconds: (performance.now() - started) / 1000, cpu: (cpu.user + cpu.system) / 1e6 };
}

function line(label: string, values: number[]): string {
  const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '-' : v.toFixed(2));
  return `${label.padEnd(10)} median ${fmt(percentile(values, 0.5))} s  p90 ${fmt(percentile(values, 0.9))} s  max ${fmt(Math.max(...values))} s`;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { limit: { type: 'string' }, slow: { type: 'string', default: '3' } } });
  if (positionals.length === 0) throw new Error('usage: ocr-timing [--limit n] [--slow seconds] <dataset-dir>...');
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  const slow = Number(values.slow);
  const config = loadConfig();
  const engines = {
    paddle: (await createOcrEngine({ ...config.ocr, engine: 'paddle' })).engine,
    tesseract: (await createOcrEngine({ ...config.ocr, engine: 'tesseract' })).engine,
  };
  const paddle = workersFor('paddle', config.ocr);
  process.stdout.write(`ocr-timing: paddle ${paddle.workers} worker(s) x ${paddle.threads} threads, tesseract ${workersFor('tesseract', config.ocr).workers} worker(s), OCR_ROTATION=${config.ocr.rotation}, one page at a time\n`);
  try {
    for (const dir of positionals) {
      const timings: Timing[] = [];
      const paths = await imagesOf(dir, limit);
      for (const [index, path] of paths.entries()) {
        const mimeType = IMAGE_TYPES[extname(path).toLowerCase()] as string;
        const [file] = decodeContents([{ filename: basename(path), mimeType, data: (await readFile(path)).toString('base64') }], config.limits);
        const [raster] = await loadImagePages(file!, config.limits);
        const order = index % 2 === 0 ? (['paddle', 'tesseract'] as const) : (['tesseract', 'paddle'] as const);
        const seconds = { paddle: 0, tesseract: 0 };
        const cpu = { paddle: 0, tesseract: 0 };
        for (const name of order) ({ seconds: seconds[name], cpu: cpu[name] } = await timeOne(engines[name], raster!));
        timings.push({ id: basename(path), seconds, cpu });
        process.stderr.write(`[${basename(dir)} ${index + 1}/${paths.length}] ${basename(path)} paddle ${seconds.paddle.toFixed(2)} s, tesseract ${seconds.tesseract.toFixed(2)} s\n`);
      }
      const paddle = timings.map((t) => t.seconds.paddle);
      const tesseract = timings.map((t) => t.seconds.tesseract);
      const ratio = (percentile(paddle, 0.5) ?? NaN) / (percentile(tesseract, 0.5) ?? NaN);
      process.stdout.write(`\n== ${basename(dir)}: ${timings.length} images\n${line('paddle', paddle)}\n${line('tesseract', tesseract)}\n`);
      const paddleCpu = timings.map((t) => t.cpu.paddle);
      const tesseractCpu = timings.map((t) => t.cpu.tesseract);
      const cpuRatio = (percentile(paddleCpu, 0.5) ?? NaN) / (percentile(tesseractCpu, 0.5) ?? NaN);
      process.stdout.write(`${line('paddle CPU', paddleCpu)}\n${line('tess. CPU', tesseractCpu)}\n`);
      process.stdout.write(`paddle/tesseract (medians): wall ${ratio.toFixed(2)}, CPU ${cpuRatio.toFixed(2)}\n`);
      for (const name of ['paddle', 'tesseract'] as const) {
        const over = timings.filter((t) => t.seconds[name] > slow);
        process.stdout.write(`${name} above ${slow} s: ${over.length === 0 ? 'none' : over.map((t) => `${t.id} ${t.seconds[name].toFixed(2)} s`).join(', ')}\n`);
      }
    }
  } finally {
    await Promise.all([engines.paddle.close(), engines.tesseract.close()]);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`ocr-timing failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
