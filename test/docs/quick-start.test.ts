/**
 * A newcomer's first five minutes, as README.md tells them: start the built
 * service with no API key configured (it generates one and prints it on
 * stderr), send the README's curl request (its schema and its example file,
 * read from the README itself, sent as multipart/form-data as curl -F sends
 * them) and get exactly the answer the README shows.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';

// dist/test/docs/ -> the repository
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ReadmeExample {
  /** The schema of the curl's `-F 'schema=...'`, parsed. */
  schema: unknown;
  /** The file of its `-F file=@...`, relative to the repository. */
  file: string;
  /** The JSON block that follows it: the documented answer. */
  answer: unknown;
}

/** The first ```sh block holding a curl to /v1/ with a schema part, and the first ```json block after it. */
export function readmeExample(readme: string): ReadmeExample {
  const blocks = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ lang: match[1]!, body: match[2]!, at: match.index! }));
  const curl = blocks.find((block) => block.lang === 'sh' && /curl\b[\s\S]*\/v1\/[\s\S]*-F 'schema=/.test(block.body));
  if (!curl) throw new Error('README.md has no curl example with -F schema=');
  const schemaText = /-F 'schema=([\s\S]*?)'\s*\\?\n/.exec(curl.body)?.[1];
  const file = /-F file=@(\S+)/.exec(curl.body)?.[1];
  const answerBlock = blocks.find((block) => block.lang === 'json' && block.at > curl.at);
  if (!schemaText || !file || !answerBlock) throw new Error('the README example lacks its schema, its file or the answer after it');
  return { schema: JSON.parse(schemaText), file, answer: JSON.parse(answerBlock.body) };
}

/** The types curl names by extension (for others it sends application/octet-stream, which docshape reads by the bytes). */
function curlType(file: string): string {
  const types: Record<string, string> = { pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif' };
  return types[file.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';
}

describe('README quick start', function () {
  this.timeout(120_000);
  let service: ServiceProcess | undefined;

  after(async () => {
    await service?.stop('SIGTERM');
  });

  it('reads its example from the README: a schema, a committed file and the answer', () => {
    const example = readmeExample(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(example.schema).to.have.property('type', 'object');
    expect(readFileSync(join(ROOT, example.file)).length).to.be.greaterThan(0);
    expect(example.answer).to.be.an('object');
  });

  it('the service started with no key prints one, and answers the README request with the README answer', async () => {
    const example = readmeExample(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    // as `npm start` runs it after its build: no API_KEYS, no language model on this host (the rules engine)
    service = await startServiceProcess({ WARM_UP_ENGINE: '0' });
    const key = /x-api-key: (\S+)/.exec(service.stderr())?.[1];
    expect(key, 'the generated key on stderr').to.be.a('string');

    const form = new FormData();
    form.append('schema', JSON.stringify(example.schema));
    form.append('file', new Blob([new Uint8Array(readFileSync(join(ROOT, example.file)))], { type: curlType(example.file) }), basename(example.file));
    const response = await fetch(`${service.url}/v1/`, { method: 'POST', headers: { 'x-api-key': key! }, body: form });
    const body: unknown = await response.json();

    expect(response.status, JSON.stringify(body)).to.equal(200);
    expect(response.headers.get('x-docshape-engine')).to.equal('rules');
    expect(response.headers.get('x-docshape-ocr')).to.equal('none');
    expect(body).to.deep.equal(example.answer);
  });
});
