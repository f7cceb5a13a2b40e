/**
 * Schema paraphrases (issue 32): the same questions a dataset's schema asks,
 * written as other users would write them (other names, languages, no
 * descriptions, descriptions only). The eval answers each document with every
 * paraphrase too, maps each answer back to the dataset's field names with the
 * paraphrase's map, and scores it with the dataset's own scorer, so that the
 * accuracy a schema's wording buys shows beside the dataset's own.
 *
 * A file scripts/eval/paraphrases/<dataset folder name>.json holds
 *   { "dataset": "<name>", "paraphrases": [{ "name", "schema", "map" }, ...] }
 * where map takes each property of the paraphrase to the dataset field it
 * stands for: a field name, or for an array of objects
 * { "field": "<dataset field>", "items": { "<item property>": "<dataset item property>" } }.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type ParaphraseTarget = string | { field: string; items: Record<string, string> };

export interface Paraphrase {
  name: string;
  schema: unknown;
  /** Paraphrase property -> the dataset field it asks for. */
  map: Record<string, ParaphraseTarget>;
}

/** Where the repository keeps its paraphrases: scripts/eval/paraphrases, from the source or from dist/scripts/eval. */
export function paraphraseDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // compiled: dist/scripts/eval -> scripts/eval (tsc does not copy JSON)
  return here.includes(`${join('dist', 'scripts')}`) ? resolve(here, '../../../scripts/eval/paraphrases') : resolve(here, 'paraphrases');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  return isObject(schema) && isObject(schema.properties) ? schema.properties : {};
}

function itemPropertiesOf(property: unknown): Record<string, unknown> | undefined {
  return isObject(property) && isObject(property.items) && isObject(property.items.properties) ? property.items.properties : undefined;
}

/**
 * Problems of a paraphrase against the dataset's schema (empty when none):
 * every property of the paraphrase is mapped, every mapped name exists on
 * both sides, and every dataset field is asked for exactly once (a field no
 * paraphrase asks for would score as a miss the wording did not cause).
 */
export function paraphraseProblems(paraphrase: Paraphrase, datasetSchema: unknown): string[] {
  const problems: string[] = [];
  const own = propertiesOf(paraphrase.schema);
  const wanted = propertiesOf(datasetSchema);
  const asked = new Map<string, number>();
  for (const name of Object.keys(own)) if (!Object.hasOwn(paraphrase.map, name)) problems.push(`property "${name}" has no entry in the map`);
  for (const [name, target] of Object.entries(paraphrase.map)) {
    if (!Object.hasOwn(own, name)) problems.push(`map entry "${name}" is not a property of the paraphrase's schema`);
    const field = typeof target === 'string' ? target : isObject(target) && typeof target.field === 'string' ? target.field : undefined;
    if (field === undefined) {
      problems.push(`map entry "${name}" names no dataset field`);
      continue;
    }
    if (!Object.hasOwn(wanted, field)) problems.push(`map entry "${name}" names "${field}", which is not a field of the dataset`);
    asked.set(field, (asked.get(field) ?? 0) + 1);
    const datasetItems = itemPropertiesOf(wanted[field]);
    if (typeof target === 'string') {
      if (datasetItems) problems.push(`"${field}" is an array of objects: map "${name}" with { field, items }`);
      continue;
    }
    const ownItems = itemPropertiesOf(own[name]);
    if (!datasetItems || !ownItems) {
      problems.push(`map entry "${name}" maps items, but "${name}" or "${field}" is not an array of objects with properties`);
      continue;
    }
    const items = isObject(target.items) ? target.items : {};
    const itemAsked = new Map<string, number>();
    for (const item of Object.keys(ownItems)) if (!Object.hasOwn(items, item)) problems.push(`item property "${name}.${item}" has no entry in the map`);
    for (const [item, datasetItem] of Object.entries(items)) {
      if (!Object.hasOwn(ownItems, item)) problems.push(`map entry "${name}.${item}" is not an item property of the paraphrase's schema`);
      if (typeof datasetItem !== 'string' || !Object.hasOwn(datasetItems, datasetItem)) problems.push(`map entry "${name}.${item}" names "${String(datasetItem)}", which is not an item property of "${field}"`);
      else itemAsked.set(datasetItem, (itemAsked.get(datasetItem) ?? 0) + 1);
    }
    for (const datasetItem of Object.keys(datasetItems)) {
      const times = itemAsked.get(datasetItem) ?? 0;
      if (times !== 1) problems.push(`item property "${field}.${datasetItem}" is asked for ${times} times, not once`);
    }
  }
  for (const field of Object.keys(wanted)) {
    const times = asked.get(field) ?? 0;
    if (times !== 1) problems.push(`dataset field "${field}" is asked for ${times} times, not once`);
  }
  return problems;
}

/** An answer to a paraphrase under the dataset's field names: mapped properties renamed (items too), anything else dropped. */
export function mapAnswer(answer: unknown, map: Readonly<Record<string, ParaphraseTarget>>): Record<string, unknown> {
  const source = isObject(answer) ? answer : {};
  const out: Record<string, unknown> = {};
  for (const [name, target] of Object.entries(map)) {
    if (!Object.hasOwn(source, name)) continue;
    const value = source[name];
    if (typeof target === 'string') {
      out[target] = value;
      continue;
    }
    out[target.field] = Array.isArray(value) ? value.map((item) => (isObject(item) ? mapAnswer(item, target.items) : item)) : value;
  }
  return out;
}

/**
 * The paraphrases of one dataset (none when the repository has no file for
 * it), checked against the dataset's schema: a wrong map fails the run before
 * any document is read.
 */
export async function loadParaphrases(dataset: string, datasetSchema: unknown, dir = paraphraseDir()): Promise<Paraphrase[]> {
  const path = join(dir, `${dataset}.json`);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = JSON.parse(text) as unknown;
  const list = isObject(parsed) && Array.isArray(parsed.paraphrases) ? parsed.paraphrases : undefined;
  if (!list) throw new Error(`${path}: expected { "paraphrases": [...] }`);
  const names = new Set<string>();
  return list.map((entry, index) => {
    if (!isObject(entry) || typeof entry.name !== 'string' || !isObject(entry.schema) || !isObject(entry.map)) throw new Error(`${path}: paraphrase ${index} needs a name, a schema and a map`);
    if (names.has(entry.name)) throw new Error(`${path}: two paraphrases are named "${entry.name}"`);
    names.add(entry.name);
    const paraphrase: Paraphrase = { name: entry.name, schema: entry.schema, map: entry.map as Record<string, ParaphraseTarget> };
    const problems = paraphraseProblems(paraphrase, datasetSchema);
    if (problems.length > 0) throw new Error(`${path}: paraphrase "${entry.name}": ${problems.join('; ')}`);
    return paraphrase;
  });
}

/** Only the paraphrases named (all of them without a list); a name no dataset has is a typo and an error. */
export function selectParaphrases(byDataset: ReadonlyMap<string, Paraphrase[]>, names: readonly string[] | undefined): Map<string, Paraphrase[]> {
  if (names === undefined) return new Map(byDataset);
  const known = new Set([...byDataset.values()].flat().map((paraphrase) => paraphrase.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) throw new Error(`--paraphrases: no paraphrase named ${unknown.map((name) => `"${name}"`).join(', ')} (known: ${[...known].join(', ') || 'none'})`);
  return new Map([...byDataset].map(([dataset, list]) => [dataset, list.filter((paraphrase) => names.includes(paraphrase.name))]));
}
