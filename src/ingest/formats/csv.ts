/**
 * text/csv and text/tab-separated-values: one table, a row per record, each
 * cell's place its record's line and its column. The delimiter is found
 * from the first lines (comma, semicolon, tab or pipe, quotes respected):
 * the one that splits them into the same number of fields; a semicolon file
 * whose numbers use a decimal comma ("12,50") is not split at the commas.
 * csv-parse (node-csv: RFC 4180, quotes across lines, a byte-order mark)
 * parses it record by record; no record may be longer than
 * MAX_RECORD_CHARS (a 50 MB line is a 400, not a 50 MB word).
 */
import { parse } from 'csv-parse/sync';
import type { Page } from '../../document/document.js';
import { PageBuilder, type WordAllowance } from './page-builder.js';
import { FormatProblem } from './problem.js';
import { decodeText } from './text-decoding.js';

/** Characters of one record: a wide spreadsheet row is some kilobytes. */
export const MAX_RECORD_CHARS = 1024 * 1024;
const DELIMITERS = [',', ';', '\t', '|'] as const;
const SAMPLE_LINES = 50;
const DECIMAL_COMMA = /^[-+]?(\d{1,3}(\.\d{3})+|\d+),\d+$/;

export interface CsvDialect {
  delimiter: string;
  /** Its numbers write a decimal comma ("1.234,56"). */
  decimalComma: boolean;
}

/** Fields of a line split at `delimiter` outside quotes. */
function fieldsOf(line: string, delimiter: string): string[] {
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === delimiter && !quoted) {
      fields.push(current);
      current = '';
    } else current += char;
  }
  fields.push(current);
  return fields.map((field) => field.trim());
}

/** The delimiter that splits the sample's lines most consistently into more than one field, and whether its numbers have decimal commas. */
export function detectDialect(text: string, tabSeparated: boolean): CsvDialect {
  const head = text.slice(0, 64 * 1024).split(/\r?\n|\r/);
  // the last line of a cut sample is cut too
  if (text.length > 64 * 1024 && head.length > 1) head.pop();
  const sample = head.filter((line) => line.trim() !== '').slice(0, SAMPLE_LINES);
  const decimalCommaIn = (delimiter: string) => sample.some((line) => fieldsOf(line, delimiter).some((field) => DECIMAL_COMMA.test(field)));
  if (tabSeparated) return { delimiter: '\t', decimalComma: decimalCommaIn('\t') };
  let best: { delimiter: string; score: number } = { delimiter: ',', score: 0 };
  for (const delimiter of DELIMITERS) {
    const counts = sample.map((line) => fieldsOf(line, delimiter).length);
    const modal = mode(counts);
    if (modal < 2) continue;
    // lines that agree with the usual count, weighted by how many fields it makes
    const agreeing = counts.filter((count) => count === modal).length / counts.length;
    let score = agreeing * 10 + Math.min(modal, 10) / 10;
    // a decimal comma makes commas appear in every line of a semicolon or tab file: there, the comma is no delimiter
    if (delimiter !== ',' && decimalCommaIn(delimiter)) score += 1;
    if (score > best.score) best = { delimiter, score };
  }
  return { delimiter: best.delimiter, decimalComma: best.delimiter !== ',' && decimalCommaIn(best.delimiter) };
}

function mode(values: number[]): number {
  const counts = new Map<number, number>();
  let best = 0;
  let bestCount = 0;
  for (const value of values) {
    const count = (counts.get(value) ?? 0) + 1;
    counts.set(value, count);
    if (count > bestCount || (count === bestCount && value > best)) [best, bestCount] = [value, count];
  }
  return best;
}

export function readCsv(bytes: Uint8Array, tabSeparated: boolean, allowance: WordAllowance): Page[] {
  const text = decodeText(bytes).replace(/^\uFEFF/, '');
  const dialect = detectDialect(text, tabSeparated);
  const builder = new PageBuilder(allowance);
  let nextLine = 1;
  try {
    parse(text, {
      delimiter: dialect.delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_CHARS,
      on_record: (record: string[], context) => {
        // the record started on the line after the last one's end (blank lines between are rare in data)
        const line = Math.min(nextLine, context.lines);
        nextLine = context.lines + 1;
        builder.row(record.map((value, i) => ({ text: value, place: { kind: 'line', line, column: i + 1 } })));
        return null;
      },
    });
  } catch (error) {
    if (error instanceof FormatProblem) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'CSV_MAX_RECORD_SIZE') throw new FormatProblem(`it has a record longer than ${MAX_RECORD_CHARS} characters (one CSV line of that size is no table)`);
    // csv-parse's messages quote the record; the caller gets its code only, no document text
    throw new FormatProblem(`it is not readable CSV (${code ?? 'parse error'})`);
  }
  return [builder.build(0)];
}
