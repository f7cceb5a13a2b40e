/**
 * Makes a shaped object pass the nullable validator by giving up the values
 * that fail: a failing property becomes null (a list becomes []), a failing
 * list item is dropped. What cannot be repaired that way is an engine failure.
 * Each list item removed is reported (onRemove), so that what points into
 * the list can follow. What even that cannot make valid is the schema's own
 * doing (constraints on the object as a whole that no answer docshape gives
 * can meet, e.g. propertyNames refusing the declared names): a 422.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { AppError } from '../errors.js';
import { splitPointer } from '../util/json-pointer.js';

const MAX_ROUNDS = 32;
export const UNSATISFIABLE_SCHEMA = 'no answer can fit the schema: it refuses the extracted object even with every failing value left null (details lists why)';
const ALTERNATIVE_KEYWORDS = new Set(['anyOf', 'oneOf', 'not', 'if']);

type Path = string[];

/** Item `index` of `list` (the array itself, changed in place) was removed; the items after it moved up by one. */
export type OnRemove = (list: unknown[], index: number) => void;

const IGNORE_REMOVALS: OnRemove = () => undefined;

interface RepairTarget {
  path: Path;
  keywords: Set<string>;
  /** maxItems of a list. */
  limit?: number;
}

export function repairUntilValid(value: Record<string, unknown>, validate: ValidateFunction, onRemove: OnRemove = IGNORE_REMOVALS): Record<string, unknown> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (validate(value)) return value;
    if (!repairRound(value, repairTargets(validate.errors ?? []), onRemove)) break;
  }
  if (validate(value)) return value;
  throw new AppError('unsatisfiable_schema', UNSATISFIABLE_SCHEMA, {
    details: describeAjvErrors(validate.errors ?? []),
  });
}

/** One pass over all failing places; false when some failure sits on the root object itself. */
function repairRound(root: Record<string, unknown>, targets: RepairTarget[], onRemove: OnRemove): boolean {
  if (targets.length === 0) return false;
  const removals: Path[] = [];
  for (const target of targets) {
    // a list whose items are about to be removed is shortened in the next round, on the new indexes
    if (removals.some((removal) => isPrefix(target.path, removal))) continue;
    const outcome = repairAt(root, target, onRemove);
    if (outcome === 'root') return false;
    if (outcome !== 'done') removals.push(outcome);
  }
  removeItems(root, removals, onRemove);
  return true;
}

/** Deepest first, so that a repair never moves a place another target points to. */
function repairTargets(errors: ErrorObject[]): RepairTarget[] {
  const alternatives = errors.filter((e) => ALTERNATIVE_KEYWORDS.has(e.keyword)).map((e) => e.instancePath);
  const targets = new Map<string, RepairTarget>();
  for (const error of errors) {
    // errors inside a failed anyOf/oneOf branch only say why that branch did not fit
    if (!ALTERNATIVE_KEYWORDS.has(error.keyword) && alternatives.some((path) => isWithin(error.instancePath, path))) continue;
    const path = splitPointer(error.instancePath);
    if (error.keyword === 'additionalProperties' && typeof error.params['additionalProperty'] === 'string') {
      path.push(error.params['additionalProperty']);
    }
    const key = path.join('\u0000');
    const target = targets.get(key) ?? { path, keywords: new Set<string>() };
    target.keywords.add(error.keyword);
    if (error.keyword === 'maxItems') target.limit = Number(error.params['limit']);
    targets.set(key, target);
  }
  return [...targets.values()].sort((a, b) => b.path.length - a.path.length);
}

function isPrefix(prefix: Path, path: Path): boolean {
  return prefix.length < path.length && prefix.every((key, index) => path[index] === key);
}

function isWithin(path: string, ancestor: string): boolean {
  return path.startsWith(`${ancestor}/`) || (ancestor === '' && path !== '');
}

/**
 * Gives up the value at the target, or its parent when the value is already
 * empty. Returns the path of a list item to remove, 'done', or 'root' when
 * only the root object is left to give up.
 */
function repairAt(root: Record<string, unknown>, target: RepairTarget, onRemove: OnRemove): Path | 'done' | 'root' {
  const ownList = valueAt(root, target.path);
  if (Array.isArray(ownList) && shortenList(ownList, target, (index) => onRemove(ownList, index))) return 'done';
  let path = target.path;
  while (path.length > 0) {
    const parentPath = path.slice(0, -1);
    const parent = valueAt(root, parentPath);
    const key = path[path.length - 1]!;
    if (!isContainer(parent)) return 'done';
    if (Array.isArray(parent)) return path;
    if (target.keywords.has('additionalProperties') && path === target.path) {
      delete parent[key];
      return 'done';
    }
    const current = parent[key];
    if (!isEmpty(current)) {
      parent[key] = Array.isArray(current) ? [] : null;
      // a list item whose last value was just given up carries nothing any more
      return Array.isArray(valueAt(root, parentPath.slice(0, -1))) && isEmpty(parent) ? parentPath : 'done';
    }
    path = parentPath;
  }
  return 'root';
}

/** Repeated or too many items: keep the first ones rather than losing the list. */
function shortenList(list: unknown[], target: RepairTarget, onRemove: (index: number) => void): boolean {
  const seen = new Set<string>();
  const keep = list.map((item) => {
    if (!target.keywords.has('uniqueItems')) return true;
    const key = JSON.stringify(item);
    return seen.has(key) ? false : Boolean(seen.add(key));
  });
  let kept = 0;
  keep.forEach((keeps, index) => {
    if (!keeps) return;
    kept++;
    if (target.limit !== undefined && kept > target.limit) keep[index] = false;
  });
  // last first, so that every reported index is the item's place at the time
  let removed = false;
  for (let index = list.length - 1; index >= 0; index--) {
    if (keep[index]) continue;
    list.splice(index, 1);
    onRemove(index);
    removed = true;
  }
  return removed;
}

/** Removes list items deepest and last first, so that no pending index moves. */
function removeItems(root: Record<string, unknown>, removals: Path[], onRemove: OnRemove): void {
  const unique = new Map(removals.map((path) => [path.join('\u0000'), path]));
  const ordered = [...unique.values()].sort((a, b) => b.length - a.length || Number(b[b.length - 1]) - Number(a[a.length - 1]));
  for (const path of ordered) {
    const listPath = path.slice(0, -1);
    const list = valueAt(root, listPath);
    if (!Array.isArray(list)) continue;
    const index = Number(path[path.length - 1]);
    list.splice(index, 1);
    onRemove(list, index);
  }
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value).every(isEmpty);
  return false;
}

function valueAt(root: unknown, path: Path): unknown {
  let current = root;
  for (const key of path) {
    if (!isContainer(current)) return undefined;
    current = Array.isArray(current) ? current[Number(key)] : current[key];
  }
  return current;
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

/** Ajv errors as "<instance path> <message>" lines, for error details and model retries. */
export function describeAjvErrors(errors: ErrorObject[]): string[] {
  return errors.map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}
