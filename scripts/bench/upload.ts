/**
 * `npm run bench -- upload [MB]`: the same file (default 50 MB) sent to
 * POST /v1/ as JSON with base64 and as multipart/form-data, the two forms
 * taking turns for BENCH_ROUNDS rounds (3), with MAX_BODY_BYTES raised so
 * that both fit. Per form: bytes on the wire; against an app in this
 * process, the time to the answer and the longest the event loop was held
 * (CPU ms of the main thread between two ticks, test/helpers/healthz.ts:
 * other processes' load does not count); and against the service run as
 * `npm start` runs it, started afresh for each request and warmed by a small
 * one, its peak RSS during the request above its RSS before (VmHWM, reset
 * through /proc/<pid>/clear_refs). The file is random bytes sent as a PNG:
 * the service reads and checks the whole body, then answers 400, so what is
 * measured is the upload, not OCR.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { startServices } from '../../src/services.js';
import { watchLoopGaps } from '../../test/helpers/healthz.js';
import { formBody } from '../../test/helpers/multipart.js';
import { percentile } from '../eval/report.js';
import { startServiceLikeNpmStart } from '../service-process.js';

type Report = (label: string, value: string) => void;

const KEY = 'bench-upload-key';
const schema = { type: 'object', properties: { total: { type: 'number' } } };

interface Form {
  label: string;
  body: Buffer;
  contentType: string;
  /** The same form with a small file: warms a fresh service's code. */
  small: Buffer;
}

/** POSTs `body` as it is (fetch would copy it twice on this loop); resolves with the status. */
function post(port: number, body: Buffer, contentType: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: '/v1/', method: 'POST', headers: { 'content-type': contentType, 'content-length': String(body.length), 'x-api-key': KEY } }, (response) => {
      response.resume().on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(body);
  });
}

function forms(file: Buffer): Form[] {
  const json = (bytes: Buffer) => Buffer.from(JSON.stringify({ schema, contents: [{ filename: 'scan.png', mimeType: 'image/png', data: bytes.toString('base64') }] }));
  const multipart = (bytes: Buffer) => formBody([{ name: 'schema', body: JSON.stringify(schema) }, { name: 'file', filename: 'scan.png', type: 'image/png', body: bytes }], 'bench-boundary');
  const small = randomBytes(100_000);
  return [
    { label: 'JSON (base64)', body: json(file), contentType: 'application/json', small: json(small) },
    { label: 'multipart/form-data', body: multipart(file).body, contentType: multipart(file).contentType, small: multipart(small).body },
  ];
}

/** Answer ms and the longest loop stall (CPU ms) of each request, against an app in this process. */
async function stalls(sent: Form[], limit: string, rounds: number): Promise<Map<string, { ms: number[]; stallMs: number[]; status: number }>> {
  const config = loadConfig({ ...process.env, API_KEYS: KEY, EXTRACTOR: 'rules', MAX_BODY_BYTES: limit });
  const services = await startServices(config, silentLogger());
  const app = createApp({ config, pipeline: services, logger: silentLogger() });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const taken = new Map(sent.map((form) => [form.label, { ms: [] as number[], stallMs: [] as number[], status: 0 }]));
  try {
    // the first request of each form compiles its code: not measured
    for (const form of sent) await post(port, form.body, form.contentType);
    for (let round = 0; round < rounds; round++) {
      for (const form of round % 2 === 0 ? sent : [...sent].reverse()) {
        const stop = watchLoopGaps();
        const started = performance.now();
        const status = await post(port, form.body, form.contentType);
        const entry = taken.get(form.label)!;
        entry.ms.push(performance.now() - started);
        entry.stallMs.push(stop());
        entry.status = status;
      }
    }
  } finally {
    server.closeAllConnections();
    server.close();
    await services.close();
  }
  return taken;
}

/** Peak RSS above the RSS before, of a fresh service warmed by the form's small request. */
async function peakAbove(form: Form, limit: string): Promise<number> {
  const service = await startServiceLikeNpmStart({ API_KEYS: KEY, EXTRACTOR: 'rules', MAX_BODY_BYTES: limit });
  try {
    await post(service.port, form.small, form.contentType);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // "5" resets the peak RSS (VmHWM) to the RSS now (proc(5))
    writeFileSync(`/proc/${service.pid}/clear_refs`, '5');
    const before = service.statusMb().VmRSS ?? 0;
    await post(service.port, form.body, form.contentType);
    return (service.statusMb().VmHWM ?? 0) - before;
  } finally {
    service.stop();
  }
}

export async function benchUpload(report: Report, args: string[]): Promise<void> {
  const megabytes = Number(args[0] ?? 50);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const sent = forms(randomBytes(Math.round(megabytes * 1_000_000)));
  const limit = `${Math.ceil((sent[0]!.body.length * 1.1) / 1_000_000)}mb`;
  const taken = await stalls(sent, limit, rounds);
  const peaks = new Map<string, number[]>(sent.map((form) => [form.label, []]));
  for (let round = 0; round < rounds; round++) {
    for (const form of round % 2 === 0 ? sent : [...sent].reverse()) peaks.get(form.label)!.push(await peakAbove(form, limit));
  }
  const median = (values: number[]) => percentile(values, 0.5) ?? NaN;
  report(`upload of ${megabytes} MB, ${rounds} rounds, the forms in turn`, 'medians (longest stall: the most of all rounds)');
  for (const form of sent) {
    const { ms, stallMs, status } = taken.get(form.label)!;
    report(
      `  ${form.label}`,
      `${(form.body.length / 1_000_000).toFixed(1)} MB sent, answer (${status}) ${median(ms).toFixed(0)} ms, longest loop stall ${Math.max(...stallMs).toFixed(0)} CPU-ms, service peak RSS +${median(peaks.get(form.label)!).toFixed(0)} MB`,
    );
  }
}
