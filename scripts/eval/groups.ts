/**
 * Groups of documents that must stay on one side of a split when a model is
 * checked on producers and layouts it has not seen (issue 32 part 5): one
 * producer, one layout family, one invoice in several profiles, one document
 * in several variants. A group is a connected component of documents linked
 * by any of:
 * - the same document in another variant: ids "d" and "d_<variant>", or the
 *   same manifest `source_file`;
 * - the same producer: the label of an issuer field (company, store, seller,
 *   vendor, supplier, merchant, issuer), compared without case, punctuation,
 *   spacing or a parenthesised branch ("MR. D.I.Y. (JOHOR) SDN BHD" is
 *   "MR D.I.Y. (M) SDN BHD");
 * - the same source file family: the first word of the manifest's
 *   `source_file` and its version ("zugferd_2p0_BASIC_Taxifahrt.pdf":
 *   zugferd 2p0), one generator's layout;
 * - the same document number (a label such as invoice_number): one invoice
 *   issued in two profiles.
 * A dataset with none of these (Kleister NDA) has one group per document.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface GroupEntry {
  id: string;
  expected: Record<string, unknown>;
  /** The document's manifest line. */
  manifest?: Record<string, unknown>;
}

export interface DocumentGroups {
  /** Group name per document id. */
  groupOf: Map<string, string>;
  /** What linked documents in this dataset, e.g. ["producer", "source file family"]; empty: one group per document. */
  linkedBy: string[];
}

const ISSUER_WORDS = new Set(['company', 'store', 'seller', 'vendor', 'supplier', 'merchant', 'issuer', 'shop']);
const NUMBER_WORDS = new Set(['number', 'no', 'id', 'nr']);
const DOCUMENT_WORDS = new Set(['invoice', 'document', 'receipt', 'bill', 'credit', 'note']);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** The field naming who issued the document: its name is an issuer word, or one followed by "name" (store_name). */
export function issuerField(fields: readonly string[]): string | undefined {
  return fields.find((field) => {
    const parts = words(field);
    return parts.length > 0 && ISSUER_WORDS.has(parts[0]!) && parts.slice(1).every((part) => part === 'name');
  });
}

/** The field holding the document's own number: a document word and a number word (invoice_number, receipt_no). */
export function documentNumberField(fields: readonly string[]): string | undefined {
  return fields.find((field) => {
    const parts = words(field);
    return parts.some((part) => DOCUMENT_WORDS.has(part)) && parts.some((part) => NUMBER_WORDS.has(part));
  });
}

/** A producer's name as a key: case, punctuation, spacing and parenthesised parts (branches, "(M)") dropped. */
export function producerKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** A source file's family: its first word and a version word after it ("zugferd_2p0_BASIC_x.pdf" -> "zugferd 2p0"). */
export function sourceFamily(file: string): string {
  const base = file.replace(/^.*[\\/]/, '').replace(/\.[a-z0-9]+$/i, '');
  const parts = base.split(/[_\-. ]+/).filter((part) => part !== '');
  const [first = base, second] = parts;
  // a version is short ("2p0", "v2"), not a date or a serial number
  return [first.toLowerCase(), ...(second && /^(v?\d{1,2}|\d+p\d+)$/i.test(second) ? [second.toLowerCase()] : [])].join(' ');
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The groups of one dataset's documents (see the file comment). */
/** Disjoint sets of named nodes (union-find with path compression). */
class Components {
  private readonly parent = new Map<string, string>();

  find(node: string): string {
    let root = node;
    while ((this.parent.get(root) ?? root) !== root) root = this.parent.get(root)!;
    if (root !== node) this.parent.set(node, root);
    return root;
  }

  /** Joins the sets of a and b; the set keeps a's root. */
  union(a: string, b: string): void {
    const [ra, rb] = [this.find(a), this.find(b)];
    for (const node of [a, b]) if (!this.parent.has(node)) this.parent.set(node, node);
    if (ra !== rb) this.parent.set(rb, ra);
  }

  nodes(): IterableIterator<string> {
    return this.parent.keys();
  }
}

export function documentGroups(entries: readonly GroupEntry[]): DocumentGroups {
  const components = new Components();
  const find = (node: string) => components.find(node);
  const union = (a: string, b: string) => components.union(a, b);
  const fields = [...new Set(entries.flatMap((entry) => Object.keys(entry.expected)))];
  const issuer = issuerField(fields);
  const number = documentNumberField(fields);
  const ids = new Set(entries.map((entry) => entry.id));
  // the document an id is a variant of ("d_scan" of "d"), or the id itself
  const baseOf = (id: string): string => {
    for (let cut = id.lastIndexOf('_'); cut > 0; cut = id.lastIndexOf('_', cut - 1)) if (ids.has(id.slice(0, cut))) return baseOf(id.slice(0, cut));
    return id;
  };
  // per kind of link and key, the documents (variants counted once) it names
  const named = new Map<string, Set<string>>();
  const link = (id: string, kind: string, key: string | undefined) => {
    if (key === undefined || key === '') return;
    union(`doc:${id}`, `${kind}:${key}`);
    named.set(`${kind}:${key}`, (named.get(`${kind}:${key}`) ?? new Set()).add(baseOf(id)));
  };
  for (const entry of entries) {
    union(`doc:${entry.id}`, `doc:${baseOf(entry.id)}`);
    const file = text(entry.manifest?.source_file);
    link(entry.id, 'file', file);
    link(entry.id, 'family', file === undefined ? undefined : sourceFamily(file));
    const producer = issuer === undefined ? undefined : text(entry.expected[issuer]);
    link(entry.id, 'producer', producer === undefined ? undefined : producerKey(producer));
    const documentNumber = number === undefined ? undefined : text(entry.expected[number]);
    link(entry.id, 'number', documentNumber === undefined ? undefined : producerKey(documentNumber));
  }
  // what joined two documents (not two variants of one), for the report
  const links = [['family', 'source file family'], ['producer', 'producer'], ['number', 'document number']] as const;
  const linkedBy = links.filter(([kind]) => [...named].some(([key, documents]) => key.startsWith(`${kind}:`) && documents.size > 1)).map(([, label]) => label);

  // a group is named after what holds it together (no two groups share a key): its source file families, else its producers, else its first document
  const keysByRoot = new Map<string, { family: string[]; producer: string[] }>();
  for (const node of components.nodes()) {
    const [kind] = node.split(':', 1);
    if (kind !== 'family' && kind !== 'producer') continue;
    const keys = keysByRoot.get(find(node)) ?? { family: [], producer: [] };
    keys[kind].push(node.slice(kind.length + 1));
    keysByRoot.set(find(node), keys);
  }
  const groupOf = new Map<string, string>();
  for (const entry of entries) {
    const keys = keysByRoot.get(find(`doc:${entry.id}`));
    const name = keys && keys.family.length > 0 ? keys.family.sort().join(' + ') : keys && keys.producer.length > 0 ? keys.producer.sort().join(' + ') : baseOf(entry.id);
    groupOf.set(entry.id, name);
  }
  return { groupOf, linkedBy };
}

/**
 * The groups of a dataset folder (manifest.jsonl and the labels it names),
 * for a report made before the eval recorded each document's group;
 * undefined when the folder cannot be read.
 */
export async function groupsOfDatasetDir(dir: string): Promise<DocumentGroups | undefined> {
  try {
    const lines = (await readFile(join(dir, 'manifest.jsonl'), 'utf8')).split('\n').filter((line) => line.trim() !== '');
    const entries = await Promise.all(
      lines.map(async (line) => {
        const manifest = JSON.parse(line) as Record<string, unknown>;
        const expected = JSON.parse(await readFile(join(dir, String(manifest.ground_truth)), 'utf8')) as Record<string, unknown>;
        return { id: String(manifest.id), manifest, expected };
      }),
    );
    return documentGroups(entries);
  } catch {
    return undefined;
  }
}

/**
 * Groups of several datasets joined when they hold the same document (one
 * PDF labelled for its header in one dataset and for its lines in another):
 * left out of a fit together, or what the model learnt of the document in
 * one would still be in the fit for the other. Returns each group's unit.
 */
export function unitsSharingDocuments(members: readonly { group: string; document: string }[]): (group: string) => string {
  const components = new Components();
  for (const { group, document } of members) components.union(`group:${group}`, `document:${document}`);
  return (group) => components.find(`group:${group}`).replace(/^group:/, '');
}
