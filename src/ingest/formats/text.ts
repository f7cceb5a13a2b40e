/**
 * text/plain and text/markdown: each line of the file a line of the page at
 * its own columns (so text laid out in columns keeps them), a blank line a
 * gap; Markdown's heading marks and emphasis are dropped and its pipe tables
 * become table rows. Every line's place is its line number.
 */
import type { Page } from '../../document/document.js';
import { PageBuilder, type Cell, type WordAllowance } from './page-builder.js';
import { decodeText, linesOf } from './text-decoding.js';

const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

export function readText(bytes: Uint8Array, markdown: boolean, allowance: WordAllowance): Page[] {
  const builder = new PageBuilder(allowance);
  let number = 0;
  for (const raw of linesOf(decodeText(bytes).replace(/^\uFEFF/, ''))) {
    const line = ++number;
    if (raw.trim() === '') {
      builder.gap();
      continue;
    }
    if (markdown && raw.trimStart().startsWith('|')) {
      if (TABLE_SEPARATOR.test(raw)) continue;
      const cells = raw.trim().replace(/^\||\|$/g, '').split('|');
      builder.row(cells.map((text, i): Cell => ({ text: plainMarkdown(text), place: { kind: 'line', line, column: i + 1 } })));
      continue;
    }
    builder.text(markdown ? plainMarkdown(raw.replace(/^\s{0,3}#{1,6}\s+/, '')) : raw, { kind: 'line', line });
  }
  return [builder.build(0)];
}

/** Markdown's emphasis and code marks dropped: "**Total:** `76.20`" reads "Total: 76.20". */
function plainMarkdown(text: string): string {
  return text.replace(/(\*\*|__|`)/g, '');
}
