/** Prints a corpus run: counts per family and status, worst latency per family, /healthz, logs, violations with how to reproduce them. */
import type { FuzzReport } from './run.js';

export function formatReport(report: FuzzReport): string {
  const out: string[] = [];
  const statuses = [...new Set(report.results.map((r) => String(r.status)))].sort();
  const families = [...new Set(report.results.map((r) => r.family))].sort();
  out.push(`corpus: ${report.cases} cases, seed ${report.seed}, ${(report.wallMs / 1000).toFixed(0)} s`);
  out.push('');
  const header = ['family'.padEnd(10), ...statuses.map((s) => s.padStart(6)), 'total'.padStart(7), 'worst ms'.padStart(9), '  worst case'];
  out.push(header.join(' '));
  const row = (name: string, rows: FuzzReport['results']) => {
    const worst = rows.reduce((a, b) => (b.ms > a.ms ? b : a), rows[0]!);
    return [
      name.padEnd(10),
      ...statuses.map((s) => String(rows.filter((r) => String(r.status) === s).length).padStart(6)),
      String(rows.length).padStart(7),
      String(Math.round(worst.ms)).padStart(9),
      `  #${worst.index} ${worst.variant.slice(0, 70)}`,
    ].join(' ');
  };
  for (const family of families) out.push(row(family, report.results.filter((r) => r.family === family)));
  if (report.results.length > 0) out.push(row('all', report.results));
  out.push('');
  const h = report.health;
  out.push(`/healthz: ${h.probes} probes, ${h.failures} failed, p50 ${h.p50Ms.toFixed(1)} ms, p99 ${h.p99Ms.toFixed(1)} ms, slowest ${h.slowestMs.toFixed(0)} ms, ${h.over100Ms} over 100 ms, ${h.over1000Ms} over 1 s`);
  for (const slow of h.slow.slice(0, 5)) out.push(`  ${slow.ms.toFixed(0)} ms during: ${slow.during.slice(0, 4).join(' | ').slice(0, 300)}`);
  out.push(`service: peak RSS ${report.peakRssMb} MB, ${report.serviceDeaths} deaths`);
  if (report.peakRssDuring.length > 0) out.push(`  peak during: ${report.peakRssDuring.slice(0, 4).join(' | ').slice(0, 300)}`);
  // every 60 s: RSS MB (cases answered)
  const minutes = report.rssTimeline.filter((_, i) => i % 6 === 0);
  if (minutes.length > 0) out.push(`  RSS every 60 s: ${minutes.map(([, mb, done]) => `${mb} (${done})`).join(', ')}`);
  out.push(`logs: ${report.logLines} lines scanned, ${report.logHits.length} with a key or a document value, ${report.logErrors.length} at level error`);
  for (const hit of report.logHits.slice(0, 5)) out.push(`  ${hit.what}: ${hit.line.slice(0, 200)}`);
  for (const line of report.logErrors.slice(0, 5)) out.push(`  error: ${line.slice(0, 200)}`);
  out.push('');
  out.push(`violations: ${report.violations.length}`);
  for (const v of report.violations.slice(0, 50)) {
    out.push(`  #${v.index} [${v.family}] ${v.variant.slice(0, 100)}: ${v.problems.join('; ').slice(0, 300)}`);
    if (v.index >= 0) out.push(`    reproduce: npm run fuzz -- --seed ${report.seed} --case ${v.index} --show`);
  }
  return out.join('\n');
}
