import { expect } from 'chai';
import { formatReport } from '../../scripts/fuzz/report.js';
import { runFuzz, type FuzzReport } from '../../scripts/fuzz/run.js';

/**
 * A seeded sample of the hostile-input corpus (scripts/fuzz) against the real
 * service process: every answer on time and documented, no 5xx but 503/504,
 * the process alive and
 * /healthz answering throughout, no key or document value in any log line.
 * `npm run fuzz -- --cases 10000` runs the whole corpus.
 */
// 2,000 cases (issue 9 asks about that many) take 6-9 minutes on 2 busy cores (the service, mostly OCR, is the bottleneck); FUZZ_CASES changes it
const CASES = Number(process.env.FUZZ_CASES ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);

describe(`hostile-input corpus (${CASES} cases, seed ${SEED})`, function () {
  this.timeout(30 * 60_000);
  let report: FuzzReport;

  before(async () => {
    // One OCR pass per page: the corpus tests robustness, not reading quality, and the sample must stay short.
    report = await runFuzz({ seed: SEED, cases: CASES, concurrency: 4, requestTimeoutMs: 8000, env: { OCR_ROTATION: 'off' } });
    process.stdout.write(`${formatReport(report).replace(/^/gm, '      ')}\n`);
  });

  it('answers every case on time with a valid 200 or a documented error, never another 5xx', () => {
    expect(report.results).to.have.length(CASES);
    expect(report.violations.map((v) => `#${v.index} ${v.variant}: ${v.problems.join('; ')}`)).to.deep.equal([]);
  });

  it('stays alive, /healthz answering every probe', () => {
    expect(report.serviceDeaths).to.equal(0);
    expect(report.health.failures, report.health.failureReasons.join('\n')).to.equal(0);
    expect(report.health.probes).to.be.greaterThan(100);
  });

  it('writes no API key and no document or schema content into its logs', () => {
    expect(report.logLines).to.be.greaterThan(0);
    expect(report.logHits).to.deep.equal([]);
  });
});
