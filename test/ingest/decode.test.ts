import { expect } from 'chai';
import { AppError } from '../../src/errors.js';
import { decodeContents, SUPPORTED_MIME_TYPES, type ContentItem } from '../../src/ingest/decode.js';

const LIMITS = { maxFiles: 5 };

const SAMPLES = {
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]),
  'image/gif': Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
  'image/webp': Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]),
  'application/pdf': Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1'),
  'application/xml': Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<Invoice/>', 'utf8'),
} satisfies Record<string, Buffer>;
type Sample = keyof typeof SAMPLES;
/** The binary types and XML; the text and Office types have tests of their own (formats.test.ts). */
const SAMPLE_TYPES = Object.keys(SAMPLES) as Sample[];

const LABELS: Record<Sample, string> = {
  'image/jpeg': 'a JPEG image',
  'image/png': 'a PNG image',
  'image/gif': 'a GIF image',
  'image/webp': 'a WebP image',
  'application/pdf': 'a PDF file',
  'application/xml': 'an XML file',
};

function item(mimeType: string, bytes: Buffer, filename?: string): ContentItem {
  return { mimeType, data: bytes.toString('base64'), ...(filename === undefined ? {} : { filename }) };
}

/** Runs fn, expecting a 400 AppError, and returns its message. */
function badRequestMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(AppError);
    expect((error as AppError).status).to.equal(400);
    return (error as AppError).message;
  }
  expect.fail('expected a 400 AppError');
}

function decodeOne(entry: unknown, index = 0): string {
  const contents = [...Array.from({ length: index }, () => item('image/png', SAMPLES['image/png'])), entry] as ContentItem[];
  return badRequestMessage(() => decodeContents(contents, { maxFiles: 10 }));
}

describe('decodeContents', () => {
  describe('accepts', () => {
    it('every supported type with matching bytes, keeping index, filename and bytes', () => {
      const contents = SAMPLE_TYPES.map((mime, i) => item(mime, SAMPLES[mime], `f${i}`));
      const files = decodeContents(contents, { maxFiles: 10 });
      expect(files.map((f) => f.mimeType)).to.deep.equal([...SAMPLE_TYPES]);
      files.forEach((file, i) => {
        expect(file.index).to.equal(i);
        expect(file.filename).to.equal(`f${i}`);
        expect(file.bytes.equals(SAMPLES[SAMPLE_TYPES[i]!])).to.equal(true);
      });
    });

    it('defaults the filename to file-<n>, counting from 1', () => {
      const files = decodeContents([item('image/png', SAMPLES['image/png']), item('image/gif', SAMPLES['image/gif'], '  ')], LIMITS);
      expect(files.map((f) => f.filename)).to.deep.equal(['file-1', 'file-2']);
    });

    it('a data: URL prefix whose type matches (or is absent)', () => {
      const b64 = SAMPLES['image/png'].toString('base64');
      for (const data of [`data:image/png;base64,${b64}`, `DATA:Image/PNG;BASE64,${b64}`, `data:;base64,${b64}`, `data:image/png;name=a.png;base64,${b64}`]) {
        const [file] = decodeContents([{ mimeType: 'image/png', data }], LIMITS);
        expect(file!.bytes.equals(SAMPLES['image/png']), data.slice(0, 30)).to.equal(true);
      }
    });

    it('whitespace and line breaks anywhere in the base64 (MIME-style wrapping)', () => {
      const b64 = SAMPLES['application/pdf'].toString('base64');
      const wrapped = `  ${b64.slice(0, 8)}\r\n${b64.slice(8, 20)}\n\t${b64.slice(20)} \n`;
      const [file] = decodeContents([{ mimeType: 'application/pdf', data: wrapped }], LIMITS);
      expect(file!.bytes.equals(SAMPLES['application/pdf'])).to.equal(true);
    });

    it('the base64url alphabet and missing padding', () => {
      const bytes = Buffer.concat([SAMPLES['image/jpeg'], Buffer.from([0xfb, 0xff, 0xbf, 0x3e])]);
      const b64url = bytes.toString('base64url');
      expect(b64url).to.match(/[-_]/);
      expect(b64url).not.to.include('=');
      const [file] = decodeContents([{ mimeType: 'image/jpeg', data: b64url }], LIMITS);
      expect(file!.bytes.equals(bytes)).to.equal(true);
    });

    it('standard base64 without padding', () => {
      const bytes = Buffer.concat([SAMPLES['image/png'], Buffer.from([1])]);
      const [file] = decodeContents([{ mimeType: 'image/png', data: bytes.toString('base64').replace(/=+$/, '') }], LIMITS);
      expect(file!.bytes.equals(bytes)).to.equal(true);
    });

    it('mimeType in other case and the image/jpg alias', () => {
      const files = decodeContents([item('IMAGE/PNG', SAMPLES['image/png']), item('image/jpg', SAMPLES['image/jpeg'])], LIMITS);
      expect(files.map((f) => f.mimeType)).to.deep.equal(['image/png', 'image/jpeg']);
    });

    it('a PDF header after leading junk within the first 1024 bytes', () => {
      const bytes = Buffer.concat([Buffer.alloc(500, 0x20), SAMPLES['application/pdf']]);
      expect(decodeContents([item('application/pdf', bytes)], LIMITS)).to.have.length(1);
    });

    it('a file\'s own bytes (a multipart part, a file the CLI read): a view of them, not base64, checked alike', () => {
      const body = Buffer.concat([Buffer.from('--boundary\r\n'), SAMPLES['application/pdf'], Buffer.from('\r\n--boundary--')]);
      const view = body.subarray(12, 12 + SAMPLES['application/pdf'].length);
      const [file] = decodeContents([{ filename: 'a.pdf', mimeType: 'application/pdf', data: view }], LIMITS);
      expect(file!.bytes.equals(SAMPLES['application/pdf'])).to.equal(true);
      expect(file!.bytes.buffer).to.equal(body.buffer, 'a view of the bytes, not a copy');
      // no base64 is read from them: bytes that would be base64 text stay bytes
      const text = Buffer.from(SAMPLES['image/png'].toString('base64'));
      expect(badRequestMessage(() => decodeContents([{ mimeType: 'image/png', data: text }], LIMITS))).to.match(/^contents\[0\]\.data is not a PNG image as contents\[0\]\.mimeType says/);
      expect(badRequestMessage(() => decodeContents([{ mimeType: 'image/png', data: new Uint8Array(0) }], LIMITS))).to.equal('contents[0].data is empty');
      expect(badRequestMessage(() => decodeContents([{ mimeType: 'image/png', data: SAMPLES['application/pdf'] }], LIMITS))).to.match(/^contents\[0\]\.data is a PDF file but contents\[0\]\.mimeType is image\/png/);
    });
  });

  describe('rejects with 400 naming the field', () => {
    it('an empty or non-array contents', () => {
      expect(badRequestMessage(() => decodeContents([], LIMITS))).to.include('contents');
      expect(badRequestMessage(() => decodeContents(null as unknown as ContentItem[], LIMITS))).to.include('contents');
    });

    it('more files than maxFiles, naming the limit', () => {
      const contents = Array.from({ length: 6 }, () => item('image/png', SAMPLES['image/png']));
      const message = badRequestMessage(() => decodeContents(contents, LIMITS));
      expect(message).to.include('contents').and.include('5').and.include('MAX_FILES');
    });

    it('an entry that is not an object', () => {
      expect(decodeOne('hello', 1)).to.include('contents[1]');
    });

    it('a missing or non-string mimeType', () => {
      expect(decodeOne({ data: 'AAAA' }, 2)).to.equal('contents[2].mimeType is required');
      expect(decodeOne({ mimeType: 7, data: 'AAAA' })).to.include('contents[0].mimeType must be a string');
    });

    it('an unsupported mimeType, listing the supported ones', () => {
      const message = decodeOne({ mimeType: 'application/msword', data: 'aGVsbG8=' }, 2);
      expect(message).to.include('contents[2].mimeType "application/msword" is not supported; use one of');
      for (const mime of SUPPORTED_MIME_TYPES) expect(message).to.include(mime);
    });

    it('a mimeType longer than any media type, without quoting it back', () => {
      const message = decodeOne({ mimeType: `image/${'x'.repeat(300)}`, data: SAMPLES['image/png'].toString('base64') }, 1);
      expect(message).to.match(/^contents\[1\]\.mimeType of 306 characters is not a media type; use one docshape reads/);
      expect(message.length).to.be.below(200);
      // surrounding spaces are no part of the type, however many
      expect(() => decodeContents([item(`image/png${' '.repeat(300)}`, SAMPLES['image/png'])], LIMITS)).to.not.throw();
    });

    it('a non-string filename', () => {
      expect(decodeOne({ mimeType: 'image/png', data: SAMPLES['image/png'].toString('base64'), filename: 3 }, 1)).to.include(
        'contents[1].filename',
      );
    });

    it('missing, non-string or empty data', () => {
      expect(decodeOne({ mimeType: 'image/png' }, 1)).to.equal('contents[1].data is required');
      expect(decodeOne({ mimeType: 'image/png', data: 42 })).to.include('contents[0].data must be a base64 string');
      expect(decodeOne({ mimeType: 'image/png', data: '' })).to.equal('contents[0].data is empty');
      expect(decodeOne({ mimeType: 'image/png', data: ' \n\t ' })).to.equal('contents[0].data is empty');
      expect(decodeOne({ mimeType: 'image/png', data: 'data:image/png;base64,' })).to.equal('contents[0].data is empty');
    });

    it('invalid base64', () => {
      const png = SAMPLES['image/png'].toString('base64');
      const invalid = [
        `${png}!`, // stray character
        `${png.slice(0, 8)}*${png.slice(8)}`,
        'iVBORw0KGgo=A', // "=" in the middle
        'iVBORw0KGgoA===', // too much padding
        'iVBORw0KGg=', // padding that does not complete a quantum
        'iVBORw0KGgoAA=', // wrong padding length
        'iVBORw0KG', // impossible length (4n+1)
        'iVBORw0KGgo+AAA_', // mixed alphabets
        '%PDF-1.4 raw bytes', // not encoded at all
      ];
      for (const data of invalid) {
        expect(decodeOne({ mimeType: 'image/png', data }, 1), data).to.match(/^contents\[1\]\.data is not valid base64/);
      }
    });

    it('base64 with bits set after the last byte (non-canonical)', () => {
      const whole = SAMPLES['image/png'].subarray(0, 15).toString('base64');
      expect(`${whole}AQ==`).to.equal(Buffer.concat([SAMPLES['image/png'].subarray(0, 15), Buffer.from([1])]).toString('base64'));
      expect(decodeOne({ mimeType: 'image/png', data: `${whole}AR==` })).to.match(/^contents\[0\]\.data is not valid base64 \(.*bits/);
    });

    it('a data: URL whose type differs from mimeType', () => {
      const data = `data:image/png;base64,${SAMPLES['image/png'].toString('base64')}`;
      const message = decodeOne({ mimeType: 'application/pdf', data });
      expect(message).to.include('contents[0].data').and.include('image/png').and.include('contents[0].mimeType is application/pdf');
    });

    it('a data: URL that is not base64', () => {
      expect(decodeOne({ mimeType: 'image/png', data: 'data:image/png,%89PNG' })).to.include('contents[0].data').and.include('base64');
    });

    for (const declared of SAMPLE_TYPES) {
      it(`bytes that are not ${declared}, saying what they are`, () => {
        const actual = SAMPLE_TYPES.find((mime) => mime !== declared)!;
        const message = decodeOne(item(declared, SAMPLES[actual]), 3);
        expect(message).to.equal(`contents[3].data is ${LABELS[actual]} but contents[3].mimeType is ${declared}`);
      });
    }

    it('bytes of no known type', () => {
      const message = decodeOne(item('image/webp', Buffer.from('hello world, plain text')), 1);
      expect(message).to.include('contents[1].data is not a WebP image').and.include('contents[1].mimeType');
    });

    it('a PDF header that starts beyond the first 1024 bytes', () => {
      const bytes = Buffer.concat([Buffer.alloc(1100, 0x20), SAMPLES['application/pdf']]);
      expect(decodeOne(item('application/pdf', bytes))).to.include('contents[0].data is not a PDF file');
    });

    it('well-known unsupported types by name', () => {
      const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
      expect(decodeOne(item('application/pdf', zip))).to.include('ZIP archive');
      const tiff = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]);
      expect(decodeOne(item('image/png', tiff))).to.include('TIFF image');
    });

    it('a truncated signature (too few bytes)', () => {
      expect(decodeOne(item('image/png', SAMPLES['image/png'].subarray(0, 4)))).to.include('contents[0].data is not a PNG image');
    });
  });
});
