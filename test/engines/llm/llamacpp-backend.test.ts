import { expect } from 'chai';
import { LlamaCppBackend } from '../../../src/engines/llm/backends/llamacpp.js';
import type { ChatRequest } from '../../../src/engines/llm/backends/chat-backend.js';
import { toModelSchema } from '../../../src/engines/llm/model-schema.js';
import { buildMessages, SYSTEM_PROMPT } from '../../../src/engines/llm/prompt.js';
import { testConfig } from '../../helpers/test-server.js';
import { tinyGgufPath } from '../../helpers/tiny-gguf.js';
import type { JsonSchema } from '../../../src/schema/json-schema.js';

const INVOICE = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' } } };
const RECEIPT = { type: 'object', properties: { store: { type: 'string' }, paid: { type: 'number' } } };

function request(schema: JsonSchema, documentText: string, signal = new AbortController().signal): ChatRequest {
  return { messages: buildMessages({ schema, documentText }), format: toModelSchema(schema), promptTokens: 0, maxOutputTokens: 48, images: [], disableThinking: false, signal };
}

describe('in-process llama.cpp backend (tiny generated GGUF)', function () {
  this.timeout(120_000);
  let backend: LlamaCppBackend;

  before(async () => {
    const config = testConfig({ LLAMA_THREADS: '1', LLM_MAX_CONTEXT_TOKENS: '4096' });
    backend = await LlamaCppBackend.load(tinyGgufPath(), config.llamacpp, config.llm);
  });
  after(() => backend?.close());

  it('keeps one context of min(GGUF context, LLM_MAX_CONTEXT_TOKENS) and reports it', async () => {
    expect(await backend.capacity()).to.deep.include({ contextTokens: 4096 });
    expect((await backend.status()).detail).to.contain('context 4096 tokens');
  });

  it('counts tokens with the model tokenizer and its chat template', () => {
    // the tiny model's vocabulary is about one token per byte
    expect(backend.tokenizer.text('Total 12.50')).to.be.within(11, 14);
    const messages = buildMessages({ schema: INVOICE, documentText: 'Total 12.50' });
    const bare = messages.reduce((sum, m) => sum + backend.tokenizer.text(m.content), 0);
    // the template's role markers come on top
    expect(backend.tokenizer.chat(messages)).to.be.greaterThan(bare).and.below(bare + 40);
  });

  it('does not evaluate again the prompt start it already holds: the system prompt and the schema, when the schema is the same', async () => {
    await backend.chat(request(INVOICE, 'ACME Ltd\nInvoice number: NW-1\nTotal 12.50'));
    const same = await backend.chat(request(INVOICE, 'Globex\nInvoice number: NW-2\nTotal 99.00'));
    const schemaPart = JSON.stringify(INVOICE).length;
    expect(same.usage!.reusedPromptTokens).to.be.greaterThan(SYSTEM_PROMPT.length + schemaPart);
    // what is evaluated again is the new document and the words after it
    expect(same.usage!.promptTokens - same.usage!.reusedPromptTokens!).to.be.below(150);
    const other = await backend.chat(request(RECEIPT, 'Corner Cafe\nPaid 6.25'));
    // another schema: only the start both prompts share (the system prompt, the schema's first characters)
    expect(other.usage!.reusedPromptTokens).to.be.at.least(SYSTEM_PROMPT.length).and.below(same.usage!.reusedPromptTokens! - 20);
    expect(other.usage!.promptMs).to.be.a('number');
    expect(other.usage!.generationMs).to.be.a('number');
  });

  it('a call past LLM_TIMEOUT_MS fails as a time-out, and the context serves the next call', async () => {
    const config = testConfig({ LLAMA_THREADS: '1', LLM_TIMEOUT_MS: '600' });
    const llm = { ...config.llm };
    const slow = await LlamaCppBackend.load(tinyGgufPath(), config.llamacpp, llm);
    try {
      // Some 15,000 tokens of prompt, most of the context: 3 s on one idle thread here, five times the limit
      // (llama.cpp stops at the end of the batch it is in); a busy machine only makes it longer.
      // With a 1 s limit and half the prompt, a fast machine once answered within the limit.
      const long = request(INVOICE, 'Line of a long document, 12.50\n'.repeat(340));
      const error = await slow.chat(long).then(() => undefined, (failure: unknown) => failure);
      expect(error).to.have.property('code', 'timeout');
      // The next call is judged on what it answers, not on how fast: the backend reads the limit per call, and
      // 600 ms (some 45 ms idle, but the prompt start is evaluated again) failed it on a loaded machine.
      llm.timeoutMs = 120_000;
      const next = await slow.chat(request(INVOICE, 'Invoice number: A-9'));
      expect(next.content).to.be.a('string');
    } finally {
      await slow.close();
    }
  });

  it('takes calls one at a time; one aborted while waiting leaves the queue and the rest answer', async () => {
    const leaving = new AbortController();
    const calls = [
      backend.chat(request(INVOICE, 'Invoice number: A-1')),
      backend.chat(request(INVOICE, 'Invoice number: A-2', leaving.signal)),
      backend.chat(request(INVOICE, 'Invoice number: A-3')),
    ];
    leaving.abort(new Error('client went away'));
    const [first, second, third] = await Promise.allSettled(calls);
    expect(first!.status).to.equal('fulfilled');
    expect(second).to.deep.include({ status: 'rejected' });
    expect((second as PromiseRejectedResult).reason.message).to.equal('client went away');
    expect(third!.status).to.equal('fulfilled');
  });
});
