/**
 * Where each value of an extraction was read: per JSON Pointer into the
 * extracted object, the Document words it came from. Engines fill it as they
 * read; shaping, repair and the merge of windows move values around (a list
 * item dropped, a key renamed), so the pointers are carried along with them
 * here, and what finally has no value left has no provenance either.
 */
import type { WordRef } from '../document/document.js';
import { childPointer, isArrayIndex, splitPointer, valueAtPointer } from '../util/json-pointer.js';
import { runSync, type PacedWork } from '../util/paced.js';

/** Where one value was read. */
export interface ValueSource {
  /**
   * The Document words the value was read from, in reading order; a value
   * over several lines has the words of each. Also a value the engine
   * computed (a date re-printed, an amount parsed, a total rounded) points at
   * what it was computed from. Empty when the engine knows the value is in
   * the document but not where (a value without letters or digits).
   */
  words: WordRef[];
  /**
   * How strongly the engine's own reading supports the value, 0..1, when it
   * can say: the rules engine's label and value score, the grounding check's
   * share of the value found in the text.
   */
  score?: number;
  /** When the engine chose the value among other candidates: how many, and by how much it won. */
  competition?: Competition;
  /** What the engine read the value as, when it is a field it knows (the rules engine's address and business-name readings). */
  role?: ValueRole;
}

/**
 * Fields that go wrong in their own ways, whatever the shape of the value:
 * an address runs into the line after it, a business name is a logo OCR
 * could not read. The confidence is calibrated for each apart.
 */
export type ValueRole = 'address' | 'business-name';

/** How a value was chosen among the candidates an engine found for the same property. */
export interface Competition {
  /** Other distinct values that were candidates. */
  rivals: number;
  /** How far the chosen candidate's strength was ahead of the best rival's, 0..1 (1 without a rival). */
  margin: number;
}

/** JSON Pointer (RFC 6901) of a value in the extracted object, e.g. "/line_items/2/amount" -> where it was read. */
export type Provenance = Map<string, ValueSource>;

/**
 * Records where shaping put each value: `move(to, from)` says the value at
 * `from` in the input now sits at `to`; with `subtree`, everything below it
 * moved along unchanged (a value copied as is).
 */
export class PointerMoves {
  private readonly exact = new Map<string, string>();
  /** from -> to; a pointer finds its subtree by its ancestors (a list of many loose objects records one per item). */
  private readonly subtrees = new Map<string, string>();

  readonly move = (to: string, from: string, subtree = false): void => {
    if (!subtree) this.exact.set(from, to);
    else if (!this.subtrees.has(from)) this.subtrees.set(from, to);
  };

  /**
   * The provenance of the input, under the pointers of the output; what did
   * not survive is left out, and values that became one (a list read as one
   * text) keep the words of each.
   */
  apply(provenance: Provenance): Provenance {
    return runSync(this.applying(provenance));
  }

  /** apply in steps (util/paced.ts): yields after each pointer. */
  *applying(provenance: Provenance): PacedWork<Provenance> {
    const arriving = new Map<string, ValueSource[]>();
    for (const [pointer, source] of provenance) {
      yield;
      const to = this.destination(pointer);
      if (to === undefined) continue;
      const sources = arriving.get(to);
      if (sources) sources.push(source);
      else arriving.set(to, [source]);
    }
    const moved: Provenance = new Map();
    for (const [to, sources] of arriving) moved.set(to, sources.length === 1 ? sources[0]! : combineSources(sources));
    return moved;
  }

  /** Where the value at `pointer` went: its own move, else its nearest ancestor's subtree move. */
  private destination(pointer: string): string | undefined {
    const exact = this.exact.get(pointer);
    if (exact !== undefined) return exact;
    for (let ancestor = pointer; ; ancestor = ancestor.slice(0, Math.max(0, ancestor.lastIndexOf('/')))) {
      const to = this.subtrees.get(ancestor);
      if (to !== undefined) return to + pointer.slice(ancestor.length);
      if (ancestor === '') return undefined;
    }
  }
}

/** One value read from several places: the words of each (once), and the weakest score; no single choice among candidates is left to describe. */
export function combineSources(sources: readonly ValueSource[]): ValueSource {
  const seen = new Set<string>();
  const words: WordRef[] = [];
  let score: number | undefined;
  for (const source of sources) {
    for (const ref of source.words) {
      const key = `${ref.file}/${ref.page}/${ref.line}/${ref.word}`;
      if (seen.has(key)) continue;
      seen.add(key);
      words.push(ref);
    }
    if (source.score !== undefined) score = score === undefined ? source.score : Math.min(score, source.score);
  }
  return score === undefined ? { words } : { words, score };
}

/**
 * The competition a chosen value won: candidates with another value are its
 * rivals, and the margin is how far its strength exceeds the best of them.
 * `valueKey` names a candidate's value, equal for the same value ("9.00"
 * under "Total" and again under "Amount due"); keys, not pairwise
 * comparison, because a long document has tens of thousands of candidates.
 */
export function competitionAmong<T>(chosen: T, candidates: readonly T[], strength: (candidate: T) => number, valueKey: (candidate: T) => string): Competition {
  const chosenKey = valueKey(chosen);
  const rivals = new Set<string>();
  let best = -Infinity;
  for (const candidate of candidates) {
    const key = valueKey(candidate);
    if (key === chosenKey) continue;
    rivals.add(key);
    best = Math.max(best, strength(candidate));
  }
  const margin = rivals.size === 0 ? 1 : Math.min(1, Math.max(0, strength(chosen) - best));
  return { rivals: rivals.size, margin };
}

/**
 * The list items repair removed, recorded per list (the array itself, as
 * repair splices it in place) and applied to a provenance in one pass at the
 * end. Moving every pointer once per removed item was quadratic: a 4,000-row
 * answer whose rows all failed took 36 s.
 */
export class RemovedListItems {
  /** Per list, the index of each item removed, at the time of its removal. */
  private readonly removed = new Map<unknown[], number[]>();

  record(list: unknown[], index: number): void {
    const indexes = this.removed.get(list);
    if (indexes) indexes.push(index);
    else this.removed.set(list, [index]);
  }

  /**
   * The removals as the pointer of each list in `root` (after them) and its
   * indexes, for the way back from a thread, where a list is another array.
   * A list no longer in `root` (in an item removed after) is left out:
   * nothing under it has a place any more.
   */
  atPointers(root: unknown): Array<[string, number[]]> {
    const found: Array<[string, number[]]> = [];
    const visit = (node: unknown, pointer: string): void => {
      if (typeof node !== 'object' || node === null) return;
      if (Array.isArray(node)) {
        const indexes = this.removed.get(node);
        if (indexes) found.push([pointer, indexes]);
        node.forEach((item, index) => visit(item, childPointer(pointer, index)));
      } else for (const [key, item] of Object.entries(node)) visit(item, childPointer(pointer, key));
    };
    if (this.removed.size > 0) visit(root, '');
    return found;
  }

  /** The removals of atPointers, for the lists at those pointers of `root`. */
  static atLists(root: unknown, removals: ReadonlyArray<[string, number[]]>): RemovedListItems {
    const removed = new RemovedListItems();
    for (const [pointer, indexes] of removals) {
      const list = valueAtPointer(root, pointer);
      if (Array.isArray(list)) removed.removed.set(list, indexes);
    }
    return removed;
  }

  /** `provenance` of the value before the removals, for `root` after them: removed items' pointers go, the items after them move up. */
  remap(provenance: Provenance, root: unknown): Provenance {
    return runSync(this.remapping(provenance, root));
  }

  /** remap in steps (util/paced.ts): yields after each pointer. */
  *remapping(provenance: Provenance, root: unknown): PacedWork<Provenance> {
    if (this.removed.size === 0) return provenance;
    const newIndexes = new Map<unknown[], Int32Array>();
    const newIndexesOf = (list: unknown[]) => {
      let map = newIndexes.get(list);
      if (!map) {
        map = survivorIndexes(list.length, this.removed.get(list) ?? []);
        newIndexes.set(list, map);
      }
      return map;
    };
    const updated: Provenance = new Map();
    for (const [pointer, source] of provenance) {
      yield;
      const moved = remappedPointer(pointer, root, newIndexesOf);
      if (moved !== undefined) updated.set(moved, source);
    }
    return updated;
  }
}

/** For a list now `length` long after `removals` (each an index at its time), the new index of every original item, -1 if removed. */
function survivorIndexes(length: number, removals: readonly number[]): Int32Array {
  const original = Array.from({ length: length + removals.length }, (_, i) => i);
  // a splice per removal moves the rest of one array of numbers natively: milliseconds for thousands of rows
  for (const index of removals) original.splice(index, 1);
  const map = new Int32Array(length + removals.length).fill(-1);
  original.forEach((before, after) => {
    map[before] = after;
  });
  return map;
}

/** The pointer where the value it named sits now, walking `root` after the removals; undefined if its list item was removed. */
function remappedPointer(pointer: string, root: unknown, newIndexesOf: (list: unknown[]) => Int32Array): string | undefined {
  const tokens = splitPointer(pointer);
  let node = root;
  let moved = '';
  for (const token of tokens) {
    if (Array.isArray(node) && isArrayIndex(token)) {
      const index = newIndexesOf(node)[Number(token)] ?? Number(token);
      if (index < 0) return undefined;
      moved = childPointer(moved, index);
      node = node[index];
    } else {
      moved = childPointer(moved, token);
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[token] : undefined;
    }
  }
  return moved;
}

/** Every pointer moved under `prefix` (a nested object's provenance inside its parent). */
export function underPointer(provenance: Provenance, prefix: string): Provenance {
  const moved: Provenance = new Map();
  for (const [pointer, source] of provenance) moved.set(prefix + pointer, source);
  return moved;
}

/** Only the pointers that still hold a value (not null, not missing) in `value`. */
export function keepPresent(provenance: Provenance, value: unknown): Provenance {
  return runSync(keepingPresent(provenance, value));
}

/** keepPresent in steps (util/paced.ts): yields after each pointer. */
export function* keepingPresent(provenance: Provenance, value: unknown): PacedWork<Provenance> {
  const kept: Provenance = new Map();
  for (const [pointer, source] of provenance) {
    yield;
    const at = valueAtPointer(value, pointer);
    if (at !== null && at !== undefined) kept.set(pointer, source);
  }
  return kept;
}
