/**
 * Worker-thread entry of the paddle engine: loads the models once, reads a
 * warm-up page, says "ready" (or why it could not start), then reads pages
 * one at a time. The main thread can abandon the current page through a
 * shared flag, checked between model calls.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbage } from '../../../util/collect-garbage.js';
import { WARM_UP_RASTER } from '../warm-up.js';
import { ModelFileError, type PaddleModelFiles } from './model-files.js';
import { readPage } from './read-page.js';
import { loadModels } from './sessions.js';
import type { FromWorker, ToWorker } from './protocol.js';

export interface PaddleWorkerData {
  files: PaddleModelFiles;
  threads: number;
  maxDetectorPixels: number;
  /** Int32 slot holding the id of the job the main thread gave up on. */
  cancelled: SharedArrayBuffer;
}

class Abandoned extends Error {}

const port = parentPort;
if (!port) throw new Error('the paddle OCR worker must run in a worker thread');
const data = workerData as PaddleWorkerData;
const cancelled = new Int32Array(data.cancelled);
const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

async function start(): Promise<void> {
  let loaded: Awaited<ReturnType<typeof loadModels>> | undefined;
  try {
    loaded = await loadModels(data.files, data.threads);
    const warm = await readPage(loaded.models, WARM_UP_RASTER, { allowTurn: true, maxDetectorPixels: data.maxDetectorPixels, checkpoint() {} });
    if (warm.words.length === 0) throw new ModelFileError(`the PP-OCR models (${data.files.detector}, ${data.files.recogniser}) read no text on the warm-up page: are they a detector and a recogniser of PP-OCR?`);
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error), modelProblem: error instanceof ModelFileError });
    await loaded?.release();
    // Exits by itself (nothing left on the event loop): terminating a thread that holds ONNX Runtime sessions can abort the process.
    port!.close();
    return;
  }
  const { models, release } = loaded!;
  // The model files and their rewritten bytes (tens of MB, the joint recognisers' more) are garbage now:
  // freed here rather than whenever V8 gets to them, they no longer add to the service's peak.
  collectGarbage();
  // One page at a time: messages queue up in the port while a page is read.
  let queue = Promise.resolve();
  port!.on('message', (message: ToWorker) => {
    queue = queue.then(async () => {
      if (message.type === 'close') {
        await release();
        port!.close();
        return;
      }
      const { id, raster, allowTurn } = message;
      const checkpoint = () => {
        if (Atomics.load(cancelled, 0) === id) throw new Abandoned();
      };
      try {
        const reading = await readPage(models, raster, { allowTurn, maxDetectorPixels: data.maxDetectorPixels, checkpoint });
        send({ type: 'done', id, reading });
      } catch (error) {
        if (error instanceof Abandoned) send({ type: 'abandoned', id });
        else send({ type: 'error', id, message: error instanceof Error ? error.message : String(error) });
      }
    });
  });
  send({ type: 'ready' });
}

void start();
