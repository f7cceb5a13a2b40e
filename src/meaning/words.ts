/**
 * Words as the meaning layer and the rules engine compare them: split from
 * a property name (camelCase, snake_case, kebab-case, digits) or tokenised
 * from printed text, folded to lower case without accents, so that
 * "Rechnungs-Nr.", "RECHNUNGSNR" and "rechnungs_nr" meet.
 */

export interface Token {
  /** Lower case, accents removed. */
  norm: string;
  start: number;
  end: number;
}

/** Words (with an elided article: "d'échéance"), "N°" / "n.º" as one word, and the signs that label values. */
const TOKEN_PATTERN = /(?<![\p{L}\p{N}])[nN]\.?[°º]|[\p{L}\p{N}]+(?:['\u2019][\p{L}]+)?|[#%&@°º]/gu;

/** An elided article of French and Italian ("d'échéance", "l'avoir", "dell'ordine"): the word is what follows it. */
const ELISION = /^(?:d|l|qu|dell|all|nell|dall|sull)['\u2019](?=\p{L})/u;

export function normaliseWord(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(ELISION, '').replace(/^n\.?[°º]$/, 'no');
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    const start = match.index ?? 0;
    tokens.push({ norm: normaliseWord(match[0]), start, end: start + match[0].length });
  }
  return tokens;
}

/** A property name as words: "invoiceNumber", "invoice_number", "Invoice-Number", "HTMLParser2" -> ["invoice", "number"]... */
export function splitName(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // "HTMLParser" -> "HTML Parser"; (?<![A-Z]) starts at the run of capitals, which otherwise is rescanned from each capital (quadratic)
    .replace(/(?<![A-Z])([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}#]+/u)
    .filter(Boolean)
    .map(normaliseWord);
}
