import { expect } from 'chai';
import type { ChatRequest } from '../../../src/engines/llm/backends/chat-backend.js';
import { loops, RunawayWatch } from '../../../src/engines/llm/backends/runaway.js';
import { LlmEngine } from '../../../src/engines/llm/llm-engine.js';
import { compileCallerSchema } from '../../../src/schema/schema.js';
import { renderLayoutText } from '../../../src/ingest/layout.js';
import { silentLogger } from '../../../src/logger.js';
import { buildDocument } from '../../helpers/document-builder.js';
import { testConfig } from '../../helpers/test-server.js';

describe('RunawayWatch: an answer stuck in a loop', () => {
  it('notices one character or a short piece repeated over a long stretch, as it is written', () => {
    const watch = new RunawayWatch();
    expect(watch.push('{"total": "100100000035-')).to.equal(false);
    let looped = false;
    for (let i = 0; i < 300 && !looped; i++) looped = watch.push('1');
    expect(looped).to.equal(true);
    expect(loops(`{"name": "${'Kuala Lumpur '.repeat(20)}`)).to.equal(true);
  });

  it('notices a list item written over and over in pretty-printed JSON (a unit of item, comma and indentation)', () => {
    const item = '\n        "2022-06-06 12:12:52.125",';
    expect(item.length).to.be.greaterThan(32);
    expect(loops(`{\n    "party": [${item.repeat(9)}`)).to.equal(true);
    // the same line bought a few times is a list, not a loop
    expect(loops(`{\n    "items": [${item.repeat(7)}`)).to.equal(false);
  });

  it('lets real answers through: long values, lists of similar rows, ordinary JSON', () => {
    const items = Array.from({ length: 30 }, (_, i) => `{"name": "Item ${i + 1}", "price": ${(i * 1.25).toFixed(2)}}`).join(', ');
    expect(loops(`{"items": [${items}]}`)).to.equal(false);
    expect(loops(`{"address": "${'12 Jalan Tampoi 7/4, Kawasan Perindustrian Tampoi, 81200 Johor Bahru, Johor. '.repeat(2)}"}`)).to.equal(false);
    expect(loops('0'.repeat(150))).to.equal(false);
  });

  it('stops a string that grows longer than the document it is copied from: a count that never repeats itself', () => {
    const watch = new RunawayWatch(120);
    expect(watch.push('{"company": "Dion Realties Sdn Bhd", "total": "')).to.equal(false);
    let stopped = false;
    let written = 0;
    for (let amount = 5; amount < 1000 && !stopped; amount += 5) {
      const piece = `${amount}.00 RM, `;
      written += piece.length;
      stopped = watch.push(piece);
    }
    expect(stopped).to.equal(true);
    expect(written).to.be.within(121, 140);
    // the same count without a document limit is no loop to the repetition check
    expect(loops(`"${Array.from({ length: 60 }, (_, i) => `${(i + 1) * 5}.00 RM`).join(', ')}`)).to.equal(false);
  });

  it('counts each string on its own, escapes as one character, and keys and numbers not at all', () => {
    const watch = new RunawayWatch(20);
    // several strings of up to 20 characters each, far more than 20 in all
    expect(watch.push('{"store_name": "Corner Cafe & Bakery", "address": "12 Main St, Leeds", "total": 123456789012345678901234}')).to.equal(false);
    expect(watch.push('{"note": "a \\"quoted\\" word\\n ok"}')).to.equal(false);
    expect(new RunawayWatch(20).push('{"note": "twenty-one characters!"}')).to.equal(true);
  });
});

describe('the engine tells the backend how long a value can be', () => {
  it('passes the length of the document text the model reads, so an in-process answer can be stopped past it', async () => {
    const seen: ChatRequest[] = [];
    const engine = new LlmEngine(
      {
        name: 'scripted',
        acceptsImages: false,
        chat: async (request) => {
          seen.push(request);
          return { content: '{"total": 5}', truncated: false };
        },
        capacity: async () => ({ contextTokens: undefined, source: 'scripted' }),
        status: async () => ({ ready: true }),
        close: async () => undefined,
      },
      testConfig().llm,
      silentLogger(),
    );
    const document = buildDocument(['Dion Realties Sdn Bhd', 'Accepted total 5.00 RM']);
    const layout = renderLayoutText(document);
    await engine.extract({ compiled: compileCallerSchema({ type: 'object', properties: { total: { type: 'number' } } }), document, layout, options: { dateOrder: 'dmy' }, signal: new AbortController().signal });
    expect(seen[0]!.documentChars).to.equal(layout.text.length);
  });
});
