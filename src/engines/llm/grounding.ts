/**
 * Finds values a model wrote that appear nowhere in the document text:
 * invented values. Decision (README "Values not in the document"): they are
 * replaced by null by default (LLM_UNGROUNDED=null), because the service
 * promises never to invent a value, and a null is easier for a caller to
 * handle than a plausible wrong one. Only free text and numbers are checked:
 * enum values, booleans and dates are legitimately rewritten by the model
 * (the schema or description asks for a form the document does not print).
 */
import type { JsonSchema } from '../../extract/schema.js';
import { viewSchema } from '../../extract/schema-view.js';
import { isSchemaObject, setOwn } from '../../extract/schema-walk.js';
import { looksLikeDateField } from './grounding-dates.js';

export interface GroundingResult {
  value: unknown;
  /** JSON pointers of the values that were not found. */
  ungrounded: string[];
}

/** Letters and digits only, lower case: "ACME  Corp." and "acme corp" compare equal. */
function squash(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]/gu, '');
}

export class DocumentText {
  private readonly letters: string;
  private readonly digits: string;

  constructor(text: string) {
    this.letters = squash(text);
    this.digits = text.replace(/\D/g, '');
  }

  containsText(value: string): boolean {
    const squashed = squash(value);
    if (squashed === '') return true;
    if (this.letters.includes(squashed)) return true;
    // a value put together from parts of the document (an address over several lines, reordered names)
    const words = value.split(/\s+/).map(squash).filter((w) => w.length > 0);
    const found = words.filter((w) => this.letters.includes(w)).length;
    return words.length > 1 && found / words.length >= 0.75;
  }

  /** 1234.5 is found in "1,234.50" and in "1.234,50", 0.15 in "15%": digits are compared without separators or outer zeros. */
  containsNumber(value: number): boolean {
    const digits = String(Math.abs(value)).replace(/e.*$/i, '').replace(/\D/g, '').replace(/^0+|0+$/g, '');
    return digits === '' || this.digits.includes(digits);
  }
}

export function checkGrounding(value: unknown, schema: JsonSchema, text: DocumentText, replace: boolean): GroundingResult {
  const ungrounded: string[] = [];
  const walk = (current: unknown, node: unknown, path: string, name = ''): unknown => {
    const view = viewSchema(node, schema);
    if (Array.isArray(current)) return current.map((item, index) => walk(item, view.items ?? true, `${path}/${index}`, name));
    if (isSchemaObject(current)) {
      const copy: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(current)) setOwn(copy, key, walk(child, view.properties[key] ?? true, `${path}/${key}`, key));
      return copy;
    }
    if (view.enumValues !== undefined || looksLikeDateField(view, name)) return current;
    const found = typeof current === 'string' ? text.containsText(current) : typeof current === 'number' ? text.containsNumber(current) : true;
    if (found) return current;
    ungrounded.push(path || '/');
    return replace ? null : current;
  };
  return { value: walk(value, schema, ''), ungrounded };
}
