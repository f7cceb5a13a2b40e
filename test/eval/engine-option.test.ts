import { expect } from 'chai';
import { selectEngine } from '../../scripts/eval/engine-option.js';
import { tinyGgufPath } from '../helpers/tiny-gguf.js';

describe('eval --engine and --model', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ['EXTRACTOR', 'LLAMA_MODEL_PATH', 'OPENAI_MODEL', 'OLLAMA_MODEL']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('sets the engine and, for llamacpp, the GGUF it runs (an absolute path)', async () => {
    expect(await selectEngine('llamacpp', tinyGgufPath())).to.deep.equal({});
    expect(process.env.EXTRACTOR).to.equal('llamacpp');
    expect(process.env.LLAMA_MODEL_PATH).to.equal(tinyGgufPath());
    await selectEngine('openai', 'qwen2.5-7b');
    expect(process.env.OPENAI_MODEL).to.equal('qwen2.5-7b');
  });

  it('refuses --model without an engine that takes one, and a GGUF that is not there', async () => {
    for (const [engine, model, message] of [
      [undefined, 'x.gguf', /--model needs --engine llamacpp\|ollama\|openai/],
      ['rules', 'x.gguf', /--model needs --engine/],
      ['llamacpp', '/nowhere/model.gguf', /no such GGUF file/],
    ] as const) {
      const error = await selectEngine(engine, model).then(() => undefined, (failure: Error) => failure);
      expect(error?.message).to.match(message);
    }
  });
});
