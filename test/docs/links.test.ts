/**
 * The user documentation stays usable: every relative link of README.md,
 * ARCHITECTURE.md, CHANGELOG.md and docs/*.md leads to a file (and its
 * `#anchor` to a heading of that file), README.md stays a five-minute read
 * (200 lines at most), and the pages a user reads carry no trace of how the
 * project was run: no issue reference ("#32", "issue 12") and no commit id.
 */
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// dist/test/docs/ -> the repository
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const README_MAX_LINES = 200;

function docsPages(): string[] {
  const dir = join(ROOT, 'docs');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name))
    .sort();
}

/** The pages a user reads: README.md, CHANGELOG.md and docs/. */
function userPages(): string[] {
  return ['README.md', 'CHANGELOG.md', ...docsPages()];
}

/** Every page whose links are checked. */
function linkedPages(): string[] {
  return ['README.md', 'ARCHITECTURE.md', 'CHANGELOG.md', ...docsPages()];
}

const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');

/** The text without fenced code blocks and inline code: links there are examples, not links. */
export function proseOf(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of inline links `[text](target)` and images, as written. */
export function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  for (const match of proseOf(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!);
  return targets;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, (character) => (character === '_' ? '_' : ''))
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a page's headings, repeated headings numbered as GitHub numbers them. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutCode = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
  for (const match of withoutCode.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = anchorOf(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** What is wrong with the relative links of one page: each as "page: target (why)". */
function brokenLinks(page: string): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(read(page))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
    const [path = '', anchor] = target.split('#', 2);
    const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURI(path));
    if (!relative(ROOT, file).split('/').every((part) => part !== '..')) {
      problems.push(`${page}: ${target} (outside the repository)`);
      continue;
    }
    if (!existsSync(file)) {
      problems.push(`${page}: ${target} (no such file)`);
      continue;
    }
    if (anchor === undefined || anchor === '' || !file.endsWith('.md') || statSync(file).isDirectory()) continue;
    if (!anchorsOf(readFileSync(file, 'utf8')).has(anchor)) problems.push(`${page}: ${target} (no heading #${anchor})`);
  }
  return problems;
}

/** Issue references ("#32", "issue 12", "issues 3 and 4") and commit ids (7 to 40 hex digits, letters and digits mixed). */
export function projectTraces(text: string): string[] {
  const traces: string[] = [];
  for (const match of text.matchAll(/(?<![\w&/#])#\d+\b/g)) traces.push(match[0]);
  for (const match of text.matchAll(/\b(?:issues?|pull request|PR)\s+#?\d+\b/gi)) traces.push(match[0]);
  for (const match of text.matchAll(/\b[0-9a-f]{7,40}\b/g)) {
    if (/[0-9]/.test(match[0]) && /[a-f]/.test(match[0])) traces.push(match[0]);
  }
  return traces;
}

describe('documentation', () => {
  it('has the README, the contributors\' map, the changelog and docs/', () => {
    for (const page of ['README.md', 'ARCHITECTURE.md', 'CHANGELOG.md', 'docs/inputs.md', 'docs/configuration.md']) expect(existsSync(join(ROOT, page)), page).to.equal(true);
  });

  it('every relative link leads to a file, and every #anchor to a heading', () => {
    expect(linkedPages().flatMap(brokenLinks)).to.deep.equal([]);
  });

  it(`README.md is at most ${README_MAX_LINES} lines`, () => {
    const lines = read('README.md').split('\n');
    if (lines.at(-1) === '') lines.pop();
    expect(lines.length).to.be.at.most(README_MAX_LINES);
  });

  it('README, CHANGELOG and docs/ name no issue and no commit', () => {
    const found = userPages().flatMap((page) => projectTraces(read(page)).map((trace) => `${page}: ${trace}`));
    expect(found).to.deep.equal([]);
  });

  describe('the checks themselves', () => {
    it('find links outside code and anchors as GitHub writes them', () => {
      expect(linkTargets('See [api](docs/api.md#errors) and `[x](no.md)`.\n```\n[y](nope.md)\n```\n')).to.deep.equal(['docs/api.md#errors']);
      expect([...anchorsOf('# docshape\n## The API: `POST /v1/`\n## Errors\n## Errors\n')]).to.deep.equal(['docshape', 'the-api-post-v1', 'errors', 'errors-1']);
    });

    it('tell issue references and commit ids from numbers, anchors and hashes', () => {
      expect(projectTraces('fixed in #32, see issue 12 and commit 74e5de4')).to.deep.equal(['#32', 'issue 12', '74e5de4']);
      expect(projectTraces('limit 52428800 bytes, [x](a.md#errors), &#123;, sha256 ' + 'ab12'.repeat(16) + ', deadbeef')).to.deep.equal([]);
    });
  });
});
