/**
 * Prints speed and memory numbers for this machine: text-layer pages/s, PDF
 * render time, OCR seconds/page of both engines on the same inputs (a
 * receipt photo, a dense A4 page at 300 DPI, the same page scanned at 600
 * DPI, 4961x7016) and their ratio, the OCR pool's speed-up on all cores,
 * native tesseract for comparison when it is installed, end-to-end HTTP
 * latency (a born-digital PDF also as a ratio against pdf.js reading its text
 * alone), the service's peak RSS after 20 photo requests with each
 * engine, and, with DOCSHAPE_TEST_MODEL, the in-process language model
 * (bench/llm.ts). Fixtures are generated, as in the tests. `-- jobs`: the
 * job queue's throughput and cost instead (bench/jobs.ts); `-- text-pdf`:
 * only the born-digital PDF against pdf.js alone; `-- formats`: only the cost
 * of each input type without printed pages and of TIFF (bench/formats.ts);
 * `-- upload`: a 50 MB file sent as JSON and as multipart (bench/upload.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { decodeContents } from '../src/ingest/decode.js';
import { loadImagePages } from '../src/ingest/image.js';
import { createOcrEngine, workersFor, type OcrEngine } from '../src/ingest/ocr-choice.js';
import { PAGE_SEGMENTATION_MODE, sharedPgm } from '../src/ingest/ocr/tesseract/page.js';
import { defaultLangPath } from '../src/ingest/ocr/tesseract/pool.js';
import { benchFormats } from './bench/formats.js';
import { benchJobs } from './bench/jobs.js';
import { benchLanguageModel } from './bench/llm.js';
import { benchUpload } from './bench/upload.js';
import { startServiceLikeNpmStart, type ServiceProcess } from './service-process.js';
import { percentile } from './eval/report.js';
import { PdfProcessor } from '../src/ingest/pdf.js';
import { pdfDocumentOptions } from '../src/ingest/pdf-options.js';
import { restoreNativeBuiltins } from '../src/ingest/pdfjs-builtins.js';
import type { GreyRaster } from '../src/document/raster.js';
import { silentLogger } from '../src/logger.js';
import { runSync } from '../src/util/paced.js';
import { startServices } from '../src/services.js';
import { makeReceiptImage, makeReceiptPhoto } from '../test/fixtures/images.js';
import { makeInvoicePdf, makeScannedPdf, makeTextPdf } from '../test/fixtures/pdfs.js';

const cores = availableParallelism();

function report(label: string, value: string): void {
  process.stdout.write(`${label.padEnd(56)} ${value}\n`);
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await fn();
  return [result, performance.now() - started];
}

function pdfFile(bytes: Buffer) {
  return decodeContents([{ mimeType: 'application/pdf', data: bytes.toString('base64') }], { maxFiles: 1 })[0]!;
}

async function benchTextLayer(pdf: PdfProcessor): Promise<void> {
  const pages = Array.from({ length: 20 }, (_, p) =>
    Array.from({ length: 40 }, (_, l) => `Page ${p + 1} line ${l + 1}: the quick brown fox jumps over the lazy dog ${l * 7.25}`),
  );
  const file = pdfFile(await makeTextPdf(pages));
  await pdf.inspect(file, 100);
  const runs = 5;
  const [, ms] = await timed(async () => {
    for (let i = 0; i < runs; i++) await pdf.inspect(file, 100);
  });
  report('text layer (20-page PDF, 40 lines/page)', `${((runs * 20) / (ms / 1000)).toFixed(0)} pages/s`);
}

async function benchRender(pdf: PdfProcessor): Promise<GreyRaster> {
  const file = pdfFile(await makeScannedPdf(['INVOICE 2024-0042', 'Total due 76.20', 'Thank you for your business']));
  await pdf.render(file, 0);
  const times: number[] = [];
  let raster: GreyRaster | undefined;
  for (let i = 0; i < 5; i++) {
    const [result, ms] = await timed(() => pdf.render(file, 0));
    raster = result;
    times.push(ms);
  }
  report('render scanned A4 page at 300 DPI', `${((percentile(times, 0.5) ?? NaN) / 1000).toFixed(3)} s (median of 5)`);
  return raster!;
}

async function a4TextRaster(pdf: PdfProcessor): Promise<GreyRaster> {
  return pdf.render(pdfFile(await makeTextPdf([A4_LINES])), 0);
}

const A4_LINES = Array.from({ length: 45 }, (_, i) => `${i + 1}. Item description number ${i + 1}    qty ${i % 5 + 1}    ${(i * 3.17).toFixed(2)} EUR`);

type EngineName = 'paddle' | 'tesseract';
const ENGINES: EngineName[] = ['paddle', 'tesseract'];

/** An engine as the service would start it (OCR_* from the environment), with `workers` workers. */
async function startEngine(name: EngineName, workers: number): Promise<OcrEngine> {
  const config = loadConfig(process.env);
  return (await createOcrEngine({ ...config.ocr, engine: name, workers })).engine;
}

/**
 * Median seconds per page over `runs` readings of each input, both engines
 * on the same inputs, one page at a time; with the CPU seconds the whole
 * process spent on it (all threads), which other processes on the machine
 * do not inflate the way they inflate wall-clock time.
 */
async function benchOcrEngines(inputs: { label: string; raster: GreyRaster; runs: number }[]): Promise<void> {
  const { threads } = workersFor('paddle', { workers: 1, threads: loadConfig(process.env).ocr.threads });
  process.stdout.write(`\nOCR, one page at a time, 1 worker (paddle with ${threads} ONNX Runtime threads), median per page, wall seconds (CPU seconds):\n`);
  process.stdout.write(`${'input'.padEnd(44)} ${'paddle'.padStart(13)} ${'tesseract'.padStart(13)} ${'paddle/tesseract'.padStart(18)}\n`);
  const engines = { paddle: await startEngine('paddle', 1), tesseract: await startEngine('tesseract', 1) };
  try {
    for (const { label, raster, runs } of inputs) {
      const seconds: Record<EngineName, number[]> = { paddle: [], tesseract: [] };
      const cpu: Record<EngineName, number[]> = { paddle: [], tesseract: [] };
      for (let run = 0; run < runs; run++) {
        // Alternating which engine goes first spreads any drift in the machine's load over both.
        for (const name of run % 2 === 0 ? ENGINES : [...ENGINES].reverse()) {
          const cpuBefore = process.cpuUsage();
          const [, ms] = await timed(() => engines[name].recognize(raster));
          const used = process.cpuUsage(cpuBefore);
          seconds[name].push(ms / 1000);
          cpu[name].push((used.user + used.system) / 1e6);
        }
      }
      const median = (values: number[]) => percentile(values, 0.5) ?? NaN;
      const cell = (name: EngineName) => `${median(seconds[name]).toFixed(2)} (${median(cpu[name]).toFixed(2)})`;
      const ratio = `${(median(seconds.paddle) / median(seconds.tesseract)).toFixed(2)} (${(median(cpu.paddle) / median(cpu.tesseract)).toFixed(2)})`;
      process.stdout.write(`${label.padEnd(44)} ${cell('paddle').padStart(13)} ${cell('tesseract').padStart(13)} ${ratio.padStart(18)}\n`);
    }
  } finally {
    await Promise.all([engines.paddle.close(), engines.tesseract.close()]);
  }
  process.stdout.write(`(load average while measuring: ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cores} cores)\n`);
}

/** Seconds per page of `engine` reading `pages` copies of the raster at once (median of 3 rounds). */
async function secondsPerPage(engine: OcrEngine, raster: GreyRaster, pages: number): Promise<number> {
  await Promise.all(Array.from({ length: pages }, () => engine.recognize(raster)));
  const rounds: number[] = [];
  for (let round = 0; round < 3; round++) {
    const [, ms] = await timed(() => Promise.all(Array.from({ length: pages }, () => engine.recognize(raster))));
    rounds.push(ms / 1000 / pages);
  }
  return percentile(rounds, 0.5) ?? NaN;
}

/** Seconds per page with one worker against a pool of `cores` workers kept busy, per engine (threads as the engine sets them). */
async function benchOcrPools(raster: GreyRaster, label: string): Promise<void> {
  const config = loadConfig(process.env).ocr;
  for (const name of ENGINES) {
    const single = workersFor(name, { workers: 1, threads: config.threads });
    const pool = workersFor(name, { workers: cores, threads: config.threads });
    const one = await startEngine(name, 1);
    const perPageSingle = await secondsPerPage(one, raster, 1);
    await one.close();
    const many = await startEngine(name, cores);
    const perPagePool = await secondsPerPage(many, raster, cores * 2);
    await many.close();
    report(
      `OCR pool ${name}, ${label}, ${pool.workers}x${pool.threads} vs ${single.workers}x${single.threads} threads`,
      `${perPagePool.toFixed(2)} s/page against ${perPageSingle.toFixed(2)} (${(perPageSingle / perPagePool).toFixed(2)}x)`,
    );
  }
}

function benchNativeTesseract(raster: GreyRaster, jsSecondsPerPage: number): void {
  const which = spawnSync('which', ['tesseract'], { encoding: 'utf8' });
  if (which.status !== 0) {
    report('native tesseract', 'not installed, skipped');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'docshape-bench-'));
  const path = join(dir, 'page.pgm');
  writeFileSync(path, new Uint8Array(runSync(sharedPgm(raster))));
  // The same model tesseract.js uses (best_int), so the ratio compares engines, not models.
  writeFileSync(join(dir, 'eng.traineddata'), gunzipSync(readFileSync(join(defaultLangPath(), 'eng.traineddata.gz'))));
  const args = [path, '-', '--tessdata-dir', dir, '--dpi', String(raster.dpi), '--psm', PAGE_SEGMENTATION_MODE, '-l', 'eng'];
  const run = () => execFileSync('tesseract', args, { stdio: ['ignore', 'ignore', 'ignore'], env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
  run();
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  const native = (percentile(times, 0.5) ?? NaN) / 1000;
  report('native tesseract, same A4 page, 1 thread', `${native.toFixed(2)} s/page (tesseract.js is ${(jsSecondsPerPage / native).toFixed(2)}x its time)`);
}

async function benchHttp(): Promise<void> {
  const apiKey = 'bench-key';
  const config = loadConfig({ ...process.env, API_KEYS: apiKey });
  const services = await startServices(config, silentLogger());
  const app = createApp({ config, pipeline: services, logger: silentLogger() });
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as import('node:net').AddressInfo;
  const url = `http://127.0.0.1:${port}/v1/`;
  const schema = { type: 'object', properties: { total: { type: 'number', description: 'Total amount' }, date: { type: 'string', format: 'date' }, invoice_number: { type: 'string' } } };
  const requests: Array<[string, string, Buffer, number]> = [
    ['image request (receipt PNG, OCR)', 'image/png', await makeReceiptImage('png'), 10],
    ['PDF request (born-digital invoice)', 'application/pdf', await makeInvoicePdf(), 30],
    ['PDF request (scanned A4 page, OCR)', 'application/pdf', await makeScannedPdf(['INVOICE 2024-0042', 'Date 2024-03-14', 'Total due 76.20']), 5],
  ];
  for (const [label, mimeType, bytes, runs] of requests) {
    const body = JSON.stringify({ schema, contents: [{ mimeType, data: bytes.toString('base64') }] });
    const times: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body });
      await response.text();
      if (response.status !== 200) throw new Error(`${label}: HTTP ${response.status}`);
      if (i > 0) times.push(performance.now() - started); // the first run warms caches
    }
    report(`HTTP ${label}`, `median ${((percentile(times, 0.5) ?? NaN) / 1000).toFixed(3)} s, p95 ${((percentile(times, 0.95) ?? NaN) / 1000).toFixed(3)} s (${runs} runs)`);
  }
  server.close();
  await services.close();
}

/** pdf.js on this thread, as the PDF worker uses it: the document opened with the worker's text options, every page's text read. */
async function pdfjsTextAlone(bytes: Buffer): Promise<void> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // in-thread (pdf.js's "fake worker"), loaded once up front as pdf-worker.ts does
  const workerModulePath = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= await import(workerModulePath);
  // as on the service's PDF thread, so that the ratio is what the service adds, not core-js's builtins
  restoreNativeBuiltins();
  const task = pdfjs.getDocument({ ...pdfDocumentOptions('text'), data: new Uint8Array(bytes) });
  try {
    const doc = await task.promise;
    for (let page = 1; page <= doc.numPages; page++) await (await doc.getPage(page)).getTextContent();
  } finally {
    await task.destroy();
  }
}

/**
 * A one-page born-digital PDF (the tests' invoice) through POST /v1/ with the
 * rules engine, to the service in a process of its own as `npm start` runs it
 * (scripts/service-process.ts; a client in the service's process would share
 * its event loop), against pdf.js reading its text alone in this process: one
 * of each in turn, so that both see the same machine; the ratio of the medians
 * is what the service adds (HTTP, the PDF thread, the engine, finalize) to the
 * text extraction it cannot do without. The first 25 requests after start
 * (the PDF thread starts and warms up, code is compiled), then 200 warm ones;
 * the first 25 after a start with PDF_THREAD_WARM_UP=0 (what the thread's
 * warm-up saves them, and what it costs the first); and the first 25 after a
 * start with WARM_UP=8, which starts the thread before the service listens.
 */
async function benchTextPdfAgainstPdfjs(): Promise<void> {
  const apiKey = 'bench-key';
  const invoice = await makeInvoicePdf();
  const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, invoice_date: { type: 'string', format: 'date' }, total: { type: 'number' } } };
  const body = JSON.stringify({ schema, contents: [{ mimeType: 'application/pdf', data: invoice.toString('base64') }] });
  // CPU of every thread: the service process's while it answers, this process's while pdf.js reads alone
  const post = async (service: ServiceProcess) => {
    const response = await fetch(`http://127.0.0.1:${service.port}/v1/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body });
    await response.text();
    if (response.status !== 200) throw new Error(`born-digital invoice: HTTP ${response.status}`);
  };
  const measureRound = async (service: ServiceProcess, runs: number) => {
    const serviceWall: number[] = [];
    const aloneWall: number[] = [];
    let serviceCpuMs = 0;
    let aloneCpuMs = 0;
    const measureService = async () => {
      const cpuBefore = service.cpuSeconds();
      serviceWall.push((await timed(() => post(service)))[1]);
      serviceCpuMs += (service.cpuSeconds() - cpuBefore) * 1000;
    };
    const measureAlone = async () => {
      const cpuBefore = process.cpuUsage();
      aloneWall.push((await timed(() => pdfjsTextAlone(invoice)))[1]);
      const used = process.cpuUsage(cpuBefore);
      aloneCpuMs += (used.user + used.system) / 1000;
    };
    for (let i = 0; i < runs; i++) {
      for (const measure of i % 2 === 0 ? [measureService, measureAlone] : [measureAlone, measureService]) await measure();
    }
    return { runs, serviceWall, aloneWall, serviceCpuMs, aloneCpuMs };
  };
  const median = (values: number[]) => percentile(values, 0.5) ?? NaN;
  const reportRound = (label: string, { runs, serviceWall, aloneWall, serviceCpuMs, aloneCpuMs }: Awaited<ReturnType<typeof measureRound>>) => {
    report(
      `HTTP born-digital invoice PDF (rules) vs pdf.js text alone, ${label}`,
      `median ${median(serviceWall).toFixed(1)} ms vs ${median(aloneWall).toFixed(1)} ms: ${(median(serviceWall) / median(aloneWall)).toFixed(2)}x (${runs} each, in turn; min ${Math.min(...serviceWall).toFixed(1)} vs ${Math.min(...aloneWall).toFixed(1)} ms; the first ${serviceWall[0]!.toFixed(0)} vs ${aloneWall[0]!.toFixed(0)} ms)`,
    );
    report(
      '  the same, CPU time per request (all threads)',
      `mean ${(serviceCpuMs / runs).toFixed(1)} ms (the service process) vs ${(aloneCpuMs / runs).toFixed(1)} ms: ${(serviceCpuMs / aloneCpuMs).toFixed(2)}x (load average ${loadavg()[0]!.toFixed(1)} on ${cores} cores)`,
    );
  };
  const service = await startServiceLikeNpmStart({ API_KEYS: apiKey, EXTRACTOR: 'rules' });
  try {
    // the first requests after start pay for starting the PDF thread and for compiling both paths' code
    reportRound('the first 25 after start', await measureRound(service, 25));
    for (let i = 0; i < 30; i++) await post(service);
    reportRound('warm (after 55)', await measureRound(service, 200));
  } finally {
    service.stop();
  }
  // what the PDF thread's warm-up saves the first requests, and costs the first
  const unwarmedThread = await startServiceLikeNpmStart({ API_KEYS: apiKey, EXTRACTOR: 'rules', PDF_THREAD_WARM_UP: '0' });
  try {
    reportRound('the first 25 after a start with PDF_THREAD_WARM_UP=0', await measureRound(unwarmedThread, 25));
  } finally {
    unwarmedThread.stop();
  }
  // what the warm-up at start (off by default) saves those first requests
  const warmed = await startServiceLikeNpmStart({ API_KEYS: apiKey, EXTRACTOR: 'rules', WARM_UP: '8' });
  try {
    reportRound('the first 25 after a start with WARM_UP=8', await measureRound(warmed, 25));
  } finally {
    warmed.stop();
  }
}

/**
 * Peak RSS of the service after 20 photo requests, per engine, each in a
 * process of its own (scripts/service-rss.ts) with MALLOC_ARENA_MAX,
 * MALLOC_MMAP_THRESHOLD_ and NODE_OPTIONS as `npm start` and the image set
 * them, unless the environment sets them.
 */
async function benchServiceRss(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'docshape-bench-'));
  const photo = join(dir, 'receipt-photo.jpg');
  writeFileSync(photo, await makeReceiptPhoto());
  const script = fileURLToPath(new URL('./service-rss.js', import.meta.url));
  const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
  for (const engine of ENGINES) {
    const output = execFileSync(process.execPath, [script, engine, photo], { encoding: 'utf8', env });
    const { peakRssMb, rssNowMb, nodeOptions } = JSON.parse(output.trim().split('\n').pop() as string) as { peakRssMb: number; rssNowMb: number; nodeOptions: string };
    report(`service peak RSS, OCR_ENGINE=${engine}, after 20 photo requests`, `${peakRssMb} MB (now ${rssNowMb} MB; MALLOC_ARENA_MAX=${env.MALLOC_ARENA_MAX}, NODE_OPTIONS=${nodeOptions})`);
  }
}

async function main(): Promise<void> {
  process.stdout.write(`docshape bench: node ${process.version}, ${cores} cores\n\n`);
  // `npm run bench -- llm`: only the language-model rows
  if (process.argv.includes('llm')) return benchLanguageModel(report);
  // `npm run bench -- jobs [folder] [files]`: only the job rows (bench/jobs.ts)
  const jobs = process.argv.indexOf('jobs');
  if (jobs >= 0) return benchJobs(report, process.argv.slice(jobs + 1));
  // `npm run bench -- text-pdf`: only the born-digital PDF against pdf.js alone
  if (process.argv.includes('text-pdf')) return benchTextPdfAgainstPdfjs();
  // `npm run bench -- formats`: only the input types without printed pages, and TIFF (bench/formats.ts)
  if (process.argv.includes('formats')) return benchFormats(report);
  // `npm run bench -- upload [MB]`: a large file as JSON and as multipart (bench/upload.ts)
  const upload = process.argv.indexOf('upload');
  if (upload >= 0) return benchUpload(report, process.argv.slice(upload + 1));
  const pdf = new PdfProcessor({ workers: 1, maxPixelsPerPage: 80_000_000, renderDpi: 300 });
  const pdf600 = new PdfProcessor({ workers: 1, maxPixelsPerPage: 80_000_000, renderDpi: 600 });
  let a4: GreyRaster;
  try {
    await benchTextLayer(pdf);
    await benchRender(pdf);
    a4 = await a4TextRaster(pdf);
    const scan = await pdf600.render(pdfFile(await makeTextPdf([A4_LINES])), 0);
    const photoFile = decodeContents([{ mimeType: 'image/jpeg', data: (await makeReceiptPhoto()).toString('base64') }], { maxFiles: 1 })[0]!;
    const [photo] = await loadImagePages(photoFile, { maxPixelsPerImage: 80_000_000, maxGifFrames: 1 });
    await benchOcrEngines([
      { label: `receipt photo (JPEG, ${photo!.width}x${photo!.height})`, raster: photo!, runs: 5 },
      { label: `dense A4 page at ${a4.dpi} DPI (${a4.width}x${a4.height})`, raster: a4, runs: 3 },
      { label: `scan at ${scan.dpi} DPI (${scan.width}x${scan.height})`, raster: scan, runs: 3 },
    ]);
    process.stdout.write('\n');
    await benchOcrPools(photo!, 'receipt photo');
  } finally {
    await Promise.all([pdf.close(), pdf600.close()]);
  }
  const native = await startEngine('tesseract', 1);
  try {
    await native.recognize(a4);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) times.push((await timed(() => native.recognize(a4)))[1]);
    benchNativeTesseract(a4, (percentile(times, 0.5) ?? NaN) / 1000);
  } finally {
    await native.close();
  }
  await benchHttp();
  await benchTextPdfAgainstPdfjs();
  await benchServiceRss();
  process.stdout.write('\n');
  await benchFormats(report);
  await benchLanguageModel(report);
  report('peak RSS of this process (all worker threads)', `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
