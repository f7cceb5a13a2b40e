/**
 * Reads a model's answer into a value, and says what was wrong with it:
 * nothing at all (thinking models with a format set), prose or fences around
 * the JSON, JSON cut off by the output limit (salvaged up to the last
 * complete value), numbers JSON.parse turns into Infinity (1e400) or that
 * lose their digits.
 */
import { setOwn } from '../../schema/schema-walk.js';

export type AnswerKind = 'ok' | 'empty' | 'unparseable' | 'salvaged';

export interface ParsedAnswer {
  kind: AnswerKind;
  value: unknown;
  /** Problems to tell the model on a retry, as "path: what". */
  problems: string[];
}

const MAX_SALVAGE_ATTEMPTS = 200;

export function parseAnswer(content: string): ParsedAnswer {
  const text = extractJsonText(content);
  if (text === '') return { kind: 'empty', value: undefined, problems: ['the answer was empty; answer with the JSON object'] };
  let value: unknown;
  let kind: AnswerKind = 'ok';
  try {
    value = JSON.parse(text);
  } catch (error) {
    value = salvageTruncated(text);
    if (value === undefined) {
      return { kind: 'unparseable', value: undefined, problems: [`the answer is not valid JSON${where(error)}`] };
    }
    kind = 'salvaged';
  }
  const problems: string[] = kind === 'salvaged' ? ['the answer was cut off before the JSON object was complete; answer with the complete object'] : [];
  value = replaceUnusableNumbers(value, '', problems);
  return { kind, value, problems };
}

/**
 * Where JSON.parse gave up, without its quote of the text: problems end up in
 * the details of a 500, and the model's answer holds document content.
 */
function where(error: unknown): string {
  const position = /at position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  return position === undefined ? '' : ` (from character ${position} on)`;
}

/** Drops thinking blocks, code fences and text around the outermost object. */
function extractJsonText(content: string): string {
  let text = content.replace(/<think>[\s\S]*?(<\/think>|$)/gi, '').trim();
  const fenced = /```(?:json)?\s*([\s\S]*?)(```|$)/i.exec(text);
  if (fenced) text = fenced[1]!.trim();
  const start = text.indexOf('{');
  if (start < 0) return text;
  const end = text.lastIndexOf('}');
  // an unclosed object keeps its tail, for salvage
  return end > start && isBalanced(text.slice(start, end + 1)) ? text.slice(start, end + 1) : text.slice(start);
}

function isBalanced(text: string): boolean {
  return scan(text).stack.length === 0;
}

interface Cut {
  at: number;
  closers: string;
}

interface ScanResult {
  stack: string[];
  cuts: Cut[];
}

/** Walks JSON text outside strings, noting where it could be cut and closed again. */
function scan(text: string): ScanResult {
  const stack: string[] = [];
  const cuts: Cut[] = [];
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') {
      stack.push(ch === '{' ? '}' : ']');
      // an opened list may be closed empty; an opened inner object would only leave an empty {} behind
      if (ch === '[' || stack.length === 1) cuts.push({ at: i + 1, closers: [...stack].reverse().join('') });
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      if (stack.length > 0) cuts.push({ at: i + 1, closers: [...stack].reverse().join('') });
    } else if (ch === ',') {
      cuts.push({ at: i, closers: [...stack].reverse().join('') });
    }
  }
  return { stack, cuts };
}

/** The longest prefix that ends after a complete value, closed; undefined when nothing usable is left. */
function salvageTruncated(text: string): unknown {
  const { cuts } = scan(text);
  for (let n = cuts.length - 1, tries = 0; n >= 0 && tries < MAX_SALVAGE_ATTEMPTS; n--, tries++) {
    const cut = cuts[n]!;
    try {
      const value = JSON.parse(text.slice(0, cut.at) + cut.closers);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
    } catch {
      // try a shorter prefix
    }
  }
  return undefined;
}

function replaceUnusableNumbers(value: unknown, path: string, problems: string[]): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      problems.push(`${path || '/'}: a number too large to represent; write the number as printed in the document, or null`);
      return null;
    }
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      problems.push(`${path || '/'}: ${value} has more digits than a number can hold exactly; use null unless the schema wants text`);
      return null;
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((item, index) => replaceUnusableNumbers(item, `${path}/${index}`, problems));
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      setOwn(value as Record<string, unknown>, key, replaceUnusableNumbers(child, `${path}/${key}`, problems));
    }
  }
  return value;
}
