import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { closeSharedServices, sharedServices, startTestServer, TEST_API_KEY, type RunningServer } from '../helpers/test-server.js';

/** What a raw client saw: the bytes of the answer, whether the server half-closed, and any socket error while it kept sending. */
interface Seen {
  answer: string;
  halfClosed: boolean;
  error?: NodeJS.ErrnoException;
}

/**
 * Sends a request whose Content-Length is over the limit, keeps writing its
 * body after the answer has arrived (as a client streaming an upload does),
 * and reports what it saw once `afterAnswerMs` have passed after the answer.
 */
function uploadPastAnswer(url: string, headers: Record<string, string>, afterAnswerMs: number): Promise<Seen> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), '127.0.0.1');
    const seen: Seen = { answer: '', halfClosed: false };
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    let answered = false;
    const keepWriting = () => {
      if (!socket.destroyed && !seen.error) socket.write(chunk, () => setImmediate(keepWriting));
    };
    socket.on('data', (data: Buffer) => {
      seen.answer += data.toString('latin1');
      if (!answered && seen.answer.includes('\r\n\r\n')) {
        answered = true;
        setTimeout(() => {
          socket.destroy();
          resolve(seen);
        }, afterAnswerMs);
      }
    });
    socket.on('end', () => (seen.halfClosed = true));
    socket.on('close', () => resolve(seen)); // reset before any answer: what the test must catch
    socket.on('error', (error: NodeJS.ErrnoException) => (seen.error ??= error));
    socket.on('connect', () => {
      const head = [`POST /v1/ HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Content-Type: application/json', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
      socket.write(head);
      keepWriting();
    });
  });
}

describe('an answer sent before the body is read closes the connection without a reset', function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async () => {
    server = await startTestServer(await sharedServices(), { MAX_BODY_BYTES: '1mb' });
  });
  after(async () => {
    await server.close();
    await closeSharedServices();
  });

  // a reset races the client's read of the answer: three tries each, so the old close fails at least one
  it('a 413 half-closes: the client still sending its body meets no reset, so it can read the answer', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const seen = await uploadPastAnswer(server.url, { 'Content-Length': String(200 * 1024 * 1024), 'x-api-key': TEST_API_KEY }, 300);
      expect(seen.answer).to.match(/^HTTP\/1\.1 413 /);
      expect(seen.answer.toLowerCase()).to.include('connection: close');
      expect(seen.answer).to.include('MAX_BODY_BYTES');
      expect(seen.halfClosed, 'the server sent FIN after its answer').to.equal(true);
      expect(seen.error?.code, 'no reset while the client went on sending').to.equal(undefined);
    }
  });

  it('a 401 before the body does the same', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const seen = await uploadPastAnswer(server.url, { 'Content-Length': String(200 * 1024 * 1024), 'x-api-key': 'not-a-key' }, 300);
      expect(seen.answer).to.match(/^HTTP\/1\.1 401 /);
      expect(seen.error?.code).to.equal(undefined);
    }
  });

  it('serves the next connection as before', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).to.equal(200);
  });
});
