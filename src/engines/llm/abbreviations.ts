/**
 * Words that documents and models write both in full and abbreviated, so that
 * "ACME Incorporated" is found where "ACME Inc." is printed, and "12 Jalan
 * Tampoi" where "12 Jln Tampoi" is. Each entry maps folded forms (lower case,
 * no punctuation) to one shared form. Only forms that are the same word are
 * listed: company suffixes, street and place words, "and", units of time.
 */
const GROUPS: string[][] = [
  ['inc', 'incorporated'],
  ['corp', 'corporation'],
  ['co', 'company'],
  ['ltd', 'limited'],
  ['llc', 'limitedliabilitycompany'],
  ['plc', 'publiclimitedcompany'],
  ['bhd', 'berhad'],
  ['sdn', 'sendirian'],
  ['pte', 'private'],
  ['pty', 'proprietary'],
  ['intl', 'international'],
  ['mfg', 'manufacturing'],
  ['assn', 'association'],
  ['dept', 'department'],
  ['bros', 'brothers'],
  ['and', '&'],
  ['st', 'street', 'str'],
  ['rd', 'road'],
  ['ave', 'avenue', 'av'],
  ['blvd', 'boulevard'],
  ['dr', 'drive'],
  ['ln', 'lane'],
  ['hwy', 'highway'],
  ['pkwy', 'parkway'],
  ['sq', 'square'],
  ['ste', 'suite'],
  ['fl', 'floor', 'flr'],
  ['bldg', 'building'],
  ['apt', 'apartment'],
  ['mt', 'mount'],
  ['ft', 'fort'],
  ['jln', 'jalan'],
  ['tmn', 'taman'],
  ['kg', 'kampung'],
  ['bdr', 'bandar'],
  ['no', 'number', 'nr'],
  // units of a duration, singular after "one" or as an adjective ("a two-year term") and plural after other counts
  ['year', 'years', 'yr', 'yrs'],
  ['month', 'months'],
  ['week', 'weeks', 'wk', 'wks'],
  ['day', 'days'],
];

const SHARED = new Map<string, string>();
for (const group of GROUPS) for (const form of group) SHARED.set(form, group[0]!);

/** The shared form of a folded word ('incorporated' -> 'inc'); the word itself when it has none. */
export function sharedForm(foldedWord: string): string {
  return SHARED.get(foldedWord) ?? foldedWord;
}
