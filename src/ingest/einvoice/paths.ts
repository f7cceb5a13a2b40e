/**
 * The small path language of the term table (terms.ts): where a business
 * term sits in the XML, relative to its group's element.
 *
 *   step/step        child elements by local name (namespaces differ between
 *                    syntax versions; local names say enough)
 *   A|B              either name, in document order
 *   .  ..            the element itself, its parent
 *   @name            last step: an attribute of the element reached
 *   step[cond]       only the elements for which cond holds; cond is
 *                    `path` (it exists), `path='v'`, `path=('v','w')`,
 *                    `path=$BT-5` (the invoice's value of a term), or the
 *                    same with != ("none of the values is"; a missing node
 *                    or term counts as different). `path` is steps (with
 *                    alternatives) and may end in @name.
 *
 * A path selects every node it reaches, in document order (as XPath does),
 * not only the first element at each step: a term under the second of two
 * payment means is found. Work is linear in the children visited; a parent
 * with many children (an invoice's thousands of lines) is indexed by name
 * once.
 */
import type { XmlElement } from './xml.js';

/** A node a path reached: an element, or one of its attributes. */
export interface PathMatch {
  element: XmlElement;
  /** Set when the path ended in @name: the attribute's local name. */
  attribute?: string;
}

/** The value of a term read earlier (for `$BT-5` in a condition); undefined when the invoice has none. */
export type TermLookup = (term: string) => string | undefined;

interface Condition {
  path: CompiledPath;
  /** undefined: the path only has to exist. */
  op?: '=' | '!=';
  values?: string[];
  term?: string;
}

interface Step {
  /** Local names; '.' self, '..' parent. */
  names: string[];
  conditions: Condition[];
}

interface CompiledPath {
  steps: Step[];
  attribute?: string;
}

/** Paths of the table are compiled once. */
const compiled = new Map<string, CompiledPath>();

export function compilePath(path: string): CompiledPath {
  let found = compiled.get(path);
  if (!found) {
    found = parsePath(path);
    compiled.set(path, found);
  }
  return found;
}

/** Splits at `separator` outside brackets, parentheses and quotes. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") quoted = !quoted;
    else if (!quoted && (c === '[' || c === '(')) depth++;
    else if (!quoted && (c === ']' || c === ')')) depth--;
    else if (!quoted && depth === 0 && c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function parsePath(path: string): CompiledPath {
  const steps: Step[] = [];
  let attribute: string | undefined;
  const texts = splitTop(path, '/');
  texts.forEach((text, i) => {
    if (text.startsWith('@')) {
      if (i !== texts.length - 1) throw new Error(`path ${path}: an attribute ends a path`);
      attribute = text.slice(1);
      return;
    }
    const open = text.indexOf('[');
    const names = (open < 0 ? text : text.slice(0, open)).split('|');
    const conditions = open < 0 ? [] : conditionsOf(text.slice(open), path);
    if (names.some((name) => !/^(?:[A-Za-z_][\w.-]*|\.|\.\.)$/.test(name))) throw new Error(`path ${path}: bad step ${text}`);
    steps.push({ names, conditions });
  });
  return { steps, ...(attribute ? { attribute } : {}) };
}

function conditionsOf(text: string, path: string): Condition[] {
  const conditions: Condition[] = [];
  let rest = text;
  while (rest.length > 0) {
    if (!rest.startsWith('[')) throw new Error(`path ${path}: bad condition ${rest}`);
    let depth = 0;
    let quoted = false;
    let end = -1;
    for (let i = 0; i < rest.length && end < 0; i++) {
      const c = rest[i];
      if (c === "'") quoted = !quoted;
      else if (!quoted && c === '[') depth++;
      else if (!quoted && c === ']' && --depth === 0) end = i;
    }
    if (end < 0) throw new Error(`path ${path}: unclosed condition`);
    conditions.push(conditionOf(rest.slice(1, end), path));
    rest = rest.slice(end + 1);
  }
  return conditions;
}

function conditionOf(text: string, path: string): Condition {
  const match = /^(.*?)(!=|=)(.*)$/.exec(text);
  if (!match) return { path: parsePath(text.trim()) };
  const [, left, op, right] = match as unknown as [string, string, '=' | '!=', string];
  const value = right.trim();
  const condition: Condition = { path: parsePath(left.trim()), op };
  if (value.startsWith('$')) return { ...condition, term: value.slice(1) };
  const literals = /^\(?\s*('[^']*'(?:\s*,\s*'[^']*')*)\s*\)?$/.exec(value);
  if (!literals) throw new Error(`path ${path}: bad value ${value}`);
  return { ...condition, values: [...literals[1]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!) };
}

/** Parents with more children than this are indexed by name (an invoice's transaction with its lines). */
const INDEX_FROM = 32;

function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  if (!element.byName) {
    const index = new Map<string, XmlElement[]>();
    for (const c of element.children) {
      const list = index.get(c.local);
      if (list) list.push(c);
      else index.set(c.local, [c]);
    }
    element.byName = index;
  }
  return element.byName.get(name) ?? [];
}

function textOf(match: PathMatch): string | undefined {
  const raw = match.attribute === undefined ? match.element.text : match.element.attributes[match.attribute];
  return raw?.replace(/\s+/g, ' ').trim();
}

function holds(element: XmlElement, condition: Condition, lookup: TermLookup): boolean {
  const found: PathMatch[] = [];
  descend(element, condition.path, 0, lookup, found, condition.op ? Infinity : 1);
  if (!condition.op) return found.length > 0;
  const term = condition.term === undefined ? undefined : lookup(condition.term);
  const wanted = condition.term !== undefined ? (term === undefined ? [] : [term]) : condition.values!;
  const equal = found.some((match) => {
    const text = textOf(match);
    return text !== undefined && wanted.includes(text);
  });
  return condition.op === '=' ? equal : !equal;
}

/** Depth first from `node` at step `at`, children in document order (so the matches are in document order); stops at `limit` matches. */
function descend(node: XmlElement, path: CompiledPath, at: number, lookup: TermLookup, out: PathMatch[], limit: number): void {
  if (at === path.steps.length) {
    if (path.attribute === undefined) out.push({ element: node });
    else if (node.attributes[path.attribute] !== undefined) out.push({ element: node, attribute: path.attribute });
    return;
  }
  const step = path.steps[at]!;
  const visit = (reached: XmlElement) => {
    if (out.length < limit && step.conditions.every((condition) => holds(reached, condition, lookup))) descend(reached, path, at + 1, lookup, out, limit);
  };
  if (step.names.length === 1) {
    const name = step.names[0]!;
    if (name === '.') return visit(node);
    if (name === '..') return node.parent ? visit(node.parent) : undefined;
    if (node.children.length >= INDEX_FROM) {
      for (const reached of childrenNamed(node, name)) if (out.length < limit) visit(reached);
      return;
    }
    for (const reached of node.children) if (out.length < limit && reached.local === name) visit(reached);
    return;
  }
  for (const reached of node.children) if (out.length < limit && step.names.includes(reached.local)) visit(reached);
}

/** Every node `path` reaches from `context`, in document order; the first `limit` of them when given. */
export function select(context: XmlElement, path: string, lookup: TermLookup = () => undefined, limit = Infinity): PathMatch[] {
  const out: PathMatch[] = [];
  descend(context, compilePath(path), 0, lookup, out, limit);
  return out;
}

/** The text a node holds, white space collapsed; undefined when it holds none. */
export function matchText(match: PathMatch): string | undefined {
  const text = textOf(match);
  return text ? text : undefined;
}
