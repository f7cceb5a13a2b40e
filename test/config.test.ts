import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../src/config.js';

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
});
