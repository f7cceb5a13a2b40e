import { expect } from 'chai';
import sharp from 'sharp';
import { pageImageSource } from '../../src/engines/page-images.js';
import { decodeContents } from '../../src/ingest/decode.js';
import { loadImagePages } from '../../src/ingest/image.js';
import type { PdfProcessor } from '../../src/ingest/pdf.js';
import { makeAnimatedGif } from '../fixtures/images.js';
import { content, testConfig } from '../helpers/test-server.js';

const limits = testConfig().limits;
const noPdf: Pick<PdfProcessor, 'render'> = { render: () => Promise.reject(new Error('no PDF here')) };

/** Grey pixels of a base64 PNG, for comparing pictures. */
async function pixels(base64: string): Promise<Buffer> {
  return sharp(Buffer.from(base64, 'base64')).greyscale().raw().toBuffer();
}

describe('page pictures for models that can see', () => {
  it('shows the page the Document means for a GIF with a repeated frame (its pages are its distinct frames)', async () => {
    // frames: A, A (repeated), B -> the Document has two pages, A and B
    const gif = makeAnimatedGif([['FIRST PAGE', 'Invoice A-1'], ['SECOND PAGE', 'Total 99.00']]);
    const [file] = decodeContents([content(gif, 'image/gif')], limits);
    expect(await loadImagePages(file!, limits)).to.have.length(2);
    const [first, second] = await pageImageSource([file!], noPdf, limits, new AbortController().signal)([
      { file: 0, page: 0 },
      { file: 0, page: 1 },
    ]);
    const frame = async (index: number) => sharp(gif, { page: index }).resize({ width: 1024, height: 1024, fit: 'inside', withoutEnlargement: true }).greyscale().raw().toBuffer();
    expect((await pixels(first!)).equals(await frame(0))).to.equal(true);
    // page 1 is the third frame (B), not the second (a copy of A)
    expect((await pixels(second!)).equals(await frame(2))).to.equal(true);
    expect((await pixels(second!)).equals(await pixels(first!))).to.equal(false);
  });
});
