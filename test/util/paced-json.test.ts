import { expect } from 'chai';
import { ESCAPE_WEIGHT, JsonWidthError, PacedJsonParser, pacedJsonParse } from '../../src/util/paced-json.js';
import { runSync } from '../../src/util/paced.js';

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Parses in slices of at most `maxTokens` tokens and `maxChars` characters, as many as it takes. */
function parseInSlices(text: string, maxTokens: number, maxChars: number): unknown {
  const parser = new PacedJsonParser(text);
  while (!parser.step(maxTokens, maxChars));
  return parser.value;
}

/**
 * Where two parsed values differ ('' when nowhere): the same types, numbers by
 * Object.is (-0 is not 0), the same own keys in the same order, plain
 * prototypes ("__proto__" must be an own key, never the prototype). Iterative:
 * the values may be nested 100,000 deep.
 */
function difference(actual: unknown, expected: unknown): string {
  const stack: Array<[unknown, unknown, string]> = [[actual, expected, '$']];
  while (stack.length > 0) {
    const [a, b, path] = stack.pop()!;
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
      if (!Object.is(a, b)) return `${path}: ${String(a)} vs ${String(b)}`;
      continue;
    }
    if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: another kind or prototype`;
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    if (keysA.join('\u0000') !== keysB.join('\u0000')) return `${path}: keys ${JSON.stringify(keysA).slice(0, 200)} vs ${JSON.stringify(keysB).slice(0, 200)}`;
    for (const key of keysA) stack.push([(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`]);
  }
  return '';
}

/** JSON texts written by hand, not by JSON.stringify: every escape, odd numbers, duplicate and prototype keys, any whitespace. */
function randomJsonText(random: () => number, depth = 0): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const space = () => pick(['', '', '', ' ', '\n', '\t', '\r\n  ']);
  const string = () => {
    let text = '';
    for (let i = Math.floor(random() * 12); i > 0; i--) {
      text += pick(['a', 'Z', 'é', '😀', '日', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\u0041', '\\u00E9', '\\ud800', '\\uDC00', '\\ud83d\\ude00', '\\u0000', '\\uffff', ' ', '\u2028', "'"]);
    }
    return `"${text}"`;
  };
  const key = () => pick(['"a"', '"b"', '"__proto__"', '"constructor"', '"toString"', '"1"', '"0"', '"01"', '"-1"', '"4294967295"', '""', string()]);
  const roll = random();
  if (depth > 4 || roll < 0.45) {
    return pick<() => string>([
      () => pick(['0', '-0', '1', '-1', '0.5', '-0.0', '1e400', '-1e400', '1e-400', '1E+2', '2.5e-3', '123456789012345678901234567890', '9007199254740993', '0.1', '1.7976931348623157e308', '5e-324']),
      () => pick(['true', 'false', 'null']),
      string,
    ])();
  }
  const count = Math.floor(random() * 5);
  const items = Array.from({ length: count }, () => (roll < 0.7 ? '' : `${key()}${space()}:${space()}`) + randomJsonText(random, depth + 1));
  const inner = items.map((item) => `${space()}${item}${space()}`).join(',');
  return roll < 0.7 ? `[${inner || space()}]` : `{${inner || space()}}`;
}

/** JSON.parse's error message, its kind and its position (Node 22 adds a line and a column, and shows an excerpt where we show the position). */
function errorOf(parse: () => unknown): string | undefined {
  try {
    parse();
    return undefined;
  } catch (error) {
    expect(error).to.be.instanceOf(SyntaxError);
    return (error as Error).message
      .replace(/ \(line \d+ column \d+\)/, '')
      .replace(/^(Unexpected token '.'), .* is not valid JSON$/s, '$1')
      .replace(/^(Unexpected token '.') in JSON at position \d+$/s, '$1');
  }
}

/** Characters that break JSON where they land. */
const JUNK = '{}[]":,0-.eE\\u \n\u0001xtn';

describe('paced JSON parse: JSON.parse in slices', () => {
  it('gives exactly what JSON.parse gives for generated texts, cut into slices at every possible place', () => {
    const random = seeded(11);
    for (let round = 0; round < 2000; round++) {
      const text = `${round % 5 === 0 ? ' \n' : ''}${randomJsonText(random)}${round % 7 === 0 ? '\t ' : ''}`;
      const expected = JSON.parse(text);
      const tokens = 1 + Math.floor(random() * 6);
      const chars = 1 + Math.floor(random() * 9);
      expect(difference(parseInSlices(text, tokens, chars), expected), text).to.equal('');
      expect(difference(runSync(pacedJsonParse(text)), expected), text).to.equal('');
    }
  });

  it('keeps "__proto__" an own property, lets the last duplicate key win in the first one\'s place, and reads -0 and 1e400 as JSON.parse does', () => {
    const text = '{"__proto__":{"polluted":true},"b":1,"a":2,"b":3,"n":[-0,1e400,-1e400,1e-400],"s":"\\ud800\\u00e9"}';
    const value = parseInSlices(text, 2, 3) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.keys(value)).to.deep.equal(['__proto__', 'b', 'a', 'n', 's']);
    expect(value.b).to.equal(3);
    expect(Object.is((value.n as number[])[0], -0)).to.equal(true);
    expect((value.n as number[]).slice(1)).to.deep.equal([Infinity, -Infinity, 0]);
    expect(value.s).to.equal('\ud800é');
    expect(difference(value, JSON.parse(text))).to.equal('');
  });

  it('parses 100,000 levels of nesting without recursion, as JSON.parse does', () => {
    for (const [open, close] of [['[', ']'], ['{"a":', '}']] as const) {
      const text = `${open.repeat(100_000)}1${close.repeat(100_000)}`;
      expect(difference(parseInSlices(text, 4096, 65536), JSON.parse(text))).to.equal('');
    }
  });

  it('refuses what JSON.parse refuses, with its message and position: fixed and generated malformed texts', () => {
    const fixed = ['', ' ', '[', '{', '{"a":', '{"a"', '{"a" 1}', '{"a":1 "b"}', '{"a":1,}', '{,}', '[1,]', '[1 2]', '[1,2', '[}', '{]', '[1}', '{"a":1]', ']', '01', '-', '-a', '1.', '1.e5', '1e', '1e+', '[.5]', '[+1]', '[NaN]', '[Infinity]', 'tru', 'trux', '[tru]', 'nul', '"abc', '"\\', '"a\\x"', '"\\u12g4"', '"\\u12', '"a\u0001"', '"\t"', '1 2', '{"a":1}}', '{"a":1,"b"5}', '{"a":1,"b""c"}', '{"a":1,"b" x}', '{"a":1,"b"', 'undefined', 'NaN', '\u00a0[]', '{"a":1, b}'];
    const random = seeded(5);
    const generated: string[] = [];
    for (let round = 0; round < 3000; round++) {
      const text = randomJsonText(random);
      const at = Math.floor(random() * (text.length + 1));
      const mutation = Math.floor(random() * 3);
      const junk = JUNK[Math.floor(random() * JUNK.length)]!;
      if (mutation === 0) generated.push(text.slice(0, at));
      else if (mutation === 1) generated.push(text.slice(0, at) + junk + text.slice(at));
      else generated.push(text.slice(0, at) + junk + text.slice(at + 1));
    }
    let malformed = 0;
    for (const text of [...fixed, ...generated]) {
      const expected = errorOf(() => JSON.parse(text));
      expect(errorOf(() => parseInSlices(text, 3, 5)), JSON.stringify(text)).to.equal(expected);
      if (expected !== undefined) malformed++;
    }
    expect(malformed, 'malformed texts among the generated').to.be.above(2000);
  });

  it('parses no more than a slice\'s tokens and characters in one step, in as many steps as the text needs (n vs 4n values)', () => {
    const slices = (count: number) => {
      const text = `{"schema":{"type":"object","properties":{${Array.from({ length: count }, (_, i) => `"p${i}":{"type":"string","enum":[1,-0.5,true,null,"\\u0041"]}`).join(',')}}}}`;
      const parser = new PacedJsonParser(text);
      let steps = 0;
      let mostTokens = 0;
      let mostChars = 0;
      for (;;) {
        const [tokens, position] = [parser.tokens, parser.position];
        const done = parser.step(1000, 16 * 1024);
        steps++;
        mostTokens = Math.max(mostTokens, parser.tokens - tokens);
        mostChars = Math.max(mostChars, parser.position - position);
        if (done) break;
      }
      expect(difference(parser.value, JSON.parse(text))).to.equal('');
      return { steps, mostTokens, mostChars, tokens: parser.tokens };
    };
    const small = slices(20_000);
    const large = slices(80_000);
    for (const run of [small, large]) {
      expect(run.mostTokens).to.be.at.most(1000);
      // a slice stops at the first token boundary past its characters: one short value over
      expect(run.mostChars).to.be.at.most(16 * 1024 + 64);
    }
    expect(large.tokens / small.tokens).to.be.within(3.9, 4.1);
    expect(large.steps / small.steps).to.be.within(3.5, 4.5);
  });

  it('reads a long string across slices, escapes and all, no slice reading more than its characters', () => {
    const body = 'Total due \\u00e9\\n\\"quoted\\" \\\\ '.repeat(20_000);
    const text = `["${body}"]`;
    const parser = new PacedJsonParser(text);
    let mostChars = 0;
    let steps = 0;
    for (;;) {
      const position = parser.position;
      const done = parser.step(1000, 10_000);
      steps++;
      mostChars = Math.max(mostChars, parser.position - position);
      if (done) break;
    }
    expect(mostChars).to.be.at.most(10_000 + 6);
    expect(steps).to.be.above(text.length / 10_006);
    expect(parser.value).to.deep.equal(JSON.parse(text));
  });

  it('counts each escape in a string as ESCAPE_WEIGHT characters of a slice: a run of escapes takes steps in proportion (n vs 4n)', () => {
    const maxChars = 64 * 1024;
    const escapesPerStep = maxChars / ESCAPE_WEIGHT;
    const run = (escapes: number) => {
      const text = `{"data":"${'\\n'.repeat(escapes)}AAAA"}`;
      const parser = new PacedJsonParser(text);
      let steps = 0;
      let mostChars = 0;
      for (;;) {
        const position = parser.position;
        const done = parser.step(1000, maxChars);
        steps++;
        mostChars = Math.max(mostChars, parser.position - position);
        if (done) break;
      }
      expect((parser.value as { data: string }).data).to.equal(`${'\n'.repeat(escapes)}AAAA`);
      return { steps, mostChars };
    };
    const small = run(50_000);
    const large = run(200_000);
    for (const { mostChars } of [small, large]) expect(mostChars, 'characters read in one step').to.be.at.most(2 * (escapesPerStep + 1) + 16);
    expect(small.steps).to.be.at.least(50_000 / (escapesPerStep + 1));
    expect(large.steps / small.steps).to.be.within(3.8, 4.2);
  });

  it('counts the end of each container as work: deep nesting closes in steps in proportion (n vs 4n), none reading more than its tokens', () => {
    const run = (depth: number, open: string, close: string) => {
      const text = `${open.repeat(depth)}1${close.repeat(depth)}`;
      const parser = new PacedJsonParser(text);
      let steps = 0;
      let mostChars = 0;
      for (;;) {
        const position = parser.position;
        const done = parser.step(1000, 1024 * 1024);
        steps++;
        mostChars = Math.max(mostChars, parser.position - position);
        if (done) break;
      }
      return { steps, mostChars, value: parser.value };
    };
    for (const [open, close] of [['[', ']'], ['{"a":', '}']] as const) {
      const small = run(50_000, open, close);
      const large = run(200_000, open, close);
      // 1,000 tokens of a step: no more than 1,000 openings or closings, a few characters each
      for (const { mostChars } of [small, large]) expect(mostChars, `characters read in one step of ${open}...${close}`).to.be.at.most(1000 * open.length + 8);
      expect(large.steps / small.steps).to.be.within(3.8, 4.2);
    }
  });

  it('takes an object of maxKeys keys and refuses one more, at that key, wherever the object is', () => {
    const object = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"k${i}":[${i}]`).join(',')}}`;
    const atLimit = `{"a":[1,${object(1000)}],"b":${object(1000)}}`;
    expect(difference(runSync(pacedJsonParse(atLimit, 1000, 64)), JSON.parse(atLimit))).to.equal('');
    for (const text of [`{"a":[1,${object(1001)}]}`, `[${object(1001)}]`, object(1001)]) {
      let refused: unknown;
      try {
        runSync(pacedJsonParse(text, 1000, 64));
      } catch (error) {
        refused = error;
      }
      expect(refused, text.slice(0, 40)).to.be.instanceOf(JsonWidthError);
      const at = text.indexOf('"k1000"');
      expect((refused as JsonWidthError).position).to.equal(at);
      expect((refused as Error).message).to.equal(`an object has more than 1000 keys (at position ${at})`);
    }
  });
});
