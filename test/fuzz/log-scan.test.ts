import { expect } from 'chai';
import { basicSchema, DOCUMENT_MARKERS, SCHEMA_MARKER } from '../../scripts/fuzz/case.js';
import { LogScanner } from '../../scripts/fuzz/log-scan.js';
import { onePagePdf, stream, textContent } from '../../scripts/fuzz/pdf-writer.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';

/**
 * The log scan the corpus and the soak rely on (scripts/fuzz/log-scan.ts),
 * shown to see the service's real log lines: a canary the service does log
 * (the caller's request id) is found, while the key, a wrong key, the
 * document's values and the schema's text are not.
 */
describe('log scan of a live service', function () {
  this.timeout(60_000);
  const key = 'logscan-key-5a8f1c2e9d';
  const wrongKey = 'logscan-wrong-key-77e1';
  const canary = 'logscan-canary-3f9b2c';
  let service: ServiceProcess;
  const scanner = new LogScanner([
    { what: 'canary', text: canary },
    { what: 'API key', text: key },
    { what: 'wrong API key', text: wrongKey },
    ...DOCUMENT_MARKERS.map((marker) => ({ what: `document value "${marker}"`, text: marker })),
    { what: 'schema content', text: SCHEMA_MARKER },
  ]);

  before(async () => {
    service = await startServiceProcess({ API_KEYS: key, LOG_LEVEL: 'debug' }, { onLine: (line) => scanner.scan(line) });
  });

  after(async () => {
    await service?.stop('SIGTERM');
  });

  it('finds what the service logs (the request id) and nothing of the key, a wrong key, the document or the schema', async () => {
    const pdf = onePagePdf({ content: stream('', textContent([`Invoice number: ${DOCUMENT_MARKERS[0]}`, `Customer: ${DOCUMENT_MARKERS[1]}`, `Email: ${DOCUMENT_MARKERS[2]}`, `Reference: ${DOCUMENT_MARKERS[3]}`])) });
    const body = JSON.stringify({ schema: basicSchema(), contents: [{ mimeType: 'application/pdf', data: pdf.toString('base64') }] });
    const post = (apiKey: string) => fetch(`${service.url}/v1/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'x-request-id': canary }, body });
    const answered = await post(key);
    expect(answered.status).to.equal(200);
    expect(await answered.json()).to.include({ invoice_number: DOCUMENT_MARKERS[0] });
    expect((await post(wrongKey)).status).to.equal(401);
    // a schema the service refuses: its text must not reach the logs either
    const refused = await fetch(`${service.url}/v1/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ schema: { type: 'object', properties: { a: { type: SCHEMA_MARKER } } }, contents: [] }) });
    expect(refused.status).to.equal(400);
    await service.stop('SIGTERM');
    expect(scanner.lines).to.be.greaterThan(3);
    expect(scanner.hits.map((hit) => hit.what)).to.include('canary');
    expect(scanner.hits.filter((hit) => hit.what !== 'canary')).to.deep.equal([]);
  });
});
