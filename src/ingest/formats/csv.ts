/**
 * text/csv and text/tab-separated-values: one table, a row per record, each
 * cell's place its record's line and its column. The delimiter is found
 * from the first lines (comma, semicolon, tab or pipe, quotes respected):
 * the one that splits them into the same number of fields; a semicolon file
 * whose numbers use a decimal comma ("12,50") is not split at the commas.
 * Records are read here, RFC 4180 (quoted fields across lines, doubled
 * quotes, a stray quote inside an unquoted field kept as text): csv-parse
 * read 1.2 MB/s of CPU on an invoice export, this some 20-40 times that.
 * No record may be longer than MAX_RECORD_CHARS (a 50 MB line is a 400,
 * not a 50 MB word).
 */
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

/**
 * Calls `onRecord` with each record's fields and the line it starts on;
 * blank lines are skipped. Linear: each character is looked at once, and a
 * field is cut out of the text with one slice (or built when it has doubled quotes).
 */
export function forEachRecord(text: string, delimiter: string, onRecord: (fields: string[], line: number) => void): void {
  const separator = delimiter.charCodeAt(0);
  let at = 0;
  let line = 1;
  while (at < text.length) {
    const start = at;
    const startLine = line;
    const fields: string[] = [];
    let ended = false;
    while (!ended) {
      let field: string;
      if (text.charCodeAt(at) === QUOTE) {
        // quoted: up to the closing quote, "" for a quote inside
        let value = '';
        let from = ++at;
        for (;;) {
          const close = text.indexOf('"', at);
          if (close < 0) {
            value += text.slice(from);
            at = text.length;
            break;
          }
          for (let k = at; k < close; k++) if (text.charCodeAt(k) === NEWLINE) line++;
          if (text.charCodeAt(close + 1) === QUOTE) {
            value += text.slice(from, close + 1);
            at = from = close + 2;
            continue;
          }
          value += text.slice(from, close);
          at = close + 1;
          break;
        }
        // anything after the closing quote up to the delimiter belongs to the field (relaxed, as spreadsheets write it)
        let end = at;
        while (end < text.length && !isFieldEnd(text.charCodeAt(end), separator)) end++;
        field = value + text.slice(at, end);
        at = end;
      } else {
        let end = at;
        while (end < text.length && !isFieldEnd(text.charCodeAt(end), separator)) end++;
        field = text.slice(at, end);
        at = end;
      }
      fields.push(field);
      if (at - start > MAX_RECORD_CHARS) throw new FormatProblem(`it has a record longer than ${MAX_RECORD_CHARS} characters (one CSV line of that size is no table)`);
      const code = text.charCodeAt(at);
      if (code === separator) at++;
      else {
        // a line end (\r\n, \n or \r) or the end of the text ends the record
        if (code === CARRIAGE_RETURN) at += text.charCodeAt(at + 1) === NEWLINE ? 2 : 1;
        else if (code === NEWLINE) at++;
        if (at > start) line++;
        ended = true;
      }
    }
    if (fields.length > 1 || fields[0]!.trim() !== '') onRecord(fields, startLine);
  }
}

const QUOTE = 0x22;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

function isFieldEnd(code: number, separator: number): boolean {
  return code === separator || code === NEWLINE || code === CARRIAGE_RETURN;
}

export function readCsv(bytes: Uint8Array, tabSeparated: boolean, allowance: WordAllowance): Page[] {
  const text = decodeText(bytes).replace(/^\uFEFF/, '');
  const dialect = detectDialect(text, tabSeparated);
  const builder = new PageBuilder(allowance);
  forEachRecord(text, dialect.delimiter, (fields, line) => builder.row(fields.map((value, i) => ({ text: value, place: { kind: 'line', line, column: i + 1 } }))));
  return [builder.build(0)];
}
