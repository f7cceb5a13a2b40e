/**
 * A phone number printed without a "Tel" label. Receipts are full of digit
 * runs (tax ids, card and order numbers, item codes, amounts in a row), so
 * without a label only numbers shaped like phone numbers count, and never
 * the number that follows an id label ("GST No", "P.IVA", "Order #").
 */
import { competitionAmong, type Competition } from '../../../schema/provenance.js';
import { tokensBefore } from '../core/fuzzy.js';
import type { RuleLine } from '../core/lines.js';
import { findPhones, type Found } from '../core/parsers.js';
import type { LineValue } from '../core/reading.js';
import { tableWordSet } from '../core/table-words.js';

/** Words that announce a number that is not a phone number (the tables' `otherNumberWords`). */
const OTHER_NUMBER_WORDS = tableWordSet((language) => language.otherNumberWords);
const LABEL_WINDOW = 3;

/** The first phone-shaped number not announced as another number, and the number of other such numbers. */
export function firstUnlabelledPhone(lines: readonly RuleLine[]): (LineValue & { competition: Competition }) | undefined {
  const phones: LineValue[] = [];
  for (const line of lines) {
    for (const found of findPhones(line.text)) {
      if (phoneShaped(found.text) && !announcedAsOther(line, found)) phones.push({ line, found });
    }
  }
  const first = phones[0];
  const digits = (phone: LineValue) => phone.found.text.replace(/\D/g, '');
  return first && { ...first, competition: competitionAmong(first, phones, () => 0, digits) };
}

/**
 * Digit groups as phone numbers print them: "(408) 446-5055", "03-8723 8214",
 * "+44 20 7946 0958". Not "201611020201 (51-1)" (one long id) nor
 * "7.000 00 0.150000 1" or "1 4500 4500" (figures of a table row).
 */
export function phoneShaped(text: string): boolean {
  if (!/[\s().+-]/.test(text)) return false;
  const groups = text.split(/[^\d]+/).filter(Boolean);
  if (groups.length < 2) return false;
  // a one-digit group opens only a country or trunk code: "+1 415 ...", "1-800-...", "1 (800) ..."
  if (groups[0]!.length === 1 && !/^(?:\+|\d\s?[-(])/.test(text)) return false;
  return groups.every((group, i) => group.length <= 8 && (i === 0 || group.length >= 2)) && groups.filter((g) => g.length > 5).length <= 1;
}

function announcedAsOther(line: RuleLine, found: Found): boolean {
  const before = tokensBefore(line.tokens, found.start, LABEL_WINDOW);
  return before.some((t) => OTHER_NUMBER_WORDS.has(t.norm));
}
