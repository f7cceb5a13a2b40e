import { expect } from 'chai';
import { modelSummaryLines, summariseModel } from '../../scripts/eval/model-summary.js';
import { emptyUsage, engineCounting } from '../../scripts/eval/model-usage.js';
import type { Engine, ExtractionInput } from '../../src/schema/engine.js';
import type { FieldKind } from '../../scripts/eval/score.js';

const SCHEMA = { type: 'object', properties: { company: { type: 'string' }, total: { type: 'string' }, party: { type: 'array', items: { type: 'string' } } } };
const KINDS = new Map<string, FieldKind>([['company', 'name'], ['total', 'amount'], ['party', 'name-list']]);

function usage(extra: Partial<ReturnType<typeof emptyUsage>>) {
  return { ...emptyUsage(), ...extra };
}

describe('eval: the language model summary', () => {
  it('counts the values grounding nulled that the labels say were right (false nulls), and only those', () => {
    const documents = [
      {
        id: 'a', ok: true, seconds: 2, result: { company: null, total: '9.00', party: [] }, expected: { company: 'ACME SDN BHD', total: '9.00', party: ['Acme Inc.', 'Bob Smith'] },
        model: usage({ calls: 2, retries: 1, answers: { valid: 1, invalid: 1, unusable: 0 }, promptTokens: 1000, outputTokens: 80, reusedPromptTokens: 300, promptMs: 1000, generationMs: 2000,
          ungrounded: [{ pointer: '/company', value: 'Acme Sdn. Bhd.' }, { pointer: '/party/1', value: 'Bob Smith' }, { pointer: '/total', value: '19.00' }] }),
      },
      { id: 'b', ok: false, seconds: 1, result: undefined, expected: { company: 'X', total: '1.00', party: [] }, model: usage({ calls: 1, failedCalls: 1 }) },
    ];
    const summary = summariseModel({ schema: SCHEMA, kinds: KINDS, dateOrder: 'day-first', documents, strictCorrect: 4 });
    // 'Acme Sdn. Bhd.' is the label 'ACME SDN BHD' written otherwise; 'Bob Smith' is one of the parties; '19.00' is not the total
    expect(summary.grounding).to.deep.include({ ungrounded: 3, nulled: true, rightByLabels: 2, rightValues: 6 });
    expect(summary.falseNulls.map((f) => `${f.id}${f.field}`)).to.deep.equal(['acompany', 'aparty']);
    expect(summary).to.deep.include({ documents: 2, answered: 1, schemaValid: 1, calls: 3, retries: 1, failedCalls: 1, secondsPerDocument: 1.5 });
    expect(summary.promptTokensPerSecond).to.equal(700);
    expect(summary.outputTokensPerSecond).to.equal(40);
    expect(modelSummaryLines(summary).join('\n')).to.contain('schema-valid answers 1/2').and.to.contain('false nulls: 33.3% of 6 right values');
  });

  it("counts every model call of a document through the engine's usage sink, calls of other documents apart", async () => {
    const engine: Engine = {
      name: 'scripted',
      extract: async (input: ExtractionInput) => {
        input.usage?.modelCall({ outcome: 'ok', retry: false, promptTokens: 10, outputTokens: 5, answer: 'invalid' });
        input.usage?.modelCall({ outcome: 'ok', retry: true, promptTokens: 12, outputTokens: 4, answer: 'valid' });
        input.usage?.ungrounded?.([{ pointer: '/company', value: 'Globex' }], true);
        return { value: {}, provenance: new Map() };
      },
      status: async () => ({ ready: true }),
      close: async () => undefined,
    };
    const first = emptyUsage();
    const second = emptyUsage();
    await engineCounting(engine, first).extract({} as ExtractionInput);
    expect(first).to.deep.include({ calls: 2, retries: 1, promptTokens: 22, outputTokens: 9, answers: { valid: 1, invalid: 1, unusable: 0 } });
    expect(first.ungrounded).to.deep.equal([{ pointer: '/company', value: 'Globex' }]);
    expect(second.calls).to.equal(0);
  });
});
