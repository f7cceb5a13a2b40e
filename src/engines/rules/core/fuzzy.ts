/**
 * Tolerant matching of label phrases against OCR text: "T0TAL", "lnvoice No"
 * and "SubTotal" / "Sub Total" should all find their label, and some label
 * words close compounds ("Handelsrechnung Nr." is a "Rechnung Nr.").
 */
import { LANGUAGES } from '../../../meaning/languages/index.js';
import { normaliseWord, tokenize, type Token } from '../../../meaning/words.js';

export interface PhraseMatch {
  score: number;
  /** Token positions [first, last) of the match in the searched tokens. */
  first: number;
  last: number;
}

/** First index in `tokens` (in text order) whose `key` is at least `offset`. */
function firstAtOrAfter(tokens: readonly Token[], offset: number, key: 'start' | 'end'): number {
  let low = 0;
  let high = tokens.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (tokens[middle]![key] < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Indexes [first, last) of the tokens lying inside [from, to] of the text,
 * found by binary search: filtering or slicing a line's tokens once per value
 * found made long lines quadratic, so callers take only the few they need.
 */
export function tokenRange(tokens: readonly Token[], from: number, to: number): [number, number] {
  const first = firstAtOrAfter(tokens, from, 'start');
  return [first, Math.max(first, firstAtOrAfter(tokens, to + 1, 'end'))];
}

/** Up to `count` tokens ending at or before `offset`, the nearest last. */
export function tokensBefore(tokens: readonly Token[], offset: number, count: number): Token[] {
  const [, last] = tokenRange(tokens, 0, offset);
  return tokens.slice(Math.max(0, last - count), last);
}

/**
 * The edit distance of `a` and `b`, or `limit + 1` as soon as it must exceed
 * `limit`: only cells within `limit` of the diagonal can stay within it, and
 * a row whose every cell is past it ends the search. Label matching asks this
 * of every word of a document against hundreds of label words, nearly all far
 * apart: the band and the early end make that cost the words' length times
 * `limit`, not the product of their lengths.
 */
export function levenshtein(a: string, b: string, limit = Math.max(a.length, b.length)): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const beyond = limit + 1;
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j <= limit ? j : beyond;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    current[0] = i <= limit ? i : beyond;
    if (from > 1) current[from - 1] = beyond;
    let rowBest = current[0]!;
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost, beyond);
      current[j] = value;
      if (value < rowBest) rowBest = value;
    }
    if (to < b.length) current[to + 1] = beyond;
    if (rowBest > limit) return beyond;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[b.length]!, beyond);
}

const SIMILARITY_CACHE_LIMIT = 50_000;
/** Label words are few and document words repeat: similarities are computed once per pair. */
const similarityCache = new Map<string, Map<string, number>>();

/**
 * 1 for equal words; short words (likely abbreviations) must match exactly.
 * Below MIN_WORD_SIMILARITY it is 0 (every caller asks for at least that),
 * which lets the edit distance stop early.
 */
export function wordSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (!similarLengths(a, b)) return 0;
  return similarityOfKinds(a, b, letterKinds(a), letterKinds(b));
}

/** wordSimilarity of words whose letterKinds the caller keeps. */
function similarityOfKinds(a: string, b: string, kindsA: number, kindsB: number): number {
  if (a === b) return 1;
  if (!similarLengths(a, b)) return 0;
  const longest = Math.max(a.length, b.length);
  const limit = editLimit(longest);
  // most pairs are far apart, and this proves it without the cache or the edit distance
  if (distanceAtLeast(kindsA, kindsB) > limit) return 0;
  let forA = similarityCache.get(a);
  const cached = forA?.get(b);
  if (cached !== undefined) return cached;
  let similarity = 0;
  // "subtotal" holds "total" but is another word; OCR noise changes letters rather than adding a word
  if (!((a.includes(b) || b.includes(a)) && !isInflection(a, b))) {
    const distance = levenshtein(a, b, limit);
    if (distance <= limit) similarity = 1 - distance / longest;
  }
  if (!forA) {
    if (similarityCache.size >= SIMILARITY_CACHE_LIMIT) similarityCache.clear();
    forA = new Map();
    similarityCache.set(a, forA);
  }
  forA.set(b, similarity);
  return similarity;
}

/**
 * A lower bound of the edit distance of two words by the kinds of letter
 * they hold (letterKinds): every letter of one
 * whose kind (its code modulo 32: a..z apart, some digits share with
 * letters) the other lacks takes an edit of its own, so the distance is at
 * least the number of such kinds on either side.
 */
function distanceAtLeast(kindsA: number, kindsB: number): number {
  return Math.max(bitCount(kindsA & ~kindsB), bitCount(kindsB & ~kindsA));
}

/** The kinds of letter a word holds, one bit each; the kinds of words run together are their union. */
function letterKinds(word: string): number {
  let kinds = 0;
  for (let i = 0; i < word.length; i++) kinds |= 1 << (word.charCodeAt(i) & 31);
  return kinds;
}

function bitCount(bits: number): number {
  let x = bits - ((bits >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The most edits two words may differ by, the longer `longest` characters, and still reach MIN_WORD_SIMILARITY. */
function editLimit(longest: number): number {
  return Math.floor((1 - MIN_WORD_SIMILARITY) * longest + 1e-9);
}

/** Short words (likely abbreviations) only equal; lengths further apart than this cannot reach MIN_WORD_SIMILARITY. */
function similarLengths(a: string, b: string): boolean {
  const shortest = Math.min(a.length, b.length);
  const longest = Math.max(a.length, b.length);
  return shortest >= 4 && longest - shortest <= (1 - MIN_WORD_SIMILARITY) * longest;
}

function isInflection(a: string, b: string): boolean {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.startsWith(short) && ['s', 'es', '.'].includes(long.slice(short.length));
}

const MIN_WORD_SIMILARITY = 0.75;

/**
 * How nearly a printed word is a label's word: also "TAX1", "TAX2" for "tax"
 * (tills number their tax classes), and a compound a label word closes
 * ("Handelsrechnung", "Mietrechnung" for "Rechnung"), each a little less than
 * the word itself. A word that is itself a label word of the tables is that
 * word and no misreading of another: "Rechnungssumme" is three letters from
 * "Rechnungsnummer", and another field.
 */
function labelWordSimilarity(printed: string, label: string, compoundHead: boolean, printedKinds: number, labelKinds: number): number {
  // (the pattern only where it can match: it ran on every word of every line for every label)
  const numbered = printed.length >= 4 && isAsciiDigit(printed.charCodeAt(printed.length - 1)) ? /^(\p{L}{3,})\d$/u.exec(printed) : null;
  if (numbered && numbered[1] === label) return NUMBERED_LABEL_SIMILARITY;
  if (compoundHead && printed.length >= label.length + MIN_COMPOUND_PREFIX && printed.endsWith(label)) return COMPOUND_SIMILARITY;
  // wordSimilarity's own rejections by length, before the set look-up: nearly every pair ends here, at 0 either way
  if (printed === label) return 1;
  if (!similarLengths(printed, label)) return 0;
  if (KNOWN_WORDS.has(printed) && !isInflection(printed, label)) return 0;
  return similarityOfKinds(printed, label, printedKinds, labelKinds);
}

function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

const NUMBERED_LABEL_SIMILARITY = 0.95;
const COMPOUND_SIMILARITY = 0.9;
/** Letters a compound puts before its head ("Miet" in "Mietrechnung"). */
const MIN_COMPOUND_PREFIX = 3;
const COMPOUND_HEADS: ReadonlySet<string> = new Set(LANGUAGES.flatMap((language) => (language.compoundHeads ?? []).map(normaliseWord)));

/** Every word of every label of the tables (long enough to be misread into another: five letters or more). */
const KNOWN_WORDS: ReadonlySet<string> = new Set(
  LANGUAGES.flatMap((language) => [
    ...Object.values(language.concepts).flatMap((words) => words.labels ?? []),
    ...Object.values(language.phrases).flat(),
    ...language.titles,
  ])
    .flatMap((label) => tokenize(label).map((token) => token.norm))
    .filter((word) => word.length >= 5),
);

/**
 * Every occurrence of a phrase (normalised words) in a token sequence, also
 * across missing or extra spaces ("subtotal" vs "sub total"), best first.
 */
export function matchPhraseAll(tokens: readonly Token[], phrase: readonly string[]): PhraseMatch[] {
  if (phrase.length === 0) return [];
  const { joined: joinedPhrase, joinedKinds, compoundHeads, kinds, sizes, wordMisses, joinedMisses } = shapeOf(phrase);
  const runs = runsOf(tokens);
  const matches: PhraseMatch[] = [];
  // a word needs most of its kinds of letter somewhere on the line: most labels are ruled out here, for the whole line at once
  let wordsPossible = true;
  for (let k = 0; k < phrase.length && wordsPossible; k++) if (bitCount(kinds[k]! & ~runs.all) > wordMisses[k]!) wordsPossible = false;
  for (let first = 0; wordsPossible && first + phrase.length <= tokens.length; first++) {
    let total = 0;
    let ok = true;
    for (let k = 0; k < phrase.length && ok; k++) {
      // the same bound word by word, before the word's own checks
      if (bitCount(kinds[k]! & ~runs.kinds[first + k]!) > wordMisses[k]!) {
        ok = false;
        break;
      }
      const similarity = labelWordSimilarity(tokens[first + k]!.norm, phrase[k]!, compoundHeads[k]!, runs.kinds[first + k]!, kinds[k]!);
      if (similarity < MIN_WORD_SIMILARITY) ok = false;
      total += similarity;
    }
    if (ok) matches.push({ score: total / phrase.length, first, last: first + phrase.length });
  }
  if (sizes.length > 0 && bitCount(joinedKinds & ~runs.all) <= joinedMisses) {
    const slack = (1 - MIN_WORD_SIMILARITY) * joinedPhrase.length;
    for (const size of sizes) {
      for (let first = 0; first + size <= tokens.length; first++) {
        let length = 0;
        let runKinds = 0;
        for (let k = first; k < first + size; k++) {
          length += tokens[k]!.norm.length;
          runKinds |= runs.kinds[k]!;
        }
        if (Math.abs(length - joinedPhrase.length) > slack) continue;
        // (similarityOfKinds's own bound, before the run is joined: nearly every run ends here)
        if (distanceAtLeast(runKinds, joinedKinds) > editLimit(Math.max(length, joinedPhrase.length))) continue;
        const joined = joinedRun(runs, tokens, first, size);
        const similarity = joined === joinedPhrase ? 1 : similarityOfKinds(joined, joinedPhrase, runKinds, joinedKinds);
        if (similarity >= 0.85) matches.push({ score: similarity * 0.97, first, last: first + size });
      }
    }
  }
  return matches.sort((a, b) => b.score - a.score || a.first - b.first);
}

/** What matching works out once per token sequence, for every label tried on it. */
interface TokenRuns {
  /** letterKinds of each token. */
  kinds: Int32Array;
  /** letterKinds of all of them. */
  all: number;
  /** The words of tokens [first, first + size) run together, by size and first (as they are needed). */
  joined: string[][];
}

/** Runs of each token sequence (a line's tokens live as long as the line, one request). */
const tokenRuns = new WeakMap<readonly Token[], TokenRuns>();

/** Token sequences prepared, for tests that check a line's tokens are prepared once, not once per label. */
export const tokenRunStats = { prepared: 0 };

function runsOf(tokens: readonly Token[]): TokenRuns {
  let runs = tokenRuns.get(tokens);
  if (!runs) {
    tokenRunStats.prepared++;
    const kinds = Int32Array.from(tokens, (token) => letterKinds(token.norm));
    runs = { kinds, all: kinds.reduce((all, word) => all | word, 0), joined: [] };
    tokenRuns.set(tokens, runs);
  }
  return runs;
}

/** Tokens [first, first + size) run together, built once per sequence: every label of every field tries the same runs of a line. */
function joinedRun(runs: TokenRuns, tokens: readonly Token[], first: number, size: number): string {
  const bySize = (runs.joined[size] ??= []);
  let joined = bySize[first];
  if (joined === undefined) {
    joined = '';
    for (let k = first; k < first + size; k++) joined += tokens[k]!.norm;
    bySize[first] = joined;
  }
  return joined;
}

/** What matching a phrase needs besides its words, worked out once per phrase rather than once per line searched. */
interface PhraseShape {
  /** The words run together ("subtotal"), to find the phrase printed with missing or extra spaces. */
  joined: string;
  joinedKinds: number;
  /** Whether each word closes compounds ("rechnung"). */
  compoundHeads: boolean[];
  /** letterKinds of each word. */
  kinds: number[];
  /**
   * For each word, the most of its kinds of letter a printed word may lack and
   * still match it: the edit limit of the longest word similar in length
   * (a numbered or compound word holds all of them). The same for the joined phrase.
   */
  wordMisses: number[];
  joinedMisses: number;
  /** How many printed words may hold the joined phrase, other than the phrase's own count (none for a short phrase). */
  sizes: number[];
}

/**
 * Label phrases are the schema's (hints cached per schema, labels.ts) and the
 * language tables', matched against every line: keyed by the phrase array,
 * which callers never change (it is readonly).
 */
const phraseShapes = new WeakMap<readonly string[], PhraseShape>();

function shapeOf(phrase: readonly string[]): PhraseShape {
  let shape = phraseShapes.get(phrase);
  if (shape) return shape;
  const joined = phrase.join('');
  const sizes: number[] = [];
  if (joined.length >= 5) {
    // OCR breaks a long word in three as easily as in two ("Verk au fer")
    const most = phrase.length + (joined.length >= LONG_JOINED ? 2 : 1);
    for (let size = Math.max(1, phrase.length - 1); size <= most; size++) if (size !== phrase.length) sizes.push(size);
  }
  shape = {
    joined,
    joinedKinds: letterKinds(joined),
    compoundHeads: phrase.map((word) => COMPOUND_HEADS.has(word)),
    kinds: phrase.map(letterKinds),
    sizes,
    wordMisses: phrase.map((word) => editLimit(word.length / MIN_WORD_SIMILARITY)),
    // runs within the slack of the joined phrase's length
    joinedMisses: editLimit((2 - MIN_WORD_SIMILARITY) * joined.length),
  };
  phraseShapes.set(phrase, shape);
  return shape;
}

/** A phrase this long may be found broken in one more piece. */
const LONG_JOINED = 8;

export function matchPhrase(tokens: readonly Token[], phrase: readonly string[]): PhraseMatch | undefined {
  return matchPhraseAll(tokens, phrase)[0];
}
