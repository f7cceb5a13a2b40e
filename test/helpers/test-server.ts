import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type AppDeps } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import type { PipelineDeps } from '../../src/pipeline.js';
import { startServices } from '../../src/services.js';

export const TEST_API_KEY = 'test-key-0123456789';

type Services = Awaited<ReturnType<typeof startServices>>;
let shared: Promise<Services> | undefined;

/** One OCR pool and pdf.js pool for the whole run: starting Tesseract workers costs seconds. */
export function sharedServices(): Promise<Services> {
  shared ??= startServices(testConfig(), silentLogger());
  return shared;
}

export async function closeSharedServices(): Promise<void> {
  if (shared) await (await shared).close();
  shared = undefined;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ API_KEYS: TEST_API_KEY, EXTRACTOR: 'rules', OCR_WORKERS: '2', PDF_WORKERS: '1', ...overrides });
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** A fresh app on an ephemeral loopback port. */
export async function startTestServer(pipeline: PipelineDeps, configOverrides: Record<string, string> = {}, extra: Partial<AppDeps> = {}): Promise<RunningServer> {
  const config = testConfig(configOverrides);
  const app = createApp({ config, pipeline: { ...pipeline, limits: config.limits }, logger: silentLogger(), ...extra });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = { 'x-api-key': TEST_API_KEY }): Promise<JsonResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Left as text: the test will say what it got.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export function content(bytes: Buffer, mimeType: string, filename?: string): { filename?: string; mimeType: string; data: string } {
  return { ...(filename ? { filename } : {}), mimeType, data: bytes.toString('base64') };
}

/**
 * Waits until the service at `url` runs `count` requests (its /readyz says
 * so): a test that needs a request in progress waits for it, not for a fixed
 * time that a busy machine may not honour.
 */
export async function untilActive(url: string, count = 1): Promise<void> {
  for (;;) {
    const { requests } = (await (await fetch(`${url}/readyz`)).json()) as { requests: { active: number } };
    if (requests.active >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
