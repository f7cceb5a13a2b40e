import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/config.js';

describe('loadConfig: language-model settings', () => {
  it('has documented defaults', () => {
    const config = loadConfig({});
    expect(config.extractor).to.equal('auto');
    expect(config.ollama).to.deep.equal({ host: 'http://127.0.0.1:11434', model: 'qwen2.5:7b-instruct', keepAlive: '30m', probeTimeoutMs: 1500 });
    expect(config.openai.baseUrl).to.equal(undefined);
    expect(config.openai.contextTokens).to.equal(undefined);
    expect(loadConfig({ OPENAI_CONTEXT_TOKENS: '8192' }).openai.contextTokens).to.equal(8192);
    expect(config.llamacpp.gpu).to.equal(false);
    expect(config.llm).to.include({ maxContextTokens: 16384, maxOutputTokens: 4096, maxRetries: 2, chunkConcurrency: 2, ungrounded: 'null', vision: true });
  });

  it('accepts OLLAMA_HOST without a scheme, like Ollama does', () => {
    expect(loadConfig({ OLLAMA_HOST: '10.0.0.5:11434' }).ollama.host).to.equal('http://10.0.0.5:11434');
    expect(loadConfig({ OLLAMA_HOST: 'https://llm.internal/' }).ollama.host).to.equal('https://llm.internal');
  });

  it('fails at boot naming the variable', () => {
    expect(() => loadConfig({ EXTRACTOR: 'gpt4' })).to.throw(ConfigError, /EXTRACTOR/);
    expect(() => loadConfig({ LLM_UNGROUNDED: 'maybe' })).to.throw(ConfigError, /LLM_UNGROUNDED/);
    expect(() => loadConfig({ LLM_VISION: 'sometimes' })).to.throw(ConfigError, /LLM_VISION/);
    expect(() => loadConfig({ LLM_MAX_RETRIES: '-1' })).to.throw(ConfigError, /LLM_MAX_RETRIES/);
    expect(() => loadConfig({ OLLAMA_HOST: 'ftp://x' })).to.throw(ConfigError, /OLLAMA_HOST/);
    expect(() => loadConfig({ EXTRACTOR: 'openai' })).to.throw(ConfigError, /OPENAI_BASE_URL/);
    expect(() => loadConfig({ OPENAI_CONTEXT_TOKENS: '8k' })).to.throw(ConfigError, /OPENAI_CONTEXT_TOKENS/);
  });
});
