/**
 * A spreadsheet number as the cell shows it, from its number format code
 * (ECMA-376 18.8.30-31): dates as ISO dates (not serial numbers), times,
 * percentages, fixed decimals with thousands separators, and a currency the
 * code writes ("#,##0.00 [$€-407]", "\"$\"#,##0.00"). Separators follow the
 * code's own convention (comma thousands, point decimals), whatever the
 * locale the file was made in: the digits are what counts.
 */

/** The built-in formats (ids below 164) that are not "General". */
const BUILT_IN: Record<number, string> = {
  1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00', 12: '# ?/?', 13: '# ??/??',
  14: 'yyyy-mm-dd', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM', 20: 'h:mm', 21: 'h:mm:ss', 22: 'yyyy-mm-dd h:mm',
  37: '#,##0 ;(#,##0)', 38: '#,##0 ;(#,##0)', 39: '#,##0.00;(#,##0.00)', 40: '#,##0.00;(#,##0.00)', 45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0', 48: '##0.0E+0', 49: '@',
};

export function formatCodeOf(id: number, custom: ReadonlyMap<number, string>): string {
  return custom.get(id) ?? BUILT_IN[id] ?? 'General';
}

/** The code without its quoted text, escapes, colours and conditions: what says date or number. */
function bare(section: string): string {
  return section.replace(/"[^"]*"/g, '').replace(/\\./g, '').replace(/\[[^\]]*\]/g, '').replace(/_./g, '');
}

export function isDateFormat(code: string): boolean {
  const b = bare(code.split(';')[0] ?? '');
  return /[dyhs]/i.test(b) || /m/i.test(b) && !/[0#?]/.test(b);
}

/** Days since 1899-12-30 (the 1900 system, Lotus' leap-day bug included) or 1904-01-01, to a UTC date. */
function serialToDate(serial: number, date1904: boolean): Date {
  const days = date1904 ? serial + 1462 : serial;
  return new Date(Date.UTC(1899, 11, 30) + Math.round(days * 86_400_000));
}

const pad = (n: number) => String(n).padStart(2, '0');

function formatDate(serial: number, code: string, date1904: boolean): string {
  const b = bare(code.split(';')[0] ?? '');
  const date = serialToDate(serial, date1904);
  const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const hasDay = /[dy]/i.test(b) || (/m/i.test(b) && !/[hs]/i.test(b));
  const hasTime = /[hs]/i.test(b);
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}${/s/i.test(b) ? `:${pad(date.getUTCSeconds())}` : ''}`;
  if (hasDay && hasTime) return `${day} ${time}`;
  return hasTime ? time : day;
}

/** The literal text around a section's digits: quoted strings, a [$€-407] currency, and symbols written as they are. */
function literals(section: string): { prefix: string; suffix: string } {
  const withCurrency = section.replace(/\[\$([^\]-]*)(-[^\]]*)?\]/g, '"$1"').replace(/\[[^\]]*\]/g, '').replace(/_./g, '').replace(/\*./g, '');
  const firstDigit = withCurrency.search(/[0#?]/);
  const lastDigit = Math.max(withCurrency.lastIndexOf('0'), withCurrency.lastIndexOf('#'), withCurrency.lastIndexOf('?'));
  const text = (part: string) => part.replace(/"([^"]*)"/g, '$1').replace(/\\(.)/g, '$1').replace(/[()]/g, '');
  if (firstDigit < 0) return { prefix: '', suffix: '' };
  return { prefix: text(withCurrency.slice(0, firstDigit)), suffix: text(withCurrency.slice(lastDigit + 1)).replace(/%/g, '') };
}

function groupThousands(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `value` (the cell's cached number) as its format shows it. */
export function formatNumber(value: number, code: string, date1904: boolean): string {
  if (!Number.isFinite(value)) return String(value);
  if (code === 'General' || code === '@' || code === '') return String(Number(value.toPrecision(15)));
  if (isDateFormat(code)) return formatDate(value, code, date1904);
  const sections = code.split(';');
  const negativeSection = value < 0 && sections.length > 1;
  const section = (negativeSection ? sections[1] : sections[0]) ?? '';
  const b = bare(section);
  if (/E\+/i.test(b)) return String(Number(value.toPrecision(15)));
  const percent = b.includes('%');
  const shown = Math.abs(percent ? value * 100 : value);
  const decimals = /\.([0#?]+)/.exec(b)?.[1]?.length ?? 0;
  const [integer, fraction] = shown.toFixed(decimals).split('.');
  const grouped = /[0#?],[0#?]/.test(b) ? groupThousands(integer!) : integer!;
  const { prefix, suffix } = literals(section);
  const sign = value < 0 && !negativeSection ? '-' : '';
  const parenthesised = negativeSection && /\(/.test(section);
  const number = `${grouped}${fraction ? `.${fraction}` : ''}${percent ? '%' : ''}`;
  const body = `${prefix}${sign}${number}${suffix}`.trim();
  return parenthesised ? `(${body.replace(/[()]/g, '')})` : negativeSection && !/-/.test(section) && !parenthesised ? `-${body}` : body;
}

/** "B" for column 2, "AA" for 27. */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Column number of a cell reference: "B7" -> 2. */
export function columnOf(ref: string): number {
  let column = 0;
  for (const char of ref) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return column;
}
