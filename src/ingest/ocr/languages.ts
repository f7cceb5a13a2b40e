/**
 * The letters each OCR_LANGS language (Tesseract's codes) needs, so that
 * OCR_ENGINE=auto can check them against the PP-OCR recogniser's
 * dictionary: a recogniser that cannot write "ß" must not read German. The
 * check is data, not a list of engines: a user's Latin recogniser
 * (OCR_PADDLE_MODEL_DIR) passes for German by itself.
 */
const LATIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Letters beyond A-Z each Latin-script language writes (both cases where they exist). */
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
  isl: 'áðéíóúýþæöÁÐÉÍÓÚÝÞÆÖ',
  pol: 'ąćęłńóśźżĄĆĘŁŃÓŚŹŻ',
  ces: 'áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ',
  slk: 'áäčďéíĺľňóôŕšťúýžÁÄČĎÉÍĹĽŇÓÔŔŠŤÚÝŽ',
  slv: 'čšžČŠŽ',
  hrv: 'čćđšžČĆĐŠŽ',
  hun: 'áéíóöőúüűÁÉÍÓÖŐÚÜŰ',
  ron: 'ăâîșțĂÂÎȘȚ',
  lit: 'ąčęėįšųūžĄČĘĖĮŠŲŪŽ',
  lav: 'āčēģīķļņšūžĀČĒĢĪĶĻŅŠŪŽ',
  est: 'äöõüšžÄÖÕÜŠŽ',
  cat: 'àçèéíïòóúüÀÇÈÉÍÏÒÓÚÜ',
  glg: 'áéíñóúüÁÉÍÑÓÚÜ',
  eus: 'ñÑ',
  gle: 'áéíóúÁÉÍÓÚ',
  cym: 'âêîôûŵŷÂÊÎÔÛŴŶ',
  mlt: 'ċġħżĊĠĦŻ',
  sqi: 'çëÇË',
  afr: 'êëïôûÊËÏÔÛ',
  tur: 'çğıöşüÇĞİÖŞÜ',
  ind: '',
  msa: '',
  swa: '',
  lat: '',
  vie: 'ăâđêôơưàảãáạằẳẵắặầẩẫấậèẻẽéẹềểễếệìỉĩíịòỏõóọồổỗốộờởỡớợùủũúụừửữứựỳỷỹýỵĂÂĐÊÔƠƯ',
};

/**
 * Characters a recogniser must write to read the language at all: the most
 * frequent characters of written Chinese (simplified and traditional), and
 * for Japanese the kana with a few of its commonest kanji.
 */
const SCRIPT_SAMPLES: Record<string, string> = {
  chi_sim: '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年',
  chi_tra: '的一是不了人我在有他這中大來上國個到說們為子和你地出道也時年',
  jpn: 'あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲン日本人年月円',
};

/** Characters `lang` needs, or undefined for a language this table does not know. */
export function lettersOf(lang: string): string[] | undefined {
  const script = SCRIPT_SAMPLES[lang];
  if (script !== undefined) return [...script];
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
