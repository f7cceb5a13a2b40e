import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { AppError } from '../../src/errors.js';
import { decodeContents, type ContentItem } from '../../src/ingest/decode.js';
import { decodeContentsOffThread, OFF_THREAD_MIN_CHARS } from '../../src/ingest/decode-off-thread.js';
import { longestStall } from '../helpers/healthz.js';

const LIMITS = { maxFiles: 5 };
const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function png(megabytes: number): Buffer {
  return Buffer.concat([PNG_SIGNATURE, randomBytes(Math.round(megabytes * 1024 * 1024))]);
}

async function outcome(decode: () => unknown): Promise<string> {
  try {
    const files = (await decode()) as Array<{ index: number; filename: string; mimeType: string; bytes: Buffer }>;
    return JSON.stringify(files.map((file) => [file.index, file.filename, file.mimeType, file.bytes.length, file.bytes.subarray(0, 16).toString('hex'), file.bytes.subarray(-16).toString('hex')]));
  } catch (error) {
    expect(error).to.be.instanceOf(AppError);
    return `${(error as AppError).status} ${(error as AppError).message}`;
  }
}

describe('decodeContentsOffThread: large base64 decoded in a worker thread', function () {
  this.timeout(60_000);
  const big = png(2).toString('base64');
  expect(big.length).to.be.above(OFF_THREAD_MIN_CHARS);

  it('gives the same files and the same 400s as decodeContents', async () => {
    const cases: ContentItem[][] = [
      [{ mimeType: 'image/png', data: big, filename: 'a.png' }, { mimeType: 'image/png', data: PNG_SIGNATURE.toString('base64') }],
      [{ mimeType: 'image/png', data: `data:image/png;base64,${big.replace(/(.{76})/g, '$1\n')}` }],
      [{ mimeType: 'image/png', data: `${big.slice(0, -4)}!!!!` }],
      [{ mimeType: 'image/png', data: `${big.replace(/\+/g, '-').slice(0, -8)}++++++++` }],
      [{ mimeType: 'image/jpeg', data: big }],
      [{ mimeType: 'image/png', data: 'AAAA' }, { mimeType: 'text/plain', data: big }],
    ];
    for (const contents of cases) {
      const inline = await outcome(() => decodeContents(contents, LIMITS));
      expect(await outcome(() => decodeContentsOffThread(contents, LIMITS))).to.equal(inline);
    }
  });

  it('keeps the event loop free while 50 MB of base64 with a bad last character is checked (the loop blocked for 0.2-2.4 s)', async function () {
    this.retries(2);
    const contents = [{ mimeType: 'image/png', data: `${png(36).toString('base64').slice(0, -1)}!` }];
    const inline = await longestStall(async () => outcome(() => decodeContents(contents, LIMITS)));
    const offThread = await longestStall(async () => outcome(() => decodeContentsOffThread(contents, LIMITS)));
    // side by side in one run: the thread leaves the loop only the copy of the string to it
    expect(offThread, `inline ${inline.toFixed(0)} ms`).to.be.below(inline / 3);
  });

  it('a request whose time runs out while it waits for a decoding thread leaves the queue with its reason, and the threads stay usable', async () => {
    const contents = [{ mimeType: 'image/png', data: big }];
    // two decodes hold both threads; the third waits for one
    const holding = [decodeContentsOffThread(contents, LIMITS), decodeContentsOffThread(contents, LIMITS)];
    const controller = new AbortController();
    const waiting = decodeContentsOffThread(contents, LIMITS, controller.signal);
    const reason = new AppError('timeout', 'request exceeded the time limit');
    controller.abort(reason);
    let refused: unknown;
    await waiting.catch((error: unknown) => (refused = error));
    expect(refused).to.equal(reason);
    for (const files of await Promise.all(holding)) expect(files[0]!.bytes.length).to.equal(2 * 1024 * 1024 + PNG_SIGNATURE.length);
    // the slot the third request gave up is not lost: more decodes than threads all finish
    const after = await Promise.all([1, 2, 3].map(() => decodeContentsOffThread(contents, LIMITS)));
    expect(after.map((files) => files.length)).to.deep.equal([1, 1, 1]);
    const aborted = new AbortController();
    aborted.abort(reason);
    let early: unknown;
    await decodeContentsOffThread(contents, LIMITS, aborted.signal).catch((error: unknown) => (early = error));
    expect(early).to.equal(reason);
  });
});
