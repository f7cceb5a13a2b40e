/**
 * The service's peak RSS under photo traffic, for `npm run bench`: starts
 * the service as main.ts does (rules engine) with the OCR engine named,
 * answers 20 POST /v1/ requests with the photo given, two at a time, and
 * prints {engine, peakRssMb, rssNowMb}. A process of its own, importing only
 * the service, so neither the other engine nor the bench's fixture drawing
 * (canvas) is counted.
 *
 *   node dist/scripts/service-rss.js <paddle|tesseract> <photo.jpg>
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { startServices } from '../src/services.js';

const REQUESTS = 20;

/**
 * Peak RSS of this process in MB. On Linux from /proc (VmHWM): getrusage's
 * maxrss keeps the high-water mark of the process image exec replaced, so a
 * child of the bench would report at least the bench's own RSS.
 */
function peakRssMb(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Math.round(Number(match[1]) / 1024);
  } catch {
    // not Linux
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}
const AT_ONCE = 2;

async function main(): Promise<void> {
  const [engine, photoPath] = process.argv.slice(2);
  if ((engine !== 'paddle' && engine !== 'tesseract') || !photoPath) throw new Error('usage: service-rss <paddle|tesseract> <photo.jpg>');
  const apiKey = 'bench-key';
  const config = loadConfig({ ...process.env, API_KEYS: apiKey, OCR_ENGINE: engine, EXTRACTOR: 'rules' });
  const services = await startServices(config, silentLogger());
  const app = createApp({ config, pipeline: services, logger: silentLogger() });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const schema = { type: 'object', properties: { total: { type: 'number' } } };
  const body = JSON.stringify({ schema, contents: [{ mimeType: 'image/jpeg', data: (await readFile(photoPath)).toString('base64') }] });
  const post = async () => {
    const response = await fetch(`http://127.0.0.1:${port}/v1/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body });
    await response.text();
    if (response.status !== 200 || response.headers.get('x-docshape-ocr') !== engine) throw new Error(`HTTP ${response.status}, OCR ${response.headers.get('x-docshape-ocr')}`);
  };
  for (let i = 0; i < REQUESTS / AT_ONCE; i++) await Promise.all(Array.from({ length: AT_ONCE }, post));
  process.stdout.write(`${JSON.stringify({ engine, peakRssMb: peakRssMb(), rssNowMb: Math.round(process.memoryUsage().rss / 1024 / 1024) })}\n`);
  server.close();
  await services.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`service-rss failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
