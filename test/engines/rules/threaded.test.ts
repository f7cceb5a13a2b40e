import { expect } from 'chai';
import { RulesEngine } from '../../../src/engines/rules/index.js';
import { INLINE_MAX_WORK, ThreadedRulesEngine } from '../../../src/engines/rules/threaded.js';
import type { ExtractionInput } from '../../../src/schema/engine.js';
import { finalize } from '../../../src/schema/finalize.js';
import type { JsonSchema } from '../../../src/schema/json-schema.js';
import { wordAt } from '../../../src/document/document.js';
import { buildDocument } from '../../helpers/document-builder.js';
import { engineInput } from '../../helpers/extraction.js';
import { cpuMsOf, processCpuMs } from '../../helpers/cpu-time.js';
import { longestStall } from '../../helpers/healthz.js';

/** 80 pages of 60 lines: about a second of rules-engine work for one property, which on the main thread ran without a break. */
const DOCUMENT = buildDocument(
  Array.from({ length: 80 }, (_, page) => Array.from({ length: 60 }, (_, line) => `Reference ${line} of page ${page}: amount ${line}.50 date 2024-03-${(line % 28) + 1}`)),
);
const SCHEMA = { type: 'object', properties: { reference: { type: 'string', description: 'Reference amount' }, total: { type: 'number' } } };

function input(signal = new AbortController().signal): ExtractionInput {
  return engineInput(DOCUMENT, SCHEMA, { signal });
}

describe('ThreadedRulesEngine', function () {
  this.timeout(60_000);
  let engine: ThreadedRulesEngine;
  /** Every extraction on the thread, however small. */
  let threadOnly: ThreadedRulesEngine;

  before(() => {
    engine = new ThreadedRulesEngine(1);
    threadOnly = new ThreadedRulesEngine(1, { inlineMaxWork: 0 });
  });

  after(async () => {
    await Promise.all([engine?.close(), threadOnly?.close()]);
  });

  it('extracts on a worker thread: the same answer and provenance, and the event loop stalls far less than with the engine on it', async () => {
    let threaded: unknown;
    let inline: unknown;
    // both warm (a cold thread or a first garbage collection is not what is measured), then side by side in one run
    await engine.extract(input());
    await new RulesEngine().extract(input());
    const onThread = await longestStall(async () => {
      threaded = await engine.extract(input());
    });
    const onLoop = await longestStall(async () => {
      inline = await new RulesEngine().extract(input());
    });
    expect(threaded).to.deep.equal(inline);
    // what stays on the loop is handing the document to the thread (a structured clone)
    expect(onThread).to.be.below(onLoop / 2);
  });

  it('carries where each value was read back from the thread, and the request options to it', async () => {
    const document = buildDocument(['ACME TOOLS LTD', 'Invoice date: 03/04/2024', 'Total due: 76.20']);
    const schema = { type: 'object', properties: { invoice_date: { type: 'string', format: 'date' }, total: { type: 'number' } } };
    for (const [dateOrder, printed] of [['dmy', '2024-04-03'], ['mdy', '2024-03-04']] as const) {
      const request = engineInput(document, schema, { options: { dateOrder } });
      const runs = threadOnly.threadRuns;
      const final = finalize(await threadOnly.extract(request), request.compiled, request.options);
      expect(threadOnly.threadRuns).to.equal(runs + 1);
      expect(final.value).to.deep.equal({ invoice_date: printed, total: 76.2 });
      const words = (pointer: string) => final.provenance.get(pointer)?.words.map((ref) => wordAt(document, ref)?.word.text);
      expect(words('/total')).to.deep.equal(['76.20']);
      expect(words('/invoice_date')).to.deep.equal(['03/04/2024']);
      expect(final.provenance.get('/total')?.score).to.be.a('number');
    }
  });

  it('reads a small extraction on the calling thread, the same as on a thread; a longer document or a larger schema on a thread', async () => {
    const invoice = ['ACME TOOLS LTD', 'Invoice number: INV-2024-0042', 'Invoice date: 03/04/2024', 'Steel hammer 2 14.50 29.00', 'Total due: 76.20'];
    const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, invoice_date: { type: 'string', format: 'date' }, total: { type: 'number' } } };
    const onThread = async (document: ReturnType<typeof buildDocument>, schemaOf: JsonSchema) => {
      const runs = engine.threadRuns;
      const answer = await engine.extract(engineInput(document, schemaOf));
      return { answer, onThread: engine.threadRuns - runs };
    };
    const small = await onThread(buildDocument(invoice), schema);
    expect(small.onThread).to.equal(0);
    expect(small.answer).to.deep.equal(await threadOnly.extract(engineInput(buildDocument(invoice), schema)));
    expect(small.answer.value).to.deep.include({ invoice_number: 'INV-2024-0042', total: 76.2 });
    // words times fields past the bound: more lines, or the same lines and more fields
    const longer = Array.from({ length: Math.ceil(INLINE_MAX_WORK / 4 / 10) }, () => invoice).flat();
    expect((await onThread(buildDocument(longer), schema)).onThread).to.equal(1);
    const manyFields = { type: 'object', properties: Object.fromEntries(Array.from({ length: INLINE_MAX_WORK / 10 }, (_, i) => [`field_${i}`, { type: 'string' }])) };
    expect((await onThread(buildDocument(invoice), manyFields)).onThread).to.equal(1);
    // few words but long ones, and a schema whose $ref may stand for any number of fields
    expect((await onThread(buildDocument(['Total: 76.20', 'x'.repeat(INLINE_MAX_WORK * 8)]), schema)).onThread).to.equal(1);
    const referring = { type: 'object', $defs: { money: { type: 'number' } }, properties: { total: { $ref: '#/$defs/money' } } };
    expect((await onThread(buildDocument(invoice), referring)).onThread).to.equal(1);
  });

  it('keeps one thread ready and starts another only when extractions overlap', async () => {
    const pool = new ThreadedRulesEngine(2);
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(pool.liveThreads).to.equal(1);
      await pool.extract(input());
      expect(pool.liveThreads, 'one extraction at a time').to.equal(1);
      const [first, second] = await Promise.all([pool.extract(input()), pool.extract(input())]);
      expect(first).to.deep.equal(second);
      expect(pool.liveThreads, 'two at once').to.equal(2);
    } finally {
      await pool.close();
    }
  });

  it('stops at once when the request aborts, with the signal reason, and then extracts again', async () => {
    // the CPU time of the whole extraction, against what the process spends from the abort to the rejection:
    // a thread left running would spend the rest of the extraction's
    const whole = await cpuMsOf(() => engine.extract(input()));
    const controller = new AbortController();
    const running = engine.extract(input(controller.signal));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reason = new Error('deadline');
    const aborted = processCpuMs();
    controller.abort(reason);
    const error = await running.then(() => undefined, (failure: unknown) => failure);
    expect(error).to.equal(reason);
    expect(processCpuMs() - aborted, `CPU ms after the abort; the whole extraction ${whole.toFixed(0)} ms`).to.be.below(whole / 2);
    const next = await engine.extract(engineInput(buildDocument(['Total: 12.50']), SCHEMA));
    expect(next.value).to.deep.include({ total: 12.5 });
  });
});
