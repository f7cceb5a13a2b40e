/**
 * Month names and abbreviations in the languages receipts and invoices
 * commonly use (English, German, French, Spanish, Italian, Dutch, Malay,
 * Portuguese), lower case, without accents.
 */
const MONTHS: string[][] = [
  ['january', 'jan', 'janv', 'januar', 'janvier', 'enero', 'ene', 'gennaio', 'gen', 'januari', 'janeiro'],
  ['february', 'feb', 'febr', 'februar', 'fevrier', 'fev', 'febrero', 'febbraio', 'februari', 'fevereiro'],
  ['march', 'mar', 'marz', 'maerz', 'mars', 'marzo', 'maart', 'mac', 'marco', 'mrt'],
  ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile'],
  ['may', 'mai', 'mayo', 'maggio', 'mei', 'mag', 'maio'],
  ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho'],
  ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julai', 'julho'],
  ['august', 'aug', 'aout', 'agosto', 'ago', 'augustus', 'ogos', 'ogo'],
  ['september', 'sep', 'sept', 'septembre', 'septiembre', 'setiembre', 'settembre', 'set', 'setembro'],
  ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out'],
  ['november', 'nov', 'novembre', 'noviembre', 'novembro'],
  ['december', 'dec', 'dezember', 'dez', 'decembre', 'diciembre', 'dic', 'dicembre', 'desember', 'dis', 'dezembro'],
];

const MONTH_BY_NAME = new Map<string, number>();
MONTHS.forEach((names, index) => names.forEach((name) => MONTH_BY_NAME.set(name, index + 1)));

export const ENGLISH_MONTHS = MONTHS.map((names) => names[0]!);

/** Regex source matching any month name, longest first, accents optional. */
export const MONTH_PATTERN = [...MONTH_BY_NAME.keys()]
  .sort((a, b) => b.length - a.length)
  .map((name) => name.replace(/a/g, '[aàâä]').replace(/e/g, '[eéèê]').replace(/u/g, '[uûü]').replace(/c/g, '[cç]'))
  .join('|');

export function monthNumber(name: string): number | undefined {
  const plain = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\.$/, '');
  return MONTH_BY_NAME.get(plain);
}
