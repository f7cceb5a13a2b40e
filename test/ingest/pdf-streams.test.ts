import { deflateSync } from 'node:zlib';
import { expect } from 'chai';
import { flateStream, inflatingContent, onePagePdf, stream } from '../../scripts/fuzz/pdf-writer.js';
import { findOversizedStream } from '../../src/ingest/pdf-streams.js';

const MB = 1024 * 1024;

describe('PDF streams checked before pdf.js reads them (pdf-streams.ts)', () => {
  it('finds a content stream that inflates past the limit, naming its object, and passes one under it', async () => {
    expect(await findOversizedStream(onePagePdf({ content: inflatingContent(2, true) }), MB)).to.deep.include({ objectNumber: 5, limit: MB });
    expect(await findOversizedStream(onePagePdf({ content: inflatingContent(2, false) }), MB)).to.deep.include({ objectNumber: 5 });
    expect(await findOversizedStream(onePagePdf({ content: inflatingContent(0.5, true) }), MB)).to.equal(undefined);
  });

  it('stops inflating just past the limit rather than decoding the whole bomb', async () => {
    const found = await findOversizedStream(onePagePdf({ content: inflatingContent(64, true) }), MB);
    expect(found?.decodedBytes).to.be.above(MB).and.below(2 * MB);
  });

  it('sees through chained FlateDecode, ASCIIHexDecode, a lying /Length and a damaged tail', async () => {
    const inner = deflateSync(Buffer.alloc(2 * MB, 0x61));
    const chained = stream('/Filter [/FlateDecode /FlateDecode]', deflateSync(inner));
    expect(await findOversizedStream(onePagePdf({ content: chained }), MB)).to.not.equal(undefined);
    const hex = stream('/Filter [/AHx /Fl]', `${inner.toString('hex')}>`);
    expect(await findOversizedStream(onePagePdf({ content: hex }), MB)).to.not.equal(undefined);
    const lying = Buffer.from(flateStream('', Buffer.alloc(2 * MB, 0x61)).toString('latin1').replace(/\/Length \d+/, '/Length 10'), 'latin1');
    expect(await findOversizedStream(onePagePdf({ content: lying }), MB)).to.not.equal(undefined);
    const damaged = stream('/Filter /FlateDecode', Buffer.concat([inner.subarray(0, inner.length - 8), Buffer.from('garbage!garbage!')]));
    expect(await findOversizedStream(onePagePdf({ content: damaged }), MB)).to.not.equal(undefined);
  });

  it('leaves images to pdf.js\'s pixel limit and gives font programs a wider limit', async () => {
    const image = flateStream('/Type /XObject /Subtype /Image /Width 2048 /Height 1024 /ColorSpace /DeviceGray /BitsPerComponent 8', Buffer.alloc(2 * MB, 0xff));
    const font = flateStream('/Length1 2097152', Buffer.alloc(2 * MB, 0));
    expect(await findOversizedStream(onePagePdf({ extraObjects: [image, font] }), MB)).to.equal(undefined);
  });
});
