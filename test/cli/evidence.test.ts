import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { makeTextPdf } from '../fixtures/pdfs.js';

const CLI = fileURLToPath(new URL('../../src/cli.js', import.meta.url));

describe('docshape extract --evidence', function () {
  this.timeout(120_000);

  it('prints {data, evidence} as POST /v1/ answers with options.evidence, and the bare result without it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docshape-cli-'));
    writeFileSync(join(dir, 'schema.json'), JSON.stringify({ type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' } } }));
    writeFileSync(join(dir, 'invoice.pdf'), await makeTextPdf([['Invoice number: INV-7', 'Total: 12.50']]));
    const run = (...flags: string[]) =>
      promisify(execFile)(process.execPath, [CLI, 'extract', '--schema', join(dir, 'schema.json'), '--compact', ...flags, join(dir, 'invoice.pdf')], {
        env: { ...process.env, EXTRACTOR: 'rules', OCR_WORKERS: '1', PDF_WORKERS: '1' },
      });
    const bare = JSON.parse((await run()).stdout);
    expect(bare).to.deep.equal({ invoice_number: 'INV-7', total: 12.5 });
    const explained = JSON.parse((await run('--evidence')).stdout);
    expect(explained.data).to.deep.equal(bare);
    expect(Object.keys(explained.evidence)).to.deep.equal(['/invoice_number', '/total']);
    expect(explained.evidence['/total']).to.include({ file: 0, page: 0, text: '12.50', source: 'text-layer' });
    expect(explained.evidence['/total'].confidence).to.be.within(0, 1);
    // batch mode: each line's result is the body the API answers
    const line = JSON.parse((await run('--jsonl', '--quiet', '--evidence')).stdout.trim());
    expect(line).to.include({ status: 'ok' });
    expect(line.result).to.deep.equal(explained);
  });
});
