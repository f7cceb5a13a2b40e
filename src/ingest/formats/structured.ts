/**
 * XML that is no e-invoice, and JSON: each value a line "Label: value", the
 * label made of its element's or key's name ("InvoiceNumber" and
 * "invoice_number" both read "Invoice Number"), its place the element path
 * ("/Order/Line[2]/Price") or key path ("$.items[1].price"). A JSON array of
 * flat objects is a table, a row per object, a column per key. XML goes
 * through the safe SAX stream (no DTD; xml-stream.ts), JSON through the
 * paced parser (util/paced-json.ts: no recursion, any depth); the walks
 * here keep their own stacks.
 */
import type { Page } from '../../document/document.js';
import { pacedJsonParse } from '../../util/paced-json.js';
import { runSync } from '../../util/paced.js';
import { PageBuilder, type Cell, type WordAllowance } from './page-builder.js';
import { FormatProblem } from './problem.js';
import { decodeText } from './text-decoding.js';
import { SafeXmlStream } from './xml-stream.js';

/** "InvoiceNumber", "invoice_number", "invoice-number" -> "Invoice Number"-like words a label reads with. */
export function humanise(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').replace(/[_\-.]+/g, ' ').trim();
  return words.length > 0 ? words[0]!.toUpperCase() + words.slice(1) : name;
}

interface OpenElement {
  path: string;
  local: string;
  text: string;
  children: Map<string, number>;
}

export function readXml(bytes: Uint8Array, allowance: WordAllowance): Page[] {
  const builder = new PageBuilder(allowance);
  const stack: OpenElement[] = [];
  const stream = new SafeXmlStream('XML', {
    open(tag) {
      const parent = stack[stack.length - 1];
      const nth = (parent?.children.get(tag.name) ?? 0) + 1;
      parent?.children.set(tag.name, nth);
      const path = `${parent?.path ?? ''}/${tag.name}${nth > 1 ? `[${nth}]` : ''}`;
      stack.push({ path, local: tag.local ?? tag.name, text: '', children: new Map() });
      for (const value of Object.values(tag.attributes)) {
        if (value.prefix === 'xmlns' || value.name === 'xmlns' || value.value.trim() === '') continue;
        builder.labelled(`${humanise(tag.local ?? tag.name)} ${humanise(value.local)}`, value.value, { kind: 'path', path: `${path}/@${value.name}` });
      }
    },
    text(text) {
      const current = stack[stack.length - 1];
      if (current && current.text.length < 100_000) current.text += text;
    },
    close() {
      const element = stack.pop();
      if (element && element.text.trim() !== '') builder.labelled(humanise(element.local), element.text, { kind: 'path', path: element.path });
    },
  });
  const text = decodeText(bytes);
  for (let at = 0; at < text.length; at += 1 << 16) stream.write(text.slice(at, at + (1 << 16)));
  stream.close();
  return [builder.build(0)];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isFlatObject(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => v === null || typeof v !== 'object');
}

function keyPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

export function readJson(bytes: Uint8Array, allowance: WordAllowance): Page[] {
  let value: Json;
  try {
    value = runSync(pacedJsonParse(decodeText(bytes).replace(/^\uFEFF/, ''))) as Json;
  } catch (error) {
    // V8's message quotes the text around the fault: only its position is said back
    const position = error instanceof Error ? /position \d+/.exec(error.message)?.[0] : undefined;
    throw new FormatProblem(`it is not valid JSON${position ? ` (at ${position})` : ''}`);
  }
  const builder = new PageBuilder(allowance);
  // depth-first with an explicit stack, children in order
  const stack: Array<{ value: Json; path: string; label: string }> = [{ value, path: '$', label: '' }];
  while (stack.length > 0) {
    const { value: node, path, label } = stack.pop()!;
    if (node === null || typeof node !== 'object') {
      if (node !== null && String(node).trim() !== '') builder.labelled(label || 'Value', String(node), { kind: 'path', path });
      continue;
    }
    if (Array.isArray(node)) {
      if (node.length > 1 && node.every(isFlatObject)) {
        writeJsonTable(node, path, builder);
        continue;
      }
      for (let i = node.length - 1; i >= 0; i--) stack.push({ value: node[i]!, path: `${path}[${i}]`, label });
      continue;
    }
    const keys = Object.keys(node);
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: node[keys[i]!]!, path: keyPath(path, keys[i]!), label: humanise(keys[i]!) });
  }
  return [builder.build(0)];
}

/** An array of flat objects: a heading row of the keys, then a row per object. */
function writeJsonTable(rows: Array<{ [key: string]: Json }>, path: string, builder: PageBuilder): void {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  builder.gap();
  builder.row(keys.map((key): Cell => ({ text: humanise(key), place: { kind: 'path', path } })));
  rows.forEach((row, i) => builder.row(keys.map((key): Cell | undefined => (row[key] === null || row[key] === undefined ? undefined : { text: String(row[key]), place: { kind: 'path', path: keyPath(`${path}[${i}]`, key) } }))));
  builder.endTable();
}
