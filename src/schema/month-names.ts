/**
 * Month names and abbreviations in the languages receipts and invoices
 * commonly use (English, German, French, Spanish, Italian, Dutch, Malay,
 * Portuguese, Polish in the nominative and in the genitive of "14 marca
 * 2024"), lower case, without accents.
 */
const MONTHS: string[][] = [
  ['january', 'jan', 'janv', 'januar', 'janvier', 'enero', 'ene', 'gennaio', 'gen', 'januari', 'janeiro', 'styczen', 'stycznia'],
  ['february', 'feb', 'febr', 'februar', 'fevrier', 'fev', 'febrero', 'febbraio', 'februari', 'fevereiro', 'luty', 'lutego'],
  ['march', 'mar', 'marz', 'maerz', 'mars', 'marzo', 'maart', 'mac', 'marco', 'mrt', 'marzec', 'marca'],
  ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile', 'kwiecien', 'kwietnia'],
  ['may', 'mai', 'mayo', 'maggio', 'mei', 'mag', 'maio', 'maj', 'maja'],
  ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho', 'czerwiec', 'czerwca'],
  ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julai', 'julho', 'lipiec', 'lipca'],
  ['august', 'aug', 'aout', 'agosto', 'ago', 'augustus', 'ogos', 'ogo', 'sierpien', 'sierpnia'],
  ['september', 'sep', 'sept', 'septembre', 'septiembre', 'setiembre', 'settembre', 'set', 'setembro', 'wrzesien', 'wrzesnia'],
  ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out', 'pazdziernik', 'pazdziernika'],
  ['november', 'nov', 'novembre', 'noviembre', 'novembro', 'listopad', 'listopada'],
  ['december', 'dec', 'dezember', 'dez', 'decembre', 'diciembre', 'dic', 'dicembre', 'desember', 'dis', 'dezembro', 'grudzien', 'grudnia'],
];

const MONTH_BY_NAME = new Map<string, number>();
MONTHS.forEach((names, index) => names.forEach((name) => MONTH_BY_NAME.set(name, index + 1)));

export const ENGLISH_MONTHS = MONTHS.map((names) => names[0]!);

/** Each letter and the accented forms the month names print it in ("März", "août", "março", "września", "październik"). */
const ACCENTED: Record<string, string> = { a: '[aàâä]', e: '[eéèêë]', u: '[uûü]', c: '[cçć]', o: '[oóôö]', s: '[sś]', z: '[zźż]', n: '[nń]' };

/** Regex source matching any month name, longest first, accents optional. */
export const MONTH_PATTERN = [...MONTH_BY_NAME.keys()]
  .sort((a, b) => b.length - a.length)
  .map((name) => name.replace(/[aeucozsn]/g, (letter) => ACCENTED[letter]!))
  .join('|');

export function monthNumber(name: string): number | undefined {
  const plain = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\.$/, '');
  return MONTH_BY_NAME.get(plain);
}
