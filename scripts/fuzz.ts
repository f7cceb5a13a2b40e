/**
 * The hostile-input corpus against a live service on loopback.
 *
 *   npm run fuzz -- --cases 10000 [--seed N] [--concurrency 4] [--timeout-ms 20000]
 *   npm run fuzz -- --seed N --case I[,J...] --show     # rebuild and replay single cases
 *   npm run fuzz -- --family xml,attachments             # only these families
 *
 * --env NAME=VALUE (repeatable) sets the service's environment, e.g. --env OCR_ROTATION=off.
 * Prints counts per family and status, the worst latency per family, the
 * /healthz probe, the log scan and every violation with its reproducer.
 * Exits 1 when anything is violated.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatReport } from './fuzz/report.js';
import { runFuzz } from './fuzz/run.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    case: { type: 'string' },
    family: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    'timeout-ms': { type: 'string', default: '20000' },
    show: { type: 'boolean', default: false },
    json: { type: 'string' },
    env: { type: 'string', multiple: true },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  process.stdout.write('usage: npm run fuzz -- [--cases N] [--seed N] [--case I,J] [--family NAME,NAME] [--show] [--concurrency N] [--timeout-ms MS] [--env NAME=VALUE] [--json FILE]\n');
  process.exit(0);
}

// 'exit' handlers stop the service; a signal would otherwise end this process without them
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const only = values.case?.split(',').map((part) => Number(part.trim()));
const report = await runFuzz({
  seed: Number(values.seed),
  cases: Number(values.cases),
  ...(only ? { only } : {}),
  concurrency: Number(values.concurrency),
  requestTimeoutMs: Number(values['timeout-ms']),
  ...(values.family ? { families: values.family.split(',').map((name) => name.trim()) } : {}),
  env: Object.fromEntries((values.env ?? []).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])),
  keepBodies: values.show,
  onProgress: (done, total) => {
    if (done % 250 === 0 || done === total) process.stderr.write(`\r${done}/${total}`);
  },
});
process.stderr.write('\n');
if (values.show) {
  for (const result of report.results) {
    process.stdout.write(`#${result.index} [${result.family}] ${result.variant}\n  ${result.status} in ${Math.round(result.ms)} ms: ${(result.body ?? '').slice(0, 600)}\n`);
  }
}
process.stdout.write(`${formatReport(report)}\n`);
if (values.json) writeFileSync(values.json, JSON.stringify(report, null, 1));
process.exit(report.violations.length > 0 || report.logHits.length > 0 ? 1 : 0);
