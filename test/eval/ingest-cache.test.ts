import { expect } from 'chai';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentsKey, ingestFingerprint, IngestCache } from '../../scripts/eval/ingest-cache.js';
import type { Document } from '../../src/document/document.js';

const document: Document = {
  files: [{ index: 0, filename: 'a.png', mimeType: 'image/png', pages: [{ index: 0, width: 10, height: 10, units: 'raster-pixels', source: 'ocr', lines: [] }] }],
};

const request = (data: string, mimeType = 'image/png') => ({ schema: {}, contents: [{ mimeType, data: Buffer.from(data).toString('base64') }] });

describe('eval ingest cache', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ingest-cache-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keys a request by its bytes and declared types, not by file name or schema', () => {
    expect(contentsKey(request('abc'))).to.equal(contentsKey({ ...request('abc'), schema: { type: 'object' } }));
    expect(contentsKey(request('abc'))).to.not.equal(contentsKey(request('abd')));
    expect(contentsKey(request('abc'))).to.not.equal(contentsKey(request('abc', 'image/jpeg')));
  });

  it('changes the fingerprint with the ingest settings', async () => {
    expect(await ingestFingerprint({ ocr: { langs: ['eng'] } })).to.not.equal(await ingestFingerprint({ ocr: { langs: ['deu'] } }));
    expect(await ingestFingerprint({ a: 1 })).to.equal(await ingestFingerprint({ a: 1 }));
  });

  it('returns what was stored under the same fingerprint, and nothing under another or with --refresh', async () => {
    const cache = new IngestCache(dir, 'f1', false);
    expect(await cache.get('k')).to.equal(undefined);
    await cache.put('k', document);
    expect(await cache.get('k')).to.deep.equal(document);
    expect(await new IngestCache(dir, 'f2', false).get('k')).to.equal(undefined);
    expect(await new IngestCache(dir, 'f1', true).get('k')).to.equal(undefined);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).to.deep.equal([]);
  });
});
