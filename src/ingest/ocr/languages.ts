/**
 * The letters each OCR_LANGS language (Tesseract's codes) needs, so that
 * OCR_ENGINE=auto can check them against the PP-OCR recogniser's
 * dictionary: a recogniser that cannot write "ß" must not read German. The
 * check is data, not a list of engines: a user's Latin recogniser
 * (OCR_PADDLE_MODEL_DIR) passes for German by itself.
 */
const LATIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Letters beyond A-Z each language writes (both cases where they exist). */
const EXTRA_LETTERS: Record<string, string> = {
  eng: '',
  deu: 'äöüßÄÖÜ',
  fra: 'àâæçéèêëîïôœùûüÿÀÂÆÇÉÈÊËÎÏÔŒÙÛÜ',
  spa: 'áéíñóúüÁÉÍÑÓÚÜ',
  ita: 'àèéìíòóùÀÈÉÌÒÙ',
  por: 'áâãàçéêíóôõúÁÂÃÀÇÉÊÍÓÔÕÚ',
  nld: 'éëïóöüÉËÏÓÖÜ',
  dan: 'æøåÆØÅ',
  nor: 'æøåÆØÅ',
  swe: 'åäöÅÄÖ',
  fin: 'äöåÄÖÅ',
  pol: 'ąćęłńóśźżĄĆĘŁŃÓŚŹŻ',
  ces: 'áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ',
  tur: 'çğıöşüÇĞİÖŞÜ',
};

/** The most frequent characters of written Chinese (simplified and traditional); a recogniser lacking them does not read Chinese. */
const CHINESE_SAMPLES: Record<string, string> = {
  chi_sim: '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年',
  chi_tra: '的一是不了人我在有他這中大來上國個到說們為子和你地出道也時年',
};

/** Characters `lang` needs, or undefined for a language this table does not know. */
export function lettersOf(lang: string): string[] | undefined {
  const chinese = CHINESE_SAMPLES[lang];
  if (chinese !== undefined) return [...chinese];
  const extra = EXTRA_LETTERS[lang];
  return extra === undefined ? undefined : [...LATIN, ...extra];
}

export interface Coverage {
  /** Languages every needed character of which the dictionary has. */
  covered: string[];
  /** Languages with the characters the dictionary lacks. */
  lacking: { lang: string; missing: string[] }[];
  /** Languages this table does not know. */
  unknown: string[];
}

export function coverageOf(langs: readonly string[], dictionary: readonly string[]): Coverage {
  const known = new Set(dictionary);
  const coverage: Coverage = { covered: [], lacking: [], unknown: [] };
  for (const lang of langs) {
    const letters = lettersOf(lang);
    if (!letters) {
      coverage.unknown.push(lang);
      continue;
    }
    const missing = letters.filter((letter) => !known.has(letter));
    if (missing.length === 0) coverage.covered.push(lang);
    else coverage.lacking.push({ lang, missing });
  }
  return coverage;
}
