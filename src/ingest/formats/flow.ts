/**
 * The running text of a word-processor or slide part (DOCX's document.xml,
 * a PPTX slide, ODT's content.xml) from its SAX events: a line per
 * paragraph, tables as rows of cells (a cell's paragraphs joined), in the
 * order the part writes them. The three formats differ only in element
 * names, given per format.
 */
import type { SaxesTagNS } from 'saxes';
import type { Cell, PageBuilder } from './page-builder.js';
import { attribute, type XmlHandlers } from './xml-stream.js';

export interface FlowNames {
  paragraph: ReadonlySet<string>;
  /** The element whose text is text (DOCX w:t, DrawingML a:t); undefined: all text inside a paragraph (ODF). */
  text?: string;
  /** A tab, a line break, ODF's run of spaces (<text:s text:c="3"/>). */
  tab: ReadonlySet<string>;
  lineBreak: ReadonlySet<string>;
  spaces?: string;
  table: string;
  row: string;
  cell: ReadonlySet<string>;
  /** Elements whose content is no text of the document: deleted text, field codes, the fallback copy of a text box. */
  skip: ReadonlySet<string>;
}

export const DOCX_NAMES: FlowNames = {
  paragraph: new Set(['p']),
  text: 't',
  tab: new Set(['tab', 'ptab']),
  lineBreak: new Set(['br', 'cr']),
  table: 'tbl',
  row: 'tr',
  cell: new Set(['tc']),
  // pPr/tabs hold tab stops, not tabs; Fallback repeats a text box that Choice already holds
  skip: new Set(['pPr', 'rPr', 'instrText', 'delText', 'Fallback', 'del']),
};

export const PPTX_NAMES: FlowNames = { ...DOCX_NAMES, paragraph: new Set(['p']), text: 't', skip: new Set(['pPr', 'rPr', 'Fallback']) };

export const ODF_NAMES: FlowNames = {
  paragraph: new Set(['p', 'h']),
  tab: new Set(['tab']),
  lineBreak: new Set(['line-break']),
  spaces: 's',
  table: 'table',
  row: 'table-row',
  cell: new Set(['table-cell', 'covered-table-cell']),
  skip: new Set(['annotation', 'tracked-changes', 'note-citation', 'bookmark-ref', 'soft-page-break']),
};

interface TableState {
  index: number;
  rows: number;
  row: Array<Cell | undefined> | undefined;
  cell: { text: string; column: number } | undefined;
}

/** Counters shared by the parts of one file (a DOCX's headers, body and footers), so that numbers run on. */
export interface FlowCounters {
  paragraphs: number;
  tables: number;
}

/** SAX handlers that write a part's paragraphs and tables onto `builder`; `part` names a header or footer in paragraph places. */
export function flowHandlers(builder: PageBuilder, names: FlowNames, counters: FlowCounters, part?: string): XmlHandlers {
  let paragraph: string | undefined;
  let inText = 0;
  let skipping = 0;
  const tables: TableState[] = [];
  const table = () => tables[tables.length - 1];
  const append = (text: string) => {
    const current = table();
    if (current?.cell) current.cell.text += text;
    else if (paragraph !== undefined) paragraph += text;
  };
  const endParagraph = () => {
    const text = paragraph;
    paragraph = undefined;
    const current = table();
    if (current?.cell) {
      current.cell.text += ' ';
      return;
    }
    if (text === undefined || text.trim() === '') return;
    counters.paragraphs++;
    const place = { kind: 'paragraph' as const, paragraph: counters.paragraphs, ...(part ? { part } : {}) };
    for (const line of text.split('\n')) builder.text(line, place);
  };
  return {
    open(tag: SaxesTagNS) {
      const local = tag.local ?? tag.name;
      if (names.skip.has(local)) skipping++;
      if (skipping > 0) return;
      const current = table();
      if (local === names.table) {
        if (paragraph !== undefined && !current?.cell) endParagraph();
        builder.endTable();
        tables.push({ index: ++counters.tables, rows: 0, row: undefined, cell: undefined });
      } else if (local === names.row && current) current.row = [];
      else if (names.cell.has(local) && current) {
        current.row ??= [];
        current.cell = { text: '', column: current.row.length + 1 };
      } else if (names.paragraph.has(local)) {
        // a paragraph inside one (a text box's) ends the text before it
        if (paragraph !== undefined && !current?.cell) endParagraph();
        paragraph = '';
      } else if (local === names.text) inText++;
      else if (names.tab.has(local)) append('\t');
      else if (names.lineBreak.has(local)) append(current?.cell ? ' ' : '\n');
      else if (local === names.spaces) append(' '.repeat(Math.min(100, Number(attribute(tag, 'c') ?? '1') || 1)));
    },
    text(text: string) {
      if (skipping > 0) return;
      if (names.text === undefined ? paragraph !== undefined || table()?.cell : inText > 0) append(text);
    },
    close(tag: SaxesTagNS) {
      const local = tag.local ?? tag.name;
      if (names.skip.has(local)) {
        skipping = Math.max(0, skipping - 1);
        return;
      }
      if (skipping > 0) return;
      const current = table();
      if (local === names.text) inText = Math.max(0, inText - 1);
      else if (names.paragraph.has(local)) endParagraph();
      else if (names.cell.has(local) && current?.cell && current.row) {
        current.row.push({ text: current.cell.text, place: { kind: 'table-cell', table: current.index, row: current.rows + 1, column: current.cell.column } });
        current.cell = undefined;
      } else if (local === names.row && current?.row) {
        if (current.row.some((cell) => cell && cell.text.trim() !== '')) {
          current.rows++;
          builder.row(current.row);
        }
        current.row = undefined;
      } else if (local === names.table && current) {
        tables.pop();
        builder.endTable();
      }
    },
  };
}
