/**
 * Repairs the letter/digit mix-ups both OCR engines make, from the word
 * around them: a "0" among letters is the letter O ("Y0RK", "Ass0c",
 * "C0."), an "O" among digits is a zero ("475OO", "1O.50"), and a "1"
 * after lower-case letters is an "l" ("Mi11", "Detai1"). Words that mix
 * letters with other digits are codes ("B4-03", "V3S 9N7", "100AM") and are
 * left alone. PP-OCR's recogniser makes these mistakes more often than
 * Tesseract (on the dev receipts "Y0RK", "Dieg0", "CAD0RNA"), Tesseract
 * too ("3R0 FLR"). A "$" read as "S" before a price is put back.
 */

const LETTER = /\p{L}/u;
const LOWER = /\p{Ll}/u;

/**
 * Zeros in an otherwise all-letter word become O/o (lower case beside
 * lower-case letters): a single zero beside a letter, or a run of zeros with
 * letters on both sides ("B00K"). A run of zeros ending a word stays: codes
 * such as "INV00" end that way.
 */
function zerosAmongLetters(word: string): string {
  const chars = [...word];
  const letters = chars.filter((c) => LETTER.test(c)).length;
  if (letters === 0 || !word.includes('0') || /[1-9]/.test(word)) return word;
  return word.replace(/0+/g, (run: string, offset: number) => {
    const before = word[offset - 1] ?? '';
    const after = word[offset + run.length] ?? '';
    const fits = run.length === 1 ? LETTER.test(before) || LETTER.test(after) : LETTER.test(before) && LETTER.test(after);
    if (!fits) return run;
    return (LOWER.test(before) || LOWER.test(after) ? 'o' : 'O').repeat(run.length);
  });
}

/** A number-like word (digits and separators, perhaps a sign, currency or %) with O/o among its digits. */
const NUMBER_WITH_OS = /^[+\-(]?\p{Sc}?[\dOo]+(?:[.,:/\-][\dOo]+)*%?\)?$/u;

function osAmongDigits(word: string): string {
  if (!/[Oo]/.test(word) || !/\d/.test(word) || !NUMBER_WITH_OS.test(word)) return word;
  return word.replace(/[Oo]/g, '0');
}

/**
 * Runs of "1" right after a lower-case letter, in a word of two or more
 * letters whose only digits are those ones ("Mi11", "Detai1"). A leading
 * one stays a number: "1st", "1kg", "x1".
 */
function onesAfterLowerCase(word: string): string {
  if (!word.includes('1') || /[02-9]/.test(word)) return word;
  if ([...word].filter((c) => LETTER.test(c)).length < 2) return word;
  return word.replace(/1+/g, (run: string, offset: number) => (LOWER.test(word[offset - 1] ?? '') ? 'l'.repeat(run.length) : run));
}

/** A clock time ("7:22", "12:18:24"). */
const TIME = /^\d{1,2}:\d{2}(?::\d{2})?$/;

/**
 * "M" read as "H" after a clock time ("2:21 PH", "12:18:24PH"): PP-OCR's
 * recogniser does this on receipt fonts; after a time it can only be AM/PM.
 */
function meridiemAfterTime(word: string, previous: string | undefined): string {
  const attached = /^(\d{1,2}:\d{2}(?::\d{2})?)([AaPp])[Hh]$/.exec(word);
  if (attached) return `${attached[1]}${attached[2]}${attached[2] === attached[2]?.toUpperCase() ? 'M' : 'm'}`;
  if (previous !== undefined && TIME.test(previous) && /^[AaPp][Hh]$/.test(word)) return `${word[0]}${word[0] === word[0]?.toUpperCase() ? 'M' : 'm'}`;
  return word;
}

/**
 * "$" read as "S" before an amount with cents ("S4.50", "AMOUNT:S50.25"):
 * both engines do this on receipt fonts, and an S glued to a price is no
 * word. One after a letter ("BUS12.50") is left alone.
 */
function dollarBeforeAmount(word: string): string {
  return word.replace(/(?<!\p{L})[Ss](?=\d{1,6}[.,]\d{2}$)/u, '$');
}

/** The word repaired; `previous` is the word before it on its line, if any. */
export function repairConfusables(text: string, previous?: string): string {
  return meridiemAfterTime(dollarBeforeAmount(onesAfterLowerCase(osAmongDigits(zerosAmongLetters(text)))), previous);
}
