/** How business names look: legal-form suffixes and registration numbers printed next to them. */

export const COMPANY_SUFFIX = /\b(?:ltd|limited|inc|incorporated|llc|llp|gmbh|sdn|bhd|plc|corp|corporation|co|company|pty|s\.?a|s\.?r\.?l|b\.?v|ag|kg|ohg|enterprise|enterprises|trading|holdings|group|restaurant|cafe|café|store|stores|mart|market|supermarket|hotel|bakery|pharmacy|shop|industries|services)\b\.?/i;

// a bracket with digits "(123456-X)"; a bare "862725-U" after the name; "Co. Reg. No ..." and what follows
const REGISTRATION_TAIL = /\s*(?:\((?=[^()]*\d)[^()]*\)|\b\d{4,}-[A-Z]\b|\b(?:co\.?\s*reg(?:istration)?|reg(?:istration)?\.?\s*no|company\s*(?:no|reg)|gst\s*(?:id|no|reg)|roc|ssm)\b.*)\s*$/i;

/** "ACME SDN BHD (123456-X)" -> "ACME SDN BHD". */
export function stripRegistration(text: string): string {
  let stripped = text;
  for (let i = 0; i < 3 && REGISTRATION_TAIL.test(stripped); i++) stripped = stripped.replace(REGISTRATION_TAIL, '');
  return stripped.trim();
}

/** A line that is only a registration number, e.g. "(Co. No. 113825-W)". */
export function isRegistrationOnly(text: string): boolean {
  return text.trim() !== '' && stripRegistration(text) === '';
}

/**
 * Whether the caller's examples of a name carry a legal form: "(e.g. 'MR D.I.Y.
 * (JOHOR) SDN BHD')" asks for the registered name, "(e.g. 'COSTCO', 'Joe's
 * Diner')" for the trading name printed as the header. undefined without examples.
 */
export function examplesHaveLegalForm(description: string): boolean | undefined {
  const examples = [...description.matchAll(/['"‘“]([^'"’”]{2,60})['"’”]/g)].map((m) => m[1]!);
  if (examples.length === 0) return undefined;
  return examples.some((example) => LEGAL_FORM.test(example));
}

/** Legal forms only (not trade words such as "Store" or "Restaurant"). */
const LEGAL_FORM = /\b(?:ltd|limited|inc|incorporated|llc|llp|gmbh|sdn|bhd|plc|corp|corporation|pty|s\.?a|s\.?r\.?l|b\.?v|ag|kg|co)\b\.?/i;

/** A legal form or a connector no name opens with, after any bracketed words ("(M) SDN BHD", "(SEMENYIH) SDN BHD"). */
const OPENS_CUT = /^(?:\([^()]*\)\s*)*(?:[&+,;/\-–]|(?:and|of|co|sdn|bhd|ltd|limited|inc|llc|llp|plc|pty|corp|gmbh)\b)/i;

/** A name cut from the line above: it opens with a legal form or connector, or closes a bracket it did not open ("ALAM) SDN BHD"). */
export function opensCut(text: string): boolean {
  const trimmed = text.trim();
  const closesFirst = (trimmed.match(/\)/g) ?? []).length > (trimmed.match(/\(/g) ?? []).length;
  return OPENS_CUT.test(trimmed) || closesFirst;
}
