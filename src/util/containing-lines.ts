/**
 * For many texts at once, how many lines contain each (as a substring), with
 * every line read once: the texts in a trie with failure links
 * (Aho-Corasick). Searching every line for each text in turn is quadratic:
 * the evidence of a table of 5,000 rows looked for 5,000 descriptions in
 * 5,000 lines (1.9 s of the event loop). A count stops at `cap` lines; then
 * reading a line costs its length, plus one step per text counted, and a
 * text is counted `cap` times at most.
 */
import type { PacedWork } from './paced.js';

/** Trie nodes whose children a unit of the failure links' pass visits. */
const NODES_PER_UNIT = 64;
/** Above this many children a node finds them by a Map rather than along its list. */
const LISTED_CHILDREN = 8;

export class ContainingLines {
  // the trie: node 0 is the root; a node's children hang from `firstChild` along `nextSibling`, each with its `code`
  private readonly firstChild: number[] = [-1];
  private readonly nextSibling: number[] = [-1];
  private readonly code: number[] = [-1];
  private readonly childCount: number[] = [0];
  /** The children of nodes with many (the root of a text in many alphabets), by code. */
  private readonly wide = new Map<number, Map<number, number>>();
  /** The node of the longest proper suffix of a node's text that is in the trie. */
  private readonly failure: number[] = [0];
  /** The nearest node, this one or along the failure links, that ends a text (0: none). */
  private readonly output: number[] = [0];
  /** The text a node ends (-1: none). */
  private readonly textAt: number[] = [-1];
  private readonly ids = new Map<string, number>();
  private readonly counts: number[] = [];
  /** The last line each text was counted in, so that a line counts once. */
  private readonly countedIn: number[] = [];
  /** With `keepLines`: the lines each text was counted in. */
  private readonly linesOf: number[][] | undefined;
  private lineNumber = 0;

  private constructor(
    private readonly cap: number,
    keepLines: boolean,
  ) {
    if (keepLines) this.linesOf = [];
  }

  /**
   * The texts' trie and its failure links, a unit per text and per
   * NODES_PER_UNIT nodes; counts stop at `cap`. With `keepLines`, which
   * lines each text was counted in is kept too (lines(): the first `cap`).
   */
  static *building(texts: Iterable<string>, cap: number, { keepLines = false }: { keepLines?: boolean } = {}): PacedWork<ContainingLines> {
    const index = new ContainingLines(cap, keepLines);
    for (const text of texts) {
      index.add(text);
      yield;
    }
    yield* index.linking();
    return index;
  }

  /** Reads one line: every text it contains counts it once. */
  read(line: string): void {
    const counted = ++this.lineNumber;
    let node = 0;
    for (let at = 0; at < line.length; at++) {
      node = this.step(node, line.charCodeAt(at));
      // a text already counted in this line (or counted `cap` times) has had every shorter text that ends where it ends counted too
      for (let found = this.output[node]!; found !== 0; found = this.output[this.failure[found]!]!) {
        const text = this.textAt[found]!;
        if (this.countedIn[text] === counted || this.counts[text]! >= this.cap) break;
        this.countedIn[text] = counted;
        this.counts[text]!++;
        this.linesOf?.[text]!.push(counted - 1);
      }
    }
  }

  /** Lines read so far that contain `text`, `cap` at most; undefined when `text` is not one of the texts. */
  count(text: string): number | undefined {
    const id = this.ids.get(text);
    return id === undefined ? undefined : this.counts[id];
  }

  /** With `keepLines`: the first `cap` lines read that contain `text`, by their place (from 0) in the reading; undefined when `text` is not one of the texts. */
  lines(text: string): readonly number[] | undefined {
    const id = this.ids.get(text);
    return id === undefined ? undefined : this.linesOf?.[id];
  }

  private add(text: string): void {
    if (this.ids.has(text)) return;
    let node = 0;
    for (let at = 0; at < text.length; at++) {
      const code = text.charCodeAt(at);
      node = this.child(node, code) ?? this.newChild(node, code);
    }
    const id = this.counts.length;
    this.ids.set(text, id);
    this.counts.push(0);
    this.countedIn.push(0);
    this.linesOf?.push([]);
    this.textAt[node] = id;
  }

  private child(node: number, code: number): number | undefined {
    const wide = this.wide.get(node);
    if (wide) return wide.get(code);
    for (let child = this.firstChild[node]!; child !== -1; child = this.nextSibling[child]!) if (this.code[child] === code) return child;
    return undefined;
  }

  private newChild(parent: number, code: number): number {
    const node = this.code.length;
    this.code.push(code);
    this.firstChild.push(-1);
    this.nextSibling.push(this.firstChild[parent]!);
    this.childCount.push(0);
    this.failure.push(0);
    this.output.push(0);
    this.textAt.push(-1);
    this.firstChild[parent] = node;
    const count = ++this.childCount[parent]!;
    if (count > LISTED_CHILDREN) {
      let wide = this.wide.get(parent);
      if (!wide) {
        wide = new Map();
        for (let child = this.firstChild[parent]!; child !== -1; child = this.nextSibling[child]!) wide.set(this.code[child]!, child);
        this.wide.set(parent, wide);
      }
      wide.set(code, node);
    }
    return node;
  }

  /** From `node`, the node after reading `code`: its child, or the child of the longest suffix that has one, or the root. */
  private step(node: number, code: number): number {
    for (;;) {
      const next = this.child(node, code);
      if (next !== undefined) return next;
      if (node === 0) return 0;
      node = this.failure[node]!;
    }
  }

  /** Failure and output links, breadth first (a node's failure is shallower than the node). */
  private *linking(): PacedWork<void> {
    const queue: number[] = [];
    for (let child = this.firstChild[0]!; child !== -1; child = this.nextSibling[child]!) {
      this.output[child] = this.textAt[child]! >= 0 ? child : 0;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (let child = this.firstChild[node]!; child !== -1; child = this.nextSibling[child]!) {
        const failure = this.step(this.failure[node]!, this.code[child]!);
        this.failure[child] = failure;
        this.output[child] = this.textAt[child]! >= 0 ? child : this.output[failure]!;
        queue.push(child);
      }
      if (head % NODES_PER_UNIT === NODES_PER_UNIT - 1) yield;
    }
  }
}
