/**
 * Normalisation rules of the evaluation: how a predicted value and a ground
 * truth value are made comparable. The datasets' labels are re-typings with
 * inconsistent case, spacing and punctuation, amounts carry currency marks as
 * printed, and dates keep the printed format (see the dataset READMEs'
 * "Pitfalls"), so exact string match would measure typing style, not
 * extraction.
 */

/**
 * Comparison key of a string: NFKC, lower case, "&" spelled "and", and
 * everything that is not a letter, digit or combining mark dropped.
 *
 * Whitespace is removed entirely rather than collapsed: WildReceipt drops the
 * blanks inside a labelled box ("5800NorthgateDrive,Sui"), SROIE labels join
 * address lines with ", " or " " inconsistently, and OCR splits or merges
 * words. The cost (two strings differing only by a word break compare equal)
 * never matters for the fields we score.
 *
 * "&" becomes "and" because Kleister's labels spell "&" as "and" in some
 * names and not in others.
 */
export function normaliseText(value: string): string {
  return value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '');
}

// ---------------------------------------------------------------------------
// String similarity

/** Levenshtein distance over UTF-16 code units, two rows of memory. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const deletion = (previous[j] as number) + 1;
      const insertion = (current[j - 1] as number) + 1;
      current[j] = Math.min(substitution, deletion, insertion);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length] as number;
}

/** 1 - normalised Levenshtein distance of the two normalised strings, in [0, 1]. */
export function textSimilarity(predicted: string, expected: string): number {
  const a = normaliseText(predicted);
  const b = normaliseText(expected);
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - levenshtein(a, b) / longest;
}

/** The ANLS threshold of DocVQA: below it a string is "a different answer", not "a misspelling". */
export const ANLS_THRESHOLD = 0.5;

/** ANLS of one answer: the similarity, or 0 below the threshold. */
export function anls(predicted: string, expected: string): number {
  const similarity = textSimilarity(predicted, expected);
  return similarity >= ANLS_THRESHOLD ? similarity : 0;
}

// ---------------------------------------------------------------------------
// Amounts

/** Two amounts are equal when they differ by less than half a cent. */
export const AMOUNT_TOLERANCE = 0.005;

/**
 * Currency codes and abbreviations printed next to amounts on the datasets'
 * receipts (Malaysia, US, UK, EU, UAE, Singapore, India) plus common others.
 * Longest first, so "US$" is removed before "$".
 */
const CURRENCY_CODES = [
  'us$', 's$', 'a$', 'c$', 'hk$', 'nz$', 'rm', 'myr', 'usd', 'eur', 'euro', 'euros', 'gbp', 'aed', 'dhs', 'dh', 'sgd', 'inr', 'rs', 'chf',
  'cad', 'aud', 'jpy', 'hkd', 'nzd', 'cny', 'rmb', 'idr', 'rp', 'thb', 'php', 'sar', 'qar', 'kwd', 'sek', 'nok', 'dkk', 'kr', 'pln', 'zl',
  'czk', 'huf', 'try', 'zar', 'brl', 'mxn', 'krw', 'vnd',
].sort((a, b) => b.length - a.length);

const CURRENCY_AFFIX = new RegExp(`^(?:${CURRENCY_CODES.map(escapeRegExp).join('|')})\\.?`, 'i');
const CURRENCY_SUFFIX = new RegExp(`(?:${CURRENCY_CODES.map(escapeRegExp).join('|')})\\.?$`, 'i');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The number part of an amount string, with sign, currency marks and blanks removed; undefined when it is not an amount. */
interface AmountParts {
  negative: boolean;
  digits: string;
  hasCurrency: boolean;
}

function splitAmount(raw: string): AmountParts | undefined {
  let text = raw.normalize('NFKC').trim().replace(/\s+/g, '');
  let hasCurrency = false;
  let negative = false;
  // Accounting negatives: "(12.50)" and trailing minus "1.73-".
  if (/^\(.*\)$/.test(text)) {
    negative = true;
    text = text.slice(1, -1);
  }
  for (let pass = 0; pass < 3; pass++) {
    const before = text;
    if (/^[-−]/.test(text)) {
      negative = true;
      text = text.slice(1);
    } else if (/[-−]$/.test(text)) {
      negative = true;
      text = text.slice(0, -1);
    } else if (text.startsWith('+')) {
      text = text.slice(1);
    }
    const withoutSymbols = text.replace(/^\p{Sc}+|\p{Sc}+$/gu, '');
    if (withoutSymbols !== text) hasCurrency = true;
    text = withoutSymbols;
    const prefix = CURRENCY_AFFIX.exec(text);
    if (prefix && /^[a-z]/i.test(text)) {
      hasCurrency = true;
      text = text.slice(prefix[0].length);
    }
    const suffix = CURRENCY_SUFFIX.exec(text);
    if (suffix && /[a-z.]$/i.test(text) && /\d/.test(text.slice(0, suffix.index))) {
      hasCurrency = true;
      text = text.slice(0, suffix.index);
    }
    if (text === before) break;
  }
  if (!/^\d[\d.,']*$/.test(text)) return undefined;
  return { negative, digits: text.replace(/[.,']+$/, ''), hasCurrency };
}

/** True when every group after the first has exactly three digits and the first has one to three. */
function isThousandsGrouping(groups: string[]): boolean {
  const [first, ...rest] = groups;
  return first !== undefined && /^\d{1,3}$/.test(first) && rest.length > 0 && rest.every((group) => /^\d{3}$/.test(group));
}

/**
 * Every plausible numeric reading of an amount string. Usually one; two when
 * a single separator is followed by exactly three digits ("1,234" is 1234 in
 * the US and 1.234 in a 3-decimal currency; "1.234" is 1234 in Germany), in
 * which case either reading matches.
 *
 * Rules: currency symbols/codes before or after are dropped; with both "."
 * and "," the last one is the decimal mark and the other groups thousands;
 * a separator repeated is a thousands separator; a single one followed by
 * 1-2 (or 4+) digits is a decimal mark, so "154,40" is 154.40.
 */
export function amountReadings(raw: string): number[] {
  const parts = splitAmount(raw);
  if (!parts) return [];
  const { digits } = parts;
  const sign = parts.negative ? -1 : 1;
  const separators = digits.match(/[.,']/g) ?? [];
  const distinct = new Set(separators);
  const readings: number[] = [];

  if (separators.length === 0) {
    readings.push(Number(digits));
  } else if (distinct.size > 1) {
    const decimalIndex = Math.max(digits.lastIndexOf('.'), digits.lastIndexOf(','));
    const integerPart = digits.slice(0, decimalIndex);
    const fraction = digits.slice(decimalIndex + 1);
    const decimalMark = digits[decimalIndex];
    if (integerPart.includes(decimalMark as string)) return [];
    if (!isThousandsGrouping(integerPart.split(/[.,']/))) return [];
    readings.push(Number(`${integerPart.replace(/[.,']/g, '')}.${fraction}`));
  } else {
    const groups = digits.split(/[.,']/);
    if (separators.length > 1) {
      if (!isThousandsGrouping(groups)) return [];
      readings.push(Number(groups.join('')));
    } else {
      const [integerPart = '', fraction = ''] = groups;
      const separator = separators[0];
      if (separator === "'") {
        if (!isThousandsGrouping(groups)) return [];
        readings.push(Number(groups.join('')));
      } else {
        readings.push(Number(`${integerPart}.${fraction}`));
        if (fraction.length === 3 && isThousandsGrouping(groups) && integerPart !== '0') readings.push(Number(groups.join('')));
      }
    }
  }
  return readings.filter(Number.isFinite).map((value) => sign * value);
}

/** The preferred reading of an amount, or undefined when the string is not an amount. */
export function parseAmount(raw: string): number | undefined {
  return amountReadings(raw)[0];
}

/** True when some reading of each side agrees within the tolerance. */
export function amountsEqual(predicted: string, expected: string): boolean {
  const expectedReadings = amountReadings(expected);
  return amountReadings(predicted).some((p) => expectedReadings.some((e) => Math.abs(p - e) < AMOUNT_TOLERANCE));
}

/**
 * Whether a ground truth value is recognisably money on its own: a currency
 * mark, or exactly two decimals. A bare integer is not, or phone numbers and
 * postcodes would be scored as amounts.
 */
export function looksLikeMoney(raw: string): boolean {
  const parts = splitAmount(raw);
  if (!parts || amountReadings(raw).length === 0) return false;
  return parts.hasCurrency || /[.,]\d{2}$/.test(parts.digits);
}

// ---------------------------------------------------------------------------
// Dates

export type DateOrder = 'day-first' | 'month-first';

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/**
 * Month names and abbreviations: English, German/Austrian and Malay spellings
 * that occur on the datasets' receipts, and the names European invoices print
 * (French, Spanish, Italian, Dutch, Portuguese, Polish in the nominative and
 * the genitive of "14 marca 2024"), with and without their accents (OCR
 * drops them: "11. Marz 2014").
 */
const MONTH_NAMES: ReadonlyArray<readonly string[]> = [
  ['jan', 'january', 'jän', 'jänner', 'januar', 'januari', 'janvier', 'janv', 'enero', 'ene', 'gennaio', 'gen', 'janeiro', 'styczeń', 'styczen', 'stycznia'],
  ['feb', 'february', 'februar', 'februari', 'febr', 'février', 'fevrier', 'févr', 'fevr', 'febrero', 'febbraio', 'fevereiro', 'fev', 'luty', 'lutego'],
  ['mar', 'march', 'mär', 'märz', 'marz', 'maerz', 'mac', 'mars', 'marzo', 'maart', 'mrt', 'março', 'marco', 'marzec', 'marca'],
  ['apr', 'april', 'avril', 'avr', 'abril', 'abr', 'aprile', 'kwiecień', 'kwiecien', 'kwietnia'],
  ['may', 'mai', 'mei', 'mayo', 'maggio', 'mag', 'maio', 'maj', 'maja'],
  ['jun', 'june', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho', 'czerwiec', 'czerwca'],
  ['jul', 'july', 'juli', 'julai', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julho', 'lipiec', 'lipca'],
  ['aug', 'august', 'ogos', 'août', 'aout', 'agosto', 'ago', 'augustus', 'sierpień', 'sierpien', 'sierpnia'],
  ['sep', 'sept', 'september', 'septembre', 'septiembre', 'setiembre', 'settembre', 'set', 'setembro', 'wrzesień', 'wrzesien', 'września', 'wrzesnia'],
  ['oct', 'october', 'okt', 'oktober', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out', 'październik', 'pazdziernik', 'października', 'pazdziernika'],
  ['nov', 'november', 'novembre', 'noviembre', 'novembro', 'listopad', 'listopada'],
  ['dec', 'december', 'dez', 'dezember', 'dis', 'disember', 'décembre', 'decembre', 'déc', 'diciembre', 'dic', 'dicembre', 'dezembro', 'grudzień', 'grudzien', 'grudnia'],
];

const MONTHS: Record<string, number> = Object.fromEntries(MONTH_NAMES.flatMap((names, index) => names.map((name) => [name, index + 1] as const)));

/** Alternation of month words for regular expressions, longest first. */
export const MONTH_PATTERN = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function makeDate(year: number, month: number, day: number): CalendarDate | undefined {
  if (month < 1 || month > 12 || day < 1 || year < 1000 || year > 2999) return undefined;
  if (day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

/** 2-digit years are 20xx: every receipt in the datasets is from this century. */
function expandYear(token: string): number | undefined {
  if (token.length === 4) return Number(token);
  if (token.length === 2) return 2000 + Number(token);
  return undefined;
}

/** Day and month from two numbers in printed order; a part above 12 can only be the day, whatever the order hint. */
function orderDayMonth(first: number, second: number, order: DateOrder): { day: number; month: number } | undefined {
  if (first > 12 && second > 12) return undefined;
  if (first > 12) return { day: first, month: second };
  if (second > 12) return { day: second, month: first };
  return order === 'day-first' ? { day: first, month: second } : { day: second, month: first };
}

/**
 * Only whole month words count, so other words around a date (weekdays as in
 * "09/06/2007THU", ordinals as in "14th", labels as in "Date:") are ignored
 * instead of being read as a month by their first letters ("disc", "market").
 */
function monthOf(word: string): number | undefined {
  return Object.hasOwn(MONTHS, word) ? MONTHS[word] : undefined;
}

function parseDateTokens(text: string, order: DateOrder): CalendarDate | undefined {
  const tokens = text.normalize('NFKC').toLowerCase().match(/\d+|\p{L}+/gu) ?? [];
  const numbers = tokens.filter((token) => /^\d+$/.test(token));
  const months = tokens.filter((token) => !/^\d/.test(token)).map(monthOf).filter((month): month is number => month !== undefined);

  if (months.length === 1 && numbers.length === 2) {
    const month = months[0] as number;
    const [a = '', b = ''] = numbers;
    // "2018 Mar 15" has the year first; "15 MAR 2018", "March 14, 2024", "JAN31'13" have it last.
    if (a.length === 4) return makeDate(Number(a), month, Number(b));
    const year = expandYear(b);
    return year === undefined || a.length > 2 ? undefined : makeDate(year, month, Number(a));
  }
  if (months.length > 0) return undefined;

  if (numbers.length === 3) {
    const [a = '', b = '', c = ''] = numbers;
    if (a.length === 4) return b.length <= 2 && c.length <= 2 ? makeDate(Number(a), Number(b), Number(c)) : undefined;
    if (a.length > 2 || b.length > 2) return undefined;
    const year = expandYear(c);
    const dayMonth = orderDayMonth(Number(a), Number(b), order);
    return year === undefined || !dayMonth ? undefined : makeDate(year, dayMonth.month, dayMonth.day);
  }
  if (numbers.length === 1 && numbers[0]?.length === 8) {
    const digits = numbers[0];
    // yyyymmdd when it reads as one (e.g. 20180306), else ddmmyyyy / mmddyyyy.
    if (/^(19|20)/.test(digits)) {
      const iso = makeDate(Number(digits.slice(0, 4)), Number(digits.slice(4, 6)), Number(digits.slice(6, 8)));
      if (iso) return iso;
    }
    const dayMonth = orderDayMonth(Number(digits.slice(0, 2)), Number(digits.slice(2, 4)), order);
    return dayMonth ? makeDate(Number(digits.slice(4, 8)), dayMonth.month, dayMonth.day) : undefined;
  }
  return undefined;
}

/**
 * Date-like substrings: numeric with separators (dd/mm/yyyy, yyyy-mm-dd,
 * 10.07.13), month names on either side of the day ("15 MAR 2018",
 * "Feb11.2012", "March 14, 2024", "JAN31'13", and the contract style "24th day
 * of August, 1999"), and 8 digits in a row.
 * Numeric forms may follow a letter, since OCR glues labels on ("DATE06/03/2018");
 * a month word may not, or "Summary 12 2018" would read as a March date.
 */
export const DATE_TOKEN_PATTERN = new RegExp(
  [
    String.raw`(?<!\d)\d{1,4}\s?[\/.\-]\s?\d{1,2}\s?[\/.\-]\s?\d{2,4}`,
    // "3 de abril de 2024" (Spanish, Portuguese)
    String.raw`(?<!\d)\d{1,2}(?:st|nd|rd|th)?[\s\-.\/,]*(?:day\s+)?(?:(?:of|de)\s+)?(?:${MONTH_PATTERN})\.?(?:\s+de)?[\s\-.\/,']*\d{2,4}`,
    String.raw`(?<!\p{L})(?:${MONTH_PATTERN})\.?[\s\-.\/]*\d{1,2}(?:st|nd|rd|th)?[\s\-.\/,']*\d{2,4}`,
    String.raw`(?<!\d)\d{8}`,
  ]
    .map((alternative) => `${alternative}(?!\d)`)
    .join('|'),
  'giu',
);

/** All date-like substrings of a text, in order. */
export function findDateTokens(text: string): string[] {
  return [...text.normalize('NFKC').matchAll(DATE_TOKEN_PATTERN)].map((match) => match[0]);
}

/**
 * Parses a date in any of the printed formats into a calendar date. The whole
 * string is tried first; failing that, the first date-like substring (so
 * "Date: 06/03/2018 10:15" still parses). Ambiguous numeric dates follow
 * `order` unless one part is above 12.
 */
export function parseDate(text: string, order: DateOrder): CalendarDate | undefined {
  const whole = parseDateTokens(text, order);
  if (whole) return whole;
  for (const token of findDateTokens(text)) {
    const parsed = parseDateTokens(token, order);
    if (parsed) return parsed;
  }
  return undefined;
}

export function formatIsoDate(date: CalendarDate): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

export function sameDate(a: CalendarDate, b: CalendarDate): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

/**
 * Dates are equal when both parse to the same calendar day under the order
 * hint. When the ground truth does not parse, the normalised strings decide,
 * so an odd label can still be matched by an exact copy.
 */
export function datesEqual(predicted: string, expected: string, order: DateOrder): boolean {
  const e = parseDate(expected, order);
  const p = parseDate(predicted, order);
  if (e && p) return sameDate(e, p);
  return normaliseText(predicted) === normaliseText(expected);
}
