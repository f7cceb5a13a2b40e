import { expect } from 'chai';
import { loadConfig } from '../../../src/config.js';
import type { Word } from '../../../src/document/document.js';
import { MAX_OCR_SIDE } from '../../../src/ingest/ocr/tesseract/fit-side.js';
import { TesseractPool, type TesseractConfig } from '../../../src/ingest/ocr/tesseract/pool.js';
import type { GreyRaster } from '../../../src/document/raster.js';
import { makeTextRaster, RECEIPT_EXPECTED, RECEIPT_LINES } from '../../fixtures/images.js';
import { collectGarbage } from '../../../src/util/collect-garbage.js';
import { cpuMsOf, mainThreadCpuMs, processCpuMs } from '../../helpers/cpu-time.js';
import { longestStall } from '../../helpers/healthz.js';
import { rejectionOf } from '../../helpers/rejection.js';

const baseConfig: TesseractConfig = { ...loadConfig({}).ocr, workers: 2, recycleAfterJobs: 200 };

function wordNamed(words: Word[], text: string): Word {
  const word = words.find((candidate) => candidate.text === text);
  if (!word) throw new Error(`"${text}" not among ${JSON.stringify(words.map((w) => w.text))}`);
  return word;
}

function recordingLogger(): { messages: string[]; info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void } {
  const messages: string[] = [];
  return {
    messages,
    info: (_obj, msg) => messages.push(msg ?? ''),
    warn: (_obj, msg) => messages.push(msg ?? ''),
  };
}

/** About a third of an A4 page of text: long enough (~1 s) to observe a job while it runs. */
function longRaster(): GreyRaster {
  const lines = Array.from({ length: 24 }, (_, i) => `Line ${i + 1}: the quick brown fox jumps over ${i * 7} lazy dogs`);
  return makeTextRaster(lines, 1400);
}

describe('TesseractPool', function () {
  this.timeout(60_000);
  let pool: TesseractPool;
  const receipt = makeTextRaster(RECEIPT_LINES);

  before(async () => {
    pool = await TesseractPool.create(baseConfig);
  });

  after(async () => {
    await pool?.close();
  });

  it('starts ready with the configured number of idle workers', () => {
    expect(pool.status()).to.include({ ready: true, workers: 2, busy: 0, queued: 0 });
  });

  it('reads receipt words with boxes inside the raster and confidences in 0..1', async () => {
    const { words } = await pool.recognize(receipt);
    expect(words.map((word) => word.text)).to.include.members([...RECEIPT_EXPECTED.words]);
    for (const word of words) {
      expect(word.source).to.equal('ocr');
      expect(word.text).to.equal(word.text.trim()).and.not.equal('');
      expect(word.confidence).to.be.within(0, 1);
      expect(word.bbox.x0).to.be.within(0, word.bbox.x1);
      expect(word.bbox.y0).to.be.within(0, word.bbox.y1);
      expect(word.bbox.x1).to.be.at.most(receipt.width);
      expect(word.bbox.y1).to.be.at.most(receipt.height);
    }
    const total = wordNamed(words, 'TOTAL');
    const amount = wordNamed(words, '6.25');
    expect(total.confidence).to.be.greaterThan(0.8);
    expect(amount.bbox.x0).to.be.greaterThan(total.bbox.x1);
    const amountMiddle = (amount.bbox.y0 + amount.bbox.y1) / 2;
    expect(amountMiddle).to.be.within(total.bbox.y0, total.bbox.y1);
  });

  it('runs two jobs at once on two workers', async () => {
    const jobs = [pool.recognize(longRaster()), pool.recognize(receipt)];
    expect(pool.status()).to.include({ busy: 2, queued: 0 });
    const [long, short] = await Promise.all(jobs);
    expect(long?.words.map((word) => word.text)).to.include('quick');
    expect(short?.words.map((word) => word.text)).to.include('TOTAL');
    expect(pool.status()).to.include({ busy: 0, queued: 0 });
  });

  it('queues jobs beyond the worker count and drops a queued job whose signal aborts', async () => {
    const running = [pool.recognize(receipt), pool.recognize(receipt)];
    const controller = new AbortController();
    const queued = pool.recognize(receipt, controller.signal);
    expect(pool.status()).to.include({ busy: 2, queued: 1 });
    controller.abort();
    const error = await rejectionOf(queued);
    expect(error.name).to.equal('AbortError');
    expect(pool.status().queued).to.equal(0);
    await Promise.all(running);
  });

  it('rejects at once for a signal that is already aborted', async () => {
    const error = await rejectionOf(pool.recognize(receipt, AbortSignal.abort()));
    expect(error.name).to.equal('AbortError');
  });

  it('abandons a running job whose signal aborts and keeps working', async () => {
    // CPU time: the whole job against what the process spends from the abort to the rejection
    const whole = await cpuMsOf(() => pool.recognize(longRaster()));
    const controller = new AbortController();
    const job = pool.recognize(longRaster(), controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const aborted = processCpuMs();
    controller.abort();
    await rejectionOf(job);
    expect(processCpuMs() - aborted, `CPU ms after the abort; the whole job ${whole.toFixed(0)} ms`).to.be.below(whole / 2);
    expect((await pool.recognize(receipt)).words.map((word) => word.text)).to.include('TOTAL');
  });

  it('keeps the event loop responsive while OCR runs', async () => {
    const raster = longRaster();
    const processBefore = processCpuMs();
    const mainBefore = mainThreadCpuMs();
    const stall = await longestStall(() => pool.recognize(raster));
    const mainAfter = mainThreadCpuMs();
    // the work is the worker's: the main thread spends a small share of the CPU the job costs, in short turns
    if (mainBefore !== undefined && mainAfter !== undefined) expect(mainAfter - mainBefore, 'main-thread CPU ms').to.be.below(0.2 * (processCpuMs() - processBefore));
    expect(stall, 'longest event-loop stall, CPU ms').to.be.lessThan(100);
  });

  it('hands a page of 35 and 80 megapixels to Tesseract without holding the event loop (the image is shared, not copied)', async function () {
    this.timeout(120_000);
    const text = makeTextRaster(RECEIPT_LINES);
    for (const [width, height] of [[4961, 7016], [8000, 10_000]] as const) {
      const data = new Uint8Array(width * height).fill(255);
      for (let row = 0; row < text.height; row++) data.set(text.data.subarray(row * text.width, (row + 1) * text.width), row * width);
      // the least of three runs, each after a full collection: a major GC that this test process owes from
      // earlier tests (its heap is hundreds of MB) once landed in the window and made it 48 ms
      const stalls: number[] = [];
      for (let run = 0; run < 3; run++) {
        collectGarbage();
        let words: Word[] = [];
        stalls.push(await longestStall(async () => (words = (await pool.recognize({ width, height, data, dpi: 300 })).words)));
        expect(words.map((word) => word.text)).to.include.members(['TOTAL']);
      }
      // a Buffer was copied three times on the loop (ours, tesseract.js's, postMessage's): 72-89 ms and 175 ms; ~8 ms now
      expect(Math.min(...stalls), `${width}x${height}: longest event-loop stall, CPU ms (runs: ${stalls.map((ms) => ms.toFixed(0)).join(', ')})`).to.be.lessThan(40);
    }
  });

  it('reads a raster taller than Tesseract allows (32767 px) by shrinking it, instead of failing the job', async () => {
    const text = makeTextRaster(RECEIPT_LINES);
    const height = 40_000;
    const data = new Uint8Array(text.width * height).fill(255);
    data.set(text.data);
    const result = await pool.recognize({ width: text.width, height, data, dpi: 300 });
    expect(result.height).to.be.at.most(MAX_OCR_SIDE);
    expect(result.words.map((word) => word.text)).to.include('TOTAL');
    // the boxes still lead back to the raster as given: toInput scales them up by what the shrink took off
    expect(result.toInput[0]).to.be.closeTo(text.width / result.width, 0.01);
    expect(result.toInput[3]).to.be.closeTo(height / result.height, 0.01);
  });

  it('refuses to start without language data, naming the language', async () => {
    const error = await rejectionOf(TesseractPool.create({ ...baseConfig, langs: ['xyz'] }));
    expect(error.message).to.include('"xyz"').and.include('xyz.traineddata.gz');
  });

  describe('with its own small pool', () => {
    it('recycles a worker after recycleAfterJobs jobs', async () => {
      const logger = recordingLogger();
      const recycling = await TesseractPool.create({ ...baseConfig, workers: 1, recycleAfterJobs: 1 }, logger);
      try {
        for (let i = 0; i < 3; i++) {
          expect((await recycling.recognize(receipt)).words.map((word) => word.text)).to.include('TOTAL');
        }
        expect(recycling.status()).to.include({ ready: true, workers: 1, jobsDone: 3 });
        // Each job retires its worker; the third replacement may still be starting.
        expect(logger.messages.filter((msg) => msg === 'OCR worker replaced').length).to.be.at.least(2);
      } finally {
        await recycling.close();
      }
    });

    it('replaces a worker whose thread dies', async () => {
      const logger = recordingLogger();
      const fragile = await TesseractPool.create({ ...baseConfig, workers: 1 }, logger);
      try {
        // Reach into the pool only to simulate a crash of the wasm thread.
        const internals = fragile as unknown as { pool: { threads: { worker: { worker?: { terminate(): Promise<number> } } }[] } };
        await internals.pool.threads[0]?.worker.worker?.terminate();
        expect((await fragile.recognize(receipt)).words.map((word) => word.text)).to.include('TOTAL');
        expect(logger.messages).to.include('OCR worker thread died');
      } finally {
        await fragile.close();
      }
    });

    it('rejects recognize() after close()', async () => {
      const closing = await TesseractPool.create({ ...baseConfig, workers: 1 });
      await closing.close();
      const error = await rejectionOf(closing.recognize(receipt));
      expect(error.message).to.include('closed');
      expect(closing.status().ready).to.equal(false);
    });
  });
});
