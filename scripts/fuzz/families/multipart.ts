/**
 * The multipart/form-data form of a request (curl -F): well-formed ones with
 * files of every seed, types stated or left to the filename; bodies cut
 * short or with a byte changed; boundaries missing, wrong or odd; parts
 * doubled, missing, unnamed, nested, encoded or too many; JSON parts that
 * are not JSON or too large; filenames of every kind; a body past the limit.
 */
import { gzipSync } from 'node:zlib';
import { basicSchema, memo, offsetIn, type FuzzCase, type Family, type SeedFile } from '../case.js';
import type { Random } from '../random.js';

const FAMILY = 'multipart';

interface Part {
  /** The Content-Disposition's parameters after form-data, as written, e.g. `name="file"; filename="a.pdf"`. */
  disposition?: string;
  /** More header lines, e.g. Content-Type. */
  headers?: string[];
  body: string | Buffer;
}

/** A multipart body written byte by byte, `eol` between lines (CRLF in the standard). */
function write(parts: Part[], boundary: string, eol = '\r\n'): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const headers = [...(part.disposition === undefined ? [] : [`Content-Disposition: form-data; ${part.disposition}`]), ...(part.headers ?? [])];
    pieces.push(Buffer.from(`--${boundary}${eol}${headers.join(eol)}${eol}${eol}`), Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body), Buffer.from(eol));
  }
  pieces.push(Buffer.from(`--${boundary}--${eol}`));
  return Buffer.concat(pieces);
}

function boundaryOf(rng: Random): string {
  return `----fuzz${rng.string(16, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
}

function multipartCase(variant: string, body: Buffer, boundary: string, extra: Partial<FuzzCase> = {}): FuzzCase {
  return { family: FAMILY, variant, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body, ...extra };
}

const field = (name: string, body: string | Buffer, headers?: string[]): Part => ({ disposition: `name="${name}"`, body, ...(headers ? { headers } : {}) });

const EXTENSION: Record<string, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

/** A seed as a file part, its type stated, or application/octet-stream or nothing with a filename that names it. */
function filePart(rng: Random, seed: SeedFile): [Part, string] {
  const filename = `${seed.name}.${EXTENSION[seed.mimeType] ?? 'bin'}`;
  const how = rng.pick(['stated', 'octet-stream', 'none'] as const);
  const headers = how === 'stated' ? [`Content-Type: ${seed.mimeType}`] : how === 'octet-stream' ? ['Content-Type: application/octet-stream'] : [];
  return [{ disposition: `name="file"; filename="${filename}"`, headers, body: seed.bytes }, `${seed.name} (${how})`];
}

/** A well-formed request of 1-3 seeds: the schema as a field or a JSON file part, options now and then. */
function wellFormed(rng: Random, seeds: SeedFile[]): { parts: Part[]; schema: Record<string, unknown>; label: string } {
  const schema = basicSchema();
  const schemaPart = rng.chance(0.7) ? field('schema', JSON.stringify(schema)) : { disposition: 'name="schema"; filename="schema.json"', headers: ['Content-Type: application/json'], body: JSON.stringify(schema, null, 2) };
  const files = Array.from({ length: rng.int(1, 3) }, () => filePart(rng, rng.pick(seeds)));
  // (no evidence: its answer is {data, evidence}, which the oracle would judge against the schema)
  const options = rng.chance(0.3) ? [field('options', JSON.stringify({ dateOrder: rng.pick(['dmy', 'mdy', 'auto']) }))] : [];
  return { parts: [schemaPart, ...options, ...files.map(([part]) => part)], schema, label: files.map(([, label]) => label).join(', ') };
}

type Variant = (rng: Random, seeds: SeedFile[]) => FuzzCase;

const variants: Array<[Variant, number]> = [
  [(rng, seeds) => {
    const { parts, schema, label } = wellFormed(rng, seeds);
    const boundary = boundaryOf(rng);
    return multipartCase(`well-formed: ${label}`, write(parts, boundary), boundary, { schema });
  }, 6],
  [(rng, seeds) => {
    const { parts, label } = wellFormed(rng, seeds);
    const boundary = boundaryOf(rng);
    const body = write(parts, boundary);
    // the closing delimiter's line break is optional: a cut after "--boundary--" is a whole body
    const at = Math.min(offsetIn(rng, body.length), body.length - 3);
    return multipartCase(`cut at ${at}/${body.length}: ${label}`, body.subarray(0, at), boundary, { allowed: [400] });
  }, 3],
  [(rng, seeds) => {
    const { parts, schema, label } = wellFormed(rng, seeds);
    const boundary = boundaryOf(rng);
    const body = write(parts, boundary);
    const at = offsetIn(rng, body.length);
    body[at] = rng.pick([0x00, 0x0a, 0x0d, 0x2d, 0x22, 0xff, body[at]! ^ 0x20]);
    return multipartCase(`byte ${at}/${body.length} changed: ${label}`, body, boundary, { schema });
  }, 3],
  [(rng, seeds) => {
    const { parts, schema } = wellFormed(rng, seeds);
    const boundary = boundaryOf(rng);
    const body = write(parts, boundary);
    const [label, type] = rng.pick([
      ['no boundary', 'multipart/form-data'],
      ['empty boundary', 'multipart/form-data; boundary='],
      ['another boundary', 'multipart/form-data; boundary=not-the-one'],
      ['quoted boundary', `multipart/form-data; boundary="${boundary}"`],
      ['boundary in capitals', `MULTIPART/FORM-DATA; BOUNDARY=${boundary}`],
      ['boundary twice', `multipart/form-data; boundary=x; boundary=${boundary}`],
      ['multipart/mixed', `multipart/mixed; boundary=${boundary}`],
      ['a 1000-character boundary', `multipart/form-data; boundary=${'b'.repeat(1000)}`],
    ] as const);
    return { family: FAMILY, variant: `content-type: ${label}`, headers: { 'content-type': type }, body, schema };
  }, 2],
  [(rng, seeds) => {
    const boundary = boundaryOf(rng);
    const schema = field('schema', JSON.stringify(basicSchema()));
    const [file] = filePart(rng, rng.pick(seeds));
    const bad = [400];
    // undefined: any answer, judged by the schema (busboy skips a part that is not form-data, or stalls on it: 400)
    const [label, parts, allowed, eol] = rng.pick<[string, Part[], number[] | undefined, string?]>([
      ['two schema parts', [schema, schema, file], bad],
      ['no file part', [schema], bad],
      ['no schema part', [file], bad],
      ['no parts', [], bad],
      ['a part of another name', [schema, { ...file, disposition: 'name="files"; filename="a.pdf"' }], bad],
      ['a part without a name', [schema, { ...file, disposition: 'filename="a.pdf"' }], bad],
      ['a part not form-data', [schema, { headers: [rng.pick(['Content-Type: application/pdf', 'Content-Disposition: attachment; name="file"'])], body: rng.pick([Buffer.alloc(100), file.body, Buffer.alloc(20_000)]) }, file], undefined],
      ['a nested multipart/mixed part', [schema, { disposition: 'name="file"', headers: ['Content-Type: multipart/mixed; boundary=inner'], body: write([file], 'inner') }], bad],
      ['a base64 Content-Transfer-Encoding', [schema, { ...file, headers: [...(file.headers ?? []), 'Content-Transfer-Encoding: base64'], body: Buffer.from(file.body).toString('base64') }], bad],
      ['LF line endings', [schema, file], bad, '\n'],
      ['21 file parts', [schema, ...Array.from({ length: 21 }, () => file)], bad],
      ['10,000 empty parts', [schema, ...Array.from({ length: 10_000 }, () => field('options', ''))], bad],
      ['a 100 KB header', [schema, { ...file, disposition: `name="file"; filename="${'h'.repeat(100_000)}.pdf"` }], [400, 413]],
      // busboy reads the first 2,000 header lines of a part
      ['5,000 header lines', [schema, { ...file, headers: Array.from({ length: 5000 }, (_, i) => `X-Header-${i}: x`) }], undefined],
    ]);
    return multipartCase(label, write(parts, boundary, eol), boundary, allowed ? { allowed } : { schema: basicSchema() });
  }, 4],
  [(rng, seeds) => {
    const boundary = boundaryOf(rng);
    const [file] = filePart(rng, rng.pick(seeds));
    const schema = JSON.stringify(basicSchema());
    const [label, parts, allowed] = rng.pick<[string, Part[], number[] | undefined]>([
      ['a schema that is not JSON', [field('schema', schema.slice(0, -3)), file], [400]],
      ['options that are not JSON', [field('schema', schema), field('options', 'evidence=true'), file], [400]],
      ['an unknown option', [field('schema', schema), field('options', '{"language":"de"}'), file], [400]],
      ['options that are a list', [field('schema', schema), field('options', '[]'), file], [400]],
      ['a schema that is a string', [field('schema', JSON.stringify(schema)), file], [400]],
      ['a schema of 3 MB', [field('schema', `{"type":"object","description":"${'d'.repeat(3_000_000)}"}`), file], [413]],
      ['a schema nested 100,000 deep', [field('schema', '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)), file], [400, 413]],
      ['a schema with a byte order mark', [field('schema', `\ufeff${schema}`), file], undefined],
      ['a schema in UTF-16', [field('schema', Buffer.from(schema, 'utf16le'), ['Content-Type: application/json; charset=utf-16le']), file], [400]],
    ]);
    return multipartCase(label, write(parts, boundary), boundary, { ...(allowed ? { allowed } : { schema: basicSchema() }) });
  }, 3],
  [(rng, seeds) => {
    const boundary = boundaryOf(rng);
    const seed = rng.pick(seeds);
    const ext = EXTENSION[seed.mimeType] ?? 'bin';
    const disposition = rng.pick([
      `name="file"; filename="Rechnung Nr. 5 \u00fc\u00df\u00e9.${ext}"`,
      `name="file"; filename*=UTF-8''%E8%AB%8B%E6%B1%82%E6%9B%B8.${ext}`,
      `name="file"; filename="../../../etc/passwd.${ext}"`,
      `name="file"; filename="C:\\\\scans\\\\scan.${ext}"`,
      `name="file"; filename="a \\"quoted\\" name.${ext}"`,
      `name="file"; filename=".${ext}"`,
      `name="file"; filename="scan"`,
      `name="file"; filename=""`,
      `name="file"; filename="${'n'.repeat(2000)}.${ext}"`,
      `name="file"; filename="\u0000.${ext}"`,
    ]);
    const type = rng.pick([[], [`Content-Type: ${seed.mimeType}`], ['Content-Type: application/octet-stream'], ['Content-Type: text/plain'], ['Content-Type: image/tiff'], ['Content-Type: ;;;']]);
    const schema = basicSchema();
    return multipartCase(`filename ${disposition.slice(12, 60)} ${type.join('')}`, write([field('schema', JSON.stringify(schema)), { disposition, headers: type, body: seed.bytes }], boundary), boundary, { schema });
  }, 2],
  [(rng, seeds) => {
    const { parts, schema, label } = wellFormed(rng, seeds);
    const boundary = boundaryOf(rng);
    return { ...multipartCase(`gzip: ${label}`, gzipSync(write(parts, boundary)), boundary, { schema }), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-encoding': 'gzip' } };
  }, 1],
  [(rng) => {
    // a file part just past the body limit (MAX_BODY_BYTES, 50 MiB): 413 as the bytes arrive, or at once from Content-Length
    const boundary = 'fuzz-limit';
    const size = rng.pick([50 * 1024 * 1024 - 100, 60 * 1024 * 1024]);
    const body = memo(`multipart-${size}`, () => write([field('schema', JSON.stringify(basicSchema())), { disposition: 'name="file"; filename="big.png"', headers: ['Content-Type: image/png'], body: Buffer.alloc(size, 0x41) }], boundary));
    return multipartCase(`a ${body.length}-byte body`, body, boundary, { allowed: [413] });
  }, 1],
];

export const multipartFamily: Family = {
  name: FAMILY,
  weight: 6,
  generate: (rng, { seeds }) => rng.weighted(variants)(rng, seeds.all.filter((file) => file.name !== 'scanned-pdf')),
};
