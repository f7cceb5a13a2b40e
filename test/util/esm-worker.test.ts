import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ESM_WORKER_EXEC_ARGV } from '../../src/util/esm-worker.js';

describe('thread options for pools of ES-module tasks', () => {
  it('make require() of an ES module fail at once in the thread, so Piscina loads the task file with import() only', async () => {
    const file = fileURLToPath(new URL('../../src/util/median.js', import.meta.url));
    const script = `const { parentPort } = require('node:worker_threads'); try { require(${JSON.stringify(file)}); parentPort.postMessage('required'); } catch (error) { parentPort.postMessage(error.code); }`;
    const outcome = (execArgv: string[]) =>
      new Promise<string>((resolve, reject) => {
        const worker = new Worker(script, { eval: true, execArgv });
        worker.once('message', (message: string) => void worker.terminate().then(() => resolve(message)));
        worker.once('error', reject);
      });
    expect(await outcome([...ESM_WORKER_EXEC_ARGV])).to.equal('ERR_REQUIRE_ESM');
  });
});
