/**
 * ODS: a page per sheet (table:table, its name in Page.part.sheet), a line
 * per row, each cell's place its reference ("B7"). A cell shows the text the
 * file stores for it (text:p, the value as formatted by the application),
 * except a date, which shows its office:date-value (ISO). Repeated rows and
 * columns (number-rows-repeated, number-columns-repeated: how ODF writes a
 * sheet's million empty rows) are skipped when empty and repeated when not,
 * word by word against MAX_WORDS. content.xml is parsed as it is inflated.
 */
import type { Page } from '../../document/document.js';
import { columnLetters } from './number-format.js';
import { openArchive, parsePart } from './office.js';
import { PageBuilder, type Cell, type WordAllowance } from './page-builder.js';
import { attribute } from './xml-stream.js';

/** The most rows and columns a sheet can have (LibreOffice's and Excel's limits): repeats past them are not expanded. */
const MAX_ROWS = 1_048_576;
const MAX_COLUMNS = 16_384;

/** A repeat count as written, at least 1. */
function repeats(value: string | undefined): number {
  const count = Number(value ?? '1');
  return Number.isFinite(count) && count >= 1 ? Math.floor(count) : 1;
}

export function readOds(bytes: Uint8Array, maxInflateBytes: number, allowance: WordAllowance): Page[] {
  const archive = openArchive(bytes, maxInflateBytes);
  const pages: Page[] = [];
  let builder: PageBuilder | undefined;
  let sheetName = '';
  let rowNumber = 0;
  let rowRepeats = 1;
  let row: Array<Cell | undefined> = [];
  let column = 0;
  let cell: { text: string; date?: string; repeats: number; paragraphs: number } | undefined;
  let tableDepth = 0;
  parsePart(archive, 'content.xml', {
    open(tag) {
      const name = tag.local ?? tag.name;
      if (name === 'table') {
        // a table inside a cell (rare) is read as the cell's text
        if (++tableDepth > 1) return;
        builder = new PageBuilder(allowance);
        sheetName = attribute(tag, 'name') ?? `Sheet${pages.length + 1}`;
        rowNumber = 0;
      } else if (tableDepth === 1 && name === 'table-row') {
        rowRepeats = repeats(attribute(tag, 'number-rows-repeated'));
        row = [];
        column = 0;
      } else if (tableDepth === 1 && (name === 'table-cell' || name === 'covered-table-cell')) {
        const type = attribute(tag, 'value-type');
        const date = type === 'date' ? attribute(tag, 'date-value')?.replace(/T00:00:00(\.0+)?$/, '') : undefined;
        cell = { text: '', repeats: repeats(attribute(tag, 'number-columns-repeated')), paragraphs: 0, ...(date ? { date } : {}) };
      } else if (cell && name === 'p' && cell.paragraphs++ > 0) cell.text += ' ';
      else if (cell && name === 's') cell.text += ' ';
    },
    text(text) {
      if (cell) cell.text += text;
    },
    close(tag) {
      const name = tag.local ?? tag.name;
      if (name === 'table') {
        if (--tableDepth > 0 || !builder) return;
        const page = builder.build(pages.length, { sheet: sheetName });
        if (page.lines.length > 0) pages.push(page);
        builder = undefined;
      } else if (tableDepth === 1 && (name === 'table-cell' || name === 'covered-table-cell') && cell) {
        const text = cell.date ?? cell.text;
        if (text.trim() === '') column += cell.repeats;
        else {
          for (let i = 0; i < cell.repeats && column < MAX_COLUMNS; i++) {
            column++;
            row[column - 1] = { text, place: { kind: 'cell', ref: `${columnLetters(column)}${rowNumber + 1}` } };
          }
        }
        cell = undefined;
      } else if (tableDepth === 1 && name === 'table-row') {
        const filled = row.some((entry) => entry !== undefined);
        if (!filled) rowNumber += rowRepeats;
        else {
          for (let i = 0; i < rowRepeats && rowNumber < MAX_ROWS; i++) {
            rowNumber++;
            builder?.row(row.map((entry) => entry && { text: entry.text, place: { kind: 'cell', ref: `${(entry.place as { ref: string }).ref.replace(/\d+$/, '')}${rowNumber}` } }));
          }
        }
      }
    },
  });
  return pages.length > 0 ? pages : [new PageBuilder(allowance).build(0)];
}
