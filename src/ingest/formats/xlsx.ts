/**
 * XLSX: a page per sheet (in the workbook's order, Page.part.sheet its
 * name), a line per row, each cell's place its reference ("B7"). A cell
 * shows its cached value (a formula's last result, as the file stores it)
 * through its number format (number-format.ts): dates as dates. The sheet
 * XML is never held whole: it is inflated as a stream into the SAX parser,
 * a row at a time onto the page, and the words counted as they come
 * (MAX_WORDS stops a million-row sheet early, with a 400). Shared strings
 * and styles are read first, whole (they are what cells point into).
 */
import type { SaxesTagNS } from 'saxes';
import type { Page } from '../../document/document.js';
import { columnLetters, columnOf, formatCodeOf, formatNumber } from './number-format.js';
import { openArchive, parsePart, type OfficeArchive } from './office.js';
import { PageBuilder, type Cell, type WordAllowance } from './page-builder.js';
import { FormatProblem } from './problem.js';
import { attribute } from './xml-stream.js';

interface Sheet {
  name: string;
  part: string;
}

interface Workbook {
  sheets: Sheet[];
  date1904: boolean;
  strings: string[];
  /** Per cell style (the `s` of a cell), its number format code. */
  formats: string[];
}

const local = (tag: SaxesTagNS) => tag.local ?? tag.name;

/**
 * The most rows and columns a sheet can have (Excel's own limits): a sheet
 * XML of millions of empty <row/> (a 230 KB file inflating to 100 MB of
 * them cost the SAX parser ~9 s of CPU) ends at the millionth.
 */
const MAX_ROWS = 1_048_576;
const MAX_COLUMNS = 16_384;

/** A relationship target relative to xl/ (or absolute from the package root) as a part name. */
function partName(target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = `xl/${target}`.split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.') out.push(part);
  }
  return out.join('/');
}

function readWorkbook(archive: OfficeArchive): Workbook {
  const declared: Array<{ name: string; id: string }> = [];
  let date1904 = false;
  parsePart(archive, 'xl/workbook.xml', {
    open(tag) {
      if (local(tag) === 'sheet') declared.push({ name: attribute(tag, 'name') ?? `Sheet${declared.length + 1}`, id: attribute(tag, 'id', 'r') ?? '' });
      if (local(tag) === 'workbookPr') date1904 = ['1', 'true'].includes(attribute(tag, 'date1904') ?? '');
    },
  });
  const targets = new Map<string, string>();
  if (archive.entries.has('xl/_rels/workbook.xml.rels')) {
    parsePart(archive, 'xl/_rels/workbook.xml.rels', {
      open(tag) {
        if (local(tag) === 'Relationship') targets.set(attribute(tag, 'Id') ?? '', partName(attribute(tag, 'Target') ?? ''));
      },
    });
  }
  const sheets = declared.map((sheet, i) => ({ name: sheet.name, part: targets.get(sheet.id) ?? `xl/worksheets/sheet${i + 1}.xml` })).filter((sheet) => archive.entries.has(sheet.part));
  return { sheets, date1904, strings: readSharedStrings(archive), formats: readStyles(archive) };
}

/** Each <si>'s text: its runs' <t>, without phonetic guides (<rPh>). */
function readSharedStrings(archive: OfficeArchive): string[] {
  const strings: string[] = [];
  if (!archive.entries.has('xl/sharedStrings.xml')) return strings;
  let current: string | undefined;
  let inText = false;
  let phonetic = 0;
  parsePart(archive, 'xl/sharedStrings.xml', {
    open(tag) {
      const name = local(tag);
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't') inText = true;
    },
    text(text) {
      if (inText && phonetic === 0 && current !== undefined) current += text;
    },
    close(tag) {
      const name = local(tag);
      if (name === 'si') {
        strings.push(current ?? '');
        current = undefined;
      } else if (name === 'rPh') phonetic--;
      else if (name === 't') inText = false;
    },
  });
  return strings;
}

/** Per cellXfs entry, its number format's code. */
function readStyles(archive: OfficeArchive): string[] {
  if (!archive.entries.has('xl/styles.xml')) return [];
  const custom = new Map<number, string>();
  const ids: number[] = [];
  let inCellXfs = false;
  parsePart(archive, 'xl/styles.xml', {
    open(tag) {
      const name = local(tag);
      if (name === 'numFmt') custom.set(Number(attribute(tag, 'numFmtId')), attribute(tag, 'formatCode') ?? 'General');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) ids.push(Number(attribute(tag, 'numFmtId') ?? '0'));
    },
    close(tag) {
      if (local(tag) === 'cellXfs') inCellXfs = false;
    },
  });
  return ids.map((id) => formatCodeOf(id, custom));
}

interface OpenCell {
  ref: string;
  type: string;
  style: number;
  value: string;
  inline: string;
}

/** A cell's text as the sheet shows it. */
function shownValue(cell: OpenCell, workbook: Workbook): string {
  switch (cell.type) {
    case 's':
      return workbook.strings[Number(cell.value)] ?? '';
    case 'inlineStr':
      return cell.inline;
    case 'str':
    case 'e':
      return cell.value;
    case 'b':
      return cell.value === '1' ? 'TRUE' : 'FALSE';
    case 'd':
      return cell.value.replace(/T00:00:00(\.0+)?Z?$/, '');
    default: {
      if (cell.value.trim() === '') return '';
      const number = Number(cell.value);
      return Number.isNaN(number) ? cell.value : formatNumber(number, workbook.formats[cell.style] ?? 'General', workbook.date1904);
    }
  }
}

function readSheet(archive: OfficeArchive, sheet: Sheet, workbook: Workbook, index: number, allowance: WordAllowance): Page {
  const builder = new PageBuilder(allowance);
  let row: Array<Cell | undefined> = [];
  let rowNumber = 0;
  let cell: OpenCell | undefined;
  let into: 'value' | 'inline' | undefined;
  let column = 0;
  parsePart(archive, sheet.part, {
    open(tag) {
      const name = local(tag);
      if (name === 'row') {
        rowNumber = Number(attribute(tag, 'r') ?? rowNumber + 1);
        if (!(rowNumber <= MAX_ROWS)) throw new FormatProblem(`its sheet ${JSON.stringify(sheet.name)} has rows past ${MAX_ROWS}, the most a sheet can have`);
        row = [];
        column = 0;
      } else if (name === 'c') {
        const ref = attribute(tag, 'r');
        column = ref ? columnOf(ref) : column + 1;
        if (!(column >= 1 && column <= MAX_COLUMNS)) throw new FormatProblem(`its sheet ${JSON.stringify(sheet.name)} has a cell past column ${MAX_COLUMNS}, the most a sheet can have`);
        cell = { ref: ref ?? '', type: attribute(tag, 't') ?? 'n', style: Number(attribute(tag, 's') ?? '0'), value: '', inline: '' };
      } else if (cell && name === 'v') into = 'value';
      else if (cell && name === 't') into = 'inline';
    },
    text(text) {
      if (!cell || !into) return;
      if (into === 'value') cell.value += text;
      else cell.inline += text;
    },
    close(tag) {
      const name = local(tag);
      if (name === 'v' || name === 't') into = undefined;
      else if (name === 'c' && cell) {
        const text = shownValue(cell, workbook);
        const ref = cell.ref || `${columnLetters(column)}${rowNumber}`;
        if (text.trim() !== '') row[column - 1] = { text, place: { kind: 'cell', ref } };
        cell = undefined;
      } else if (name === 'row') {
        builder.row(row);
        row = [];
      }
    },
  });
  return builder.build(index, { sheet: sheet.name });
}

export function readXlsx(bytes: Uint8Array, maxInflateBytes: number, allowance: WordAllowance): Page[] {
  const archive = openArchive(bytes, maxInflateBytes);
  const workbook = readWorkbook(archive);
  if (workbook.sheets.length === 0) throw new FormatProblem('its workbook lists no sheet');
  const pages = workbook.sheets.map((sheet) => readSheet(archive, sheet, workbook, 0, allowance)).filter((page) => page.lines.length > 0);
  return pages.length > 0 ? pages.map((page, index) => ({ ...page, index })) : [{ ...new PageBuilder(allowance).build(0), part: { sheet: workbook.sheets[0]!.name } }];
}
