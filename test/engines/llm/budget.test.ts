import { expect } from 'chai';
import { loadConfig } from '../../../src/config.js';
import { MIN_WINDOW_TOKENS, planBudget } from '../../../src/engines/llm/budget.js';
import type { TokenCounter } from '../../../src/engines/llm/backends/chat-backend.js';
import { buildMessages } from '../../../src/engines/llm/prompt.js';

const SCHEMA = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' } } };
const unknown = { contextTokens: undefined, source: 'not said' };

/** One token per character, like the tiny test model's byte vocabulary. */
const perCharacter: TokenCounter = {
  text: (text) => text.length,
  chat: (messages) => messages.reduce((sum, m) => sum + m.content.length + 5, 0),
};

describe('planBudget: the context shared between instructions, document and answer', () => {
  const llm = loadConfig({}).llm;

  it('uses LLM_MAX_CONTEXT_TOKENS when the model holds more or does not say', () => {
    for (const capacity of [unknown, { contextTokens: 131_072, source: 'GGUF' }]) {
      const budget = planBudget(llm, capacity, undefined, SCHEMA);
      expect(budget.contextTokens).to.equal(16_384);
      expect(budget.outputTokens).to.equal(4096);
      expect(budget.windowTokens).to.be.greaterThan(11_000).and.below(16_384 - 4096);
    }
  });

  it('sizes everything to the model when it holds less', () => {
    const budget = planBudget(llm, { contextTokens: 4096, source: 'GGUF' }, undefined, SCHEMA);
    expect(budget.contextTokens).to.equal(4096);
    expect(budget.outputTokens).to.equal(1024);
    expect(budget.windowTokens).to.be.within(MIN_WINDOW_TOKENS, 4096 - 1024);
  });

  it('counts with the model tokenizer when there is one; a tight context gives the answer less room before refusing', () => {
    const fixed = perCharacter.chat(buildMessages({ schema: SCHEMA, documentText: '', part: 'pages 99999-99999 of 99999' }));
    // a quarter of the context for the answer would leave the document less than a useful window
    const contextTokens = fixed + 600;
    const budget = planBudget(llm, { contextTokens, source: 'GGUF' }, perCharacter, SCHEMA);
    expect(budget.counted).to.equal(true);
    expect(budget.countText('abcd')).to.equal(4);
    expect(budget.windowTokens).to.be.at.least(MIN_WINDOW_TOKENS);
    expect(budget.outputTokens).to.be.below(Math.floor(contextTokens / 4)).and.at.least(128);
    expect(budget.outputTokens + budget.windowTokens + fixed).to.be.at.most(contextTokens);
  });

  it('refuses with a message naming the model and what to do when nothing fits', () => {
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_number_${i}`, { type: 'string', description: 'a long description of the value '.repeat(2) }])) };
    expect(() => planBudget(llm, { contextTokens: 2048, source: "the GGUF's context length" }, perCharacter, big)).to.throw(/model's context of 2048 tokens \(the GGUF's context length\)/);
    expect(() => planBudget(loadConfig({ LLM_MAX_CONTEXT_TOKENS: '1024' }).llm, unknown, perCharacter, big)).to.throw(/LLM_MAX_CONTEXT_TOKENS=1024/);
  });
});
