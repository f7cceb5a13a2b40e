import { Worker } from 'node:worker_threads';
import { expect } from 'chai';

const PDF_WORKER = new URL('../../src/ingest/pdf-worker.js', import.meta.url).href;
const PDFJS = ['pdfjs-dist/legacy/build/pdf.mjs', 'pdfjs-dist/legacy/build/pdf.worker.mjs'];

/**
 * In a thread of its own (a fresh set of builtins), imports `modules` in turn and reports which builtins are still
 * the ones the thread started with. By identity: core-js also makes its versions print as "[native code]".
 */
function nativeBuiltinsAfter(modules: string[]): Promise<Record<string, boolean>> {
  const source = `
    const { parentPort } = require('node:worker_threads');
    const own = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };
    (async () => {
      for (const module of ${JSON.stringify(modules)}) await import(module);
      parentPort.postMessage({ push: Array.prototype.push === own.push, parse: JSON.parse === own.parse, stringify: JSON.stringify === own.stringify });
    })().catch((error) => parentPort.postMessage({ error: String(error) }));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true });
    worker.once('message', (message: Record<string, boolean> & { error?: string }) => {
      void worker.terminate();
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}

describe("the PDF thread's builtins (pdfjs-builtins.ts)", () => {
  it("are the thread's own once the PDF worker has loaded pdf.js: push and JSON are not core-js's JavaScript versions", async () => {
    expect(await nativeBuiltinsAfter([PDF_WORKER])).to.deep.equal({ push: true, parse: true, stringify: true });
  });

  it('would not be without it where core-js replaces them (Node 20): the check can fail', async function () {
    const bare = await nativeBuiltinsAfter(PDFJS);
    if (Object.values(bare).every(Boolean)) this.skip(); // this Node's V8 is new enough for core-js to leave them alone
    expect(Object.values(bare)).to.include(false);
  });
});
