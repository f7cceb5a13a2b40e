import { expect } from 'chai';
import { RulesEngine } from '../../src/engines/rules/index.js';
import type { Engine, EngineUsage, ExtractionInput } from '../../src/schema/engine.js';
import { renderLayoutText, type LayoutText } from '../../src/ingest/layout.js';
import { MeteredEngine } from '../../src/metrics/metered-engine.js';
import { ServiceMetrics } from '../../src/metrics/service-metrics.js';
import { buildDocument } from '../helpers/document-builder.js';
import { engineInput } from '../helpers/extraction.js';

const DOCUMENT = buildDocument(['ACME TOOLS LTD', 'Invoice date: 03/04/2024', 'Total due: 76.20']);
const SCHEMA = { type: 'object', properties: { total: { type: 'number' } } };

/** The input as the pipeline builds it: the layout text rendered when an engine first reads it, counted. */
function lazyInput(): { input: ExtractionInput; renders: () => number } {
  let renders = 0;
  let rendered: LayoutText | undefined;
  const { layout: _eager, ...rest } = engineInput(DOCUMENT, SCHEMA);
  const input = Object.defineProperty(rest, 'layout', {
    enumerable: true,
    get: () => {
      renders++;
      return (rendered ??= renderLayoutText(DOCUMENT));
    },
  }) as ExtractionInput;
  return { input, renders: () => renders };
}

describe('MeteredEngine', () => {
  const metrics = () => new ServiceMetrics({ ocrEngine: 'paddle' });

  it('leaves the layout text unrendered for an engine that never reads it (the rules engine)', async () => {
    const { input, renders } = lazyInput();
    const answer = await new MeteredEngine(new RulesEngine(), metrics()).extract(input);
    expect(answer.value).to.deep.equal({ total: 76.2 });
    expect(renders()).to.equal(0);
  });

  it("hands an engine that reads the layout the pipeline's, and the usage sink", async () => {
    const { input, renders } = lazyInput();
    let seen: { text: string; usage: EngineUsage | undefined } | undefined;
    const reader: Engine = {
      name: 'reader',
      async extract(given) {
        seen = { text: given.layout.text, usage: given.usage };
        return { value: {}, provenance: new Map() };
      },
      async status() {
        return { ready: true, detail: '' };
      },
      async close() {},
    };
    await new MeteredEngine(reader, metrics()).extract(input);
    expect(seen?.text).to.equal(renderLayoutText(DOCUMENT).text);
    expect(seen?.usage).to.not.equal(undefined);
    expect(renders()).to.equal(1);
  });
});
