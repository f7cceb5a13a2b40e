/**
 * Is a line part of a postal address? Street words with a number, postcodes,
 * "City, ST 12345". Street words from the language tables, and Malay's.
 */
import { normaliseWord, tokenize } from '../../../meaning/words.js';
import { COMPANY_SUFFIX, isRegistrationOnly, stripRegistration } from './company.js';

import { patternOf, tableWordSet, tableWords } from '../core/table-words.js';
import { isNoise, mainText, type RuleLine } from '../core/lines.js';
import { findPhones } from '../core/parsers.js';
import { isItemTableHeading } from '../core/item-heading.js';
import { phoneShaped } from './phones.js';

/**
 * Malay street and building words of Malaysian receipts ("Jalan", "Taman",
 * "Wisma"). Malay has no language table (the tables hold the eight languages
 * fields are named and described in, meaning/languages/), and these words are
 * Malay, not English, though printed among English ones: so they are listed here.
 */
const MALAY_STREET_WORDS = ['jalan', 'jln', 'lorong', 'taman', 'persiaran', 'lebuh', 'lebuhraya', 'kampung', 'kg', 'bandar', 'wisma', 'menara', 'kompleks'];

/** The street words of the language tables ("street", "rue", "ulica", "suite") and Malay's. */
const STREET_WORDS: ReadonlySet<string> = new Set([...tableWordSet((language) => language.streetWords), ...MALAY_STREET_WORDS]);

/** German and Dutch streets are one word closed by the street word, with the house number after: "Bahnstr. 42", "Musterstraße 3", "Kerkstraat 12". */
const COMPOUND_STREET = new RegExp(
  String.raw`\p{L}{2,}(?:${tableWords((language) => language.compoundStreetEndings).map(patternOf).join('|')})\s*\d+\s?[a-z]?(?![\p{L}\p{N}])`,
  'iu',
);

/** Five digits with one OCR misread as a letter ("S6100", "4D170"), before the city's name. */
const MISREAD_POSTCODE = /(?<![\p{L}\p{N}])(?=[\dSODIB]{5}\s+\p{Lu})(?:\d{4}[SODIB]|\d{3}[SODIB]\d|\d{2}[SODIB]\d{2}|\d[SODIB]\d{3}|[SODIB]\d{4})(?![\p{L}\p{N}])/gu;
const DIGIT_READ_AS = { S: '5', O: '0', D: '0', I: '1', B: '8' } as const;

/** The address with a postcode OCR misread by one letter written in digits ("CHERAS, S6100 KUALA LUMPUR" -> "56100"). */
export function repairPostcodes(address: string): string {
  return address.replace(MISREAD_POSTCODE, (code) => code.replace(/[SODIB]/, (letter) => DIGIT_READ_AS[letter as keyof typeof DIGIT_READ_AS]));
}

const POSTCODE = [
  /\b\d{5}(?:-\d{4})?\b/, // US, MY, DE, FR, ES, IT
  /\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b/, // UK
  /\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/, // CA
  /\b\d{4}\s?[A-Z]{2}\b/, // NL
  /(?<![\d-])\d{4}-\d{3}\s+\p{L}{3,}/u, // PT: "1100-053 Lisboa"
  /(?<![\d-])\d{2}-\d{3}\s+\p{L}{3,}/u, // PL: "00-238 Warszawa"
  // (?<!\p{L}): a match starts where a word starts; without it a long run of letters is rescanned from each of its letters (quadratic)
  /(?<!\p{L})\p{L}{3,}\.?,?\s+\d{6}$/u, // "SINGAPORE 238863", "Mumbai 400001": six digits after the city, ending the line
  /^\d{4}\s+\p{L}{3,}(?:\s+\p{L}{3,})?$/u, // "1010 Wien", "8001 Zürich": four digits before the city
  // (a copy without the g flag: test() on a global pattern would carry lastIndex from one line to the next)
  new RegExp(MISREAD_POSTCODE.source, 'u'),
];
const STATE_ZIP = /\b[A-Z]{2},?\s+\d{5}\b/;
const HOUSE_NUMBER = /^(?:no\.?\s*)?\d+[A-Za-z]?(?:[-/]\d+)?,?\s+\p{L}/iu;
/** Indonesian receipts' tax number (Nomor Pokok Wajib Pajak): Indonesian has no table either. */
const INDONESIAN_NOT_ADDRESS_WORDS = ['npwp'];
/**
 * Lines that open another block: contact details, tax ids, the receipt's
 * own fields (the tables' `notAddressWords`: "Tel", "GST", "Cashier"), or
 * an email address. A full stop in them is optional, so are spaces ("Co. No", "CO NO").
 */
const NOT_ADDRESS = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${[...tableWords((language) => language.notAddressWords), ...INDONESIAN_NOT_ADDRESS_WORDS]
    .map((word) => patternOf(word).replaceAll(String.raw`\.`, String.raw`\.?`).replaceAll(String.raw`\s+`, String.raw`\s*`))
    .join('|')})(?![\p{L}\p{N}])|@`,
  'iu',
);
/** A weighed quantity ("0.236 KG"): an item line, although "kg" also abbreviates a street word. */
const WEIGHT = /\d[.,]\d+\s?(?:kg|g|gm|lb|lbs|oz|ml|l)\b/i;
/** "DALLAS, TX": a city and a US state or Canadian province code ending the line; starts where a word starts, as POSTCODE's six-digit form. */
const CITY_STATE = new RegExp(
  String.raw`(?<!\p{L})\p{L}{3,},\s*(?:AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|AB|BC|MB|NB|NL|NS|ON|PE|QC|SK)\.?$`,
  'u',
);

export function addressEvidence(line: Pick<RuleLine, 'text'>): number {
  // registration numbers in brackets look like postcodes but never are
  const text = stripRegistration(line.text);
  const words = tokenize(text).map((t) => t.norm);
  let evidence = 0;
  const hasDigit = /\d/.test(text);
  if (hasDigit && (words.some((w) => STREET_WORDS.has(w)) || COMPOUND_STREET.test(text))) evidence += 1;
  if (POSTCODE.some((pattern) => pattern.test(text)) || STATE_ZIP.test(text) || CITY_STATE.test(text.trim())) evidence += 1;
  if (HOUSE_NUMBER.test(text)) evidence += 0.5;
  if (!hasDigit && words.some((w) => STREET_WORDS.has(w) && w.length > 3)) evidence += 0.5;
  return evidence;
}

/** A price ("12.50"): it belongs to item and total lines, not to a header name or an address. */
export const PRICE = /(?<![\d.,])\d{1,6}[.,]\d{2}(?![\d.,])/;

/** "ST# 1234 OP# 00001 TE# 01": a line of numbered ids (store, operator, terminal), not "Suite #200". */
const ID_CODES = /\p{L}{1,5}\s?#\s?\d[\s\S]*\p{L}{1,5}\s?#\s?\d/u;

/** The labels an address is printed under: "No", "HQ", the address labels of the tables ("Address", "Anschrift", "Dirección") and Malay's "Alamat"; also without their accents. */
const ADDRESS_LABELS = [...new Set(['no', 'hq', 'alamat', ...tableWords((language) => language.concepts.address?.labels)].flatMap((label) => [label, normaliseWord(label)]))];

/**
 * "Mesa : 4", "User: P0S1 Station: 10701", "Open: 11:42 AM": a labelled
 * field of the receipt. "No: 12" is a house number, "HQ:" or "Address:" opens
 * an address, and a line is still an
 * address when its address comes before the colon OCR put in it ("47400
 * PETALING: JAYA") or it has both a street and a postcode ("HQ: 7, Jln
 * SS21/34, 47400 PJ").
 */
const FIELD_LABEL = new RegExp(String.raw`(?<!\p{L})(?!(?:${ADDRESS_LABELS.map(patternOf).join('|')})(?![\p{L}\p{N}]))\p{L}{2,}\.?\s?:\s?[\p{L}\p{N}]`, 'iu');

function fieldLabelAt(line: Pick<RuleLine, 'text'>): number | undefined {
  const at = FIELD_LABEL.exec(line.text)?.index;
  if (at === undefined) return undefined;
  const addressFirst = addressEvidence({ text: line.text.slice(0, at) }) > 0;
  return addressFirst || addressEvidence(line) >= 2 ? undefined : at;
}

/** Where an address cannot go on: contact details, a labelled field, or the heading of the item table ("Description  Quantity  Amount"). */
function isAddressStop(line: RuleLine): boolean {
  return endsAddress(line) || fieldLabelAt(line) !== undefined || isItemTableHeading(line);
}

/** Contact details, ids, prices: what an address line may run into on its own line ("12 Main St   Tel: ..."). */
function endsAddress(line: RuleLine): boolean {
  return ID_CODES.test(line.text) || NOT_ADDRESS.test(line.text) || PRICE.test(line.text) || WEIGHT.test(line.text) || phoneAt(line.text) !== undefined;
}

/** Where an unlabelled phone number starts ("Dubai Mall : 04-4340700"): contact lines end an address too. */
function phoneAt(text: string): number | undefined {
  return findPhones(text).find((found) => phoneShaped(found.text) && found.text.replace(/\D/g, '').length >= 8)?.start;
}

/** A line of mostly letters that could continue an address ("KUALA LUMPUR", "Springfield"). */
function couldContinueAddress(line: RuleLine): boolean {
  if (isAddressStop(line)) return false;
  const letters = (line.text.match(/\p{L}/gu) ?? []).length;
  return letters >= 3 && line.tokens.length <= 8;
}

const LEAD_IN_LINES = 3;

/**
 * A number of one to three digits ("K2-104, Sunrise Heights", "#02-15 Orchid Arcade"): a unit or lot that makes a line
 * above the street part of the address. A line of words only is the name or a slogan printed above it ("HARBOUR
 * CAFE", "Fresh every day"), and a long number a store id or a year ("STORE 0001234", "since 1998").
 */
const SHORT_NUMBER = /(?<!\d)\d{1,3}(?!\d)/;

/** A house number that OCR put on a line of its own ("1,", "12-3"). */
const HOUSE_NUMBER_LINE = /^[\d\s,./-]{1,6}$/;

/**
 * Address lines starting at `from`: lines with address evidence, plus
 * letter-only lines between or right after them (city, state), at most five.
 * Before the first address line, a business name or registration line is skipped.
 */
export function collectAddress(lines: readonly RuleLine[], from: number): RuleLine[] {
  const picked: RuleLine[] = [];
  let evidence = 0;
  for (let i = from; i < lines.length && picked.length < 5; i++) {
    const line = withoutSpecks(lines[i]!);
    if (picked.length > 0 && line.page !== picked[0]!.page) break;
    if (isNoise(line)) continue;
    // a smudge read as a line of its own ("[AN") between two address lines
    if (picked.length > 0 && alnumCount(line.text) <= 3 && !/\d/.test(line.text) && nextHasEvidence(lines, i)) continue;
    const strength = addressEvidence(line);
    if (picked.length === 0 && i - from < LEAD_IN_LINES && strength < 1 && isLeadIn(line)) continue;
    // a house number that OCR put on a line of its own ("1,")
    if (picked.length > 0 && HOUSE_NUMBER_LINE.test(line.text)) {
      picked.push(line);
      continue;
    }
    if (isAddressStop(line)) {
      const before = textBeforeStop(line);
      // "12 Main St   Tel: ..." keeps its street; "Brezel   0,80" is an item, not the end of the address
      // (a line of labelled fields, "Store #0139 Cashier: Dana", has no street before its label)
      const itemLine = PRICE.test(line.text) || WEIGHT.test(line.text);
      if (picked.length > 0 && endsAddress(line) && !itemLine && before && /\p{L}{2}/u.test(before)) picked.push(truncated(line, before));
      else if (picked.length === 0 && endsAddress(line) && !itemLine && before && addressEvidence({ text: before }) >= 1) {
        // "1 Forge Lane, Sheffield S1 2AB    Invoice number: 42": the address opens the line, the column beside it is another field's;
        // the lines below may go on in the address's column
        // "Hafenstraße 12 · 20457 Hamburg · Tel. …": a reference line's parts run on into its contact details; the address ends with the line
        const runsOn = PART_SEPARATOR_END.test(before);
        const first = truncated(line, runsOn ? before.replace(PART_SEPARATOR_END, '') : before);
        picked.push(first);
        evidence += addressEvidence(first);
        if (runsOn) break;
        continue;
      }
      if (picked.length > 0 || !isLeadIn(line)) break;
      continue;
    }
    if (strength > 0) {
      picked.push(line);
      evidence += strength;
    } else if (couldContinueAddress(line) && (picked.length > 0 || (SHORT_NUMBER.test(line.text) && nextHasEvidence(lines, i)))) {
      picked.push(line);
    } else break;
  }
  while (picked.length > 0 && addressEvidence(picked[picked.length - 1]!) === 0 && !endsWithPlace(picked)) picked.pop();
  return evidence >= 1 ? picked : [];
}

/** A separator between the parts of a one-line reference ("·", "•", "|"), ending the text before a stop. */
const PART_SEPARATOR_END = /\s*[·•|]\s*$/u;

/** The line as its main text: "(81109-A)   |" is a registration line whatever the border of the paper adds. */
function withoutSpecks(line: RuleLine): RuleLine {
  const text = mainText(line);
  return text === line.text ? line : { ...line, text, tokens: tokenize(text) };
}

function alnumCount(text: string): number {
  return (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

/** Lines printed between a name and its address: registration numbers, tax ids, the name's legal form. */
function isLeadIn(line: RuleLine): boolean {
  return isRegistrationOnly(line.text) || COMPANY_SUFFIX.test(line.text) || /\b(?:gst|vat|reg|registration|co\.?\s*no|company\s*no)\b/i.test(line.text);
}

function truncated(line: RuleLine, text: string): RuleLine {
  return { ...line, text, cells: [{ text, x0: line.words[0]?.x0 ?? 0, x1: line.words[0]?.x1 ?? 0, start: 0, end: text.length, confidence: line.confidence }] };
}

/** The line up to the word where contact details or prices begin ("12 Main St  Tel: ..." -> "12 Main St"). */
function textBeforeStop(line: RuleLine): string {
  const stops = [NOT_ADDRESS.exec(line.text)?.index, PRICE.exec(line.text)?.index, phoneAt(line.text), ID_CODES.exec(line.text)?.index].filter((i): i is number => i !== undefined);
  const stop = Math.min(...stops, line.text.length);
  const wordStart = line.text.lastIndexOf(' ', stop) + 1;
  return line.text.slice(0, Math.min(stop, wordStart)).replace(/[\s,;:|-]+$/, '').trim();
}

function nextHasEvidence(lines: readonly RuleLine[], i: number): boolean {
  const next = lines[i + 1];
  return next !== undefined && addressEvidence(next) >= 1;
}

/** A trailing city/state line is kept when the address before it already has a street or postcode. */
function endsWithPlace(picked: RuleLine[]): boolean {
  const last = picked[picked.length - 1]!;
  return picked.length >= 2 && isPlaceLine(last);
}

/** A few words of letters: a city, a state, a district ("KUALA LUMPUR", "Selangor D.E."). */
function isPlaceLine(line: RuleLine): boolean {
  return /^[\p{L} .,'()-]+$/u.test(line.text) && line.tokens.length <= 4;
}

/** Lines of address evidence that make an address beyond doubt: a street and a postcode. */
const FULL_EVIDENCE = 2;

/**
 * How surely a block collected by collectAddress is the address, 0..1: full
 * with a street and a postcode, less with only one of them, and less again
 * for each line that shows nothing of an address nor of a place (a slogan,
 * a branch name, an item the block ran into).
 */
export function addressSureness(block: readonly RuleLine[]): number {
  const perLine = block.map((line) => ({ line, evidence: addressEvidence(line) }));
  const evidence = perLine.reduce((sum, { evidence }) => sum + evidence, 0);
  const unexplained = perLine.filter(({ line, evidence }) => evidence === 0 && !isPlaceLine(line) && !HOUSE_NUMBER_LINE.test(line.text)).length;
  return Math.min(1, evidence / FULL_EVIDENCE) * 0.8 ** unexplained;
}
