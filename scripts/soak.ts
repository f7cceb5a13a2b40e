/**
 * Load and soak: `npm run soak` (50 connections, 5 minutes) or
 * `npm run soak -- --duration 30 --connections 20`. Prints throughput,
 * latency percentiles, the share of 503s, and RSS, open file descriptors and
 * event-loop delay every 10 s. Exits 1 on any answer other than 200/503, a 503
 * without Retry-After, a connection error, a log line with a key or document
 * value, or RSS growth after warm-up beyond --max-rss-growth-mb.
 */
import { parseArgs } from 'node:util';
import { formatSoak, rssGrowthMb, runSoak } from './soak/run.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '300' },
    connections: { type: 'string', default: '50' },
    'warm-up': { type: 'string', default: '60' },
    'max-rss-growth-mb': { type: 'string', default: '300' },
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const report = await runSoak({
  durationSeconds: Number(values.duration),
  connections: Number(values.connections),
  onSample: (s) => process.stderr.write(`  t=${s.atSeconds}s rss=${s.rssMb}MB fds=${s.fds} loop p99=${s.loopDelay?.p99Ms.toFixed(1) ?? '-'}ms answers=${s.answers}\n`),
});
process.stdout.write(`${formatSoak(report)}\n`);
const growth = rssGrowthMb(report, Number(values['warm-up']));
process.stdout.write(`RSS growth after ${values['warm-up']} s warm-up: ${growth} MB (bound ${values['max-rss-growth-mb']} MB)\n`);
const unexpected = Object.keys(report.statuses).filter((s) => s !== '200' && s !== '503');
const failed = unexpected.length > 0 || report.missingRetryAfter > 0 || report.errors > 0 || report.logHits > 0 || growth > Number(values['max-rss-growth-mb']);
if (failed) process.stdout.write(`FAILED: statuses ${unexpected.join(', ') || '-'}, 503 without Retry-After ${report.missingRetryAfter}, errors ${report.errors}, log hits ${report.logHits}\n`);
process.exit(failed ? 1 : 0);
