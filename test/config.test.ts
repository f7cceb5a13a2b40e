import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig, MAX_TIMER_MS } from '../src/config.js';

describe('loadConfig', () => {
  it('has documented defaults: port 8080 on all interfaces, no keys, engine chosen automatically', () => {
    const config = loadConfig({});
    expect(config.port).to.equal(8080);
    expect(config.host).to.equal('0.0.0.0');
    expect(config.apiKeys).to.deep.equal([]);
    expect(config.extractor).to.equal('auto');
    expect(config.ollama.host).to.equal('http://127.0.0.1:11434');
    expect(config.limits.maxBodyBytes).to.equal(50 * 1024 * 1024);
    expect(config.ocr.langs).to.deep.equal(['eng']);
    expect(config.dates).to.deep.equal({ order: 'auto', fallback: 'dmy' });
  });

  it('reads the date order and its fallback', () => {
    expect(loadConfig({ DATE_ORDER: 'MDY', DATE_ORDER_FALLBACK: 'mdy' }).dates).to.deep.equal({ order: 'mdy', fallback: 'mdy' });
    expect(() => loadConfig({ DATE_ORDER: 'ymd' })).to.throw(ConfigError, /DATE_ORDER must be one of "auto", "dmy", "mdy"/);
    expect(() => loadConfig({ DATE_ORDER_FALLBACK: 'auto' })).to.throw(ConfigError, /DATE_ORDER_FALLBACK/);
  });

  it('reads LOG_LEVEL as one of pino\'s levels, info when unset or blank, and refuses another word at boot', () => {
    expect(loadConfig({}).logLevel).to.equal('info');
    expect(loadConfig({ LOG_LEVEL: '' }).logLevel).to.equal('info');
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).to.equal('debug');
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).to.throw(ConfigError, /LOG_LEVEL must be one of "fatal", "error", "warn", "info"/);
  });

  it('reads WARM_UP, the warm-up requests before the service listens: none unless set', () => {
    expect(loadConfig({}).warmUpRequests).to.equal(0);
    expect(loadConfig({ WARM_UP: '8' }).warmUpRequests).to.equal(8);
    expect(loadConfig({ WARM_UP: '3' }).warmUpRequests).to.equal(3);
    expect(loadConfig({}).warmUpEngineRuns).to.equal(6);
    expect(loadConfig({ WARM_UP_ENGINE: '0' }).warmUpEngineRuns).to.equal(0);
    expect(() => loadConfig({ WARM_UP: 'yes' })).to.throw(ConfigError, /WARM_UP must be an integer between 0 and 100/);
  });

  it('refuses a time limit longer than a timer can wait (Node would fire it after 1 ms), naming the limit; takes one at the limit', () => {
    const tooLong: Array<[string, string]> = [
      ['REQUEST_TIMEOUT_MS', '3000000000'],
      ['LLM_TIMEOUT_MS', '2147483648'],
      ['MAX_QUEUE_WAIT_MS', '9999999999'],
      ['OLLAMA_PROBE_TIMEOUT_MS', '2147483648'],
      ['SHUTDOWN_TIMEOUT_MS', '2147483648'],
      ['JOB_TIMEOUT', '30d'],
      ['JOB_LOCK', '25d'],
      ['WEBHOOK_TIMEOUT', '2147483648ms'],
      ['WEBHOOK_RETRY_DELAY', '90d'],
    ];
    for (const [name, value] of tooLong) {
      expect(() => loadConfig({ [name]: value }), name).to.throw(ConfigError, new RegExp(`^${name} must be at most 2147483647 ms \\(24\\.8 days, the longest a timer can wait\\)`));
    }
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '2147483647' }).limits.requestTimeoutMs).to.equal(MAX_TIMER_MS);
    expect(loadConfig({ JOB_TIMEOUT: '24d' }).jobs.timeoutMs).to.equal(24 * 86_400_000);
    // not a timer: a result may be kept longer
    expect(loadConfig({ JOB_RESULT_TTL: '30d' }).jobs.resultTtlMs).to.equal(30 * 86_400_000);
  });

  it('merges API_KEYS and API_KEYS_FILE, skipping blanks and comments', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'docshape-')), 'keys');
    writeFileSync(file, '# team keys\nkey-b\n\nkey-c\n');
    expect(loadConfig({ API_KEYS: 'key-a, key-b', API_KEYS_FILE: file }).apiKeys).to.deep.equal(['key-a', 'key-b', 'key-c']);
  });

  it('drops a comment line whole, commas included (its tail must not become a key)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'docshape-')), 'keys');
    writeFileSync(file, '# long random keys, e.g. openssl rand -base64 32\n  # indented, too\nkey-d, key-e\n');
    expect(loadConfig({ API_KEYS_FILE: file }).apiKeys).to.deep.equal(['key-d', 'key-e']);
  });

  it('reads MAX_PDF_STREAM_MB in megabytes, 8 by default', () => {
    expect(loadConfig({}).pdf.maxStreamBytes).to.equal(8 * 1024 * 1024);
    expect(loadConfig({ MAX_PDF_STREAM_MB: '32' }).pdf.maxStreamBytes).to.equal(32 * 1024 * 1024);
    expect(() => loadConfig({ MAX_PDF_STREAM_MB: '0' })).to.throw(ConfigError, /MAX_PDF_STREAM_MB/);
  });

  it('reads PDF_THREAD_WARM_UP, 30 readings by default, 0 for none', () => {
    expect(loadConfig({}).pdf.threadWarmUpReadings).to.equal(30);
    expect(loadConfig({ PDF_THREAD_WARM_UP: '0' }).pdf.threadWarmUpReadings).to.equal(0);
    expect(() => loadConfig({ PDF_THREAD_WARM_UP: '201' })).to.throw(ConfigError, /PDF_THREAD_WARM_UP/);
  });

  it('reads sizes with units', () => {
    expect(loadConfig({ MAX_BODY_BYTES: '2mb' }).limits.maxBodyBytes).to.equal(2 * 1024 * 1024);
    expect(loadConfig({ MAX_BODY_BYTES: '1000' }).limits.maxBodyBytes).to.equal(1000);
  });

  it('fails at boot naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).to.throw(ConfigError, /PORT/);
    expect(() => loadConfig({ OCR_WORKERS: '0' })).to.throw(ConfigError, /OCR_WORKERS/);
    expect(() => loadConfig({ MAX_BODY_BYTES: '5 parsecs' })).to.throw(ConfigError, /MAX_BODY_BYTES/);
    expect(() => loadConfig({ API_KEYS_FILE: '/nonexistent/keys' })).to.throw(ConfigError, /API_KEYS_FILE/);
    expect(() => loadConfig({ EXTRACTOR: 'magic' })).to.throw(ConfigError, /EXTRACTOR/);
  });

  it('jobs: in this process by default; ROLE api or worker needs REDIS_URL; durations with units', () => {
    const defaults = loadConfig({});
    expect(defaults.role).to.equal('all');
    expect(defaults.jobs).to.include({ redisUrl: undefined, resultTtlMs: 24 * 3_600_000, maxAttempts: 3, lockMs: 30_000, timeoutMs: 30 * 60_000 });
    expect(defaults.webhooks).to.include({ secret: undefined, maxAttempts: 10, retryDelayMs: 5000, timeoutMs: 10_000 });
    expect(defaults.webhooks.allowedHosts).to.deep.equal([]);
    expect(() => loadConfig({ ROLE: 'worker' })).to.throw(ConfigError, /ROLE=worker needs REDIS_URL/);
    expect(loadConfig({ ROLE: 'api', REDIS_URL: 'redis://redis:6379' }).role).to.equal('api');
    expect(() => loadConfig({ REDIS_URL: 'http://redis:6379' })).to.throw(ConfigError, /REDIS_URL must start with redis:\/\/ or rediss:\/\//);
    expect(loadConfig({ JOB_RESULT_TTL: '90m', JOB_LOCK: '5000ms', JOB_TIMEOUT: '120' }).jobs).to.include({ resultTtlMs: 90 * 60_000, lockMs: 5000, timeoutMs: 120_000 });
    expect(() => loadConfig({ JOB_RESULT_TTL: '1 week' })).to.throw(ConfigError, /JOB_RESULT_TTL must be a duration/);
    expect(loadConfig({ MAX_ACTIVE_REQUESTS: '3' }).jobs.concurrency).to.equal(3);
  });
});
