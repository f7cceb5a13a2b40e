/**
 * Whole numbers up to ninety-nine written in English words, both ways:
 * contracts spell their counts ("eighteen months", "twenty-four (24)
 * months"), and a reader (the rules engine, a model) writes them as digits,
 * or the other way round.
 */
export const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
export const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** Spelled-out numbers up to ninety-nine ("twenty-four", "eighteen"); undefined for anything else. */
export function numberFromWords(text: string): number | undefined {
  let total = 0;
  for (const word of text.toLowerCase().split(/[\s-]+/).filter(Boolean)) {
    const one = ONES.indexOf(word);
    const ten = TENS.indexOf(word);
    if (one >= 0) total += one;
    else if (ten >= 2) total += ten * 10;
    else return undefined;
  }
  return total;
}

/** 24 as "twenty-four", 18 as "eighteen"; undefined outside 0..99 or for a fraction. */
export function numberInWords(value: number): string | undefined {
  if (!Number.isInteger(value) || value < 0 || value > 99) return undefined;
  if (value < 20) return ONES[value];
  const tens = TENS[Math.floor(value / 10)]!;
  const ones = value % 10;
  return ones === 0 ? tens : `${tens}-${ONES[ones]}`;
}
