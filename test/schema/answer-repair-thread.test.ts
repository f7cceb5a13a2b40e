import { expect } from 'chai';
import { AppError } from '../../src/errors.js';
import { answersRepairedOnThread, repairedAnswer } from '../../src/schema/answer-repair-thread.js';
import { finalize, finalizePaced } from '../../src/schema/finalize.js';
import type { Provenance, ValueSource } from '../../src/schema/provenance.js';
import { compileCallerSchema } from '../../src/schema/schema.js';
import { Pacer } from '../../src/util/paced.js';
import { longestStall } from '../helpers/healthz.js';

const at = (word: number): ValueSource => ({ words: [{ file: 0, page: 0, line: 0, word }] });

/** Rows whose tags must be short, unique among rows, at most ROWS_KEPT of them: repair drops rows and tags. */
const ROWS_KEPT = 1_200;
const SCHEMA = compileCallerSchema({
  type: 'object',
  properties: {
    title: { type: 'string' },
    rows: {
      type: 'array',
      uniqueItems: true,
      maxItems: ROWS_KEPT,
      items: { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]+$' }, tags: { type: 'array', items: { type: 'string', maxLength: 3 } } } },
    },
  },
});

const ROWS = 2_000;

/** A different code of capital letters for each n. */
function letters(n: number): string {
  let code = '';
  for (let rest = n + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) code = String.fromCharCode(65 + ((rest - 1) % 26)) + code;
  return code;
}

/** `rows` rows: every 7th a duplicate of the one before, every 5th with a code that fails, tags of which one in three is too long. */
function extractionOf(rows: number): { value: unknown; provenance: Provenance } {
  const provenance: Provenance = new Map([['/title', at(0)]]);
  const list = Array.from({ length: rows }, (_, i) => {
    const n = i % 7 === 6 ? i - 1 : i;
    provenance.set(`/rows/${i}/code`, at(4 * i + 1));
    provenance.set(`/rows/${i}/tags/0`, at(4 * i + 2));
    provenance.set(`/rows/${i}/tags/1`, at(4 * i + 3));
    return { code: n % 5 === 0 ? `bad${n}` : letters(n), tags: [`t${n % 9}`, n % 3 === 0 ? `long${n}` : `u${n % 4}`] };
  });
  return { value: { title: 'Statement', rows: list }, provenance };
}

describe('finalize of a large answer: validation and repair on a thread', function () {
  this.timeout(120_000);
  const options = { dateOrder: 'dmy' as const };

  it('gives the answer and provenance finalize gives in place, and an unsatisfiable schema the same 422', async () => {
    const before = answersRepairedOnThread();
    const paced = await finalizePaced(extractionOf(ROWS), SCHEMA, options, new Pacer());
    expect(answersRepairedOnThread()).to.equal(before + 1);
    const inPlace = finalize(extractionOf(ROWS), SCHEMA, options);
    expect(paced.value).to.deep.equal(inPlace.value);
    expect([...paced.provenance]).to.deep.equal([...inPlace.provenance]);
    const rows = inPlace.value['rows'] as Array<{ code: string; tags: string[] }>;
    expect(rows).to.have.length(ROWS_KEPT);
    expect(rows.some((row) => row.tags.length === 1)).to.equal(true);
    // a small answer is checked on the loop
    await finalizePaced(extractionOf(5), SCHEMA, options, new Pacer());
    expect(answersRepairedOnThread()).to.equal(before + 1);

    const unsatisfiable = compileCallerSchema({ type: 'object', properties: { rows: { type: 'array', items: { type: 'string' } } }, minProperties: 3 });
    const large = { value: { rows: Array.from({ length: 5_000 }, (_, i) => `r${i}`) }, provenance: new Map() };
    const error = await finalizePaced(large, unsatisfiable, options, new Pacer()).then(() => expect.fail('finalized'), (thrown: unknown) => thrown);
    expect(error).to.be.instanceOf(AppError);
    expect(error).to.include({ code: 'unsatisfiable_schema', status: 422 });
    expect((error as AppError).details).to.deep.equal(['/ must NOT have fewer than 3 properties']);
    expect(answersRepairedOnThread()).to.equal(before + 2);
  });

  it('holds the loop far less than uniqueItems comparing every pair of 2,000 rows in place, and stops when the request aborts', async () => {
    const onThread = await longestStall(() => finalizePaced(extractionOf(ROWS), SCHEMA, options, new Pacer()));
    const inPlace = await longestStall(async () => finalize(extractionOf(ROWS), SCHEMA, options));
    expect(onThread, `longest stall ${onThread.toFixed(0)} ms (CPU) against ${inPlace.toFixed(0)} ms in place`).to.be.below(inPlace / 4);

    const controller = new AbortController();
    const reason = new Error('client gone');
    const { value } = finalize(extractionOf(ROWS), SCHEMA, options);
    const running = repairedAnswer(value, SCHEMA, controller.signal);
    setTimeout(() => controller.abort(reason), 20);
    expect(await running.then(() => 'finished', (error: unknown) => error)).to.equal(reason);
  });
});
