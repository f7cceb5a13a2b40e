import { expect } from 'chai';
import { RulesEngine } from '../../src/engines/rules/index.js';
import { ThreadedRulesEngine } from '../../src/engines/rules/threaded.js';
import type { ExtractionInput } from '../../src/extract/engine.js';
import { renderLayoutText } from '../../src/ingest/layout.js';
import { buildDocument } from '../helpers/document-builder.js';

/** 80 pages of 60 lines: about a second of rules-engine work for one property, which on the main thread ran without a break. */
const DOCUMENT = buildDocument(
  Array.from({ length: 80 }, (_, page) => Array.from({ length: 60 }, (_, line) => `Reference ${line} of page ${page}: amount ${line}.50 date 2024-03-${(line % 28) + 1}`)),
);
const SCHEMA = { type: 'object', properties: { reference: { type: 'string', description: 'Reference amount' }, total: { type: 'number' } } };

const LAYOUT = renderLayoutText(DOCUMENT);

function input(signal: AbortSignal): ExtractionInput {
  return { document: DOCUMENT, layoutText: LAYOUT, schema: SCHEMA, signal };
}

/** The longest gap between 5 ms timer ticks while `work` runs: how long the event loop was blocked. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(ticker);
  }
  return Math.max(longest, performance.now() - last);
}

describe('ThreadedRulesEngine', function () {
  this.timeout(60_000);
  let engine: ThreadedRulesEngine;

  before(() => {
    engine = new ThreadedRulesEngine(1);
  });

  after(async () => {
    await engine?.close();
  });

  it('extracts on a worker thread: the event loop stalls far less than with the engine on it', async function () {
    this.retries(2); // wall-clock gaps also grow when other processes load the machine
    let threaded: unknown;
    let inline: unknown;
    // both warm (a cold thread or a first garbage collection is not what is measured), then side by side in one run
    await engine.extract(input(new AbortController().signal));
    await new RulesEngine().extract(input(new AbortController().signal));
    const onThread = await longestStall(async () => {
      threaded = await engine.extract(input(new AbortController().signal));
    });
    const onLoop = await longestStall(async () => {
      inline = await new RulesEngine().extract(input(new AbortController().signal));
    });
    expect(threaded).to.deep.equal(inline);
    // what stays on the loop is handing the document to the thread (a structured clone)
    expect(onThread).to.be.below(onLoop / 2);
  });

  it('stops at once when the request aborts, with the signal reason, and then extracts again', async () => {
    const controller = new AbortController();
    const running = engine.extract(input(controller.signal));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reason = new Error('deadline');
    const aborted = performance.now();
    controller.abort(reason);
    const error = await running.then(() => undefined, (failure: unknown) => failure);
    expect(error).to.equal(reason);
    expect(performance.now() - aborted).to.be.below(100);
    const small = buildDocument(['Total: 12.50']);
    const next = await engine.extract({ document: small, layoutText: renderLayoutText(small), schema: SCHEMA, signal: new AbortController().signal });
    expect(next).to.deep.include({ total: 12.5 });
  });
});
