import { expect } from 'chai';
import { inputBytes, requestFromInputBytes } from '../../src/jobs/input-bytes.js';
import type { ExtractionRequest } from '../../src/pipeline.js';

describe('a job\'s input as the Redis store keeps it', () => {
  const schema = { type: 'object', properties: { total: { type: 'number', description: 'Total, "gross"\n' } } };

  it('keeps a JSON body as it came, and reads it back parsed', async () => {
    const request: ExtractionRequest = { schema, contents: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }] };
    const raw = Buffer.from(JSON.stringify(request));
    expect(await inputBytes({ raw, request })).to.equal(raw);
    expect(requestFromInputBytes(raw)).to.deep.equal(request);
  });

  it('frames a request whose files are bytes: no base64, and the files read back as views of the stored bytes', async () => {
    const pdf = Buffer.from('%PDF-1.7\n\u00e9 binary \u0000\u00ff bytes');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2]);
    const request: ExtractionRequest = {
      schema,
      contents: [{ filename: 'Rechnung ü.pdf', mimeType: 'application/pdf', data: pdf }, { mimeType: 'image/png', data: png }],
      options: { evidence: true },
    };
    const stored = await inputBytes({ request });
    expect(stored.length).to.be.below(pdf.length + png.length + 300);
    const back = requestFromInputBytes(stored);
    expect(back.schema).to.deep.equal(schema);
    expect(back.options).to.deep.equal({ evidence: true });
    expect(back.contents.map(({ filename, mimeType }) => [filename, mimeType])).to.deep.equal([['Rechnung ü.pdf', 'application/pdf'], [undefined, 'image/png']]);
    expect(Buffer.from(back.contents[0]!.data as Uint8Array).equals(pdf)).to.equal(true);
    expect(Buffer.from(back.contents[1]!.data as Uint8Array).equals(png)).to.equal(true);
    expect((back.contents[1]!.data as Uint8Array).buffer).to.equal(stored.buffer, 'a view, not a copy');
  });
});
