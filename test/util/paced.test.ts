import { expect } from 'chai';
import { buildEvidence, buildEvidencePaced } from '../../src/evidence/evidence.js';
import { finalize, finalizePaced } from '../../src/schema/finalize.js';
import type { Provenance } from '../../src/schema/provenance.js';
import { compileCallerSchema } from '../../src/schema/schema.js';
import { packDocument, packingDocument, unpackingPage, unpackPage } from '../../src/ingest/document-pack.js';
import { copyingBytes, jsonLength, jsonText, Pacer, runPaced, runSync, SMALL_CHARS, SMALL_NODES, STRING_CHARS_PER_UNIT, UNITS_PER_TURN } from '../../src/util/paced.js';
import { buildDocument } from '../helpers/document-builder.js';

/**
 * The answer's second half (finalize, evidence, the response's JSON, the
 * Document's copy to a thread) runs on the event loop in turns. These tests
 * count the work in units (a row, a value, a line), not in time: a turn holds
 * at most UNITS_PER_TURN units, and 4n rows take about 4 times the turns of
 * n rows, so the longest turn stays the same size as the answer grows. A
 * unit's cost does not depend on the answer's size, so neither check can be
 * tipped by how busy the machine is.
 */

const SCHEMA = compileCallerSchema({
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, amount: { type: 'number' } } } },
  },
});

/** A document of `rows` item lines and the rules engine's kind of candidate for it: strings as printed, every value's words. */
function invoiceOf(rows: number) {
  const lines = ['Invoice RE-7', ...Array.from({ length: rows }, (_, i) => `Item ${i + 1}  ${1 + (i % 4)}  ${(12.5 * (1 + (i % 4))).toFixed(2)}`)];
  const document = buildDocument(lines, { pageWidth: 600, pageHeight: 800 });
  const provenance: Provenance = new Map([['/invoice_number', { words: [{ file: 0, page: 0, line: 0, word: 1 }] }]]);
  const items = Array.from({ length: rows }, (_, i) => {
    const line = i + 1;
    provenance.set(`/line_items/${i}/description`, { words: [{ file: 0, page: 0, line, word: 0 }, { file: 0, page: 0, line, word: 1 }], score: 0.8 });
    provenance.set(`/line_items/${i}/quantity`, { words: [{ file: 0, page: 0, line, word: 2 }] });
    provenance.set(`/line_items/${i}/amount`, { words: [{ file: 0, page: 0, line, word: 3 }] });
    return { description: `Item ${i + 1}`, quantity: String(1 + (i % 4)), amount: (12.5 * (1 + (i % 4))).toFixed(2) };
  });
  return { document, extraction: { value: { invoice_number: 'RE-7', line_items: items }, provenance } };
}

/** finalize, evidence and the response's JSON of `rows` rows through one pacer: its turns. */
async function pacedAnswer(rows: number): Promise<Pacer> {
  const { document, extraction } = invoiceOf(rows);
  const pacer = new Pacer(undefined, UNITS_PER_TURN, Infinity);
  const answer = await finalizePaced(extraction, SCHEMA, { dateOrder: 'dmy' }, pacer);
  const { evidence } = await buildEvidencePaced({ answer, document, schema: SCHEMA.schema, dateOrder: 'dmy' }, pacer);
  await runPaced(jsonText({ data: answer.value, evidence }), pacer);
  await runPaced(packingDocument(document), pacer);
  return pacer;
}

describe('paced work on the event loop (util/paced.ts)', function () {
  this.timeout(60_000);

  it('gives the loop back in turns of at most UNITS_PER_TURN units, about 4 times as many for 4 times the rows', async () => {
    const small = await pacedAnswer(500);
    const large = await pacedAnswer(2000);
    for (const pacer of [small, large]) expect(pacer.longestTurn).to.be.at.most(UNITS_PER_TURN);
    // every row is a unit of each step (a list item shaped, its values explained and written, its line copied)
    expect(small.units).to.be.above(500 * 4);
    expect(large.turns, `${small.turns} turns for 500 rows, ${large.turns} for 2,000`).to.be.at.least(3.5 * small.turns);
  });

  it('ends the work at the next turn once the request is aborted', async () => {
    const { extraction } = invoiceOf(2000);
    const controller = new AbortController();
    const pacer = new Pacer(controller.signal, 50, Infinity);
    const finalizing = finalizePaced(extraction, SCHEMA, { dateOrder: 'dmy' }, pacer);
    controller.abort(new Error('client gone'));
    await finalizing.then(
      () => expect.fail('finalize went on after the abort'),
      (error: Error) => expect(error.message).to.equal('client gone'),
    );
    expect(pacer.turns).to.equal(1);
  });

  it('answers what the same work run through at once answers', async () => {
    const { document, extraction } = invoiceOf(300);
    const answer = finalize(extraction, SCHEMA, { dateOrder: 'dmy' });
    const paced = await finalizePaced(extraction, SCHEMA, { dateOrder: 'dmy' }, new Pacer());
    expect(paced.value).to.deep.equal(answer.value);
    expect([...paced.provenance]).to.deep.equal([...answer.provenance]);
    expect(answer.value.line_items).to.have.length(300);
    expect((answer.value.line_items as Array<{ amount: number }>)[1]!.amount).to.equal(25);
    const evidence = buildEvidence({ answer, document, schema: SCHEMA.schema, dateOrder: 'dmy' });
    expect(await buildEvidencePaced({ answer, document, schema: SCHEMA.schema, dateOrder: 'dmy' }, new Pacer())).to.deep.equal(evidence);
    const page = packDocument(document).files[0]!.pages[0]!;
    expect(await runPaced(unpackingPage(page), new Pacer())).to.deep.equal(unpackPage(page));
    expect(await runPaced(packingDocument(document), new Pacer())).to.deep.equal(packDocument(document));
  });

  it('writes the JSON text JSON.stringify writes, and counts its length without writing it', () => {
    const values: unknown[] = [
      null,
      -0,
      'quote " backslash \\ newline \n \u2028',
      [undefined, () => 1, Number.NaN, Infinity, new Date(0), [], {}],
      { b: undefined, a: { x: undefined, 'y/~': [1, { z: null }] }, 2: true, 1: 'first' },
      { data: { total: 76.2 }, evidence: { '/total': { bbox: [0.1, 0.2, 0.3, 0.4], confidence: 0.93 } } },
      { first: undefined, second: { toJSON: () => undefined }, third: [{ a: () => 1 }], 'é\u0000': 'ü' },
    ];
    for (const value of values) {
      expect(runSync(jsonText(value))).to.equal(JSON.stringify(value));
      expect(runSync(jsonLength(value))).to.equal(JSON.stringify(value).length);
    }
  });

  it('writes a small container (a row, a value\'s evidence) in one unit and a larger one a member at a time, as JSON.stringify writes them', () => {
    const unitsOf = (work: Generator<void, unknown, void>) => {
      let units = 0;
      for (let step = work.next(); !step.done; step = work.next()) units++;
      return units;
    };
    const rows = Array.from({ length: 1000 }, (_, i) => ({ description: `Item ${i}`, quantity: i % 4, amount: i / 8, note: i % 3 ? null : undefined }));
    const evidence = Object.fromEntries(rows.map((_, i) => [`/rows/${i}/amount`, { bbox: [0.1, 0.2, 0.3, i / 1000], text: `${i}`, confidence: 0.9, eInvoice: { term: 'BT-131', printed: 'same' } }]));
    const answer = { data: { rows }, evidence };
    expect(runSync(jsonText(answer))).to.equal(JSON.stringify(answer));
    expect(unitsOf(jsonText(answer))).to.equal(2000);
    // past SMALL_NODES values or SMALL_CHARS characters, a unit per member
    const wide = Object.fromEntries(Array.from({ length: SMALL_NODES }, (_, i) => [`k${i}`, i]));
    expect(unitsOf(jsonText({ wide }))).to.equal(SMALL_NODES);
    expect(unitsOf(jsonText({ long: ['x'.repeat(SMALL_CHARS), 'y'] }))).to.equal(2);
    expect(runSync(jsonText({ wide, long: ['x'.repeat(SMALL_CHARS), 'y'] }))).to.equal(JSON.stringify({ wide, long: ['x'.repeat(SMALL_CHARS), 'y'] }));
  });

  it('writes a long string, as a value or as a key, a piece per unit, with the text JSON.stringify writes (n vs 4n)', () => {
    const piece = STRING_CHARS_PER_UNIT;
    // escapes, a surrogate pair across each piece boundary, lone surrogates on both sides of one
    const awkward = (length: number) => {
      const chars = Array.from({ length }, (_, i): string => (i % 97 === 0 ? '"' : i % 89 === 0 ? '\n' : i % 83 === 0 ? '\u0001' : 'Q'));
      for (let at = piece - 1; at + 1 < length; at += piece) [chars[at], chars[at + 1]] = ['\ud83d', '\ude00'];
      chars[2 * piece - 3] = '\udc00';
      chars[2 * piece + 3] = '\ud800';
      return chars.join('');
    };
    const unitsOf = (work: Generator<void, unknown, void>) => {
      let units = 0;
      for (let step = work.next(); !step.done; step = work.next()) units++;
      return units;
    };
    for (const length of [3 * piece, 12 * piece]) {
      const text = awkward(length);
      for (const value of [text, { [text]: 1 }, { name: text, list: [text, 'short'] }]) {
        expect(runSync(jsonText(value))).to.equal(JSON.stringify(value));
        expect(runSync(jsonLength(value))).to.equal(JSON.stringify(value).length);
      }
    }
    // a unit never holds more than a piece: 4 times the characters, about 4 times the units
    const small = unitsOf(jsonLength({ [awkward(3 * piece)]: awkward(3 * piece) }));
    const large = unitsOf(jsonLength({ [awkward(12 * piece)]: awkward(12 * piece) }));
    expect(small).to.be.at.least(6);
    expect(large).to.be.at.least(24);
    expect(large / small).to.be.within(3.5, 4.5);
  });

  it('copies bytes into a buffer of their own a slice per unit, in as many units as the bytes need (n vs 4n)', () => {
    const copyOf = (length: number) => {
      const source = new Uint8Array(length + 10).map((_, i) => i % 251).subarray(10);
      const work = copyingBytes(source, 1000);
      let units = 0;
      let step = work.next();
      for (; !step.done; step = work.next()) units++;
      const copy = step.value;
      expect(copy).to.deep.equal(source);
      expect(copy.byteOffset).to.equal(0);
      expect(copy.buffer.byteLength).to.equal(length); // nothing else in it: a thread may take it whole
      return units;
    };
    expect(copyOf(2500)).to.equal(3);
    expect(copyOf(10_000)).to.equal(10);
    expect(copyOf(40_000)).to.equal(40);
  });
});
