/**
 * Turns loosely typed values (as printed on documents, or as a model wrote
 * them) into the JSON type a schema asks for. Every function returns null
 * when the value cannot be read as that type: a wrong guess is worse than none.
 */

/** Strings that mean "no value" whichever schema type was asked for. */
const NULL_WORDS = new Set([
  'null', 'undefined', 'n/a', 'n.a.', 'na', 'not found', 'not available', 'not stated',
  'not specified', 'not provided', 'not present', 'not applicable',
]);

export function isNullWord(text: string): boolean {
  const normalised = text.trim().toLowerCase();
  return normalised === '' || NULL_WORDS.has(normalised);
}

/** Up to 40 characters of words on each side (looksLikeNumberContext) and the digits. */
const MAX_NUMBER_TEXT = 128;

/** The digits may open with their decimal point (".78", "$.99"): read as 0.78, not 78. */
const NUMBER_IN_TEXT = /^([^\d]*?)([-+\u2212]?)\s*((?:[.,](?=\d))?\d(?:[\d.,'\u2019 \u00a0\u202f]*\d)?)\s*(-?)([^\d]*)$/;
const SCIENTIFIC = /^[-+]?(\d+\.?\d*|\.\d+)e[-+]?\d+$/i;
const SPACE_GROUPED = /^\d{1,3}(?:['\u2019 \u00a0\u202f]\d{3})+(?:[.,]\d+)?$/;

/**
 * Reads one number from text such as "1,234.56", "1.234,56", "RM 12.50",
 * "$60.44", "(12.00)" (negative), "12.50-" (negative), "20%". Text holding
 * two numbers ("2 x 14.50") is not a number.
 */
export function parseNumber(text: string): number | null {
  let source = text.trim();
  // a printed number with its currency and words is short; a longer text is none, and would cost the patterns below quadratic time
  if (source === '' || source.length > MAX_NUMBER_TEXT) return null;
  if (SCIENTIFIC.test(source)) return finiteOrNull(Number(source));
  let negative = false;
  const parenthesised = /^\((.*)\)$/.exec(source);
  if (parenthesised) {
    negative = true;
    source = parenthesised[1]!.trim();
  }
  const match = NUMBER_IN_TEXT.exec(source);
  if (!match) return null;
  const [, prefix = '', sign = '', digits = '', trailingMinus = '', suffix = ''] = match;
  if (/^\s*[-\u2212]|[-\u2212]\s*$/.test(prefix) || sign === '-' || sign === '\u2212' || trailingMinus === '-') negative = !negative;
  if (!looksLikeNumberContext(prefix) || !looksLikeNumberContext(suffix)) return null;
  const value = readDigits(digits);
  if (value === null) return null;
  return finiteOrNull(negative ? -value : value);
}

/** Words and symbols around a number are fine ("RM", "USD", "%", "kg"); a second number or a date is not. */
function looksLikeNumberContext(text: string): boolean {
  return !/[\d/]/.test(text) && text.length <= 40;
}

function readDigits(digits: string): number | null {
  let plain = /^[.,]/.test(digits) ? `0${digits}` : digits;
  if (/['\u2019 \u00a0\u202f]/.test(plain)) {
    if (!SPACE_GROUPED.test(plain)) return null;
    plain = plain.replace(/['\u2019 \u00a0\u202f]/g, '');
  }
  const lastDot = plain.lastIndexOf('.');
  const lastComma = plain.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const grouping = decimal === '.' ? ',' : '.';
    const [whole = '', fraction = ''] = plain.split(decimal);
    if (plain.split(decimal).length !== 2 || !isGrouped(whole, grouping) || fraction.includes(grouping)) return null;
    plain = `${whole.split(grouping).join('')}.${fraction}`;
  } else if (lastComma >= 0) {
    plain = readSingleSeparator(plain, ',');
  } else if (lastDot >= 0) {
    plain = readSingleSeparator(plain, '.');
  }
  if (!/^\d+(\.\d+)?$/.test(plain)) return null;
  return Number(plain);
}

/** "1,234,567" and "1.234.567" group thousands; one separator is a decimal point unless it groups exactly three digits with a comma. */
function readSingleSeparator(text: string, separator: ',' | '.'): string {
  const parts = text.split(separator);
  if (parts.length > 2) return isGrouped(text, separator) ? parts.join('') : 'x';
  const [whole = '', fraction = ''] = parts;
  if (separator === ',' && fraction.length === 3 && whole.length <= 3 && whole !== '0') return whole + fraction;
  return `${whole}.${fraction}`;
}

function isGrouped(text: string, separator: string): boolean {
  const groups = text.split(separator);
  return groups.every((group, index) => (index === 0 ? /^\d{1,3}$/.test(group) : /^\d{3}$/.test(group)));
}

/** Overflowing numbers (1e400 is Infinity) are not values. */
export function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

export function parseInteger(text: string): number | null {
  const value = parseNumber(text);
  return value !== null && Number.isInteger(value) ? value : null;
}

const TRUE_WORDS = new Set(['true', 'yes', 'y', 't', 'x', 'checked', 'ticked', 'selected', 'on', '1', '\u2713', '\u2714', '\u2611', '\u2612', '[x]', 'oui', 'ja', 'si', 's\u00ed']);
const FALSE_WORDS = new Set(['false', 'no', 'n', 'f', 'unchecked', 'unticked', 'not selected', 'off', '0', '\u2610', '[ ]', '[]', 'non', 'nein']);

export function parseBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : null;
  if (typeof value !== 'string') return null;
  const normalised = value.trim().toLowerCase().replace(/[.!]$/, '');
  if (TRUE_WORDS.has(normalised)) return true;
  if (FALSE_WORDS.has(normalised)) return false;
  return null;
}

/** Case-, space- and punctuation-insensitive key: "Credit Card" and "credit_card" meet. */
export function enumKey(value: unknown): string {
  return String(value).normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** The allowed value the candidate means, or undefined when none (or several) match. */
export function matchEnum(value: unknown, allowed: readonly unknown[]): unknown {
  if (allowed.some((option) => option === value)) return value;
  if (value === null || typeof value === 'object') return undefined;
  if (typeof value === 'string') {
    const number = parseNumber(value);
    if (number !== null && allowed.includes(number)) return number;
  }
  const key = enumKey(value);
  if (key === '') return undefined;
  const matches = allowed.filter((option) => (typeof option === 'string' || typeof option === 'number') && enumKey(option) === key);
  return matches.length === 1 ? matches[0] : undefined;
}

/** A scalar (or list of scalars) as text; objects have no faithful text form. */
export function toText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const parts = value.map(toText).filter((part): part is string => part !== null);
    return parts.length > 0 ? parts.join(', ') : null;
  }
  return null;
}
