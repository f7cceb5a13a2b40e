/**
 * XML bytes -> a small element tree, with saxes (a strict, streaming,
 * well-formedness-checking parser; jsdom parses XML with it). saxes never
 * reads a DTD: it expands only the five predefined entities and character
 * references, fetches nothing, and an entity the document declares itself is
 * "undefined". A document with a DOCTYPE is refused outright: no e-invoice
 * syntax has one, and it is how billion-laughs and external-entity attacks
 * come in. Work is linear in the input and bounded: the bytes (the caller's
 * limit), the depth, the number of elements and the text kept per element
 * (an e-invoice's values are short; an embedded base64 attachment is not kept).
 */
import { SaxesParser } from 'saxes';

export interface XmlElement {
  /** Qualified name as written ("ram:ID"). */
  name: string;
  local: string;
  /** Namespace URI ('' for none). */
  uri: string;
  /** Attributes by local name. */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (not its children's), trimmed; cut at MAX_TEXT_CHARS. */
  text: string;
  parent?: XmlElement;
  /** Memo of pathOf: the element's step ("ram:ID", "ram:Note[2]") and its whole path, set when first asked for. */
  step?: string;
  path?: string;
  /** Memo of childrenNamed (paths.ts) for a parent of many children: its children by local name. */
  byName?: Map<string, XmlElement[]>;
}

/** Why bytes are no usable XML: a message for the caller (400) or the log. */
export class XmlProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlProblem';
  }
}

/** Deeper than any e-invoice (UBL and CII nest some 10 levels). */
const MAX_DEPTH = 64;
/** Elements of one document: an invoice of 10,000 lines has some 300,000. */
const MAX_ELEMENTS = 1_000_000;
/**
 * Text kept per element: far more than any business term's value (a note of
 * a few pages), far less than an embedded attachment's base64, which is of
 * no use here; so a value is read whole, as written.
 */
const MAX_TEXT_CHARS = 65_536;
/** Characters handed to the parser at a time. */
const CHUNK_CHARS = 1 << 16;

/** The bytes as text: UTF-8 (with or without BOM) or UTF-16 with its BOM; the declaration's other encodings are refused. */
function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const declared = /^(?:\uFEFF|\xEF\xBB\xBF)?\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/.exec(head)?.[1]?.toLowerCase();
  if (declared && !['utf-8', 'utf8', 'us-ascii', 'ascii'].includes(declared)) {
    if (declared === 'iso-8859-1' || declared === 'latin1' || declared === 'windows-1252') return new TextDecoder('windows-1252').decode(bytes);
    throw new XmlProblem(`its encoding ${JSON.stringify(declared)} is not supported (UTF-8, UTF-16 or ISO-8859-1)`);
  }
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
}

/** The root element of well-formed XML, or XmlProblem saying what is wrong. */
export function parseXml(bytes: Uint8Array): XmlElement {
  let text: string;
  try {
    text = decodeText(bytes);
  } catch (error) {
    if (error instanceof XmlProblem) throw error;
    throw new XmlProblem('it is not valid UTF-8 text');
  }
  const parser = new SaxesParser({ xmlns: true, position: true });
  let root: XmlElement | undefined;
  let current: XmlElement | undefined;
  let depth = 0;
  let elements = 0;
  let failure: XmlProblem | undefined;
  const fail = (message: string): never => {
    failure ??= new XmlProblem(message);
    throw failure;
  };
  parser.on('doctype', () => fail('it declares a DTD (<!DOCTYPE>), which docshape does not read (no entities, no external references)'));
  parser.on('opentag', (tag) => {
    if (++depth > MAX_DEPTH) fail(`it nests elements more than ${MAX_DEPTH} deep`);
    if (++elements > MAX_ELEMENTS) fail(`it has more than ${MAX_ELEMENTS} elements`);
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) {
      if (typeof attribute === 'object' && attribute.prefix !== 'xmlns' && attribute.name !== 'xmlns') attributes[attribute.local] = attribute.value;
    }
    const element: XmlElement = { name: tag.name, local: tag.local ?? tag.name, uri: tag.uri ?? '', attributes, children: [], text: '', ...(current ? { parent: current } : {}) };
    if (current) current.children.push(element);
    else root = element;
    current = element;
  });
  const addText = (chunk: string) => {
    if (current && current.text.length < MAX_TEXT_CHARS) current.text += chunk.slice(0, MAX_TEXT_CHARS - current.text.length);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    if (current) current.text = current.text.trim();
    current = current?.parent;
    depth--;
  });
  parser.on('error', (error) => fail(shortMessage(error)));
  try {
    for (let at = 0; at < text.length; at += CHUNK_CHARS) parser.write(text.slice(at, at + CHUNK_CHARS));
    parser.close();
  } catch (error) {
    throw failure ?? new XmlProblem(shortMessage(error));
  }
  if (!root) throw new XmlProblem('it has no root element');
  return root;
}

/** saxes says "1:23: unexpected end"; the position helps, the rest of a long message does not. */
function shortMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = (message.split('\n')[0] ?? '').trim();
  return `it is not well-formed XML (${first.length > 160 ? `${first.slice(0, 157)}...` : first})`;
}

/** The steps of `parent`'s children, "name" or "name[n]" where siblings share the name; set once per parent. */
function setSteps(parent: XmlElement): void {
  const counts = new Map<string, number>();
  for (const c of parent.children) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  for (const c of parent.children) {
    const index = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, index);
    c.step = counts.get(c.name)! > 1 ? `${c.name}[${index}]` : c.name;
  }
}

/** "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID", with [n] where siblings share the name; kept on the element (an invoice's thousands of lines share their ancestors' paths). */
export function pathOf(element: XmlElement): string {
  if (element.path === undefined) {
    if (!element.parent) element.path = `/${element.name}`;
    else {
      if (element.step === undefined) setSteps(element.parent);
      element.path = `${pathOf(element.parent)}/${element.step!}`;
    }
  }
  return element.path;
}
