/**
 * Running text as sentences. Contracts, letters and policies state their
 * values inside sentences that wrap over several lines ("This Agreement
 * shall be governed by the laws of the State\nof New York."), so the lines
 * are joined back into one stream and cut at sentence ends. Headings ("12.
 * Term.") and other short lines become sentences of their own, which keeps
 * a heading's words from running into the clause below it.
 */
import { tokenize, type Token } from '../../../meaning/words.js';
import type { WordRef } from '../../../document/document.js';
import { firstIndexWhere } from '../../../util/sorted-search.js';
import type { Cue } from './cues.js';
import { tokenRange } from '../core/fuzzy.js';
import { wordsInRange, type RuleLine } from '../core/lines.js';
import { tableWords } from '../core/table-words.js';

export interface Sentence {
  text: string;
  tokens: Token[];
  /** Position among the document's sentences. */
  position: number;
  /** Index of the line the sentence starts on. */
  line: number;
  page: number;
  /** A short title-case run such as "12. Term." or "Governing Law; Jurisdiction and Venue." */
  heading: boolean;
  /** The lines the sentence was joined from, each with its offset in the sentence's text (negative when it starts before it). */
  sources: ReadonlyArray<{ offset: number; line: RuleLine }>;
}

/** A sentence of running text rather than a label, a heading or a table row. */
export const MIN_PROSE_WORDS = 6;

const cache = new WeakMap<readonly RuleLine[], Sentence[]>();

export function readSentences(lines: readonly RuleLine[]): Sentence[] {
  let sentences = cache.get(lines);
  if (!sentences) {
    sentences = buildSentences(lines);
    cache.set(lines, sentences);
  }
  return sentences;
}

/** A document that is mostly running text (a contract, a letter), where values are stated in words. */
export function isProseDocument(lines: readonly RuleLine[]): boolean {
  const prose = readSentences(lines).filter((s) => s.tokens.length >= 12 && /\b(?:the|of|and|to)\b/.test(s.text));
  return prose.length >= 8;
}

/** Page numbers and "Page 3 of 7" are layout, not text; they would split a sentence that runs over a page break. */
const PAGE_FURNITURE = /^(?:page\s+)?[-–(]?\s*\d{1,3}\s*[-–)]?(?:\s+of\s+\d{1,3})?$/i;

interface Piece {
  text: string;
  line: number;
  page: number;
  source: RuleLine;
}

/** A sentence cut from a paragraph, before its white space is trimmed. */
interface Cut {
  text: string;
  /** Where it starts in the paragraph's joined text. */
  at: number;
  first: Piece;
}

function buildSentences(lines: readonly RuleLine[]): Sentence[] {
  const sentences: Sentence[] = [];
  for (const paragraph of paragraphsOf(lines)) {
    const { cuts, starts } = splitSentences(paragraph);
    for (const cut of cuts) {
      const text = cut.text.trim();
      if (text === '') continue;
      const tokens = tokenize(text);
      const base = cut.at + cut.text.length - cut.text.trimStart().length;
      const sources = piecesOverlapping(starts, base, base + text.length).map((start) => ({ offset: start.offset - base, line: start.piece.source }));
      sentences.push({ text, tokens, position: sentences.length, line: cut.first.line, page: cut.first.page, heading: isHeading(text, tokens), sources });
    }
  }
  return sentences;
}

/** The pieces of a paragraph's joined text that characters [from, to) overlap (binary search: a paragraph may hold thousands). */
function piecesOverlapping(starts: ReadonlyArray<{ offset: number; piece: Piece }>, from: number, to: number): Array<{ offset: number; piece: Piece }> {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const start = starts[middle]!;
    if (start.offset + start.piece.text.length <= from) low = middle + 1;
    else high = middle;
  }
  const overlapping: Array<{ offset: number; piece: Piece }> = [];
  for (let i = low; i < starts.length && starts[i]!.offset < to; i++) overlapping.push(starts[i]!);
  return overlapping;
}

/** The Document words under characters [start, end) of a sentence (its lines found by binary search: a sentence may run over thousands). */
export function sentenceWords(sentence: Sentence, start: number, end: number): WordRef[] {
  const { sources } = sentence;
  // the line holding `start` is the last one starting at or before it; one more before it in case its text ran on
  const from = Math.max(0, firstIndexWhere(sources, (source) => source.offset > start) - 2);
  const words: WordRef[] = [];
  for (let i = from; i < sources.length && sources[i]!.offset < end; i++) {
    for (const word of wordsInRange(sources[i]!.line, start - sources[i]!.offset, end - sources[i]!.offset)) words.push(word);
  }
  return words;
}

/** Lines joined into runs that no sentence crosses: a short line (heading, signature line) ends its run. */
function paragraphsOf(lines: readonly RuleLine[]): Piece[][] {
  const rightEdge = new Map<number, number>();
  for (const line of lines) rightEdge.set(line.page, Math.max(rightEdge.get(line.page) ?? 0, lineEnd(line)));
  const paragraphs: Piece[][] = [];
  let current: Piece[] = [];
  let previous: RuleLine | undefined;
  for (const line of lines) {
    const text = line.text.trim();
    if (PAGE_FURNITURE.test(text)) continue;
    // a clause that goes on in lower case ("the State" / "of Indiana") is not cut by a short line;
    // a row with a column gap ("Term:   2 years") is a form row, not running text
    const cut = previous && ((endsRun(previous, rightEdge.get(previous.page) ?? 0) && !/^\p{Ll}/u.test(text)) || previous.cells.length > 1 || line.cells.length > 1);
    if (cut) {
      paragraphs.push(current);
      current = [];
    }
    current.push({ text, line: line.index, page: line.page, source: line });
    previous = line;
  }
  if (current.length > 0) paragraphs.push(current);
  return paragraphs;
}

function lineEnd(line: RuleLine): number {
  return line.words[line.words.length - 1]?.x1 ?? 0;
}

/** A line that stops well short of the right margin, without a word broken over the line end, closes its run. */
function endsRun(line: RuleLine, rightEdge: number): boolean {
  if (/[-‐,]$/.test(line.text)) return false;
  const width = rightEdge - (line.words[0]?.x0 ?? 0);
  return width > 0 && rightEdge - lineEnd(line) > 0.25 * width;
}

/** Abbreviations of the language tables, in lower case without their final full stop ("inc", "e.g", "ph.d"): a full stop after them does not end the sentence. */
const ABBREVIATIONS: ReadonlySet<string> = new Set(tableWords((language) => language.abbreviations).map((word) => word.toLowerCase().replace(/\.$/, '')));
const SENTENCE_END = /[.!?]["”’)]*\s+(?=["“‘(]?[\p{Lu}\p{N}(])/gu;

/** Longer words before a full stop are never abbreviations, initials or enumerators. */
const MAX_ABBREVIATION_LENGTH = 64;

/**
 * The word of text[from, at) that ends at `at`. Looking back at most a bounded
 * distance keeps this linear: matching /(\S+)$/ against everything since the
 * last sentence end made a long run of "Inc." or "No." quadratic.
 */
function wordEndingAt(text: string, from: number, at: number): string {
  let start = at;
  while (start > from && !/\s/.test(text[start - 1]!)) start--;
  return text.slice(start, at);
}

/** "Inc", "J", "L.E.K", "12", "(iv)": a full stop after these does not end the sentence. */
function isAbbreviation(word: string): boolean {
  if (word.length > MAX_ABBREVIATION_LENGTH) return false;
  const bare = word.replace(/^[(“"‘']+/, '').toLowerCase();
  return ABBREVIATIONS.has(bare) || /^\p{L}$/u.test(bare) || /^(?:\p{L}\.)+\p{L}$/u.test(bare) || /^\(?(?:\d{1,2}|[ivx]{1,4})\)?$/.test(bare);
}

/** Cuts a run of lines at sentence ends, not after "Inc.", initials ("L.E.K.", "J.") or enumerators ("12."). */
function splitSentences(pieces: Piece[]): { cuts: Cut[]; starts: Array<{ offset: number; piece: Piece }> } {
  let text = '';
  const starts: Array<{ offset: number; piece: Piece }> = [];
  for (const piece of pieces) {
    // "NON-" + "DISCLOSURE" is one word broken over two lines
    if (text !== '' && !/\p{L}-$/u.test(text)) text += ' ';
    starts.push({ offset: text.length, piece });
    text += piece.text;
  }
  // the piece holding `offset`: the last one starting at or before it (binary search; pieces are in text order)
  const placeOf = (offset: number): Piece => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]!.offset <= offset) low = middle;
      else high = middle - 1;
    }
    return starts[low]!.piece;
  };
  const cuts: Cut[] = [];
  let from = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const at = match.index ?? 0;
    const word = wordEndingAt(text, Math.max(from, at - MAX_ABBREVIATION_LENGTH - 1), at);
    if (isAbbreviation(word)) continue;
    const end = at + match[0].length;
    cuts.push({ text: text.slice(from, end), at: from, first: placeOf(from) });
    from = end;
  }
  if (from < text.length) cuts.push({ text: text.slice(from), at: from, first: placeOf(from) });
  return { cuts, starts };
}

function isHeading(text: string, tokens: readonly Token[]): boolean {
  if (tokens.length === 0 || tokens.length > 8) return false;
  const words = text.split(/\s+/).map((w) => w.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')).filter((w) => w.length >= 4);
  return words.length > 0 && words.every((w) => /^\p{Lu}/u.test(w));
}

/** Every place a phrase (normalised words) occurs in a sentence, as token positions [first, last). */
export function findPhrase(tokens: readonly Token[], phrase: readonly string[]): Array<{ first: number; last: number }> {
  const found: Array<{ first: number; last: number }> = [];
  if (phrase.length === 0) return found;
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    if (phrase.every((word, k) => tokens[i + k]!.norm === word)) found.push({ first: i, last: i + phrase.length });
  }
  return found;
}

const MODAL = /\b(?:shall|will|may|must|is|are|has|have|does|do)\b/i;
const ENUMERATOR = /^\s*(?:(?:\(?[0-9]{1,2}[.)]|\([a-z]{1,4}\)|[a-z]\.)\s*)+/i;

/**
 * The words before the sentence's first verb, after a leading clause:
 * "Notwithstanding X, the obligations of Y shall ..." -> "the obligations of Y".
 * Undefined when the sentence has no such verb.
 */
export function subjectOf(sentence: string): string | undefined {
  const text = sentence.replace(ENUMERATOR, '');
  const verb = MODAL.exec(text);
  if (!verb) return undefined;
  const before = text.slice(0, verb.index);
  return before.slice(before.lastIndexOf(',') + 1).trim();
}

/** A value a prose reader found, with its score, the sentence it came from and the words it was read from. */
export interface ProseCandidate {
  value: unknown;
  score: number;
  position: number;
  words: WordRef[];
}

export interface CueHit {
  cue: Cue;
  /** Character offsets of the cue in the sentence. */
  start: number;
  end: number;
  /** Token positions [first, last) of the cue in the sentence. */
  first: number;
  last: number;
}

/** Every occurrence of the cues in a sentence. */
export function cueHits(sentence: Sentence, cues: readonly Cue[]): CueHit[] {
  const hits: CueHit[] = [];
  for (const cue of cues) {
    for (const { first, last } of findPhrase(sentence.tokens, cue.words)) {
      hits.push({ cue, start: sentence.tokens[first]!.start, end: sentence.tokens[last - 1]!.end, first, last });
    }
  }
  return hits;
}

/** Number of words between two character offsets of a sentence (binary search: it is asked for every value and cue of a sentence). */
export function wordsBetween(sentence: Sentence, from: number, to: number): number {
  const [first, last] = tokenRange(sentence.tokens, from, to);
  return last - first;
}

/**
 * A sentence's cue hits, found by their distance in words from a value:
 * comparing every value with every hit made a long sentence full of both
 * cubic (a value and a hit further apart than a few words never count, so
 * only the few near each value are looked at, by binary search).
 */
export class HitsByDistance {
  /** Sorted by their first token, and by the token after their last. */
  private readonly byFirst: CueHit[];
  private readonly byLast: CueHit[];
  /** The most tokens a hit spans. */
  private readonly longest: number;

  constructor(
    private readonly sentence: Sentence,
    hits: readonly CueHit[],
  ) {
    this.byFirst = [...hits].sort((a, b) => a.first - b.first);
    this.byLast = [...hits].sort((a, b) => a.last - b.last);
    this.longest = hits.reduce((most, hit) => Math.max(most, hit.last - hit.first), 0);
  }

  get size(): number {
    return this.byFirst.length;
  }

  /** The hits that end at or before `offset` with at most `maxWords` words between them and it. */
  before(offset: number, maxWords: number): CueHit[] {
    const [, wordsBefore] = tokenRange(this.sentence.tokens, 0, offset);
    return this.lastIn(wordsBefore - maxWords, wordsBefore);
  }

  /** The hits that start at or after `offset` with at most `maxWords` words between it and them. */
  after(offset: number, maxWords: number): CueHit[] {
    const next = firstIndexWhere(this.sentence.tokens, (token) => token.start >= offset);
    return this.firstIn(next, next + maxWords);
  }

  /** The hits that share a word with characters [from, to). */
  overlapping(from: number, to: number): CueHit[] {
    const { tokens } = this.sentence;
    const firstWord = firstIndexWhere(tokens, (token) => token.end > from);
    const afterWords = firstIndexWhere(tokens, (token) => token.start >= to);
    return this.firstIn(firstWord - this.longest + 1, afterWords - 1).filter((hit) => hit.last > firstWord);
  }

  /** Hits whose first token lies in [low, high]. */
  private firstIn(low: number, high: number): CueHit[] {
    const hits: CueHit[] = [];
    for (let i = firstIndexWhere(this.byFirst, (hit) => hit.first >= low); i < this.byFirst.length && this.byFirst[i]!.first <= high; i++) hits.push(this.byFirst[i]!);
    return hits;
  }

  /** Hits whose token after the last lies in [low, high]. */
  private lastIn(low: number, high: number): CueHit[] {
    const hits: CueHit[] = [];
    for (let i = firstIndexWhere(this.byLast, (hit) => hit.last >= low); i < this.byLast.length && this.byLast[i]!.last <= high; i++) hits.push(this.byLast[i]!);
    return hits;
  }
}
