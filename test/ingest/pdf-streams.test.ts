import { deflateSync } from 'node:zlib';
import { expect } from 'chai';
import { ascii85Encode, flateStream, inflatingContent, lzwEncode, onePagePdf, stream } from '../../scripts/fuzz/pdf-writer.js';
import { decodedPrefix, findOversizedStream } from '../../src/ingest/pdf-streams.js';

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

describe('PDF stream filters the check decodes (bounded)', () => {
  it('decodes LZW as the PDF reference\'s example and a long text both ways, past the 9- to 12-bit widths and a full table', async () => {
    // PDF Reference, LZWDecode: 45 45 45 45 45 65 45 45 45 66 is written 80 0B 60 50 22 0C 0C 85 01
    const example = await decodedPrefix(Buffer.from('800B6050220C0C8501', 'hex'), ['LZWDecode'], MB);
    expect([...example]).to.deep.equal([0x2d, 0x2d, 0x2d, 0x2d, 0x2d, 0x41, 0x2d, 0x2d, 0x2d, 0x42]);
    let seed = 7;
    const random = Buffer.from(Array.from({ length: 60_000 }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), 97 + (seed % 7))));
    expect((await decodedPrefix(lzwEncode(random), ['LZW'], MB)).equals(random)).to.equal(true);
  });

  it('decodes RunLength and ASCII85, alone and before Flate', async () => {
    expect((await decodedPrefix(Buffer.from([2, 0x61, 0x62, 0x63, 253, 0x7a, 128]), ['RunLengthDecode'], MB)).toString('latin1')).to.equal('abczzzz');
    const text = Buffer.from('Man is distinguished, not only by his reason\u0000\u0000\u0000\u0000!', 'latin1');
    expect((await decodedPrefix(Buffer.from(ascii85Encode(text), 'latin1'), ['ASCII85Decode'], MB)).equals(text)).to.equal(true);
    const flate = deflateSync(Buffer.alloc(2 * MB, 0x61));
    const wrapped = stream('/Filter [/A85 /Fl]', ascii85Encode(flate));
    expect(await findOversizedStream(onePagePdf({ content: wrapped }), MB)).to.not.equal(undefined);
  });

  it('finds LZW and RunLength bombs, stopping just past the limit', async () => {
    // 64 MB of one letter: LZW writes it in some 40 KB, each code standing for up to 4,096 letters
    const lzw = stream('/Filter /LZWDecode', lzwEncode(Buffer.alloc(64 * MB, 0x61)));
    expect(lzw.length).to.be.below(200_000);
    const found = await findOversizedStream(onePagePdf({ content: lzw }), MB);
    expect(found?.decodedBytes).to.be.above(MB).and.below(MB + 8192);
    // 128 bytes for every 2: 2 MB in 32 KB
    const runs = stream('/Filter /RL', Buffer.concat([Buffer.from(Array.from({ length: 16_384 }, () => [129, 0x61]).flat()), Buffer.from([128])]));
    expect(await findOversizedStream(onePagePdf({ content: runs }), MB)).to.deep.include({ objectNumber: 5 });
    // under the limit both pass
    expect(await findOversizedStream(onePagePdf({ content: stream('/Filter /LZW', lzwEncode(Buffer.alloc(MB / 2, 0x61))) }), MB)).to.equal(undefined);
  });
});
