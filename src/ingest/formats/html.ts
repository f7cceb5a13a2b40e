/**
 * text/html: the text in reading order, a line per block (paragraph,
 * heading, list item, line break), each table as rows and cells (a table
 * inside a table ends the outer one's rows so far and is laid out on its
 * own: e-mails nest layout tables). htmlparser2 (the tokenizer and parser
 * under cheerio; entities decoded, no DOM built) calls back per tag; nothing
 * here recurses. Its open-element stack costs time in proportion to its
 * depth per tag (100,000 nested tags took it 10-44 s), so elements nested
 * deeper than MAX_HTML_DEPTH end the reading with a 400: real pages nest
 * some 10-40 deep.
 */
import { Parser } from 'htmlparser2';
import type { Page } from '../../document/document.js';
import { PageBuilder, collapse, type Cell, type WordAllowance } from './page-builder.js';
import { FormatProblem } from './problem.js';
import { decodeText } from './text-decoding.js';

export const MAX_HTML_DEPTH = 1000;

const SKIPPED = new Set(['script', 'style', 'head', 'title', 'noscript', 'template', 'svg', 'math', 'object', 'iframe']);
const BLOCKS = new Set([
  'p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'section', 'article', 'header', 'footer', 'main', 'nav', 'aside',
  'address', 'blockquote', 'pre', 'form', 'fieldset', 'figure', 'figcaption', 'caption', 'hr', 'body', 'html', 'center', 'table',
]);
const GAP_BEFORE = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table']);

interface OpenTable {
  index: number;
  rows: number;
  row: Array<Cell | undefined> | undefined;
  cell: { text: string; column: number } | undefined;
}

/** Writes an HTML document's text onto `builder`. */
export function writeHtml(html: string, builder: PageBuilder): void {
  let paragraph = '';
  let paragraphs = 0;
  let tables = 0;
  let depth = 0;
  let skipping = 0;
  let preformatted = 0;
  const open: OpenTable[] = [];
  const flush = () => {
    const text = preformatted > 0 ? paragraph : collapse(paragraph);
    paragraph = '';
    if (text.trim() === '') return;
    paragraphs++;
    for (const line of text.split('\n')) builder.text(preformatted > 0 ? line : line.trim(), { kind: 'paragraph', paragraph: paragraphs });
  };
  const table = () => open[open.length - 1];
  const parser = new Parser(
    {
      onopentag(name) {
        if (++depth > MAX_HTML_DEPTH) throw new FormatProblem(`it nests elements more than ${MAX_HTML_DEPTH} deep`);
        if (SKIPPED.has(name)) skipping++;
        if (skipping > 0) return;
        const current = table();
        if (name === 'br') {
          if (current?.cell) current.cell.text += ' ';
          else if (preformatted > 0) paragraph += '\n';
          else flush();
          return;
        }
        if (name === 'td' || name === 'th') {
          if (current) {
            current.row ??= [];
            current.cell = { text: '', column: current.row.length + 1 };
          }
          return;
        }
        if (name === 'tr') {
          if (current) current.row = [];
          return;
        }
        if (BLOCKS.has(name) && !current?.cell) flush();
        if (name === 'pre') preformatted++;
        if (GAP_BEFORE.has(name)) builder.gap();
        if (name === 'table') {
          // the rows of the table around it so far, laid out before this one's
          builder.endTable();
          open.push({ index: ++tables, rows: 0, row: undefined, cell: undefined });
        }
      },
      ontext(text) {
        if (skipping > 0) return;
        const current = table();
        if (current?.cell) current.cell.text += text;
        else paragraph += text;
      },
      onclosetag(name) {
        depth--;
        if (SKIPPED.has(name)) {
          skipping = Math.max(0, skipping - 1);
          return;
        }
        if (skipping > 0) return;
        const current = table();
        if ((name === 'td' || name === 'th') && current?.cell && current.row) {
          current.row.push({ text: current.cell.text, place: { kind: 'table-cell', table: current.index, row: current.rows + 1, column: current.cell.column } });
          current.cell = undefined;
        } else if (name === 'tr' && current?.row) {
          if (current.row.some((cell) => cell && cell.text.trim() !== '')) {
            current.rows++;
            builder.row(current.row);
          }
          current.row = undefined;
        } else if (name === 'table' && current) {
          open.pop();
          builder.endTable();
          builder.gap();
        } else if (BLOCKS.has(name) && !current?.cell) flush();
        if (name === 'pre') preformatted = Math.max(0, preformatted - 1);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
}

export function readHtml(bytes: Uint8Array, allowance: WordAllowance): Page[] {
  const builder = new PageBuilder(allowance);
  writeHtml(decodeText(bytes), builder);
  return [builder.build(0)];
}
