/**
 * Prints speed and memory numbers for this machine: text-layer pages/s, PDF
 * render time, OCR seconds/page (1 worker and the pool), end-to-end HTTP
 * latency of an image and a PDF request, peak RSS, and native tesseract for
 * comparison when it is installed; with DOCSHAPE_TEST_MODEL, the in-process
 * language model (bench/llm.ts). Fixtures are generated, as in the tests.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { decodeContents } from '../src/ingest/decode.js';
import { loadImagePages } from '../src/ingest/image.js';
import { PAGE_SEGMENTATION_MODE, encodePgm } from '../src/ingest/ocr-page.js';
import { defaultLangPath, OcrPool } from '../src/ingest/ocr-pool.js';
import { benchLanguageModel } from './bench/llm.js';
import { percentile } from './eval/report.js';
import { PdfProcessor } from '../src/ingest/pdf.js';
import type { GreyRaster } from '../src/ingest/raster.js';
import { silentLogger } from '../src/logger.js';
import { startServices } from '../src/services.js';
import { makeReceiptImage } from '../test/fixtures/images.js';
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
  const lines = Array.from({ length: 45 }, (_, i) => `${i + 1}. Item description number ${i + 1}    qty ${i % 5 + 1}    ${(i * 3.17).toFixed(2)} EUR`);
  const file = pdfFile(await makeTextPdf([lines]));
  return pdf.render(file, 0);
}

async function benchOcr(raster: GreyRaster, label: string): Promise<number> {
  const config = loadConfig({});
  const single = await OcrPool.create({ ...config.ocr, workers: 1 });
  await single.recognize(raster);
  const singleTimes: number[] = [];
  for (let i = 0; i < 3; i++) singleTimes.push((await timed(() => single.recognize(raster)))[1]);
  await single.close();
  const perPageSingle = (percentile(singleTimes, 0.5) ?? NaN) / 1000;
  report(`OCR ${label}, 1 worker`, `${perPageSingle.toFixed(2)} s/page`);

  const pool = await OcrPool.create({ ...config.ocr, workers: cores });
  const pages = cores * 3;
  await Promise.all(Array.from({ length: cores }, () => pool.recognize(raster)));
  const [, ms] = await timed(() => Promise.all(Array.from({ length: pages }, () => pool.recognize(raster))));
  await pool.close();
  const perPagePool = ms / 1000 / pages;
  report(`OCR ${label}, pool of ${cores} workers`, `${perPagePool.toFixed(2)} s/page (${(perPageSingle / perPagePool).toFixed(2)}x)`);
  return perPageSingle;
}

function benchNativeTesseract(raster: GreyRaster, jsSecondsPerPage: number): void {
  const which = spawnSync('which', ['tesseract'], { encoding: 'utf8' });
  if (which.status !== 0) {
    report('native tesseract', 'not installed, skipped');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'docshape-bench-'));
  const path = join(dir, 'page.pgm');
  writeFileSync(path, encodePgm(raster));
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

async function main(): Promise<void> {
  process.stdout.write(`docshape bench: node ${process.version}, ${cores} cores\n\n`);
  // `npm run bench -- llm`: only the language-model rows
  if (process.argv.includes('llm')) return benchLanguageModel(report);
  const pdf = new PdfProcessor({ workers: 1, maxPixelsPerPage: 80_000_000, renderDpi: 300 });
  try {
    await benchTextLayer(pdf);
    await benchRender(pdf);
    const a4 = await a4TextRaster(pdf);
    const receiptFile = decodeContents([{ mimeType: 'image/png', data: (await makeReceiptImage('png')).toString('base64') }], { maxFiles: 1 })[0]!;
    const [receipt] = await loadImagePages(receiptFile, { maxPixelsPerImage: 80_000_000, maxGifFrames: 1 });
    await benchOcr(receipt!, 'receipt image');
    const a4Seconds = await benchOcr(a4, `A4 page at ${a4.dpi} DPI (${a4.width}x${a4.height})`);
    benchNativeTesseract(a4, a4Seconds);
  } finally {
    await pdf.close();
  }
  await benchHttp();
  await benchLanguageModel(report);
  report('peak RSS (whole process, all worker threads)', `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
