/**
 * The service's peak RSS, measured from outside as an operator sees it:
 * starts dist/src/main.js as `npm start` does (scripts/service-process.ts: MALLOC_ARENA_MAX=2, MALLOC_MMAP_THRESHOLD_=131072 and
 * NODE_OPTIONS=--max-semi-space-size=4 unless the environment sets them; every other setting at its default or as the
 * environment sets it, with the rules engine and the OCR engine named),
 * sends `--requests` POST /v1/ (20) of the files given, in turn,
 * `--at-once` (2) at a time, and prints one JSON line: the process's RSS
 * after start, its peak (VmHWM) and its RSS at the end, split into
 * anonymous memory and mapped files (the node binary, shared libraries),
 * and the CPU seconds the requests took (all threads).
 * `npm run bench` runs it on a generated photo; on real photos and scans:
 *
 *   node dist/scripts/service-rss.js paddle photo1.jpg scan2.jpg ... [--requests 20] [--at-once 2]
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServiceLikeNpmStart } from './service-process.js';

const MIME_BY_EXTENSION: Record<string, string> = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif', '.pdf': 'application/pdf' };

export interface ServiceRss {
  engine: string;
  requests: number;
  /** RSS once the service listens (models loaded, OCR warmed), before any request. */
  startRssMb: number;
  /** The high-water mark of the whole process (VmHWM), every thread included. */
  peakRssMb: number;
  rssNowMb: number;
  /** Of the RSS at the end: anonymous memory (heaps, arenas, buffers) and pages of mapped files. */
  anonNowMb: number;
  fileNowMb: number;
  /** CPU (user + system, every thread) from listening to the last answer. */
  requestCpuSeconds: number;
  mallocArenaMax: string;
  nodeOptions: string;
}

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args.splice(at, 2)[1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a positive whole number`);
  return value;
}

export async function measureServiceRss(engine: string, paths: string[], requests = 20, atOnce = 2): Promise<ServiceRss> {
  const apiKey = 'rss-key';
  const service = await startServiceLikeNpmStart({ API_KEYS: apiKey, OCR_ENGINE: engine, EXTRACTOR: 'rules' });
  const { port, mallocArenaMax, nodeOptions } = service;
  try {
    const startRssMb = service.statusMb().VmRSS ?? NaN;
    const startCpu = service.cpuSeconds();
    const bodies = await Promise.all(
      paths.map(async (path) => {
        const mimeType = MIME_BY_EXTENSION[extname(path).toLowerCase()];
        if (!mimeType) throw new Error(`${path}: not an image or PDF by its extension`);
        return JSON.stringify({ schema: { type: 'object', properties: { total: { type: 'number' } } }, contents: [{ mimeType, data: (await readFile(path)).toString('base64') }] });
      }),
    );
    let next = 0;
    const post = async () => {
      const body = bodies[next++ % bodies.length]!;
      const response = await fetch(`http://127.0.0.1:${port}/v1/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body });
      await response.text();
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    };
    for (let sent = 0; sent < requests; sent += atOnce) await Promise.all(Array.from({ length: Math.min(atOnce, requests - sent) }, post));
    const now = service.statusMb();
    const requestCpuSeconds = Math.round((service.cpuSeconds() - startCpu) * 100) / 100;
    return { engine, requests, startRssMb, peakRssMb: now.VmHWM ?? NaN, rssNowMb: now.VmRSS ?? NaN, anonNowMb: now.RssAnon ?? NaN, fileNowMb: now.RssFile ?? NaN, requestCpuSeconds, mallocArenaMax, nodeOptions };
  } finally {
    service.stop();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const requests = option(args, '--requests', 20);
  const atOnce = option(args, '--at-once', 2);
  const [engine, ...paths] = args;
  if ((engine !== 'paddle' && engine !== 'tesseract') || paths.length === 0) throw new Error('usage: service-rss <paddle|tesseract> <image or PDF>... [--requests 20] [--at-once 2]');
  process.stdout.write(`${JSON.stringify(await measureServiceRss(engine, paths, requests, atOnce))}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`service-rss failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
