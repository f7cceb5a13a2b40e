/**
 * An Extraction as a few strings and typed arrays, for its way back from a
 * worker thread (the rules engine's): a structured clone of its provenance
 * makes one object per value and per word on the event loop (an answer of
 * 5,000 rows, 20,000 values: 35-47 ms in one piece); this copies memory,
 * and the loop makes the objects a value per step (`unpackingExtraction`).
 * The candidate value travels as it is: its clone for 5,000 rows costs the
 * loop 2-3 ms. unpackExtraction(packExtraction(e)) deep-equals e, key order
 * included: a source of another shape than the usual (a field ValueSource
 * does not name yet) is cloned whole.
 */
import type { WordRef } from '../document/document.js';
import type { Extraction } from './engine.js';
import type { Provenance, ValueSource } from './provenance.js';
import { runSync, type PacedWork } from '../util/paced.js';

export interface PackedExtraction {
  value: unknown;
  /** Every pointer of the provenance, back to back, in its order. */
  pointers: string;
  /** Per source: its pointer's length, its word count and what it holds besides words (HAS_* bits). */
  counts: Uint32Array;
  /** file, page, line and word of each word of each source, in order. */
  words: Int32Array;
  /** Per source: its score, rivals and margin (NaN where it has none). */
  scores: Float64Array;
  rivals: Float64Array;
  margins: Float64Array;
  /** The role of each source that has one, in order. */
  roles: string[];
  /** Sources of another shape, by their position, as they are. */
  others: Map<number, ValueSource>;
}

const HAS_SCORE = 1;
const HAS_COMPETITION = 2;
const HAS_ROLE = 4;
/** A source that is in `others`. */
const OTHER = 8;

const SOURCE_KEYS = ['words', 'score', 'competition', 'role'] as const;
const WORD_KEYS = ['file', 'page', 'line', 'word'] as const;

export function packExtraction({ value, provenance }: Extraction): PackedExtraction {
  const count = provenance.size;
  const counts = new Uint32Array(3 * count);
  const scores = new Float64Array(count).fill(NaN);
  const rivals = new Float64Array(count).fill(NaN);
  const margins = new Float64Array(count).fill(NaN);
  const pointers: string[] = [];
  const words: number[] = [];
  const roles: string[] = [];
  const others = new Map<number, ValueSource>();
  let at = 0;
  for (const [pointer, source] of provenance) {
    pointers.push(pointer);
    counts[3 * at] = pointer.length;
    const flags = isUsual(source) ? usualFlags(source) : OTHER;
    counts[3 * at + 2] = flags;
    if (flags === OTHER) others.set(at, source);
    else {
      counts[3 * at + 1] = source.words.length;
      for (const ref of source.words) words.push(ref.file, ref.page, ref.line, ref.word);
      if (flags & HAS_SCORE) scores[at] = source.score!;
      if (flags & HAS_COMPETITION) {
        rivals[at] = source.competition!.rivals;
        margins[at] = source.competition!.margin;
      }
      if (flags & HAS_ROLE) roles.push(source.role!);
    }
    at++;
  }
  return { value, pointers: pointers.join(''), counts, words: Int32Array.from(words), scores, rivals, margins, roles, others };
}

export function unpackExtraction(packed: PackedExtraction): Extraction {
  return runSync(unpackingExtraction(packed));
}

/** unpackExtraction in steps: one per value of the provenance. */
export function* unpackingExtraction({ value, pointers, counts, words, scores, rivals, margins, roles, others }: PackedExtraction): PacedWork<Extraction> {
  const provenance: Provenance = new Map();
  let pointerAt = 0;
  let wordAt = 0;
  let roleAt = 0;
  for (let at = 0; at < counts.length / 3; at++) {
    yield;
    const pointer = pointers.slice(pointerAt, (pointerAt += counts[3 * at]!));
    const flags = counts[3 * at + 2]!;
    if (flags === OTHER) {
      provenance.set(pointer, others.get(at)!);
      continue;
    }
    const refs: WordRef[] = [];
    for (let k = 0; k < counts[3 * at + 1]!; k++, wordAt += 4) refs.push({ file: words[wordAt]!, page: words[wordAt + 1]!, line: words[wordAt + 2]!, word: words[wordAt + 3]! });
    const source: ValueSource = { words: refs };
    if (flags & HAS_SCORE) source.score = scores[at]!;
    if (flags & HAS_COMPETITION) source.competition = { rivals: rivals[at]!, margin: margins[at]! };
    if (flags & HAS_ROLE) source.role = roles[roleAt++] as ValueSource['role'];
    provenance.set(pointer, source);
  }
  return { value, provenance };
}

/** The shape the arrays hold: words of int32 parts, a number score, a competition of two numbers, a string role, in that order, nothing else. */
function isUsual(source: ValueSource): boolean {
  if (!hasKeysInOrder(source, SOURCE_KEYS) || !Array.isArray(source.words)) return false;
  // (an index loop: every() would pass over a hole)
  for (let index = 0; index < source.words.length; index++) if (!isUsualWord(source.words[index]!)) return false;
  if ('score' in source && typeof source.score !== 'number') return false;
  if ('role' in source && typeof source.role !== 'string') return false;
  if (!('competition' in source)) return true;
  const competition = source.competition as unknown;
  return typeof competition === 'object' && competition !== null && hasKeysInOrder(competition, ['rivals', 'margin'], true) && typeof source.competition!.rivals === 'number' && typeof source.competition!.margin === 'number';
}

function usualFlags(source: ValueSource): number {
  return ('score' in source ? HAS_SCORE : 0) | ('competition' in source ? HAS_COMPETITION : 0) | ('role' in source ? HAS_ROLE : 0);
}

function isUsualWord(ref: WordRef): boolean {
  return typeof ref === 'object' && ref !== null && hasKeysInOrder(ref, WORD_KEYS, true) && WORD_KEYS.every((key) => (ref[key] | 0) === ref[key] && !Object.is(ref[key], -0));
}

/** Whether `object`'s own keys are some of `keys` (all of them with `all`), in their order, and its prototype is Object's. */
function hasKeysInOrder(object: object, keys: readonly string[], all = false): boolean {
  if (Object.getPrototypeOf(object) !== Object.prototype) return false;
  const own = Object.keys(object);
  if (all && own.length !== keys.length) return false;
  let next = 0;
  for (const key of own) {
    while (next < keys.length && keys[next] !== key) next++;
    if (next === keys.length) return false;
    next++;
  }
  return own.length === Reflect.ownKeys(object).length;
}
