import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { CONFIGURATION_PAGE, configurationPage } from '../../scripts/docs-config/page.js';
import { parseExtractArgs } from '../../src/cli/args.js';
import { loadConfig, SETTINGS } from '../../src/config.js';

// dist/test/docs/ -> the repository's root (the TypeScript sources and the committed page)
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SRC = join(ROOT, 'src');

/** Names of environment variables a source reads by name: `process.env.X`, `env.X`, `env['X']`. */
function variablesRead(source: string): string[] {
  const patterns = [/\benv\??\.([A-Z][A-Z0-9_]*)\b/g, /\benv\??\.?\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\]/g];
  return [...new Set(patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]!)))];
}

/** Where a source hands on the whole environment rather than reading a variable by name. */
function wholeEnvironmentUses(source: string): number {
  return [...source.matchAll(/\bprocess\.env\b(?!\??\.[A-Z]|\??\.?\[\s*['"`])/g)].length;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** An environment that notes every variable asked of it. */
function recording(values: Record<string, string> = {}): { env: Record<string, string | undefined>; asked: Set<string> } {
  const asked = new Set<string>();
  const env = new Proxy(values as Record<string, string | undefined>, {
    get(target, key) {
      if (typeof key === 'string') asked.add(key);
      return target[key as string];
    },
  });
  return { env, asked };
}

const documented = new Set(SETTINGS.all.map((setting) => setting.name));

describe('docs/configuration.md: every setting, made from the code', () => {
  it('is what `npm run docs:config` writes from SETTINGS (run it after changing a setting)', () => {
    const committed = readFileSync(join(ROOT, CONFIGURATION_PAGE), 'utf8');
    expect(committed === configurationPage(), 'docs/configuration.md differs from the settings: run `npm run docs:config`').to.equal(true);
  });

  it('has one row per setting, in the order of SETTINGS, none twice', () => {
    const rows = configurationPage()
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => /^\| `([A-Z][A-Z0-9_]*)`/.exec(line)?.[1]);
    expect(rows).to.deep.equal(SETTINGS.all.map((setting) => setting.name));
    expect(new Set(rows).size).to.equal(rows.length);
    expect(rows.length).to.be.greaterThan(70);
  });

  it('documents every variable a source under src/ reads by name', () => {
    const undocumented = sources(SRC).flatMap((path) => variablesRead(readFileSync(path, 'utf8')).filter((name) => !documented.has(name)).map((name) => `${relative(ROOT, path)}: ${name}`));
    expect(undocumented).to.deep.equal([]);
  });

  it('finds a variable read by name however it is written', () => {
    const sample = "const a = process.env.ALPHA; const b = env['BETA']?.trim(); const c = env?.[\"GAMMA\"]; const d = options.env.DELTA; const e = env.lower;";
    expect(variablesRead(sample)).to.deep.equal(['ALPHA', 'DELTA', 'BETA', 'GAMMA']);
    expect(wholeEnvironmentUses('f(process.env); g(process.env.X); h(process.env[name])')).to.equal(2);
  });

  it('hands the whole environment only to what reads it through SETTINGS (loadConfig, the command line)', () => {
    const handing = sources(SRC)
      .filter((path) => wholeEnvironmentUses(readFileSync(path, 'utf8')) > 0)
      .map((path) => relative(SRC, path));
    // A new file here reads variables some other way: read them through SETTINGS, or scan that way too.
    expect(handing.sort()).to.deep.equal(['cli/extract-command.ts', 'config.ts']);
  });

  it('lists only what docshape reads: loadConfig and the command line ask for every documented variable, and for no other', () => {
    const service = recording();
    loadConfig(service.env);
    const openai = recording({ EXTRACTOR: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:8081/v1' });
    loadConfig(openai.env);
    const cli = recording();
    parseExtractArgs(['--schema', 'schema.json', '--url', 'http://127.0.0.1:8080', 'invoice.pdf'], cli.env);
    const asked = new Set([...service.asked, ...openai.asked, ...cli.asked]);

    expect([...asked].filter((name) => !documented.has(name))).to.deep.equal([]);
    const readByDocshape = SETTINGS.all.filter((setting) => setting.readByDocshape).map((setting) => setting.name);
    expect(readByDocshape.filter((name) => !asked.has(name))).to.deep.equal([]);
  });

  it('says in each row, in one line, what the setting does now: no issue numbers, commit ids or measurements', () => {
    for (const setting of SETTINGS.all) {
      const text = `${setting.meaning} ${setting.shownDefault} ${setting.accepts ?? ''}`;
      expect(setting.meaning.trim(), setting.name).to.not.equal('');
      expect(text, setting.name).to.not.match(/\n/);
      expect(text, setting.name).to.not.match(/#\d|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b|\b(issue|commit|PR|bench|benchmark|measured|session)\b/i);
    }
  });
});
