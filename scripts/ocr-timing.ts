/**
 * OCR time per page for several OCR configurations in one run, on datasets'
 * images and PDFs (each PDF page rendered as the service renders a scanned
 * page): each page is decoded once and read by every configuration in turn,
 * the first one changing from page to page, each engine started as the
 * service would start it (OCR_WORKERS, OCR_THREADS, OCR_ROTATION from the
 * environment). On a shared machine wall-clock times drift; reading the same
 * page with every configuration back to back keeps the comparison fair.
 * Prints median, p90 and max seconds per configuration, its ratio to the
 * first configuration's median and the pages above --slow seconds.
 *
 * A configuration is `tesseract`, `paddle` (OCR_PADDLE_MODELS), the name
 * of a bundled PP-OCR set (ppocrv6, ppocrv6-small, ppocrv6-tiny, ppocrv4) or a folder
 * of PP-OCR models as OCR_PADDLE_MODEL_DIR takes it (a path with a slash);
 * the first is the yardstick. The default without its quick recogniser (the
 * tiny detector and the small recogniser alone) is a folder of links:
 * det.onnx to models/ocr/ppocrv6/tiny/det/det.onnx, rec.onnx to
 * rewritten/ppocrv6-small-rec.onnx, ppocrv6_dict.txt, and cls.onnx to
 * rewritten/ppocr-mobile-v2-cls.onnx.
 *
 *   npm run build && node dist/scripts/ocr-timing.js [--engines ppocrv4,ppocrv6,tesseract] [--limit n] [--slow 3] <dataset-dir>...
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, PADDLE_MODEL_SETS, type OcrConfig, type PaddleModelSet } from '../src/config.js';
import type { GreyRaster } from '../src/document/raster.js';
import { decodeContents } from '../src/ingest/decode.js';
import { loadImagePages } from '../src/ingest/image.js';
import { createOcrEngine, workersFor, type OcrEngine } from '../src/ingest/ocr-choice.js';
import { PdfProcessor } from '../src/ingest/pdf.js';
import { percentile } from './eval/report.js';

const FILE_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.pdf': 'application/pdf',
};

interface Timing {
  id: string;
  /** Wall-clock seconds per configuration. */
  seconds: number[];
  /** CPU seconds of the whole process (all threads) while the configuration read the page: the work, whatever else loads the machine. */
  cpu: number[];
}

async function filesOf(dir: string, limit: number | undefined): Promise<string[]> {
  const docs = join(resolve(dir), 'docs');
  const names = (await readdir(docs)).filter((name) => FILE_TYPES[extname(name).toLowerCase()]).sort();
  return (limit === undefined ? names : names.slice(0, limit)).map((name) => join(docs, name));
}

/** The OCR settings of a configuration's name. */
function ocrSettings(name: string, base: OcrConfig): OcrConfig {
  if (name === 'tesseract') return { ...base, engine: 'tesseract' };
  if (name === 'paddle') return { ...base, engine: 'paddle' };
  if ((PADDLE_MODEL_SETS as readonly string[]).includes(name)) return { ...base, engine: 'paddle', paddleModels: name as PaddleModelSet, paddleModelDir: undefined };
  if (name.includes('/')) return { ...base, engine: 'paddle', paddleModelDir: name };
  throw new Error(`unknown OCR configuration "${name}": tesseract, paddle, one of ${PADDLE_MODEL_SETS.join(', ')} or a folder of PP-OCR models`);
}

async function timeOne(engine: OcrEngine, raster: GreyRaster): Promise<{ seconds: number; cpu: number }> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await engine.recognize(raster);
  const cpu = process.cpuUsage(cpuBefore);
  return { seconds: (performance.now() - started) / 1000, cpu: (cpu.user + cpu.system) / 1e6 };
}

function line(label: string, values: number[], yardstick: number | null): string {
  const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '-' : v.toFixed(2));
  const median = percentile(values, 0.5);
  const ratio = yardstick && median !== null ? `  x${(median / yardstick).toFixed(2)}` : '';
  return `${label.padEnd(22)} median ${fmt(median)} s  p90 ${fmt(percentile(values, 0.9))} s  max ${fmt(Math.max(...values))} s${ratio}`;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { engines: { type: 'string', default: 'paddle,tesseract' }, limit: { type: 'string' }, slow: { type: 'string', default: '3' } },
  });
  if (positionals.length === 0) throw new Error('usage: ocr-timing [--engines a,b,...] [--limit n] [--slow seconds] <dataset-dir>...');
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  const slow = Number(values.slow);
  const config = loadConfig();
  const names = (values.engines as string).split(',').map((name) => name.trim()).filter(Boolean);
  const settings = names.map((name) => ocrSettings(name, config.ocr));
  const engines: OcrEngine[] = [];
  const pdf = new PdfProcessor({ workers: 1, maxPixelsPerPage: config.limits.maxPixelsPerImage, renderDpi: config.pdf.renderDpi, maxStreamBytes: config.pdf.maxStreamBytes });
  try {
    for (const ocr of settings) engines.push((await createOcrEngine(ocr)).engine);
    const described = settings.map((ocr, i) => {
      const { workers, threads } = workersFor(ocr.engine === 'tesseract' ? 'tesseract' : 'paddle', ocr);
      return `${names[i]} ${workers} worker(s)${ocr.engine === 'tesseract' ? '' : ` x ${threads} threads`}`;
    });
    process.stdout.write(`ocr-timing: ${described.join(', ')}, OCR_ROTATION=${config.ocr.rotation}, PDF pages at ${config.pdf.renderDpi} dpi, one page at a time\n`);
    for (const dir of positionals) {
      const timings: Timing[] = [];
      for (const [index, path] of (await filesOf(dir, limit)).entries()) {
        const mimeType = FILE_TYPES[extname(path).toLowerCase()] as string;
        const [file] = decodeContents([{ filename: basename(path), mimeType, data: (await readFile(path)).toString('base64') }], config.limits);
        let rasters: GreyRaster[];
        if (mimeType === 'application/pdf') {
          const inspection = await pdf.inspect(file!, config.limits.maxPagesPerRequest);
          // Pages with a text layer are not OCRed by the service; only scanned pages are timed.
          const scanned = inspection.pages.filter((page) => page.needsOcr).map((page) => page.index);
          // One at a time: each render's time limit runs from when it is asked for.
          rasters = [];
          for (const page of scanned) rasters.push(await pdf.render(file!, page));
        } else {
          rasters = await loadImagePages(file!, config.limits);
        }
        for (const [page, raster] of rasters.entries()) {
          const seconds = new Array<number>(engines.length).fill(0);
          const cpu = new Array<number>(engines.length).fill(0);
          for (let k = 0; k < engines.length; k++) {
            const which = (index + k) % engines.length;
            ({ seconds: seconds[which]!, cpu: cpu[which]! } = await timeOne(engines[which]!, raster));
          }
          const id = rasters.length > 1 ? `${basename(path)}#${page + 1}` : basename(path);
          timings.push({ id, seconds, cpu });
          process.stderr.write(`[${basename(dir)} ${index + 1}] ${id} ${names.map((name, i) => `${name} ${seconds[i]!.toFixed(2)} s`).join(', ')}\n`);
        }
      }
      if (timings.length === 0) {
        process.stdout.write(`\n== ${basename(dir)}: no page to OCR\n`);
        continue;
      }
      process.stdout.write(`\n== ${basename(dir)}: ${timings.length} pages (ratios to ${names[0]})\n`);
      const wall = names.map((_, i) => timings.map((t) => t.seconds[i]!));
      const cpu = names.map((_, i) => timings.map((t) => t.cpu[i]!));
      names.forEach((name, i) => process.stdout.write(`${line(name, wall[i]!, percentile(wall[0]!, 0.5))}\n`));
      names.forEach((name, i) => process.stdout.write(`${line(`${name} CPU`, cpu[i]!, percentile(cpu[0]!, 0.5))}\n`));
      names.forEach((name, i) => {
        const over = timings.filter((t) => t.seconds[i]! > slow);
        process.stdout.write(`${name} above ${slow} s: ${over.length === 0 ? 'none' : over.map((t) => `${t.id} ${t.seconds[i]!.toFixed(2)} s`).join(', ')}\n`);
      });
    }
  } finally {
    await Promise.all([...engines.map((engine) => engine.close()), pdf.close()]);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`ocr-timing failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
