/**
 * Walks the caller's schema: scalars are looked up by label, nested objects
 * inside their labelled block (or with their parent's words), lists of
 * objects from tables and lists of scalars from every labelled occurrence.
 * Every value comes with the words it was read from, gathered into the
 * extraction's provenance under the value's JSON Pointer.
 */
import type { Extraction } from '../../schema/engine.js';
import { keepPresent, underPointer, type Provenance, type ValueSource } from '../../schema/provenance.js';
import { resolveLocalRef, viewSchema, type SchemaView } from '../../schema/schema-view.js';
import type { JsonSchema } from '../../schema/schema.js';
import { isSchemaObject, setOwn } from '../../schema/schema-walk.js';
import { childPointer } from '../../util/json-pointer.js';
import { findBlock } from './core/blocks.js';
import { hintsFor, type FieldHints, type ReadingLanguages } from './core/labels.js';
import type { RuleLine } from './core/lines.js';
import { kindFor } from './core/kinds.js';
import { findValues } from './core/parsers.js';
import { readingOn, type Reading } from './core/reading.js';
import { extractTable } from './tables/tables.js';
import { anchoredReading, extractScalar, issuerByLayout, labelledValues, type FieldContext } from './fields.js';
import { present } from './core/present.js';
import { partiesInProse } from './prose/prose-fields.js';
import { dropImpossibleTax } from './receipts/consistency.js';
import { reconcileTotals, sumRole, type ReconciledField } from './receipts/reconcile.js';

export interface ExtractionContext {
  root: JsonSchema;
  dayFirst: boolean;
  /** The languages the document is printed in (English always): their labels are looked for. */
  languages: ReadingLanguages;
  signal: AbortSignal;
}

interface Scope {
  lines: readonly RuleLine[];
  /** Words of the enclosing properties, e.g. ["customer"] for customer.name. */
  parentWords: string[];
  /** Only labels that include the parent's words count (a party searched outside its block). */
  qualifiedOnly: boolean;
  /** Inside the issuer (vendor, seller...): a bare "Name:" is not the issuer's name. */
  issuer: boolean;
  inBlock: boolean;
  /** Object schemas being filled above this one; a recursive schema stops where it repeats. */
  ancestors: ReadonlySet<unknown>;
}

/** An object read from the document, with provenance relative to the object itself. */
interface FilledObject {
  value: Record<string, unknown>;
  provenance: Provenance;
}

/** A property's value, with provenance relative to the value ('' is the value itself). */
interface FilledValue {
  value: unknown;
  provenance: Provenance;
}

const MAX_DEPTH = 8;
const PARTY_WORDS = new Set(['shipping', 'ship', 'delivery', 'billing', 'bill', 'sender', 'recipient', 'consignee', 'payer', 'payee', 'buyer', 'seller']);

/**
 * The candidate object for the root schema. Long documents take a while, so
 * the event loop gets a turn between top-level properties.
 */
export async function extractObject(view: SchemaView, lines: readonly RuleLine[], context: ExtractionContext): Promise<Extraction> {
  const scope: Scope = { lines, parentWords: [], qualifiedOnly: false, issuer: false, inBlock: false, ancestors: new Set([context.root]) };
  // Top level yields to the event loop between properties: a long document must not stall other requests.
  const yieldBetween = () => new Promise<void>((resolve) => setImmediate(resolve));
  const filled: FilledObject = { value: {}, provenance: new Map() };
  const fields = new Map<string, FieldRead>();
  for (const name of Object.keys(view.properties)) {
    await yieldBetween();
    extractOneProperty(name, view, scope, context, filled, fields);
  }
  return checkedTogether(filled, fields, scope, context);
}

function extractProperties(view: SchemaView, scope: Scope, context: ExtractionContext): FilledObject {
  const filled: FilledObject = { value: {}, provenance: new Map() };
  const fields = new Map<string, FieldRead>();
  for (const name of Object.keys(view.properties)) extractOneProperty(name, view, scope, context, filled, fields);
  return checkedTogether(filled, fields, scope, context);
}

/** A property as it was read: its schema and its hints. */
interface FieldRead {
  view: SchemaView;
  hints: FieldHints;
}

/**
 * Sibling values read together: totals that break net + VAT = gross take the
 * other printed reading that makes the sum (reconcile.ts); values that cannot
 * all be right are given up, and their provenance with them.
 */
function checkedTogether(filled: FilledObject, fields: ReadonlyMap<string, FieldRead>, scope: Scope, context: ExtractionContext): FilledObject {
  const fieldContext: FieldContext = { lines: scope.lines, dayFirst: context.dayFirst, inBlock: scope.inBlock, languages: context.languages };
  const amounts: ReconciledField[] = [];
  for (const [name, { view, hints }] of fields) {
    if (!sumRole(hints) || view.types.includes('object') || view.types.includes('array')) continue;
    const kind = kindFor(view, hints);
    if (kind !== 'amount') continue;
    amounts.push({ name, view, hints, candidates: labelledValues(kind, hints, fieldContext), present: (candidate) => anchoredReading(candidate, present(candidate.found, kind, view, hints)) });
  }
  reconcileTotals(filled.value, filled.provenance, amounts, scope.lines);
  dropImpossibleTax(filled.value, new Map([...fields].map(([name, field]) => [name, field.hints])));
  return { value: filled.value, provenance: keepPresent(filled.provenance, filled.value) };
}

function extractOneProperty(name: string, view: SchemaView, scope: Scope, context: ExtractionContext, filled: FilledObject, fields: Map<string, FieldRead>): void {
  context.signal.throwIfAborted();
  const schema = view.properties[name];
  const propertyView = viewSchema(schema, context.root);
  const fieldHints = scopedHints(name, propertyView, scope, context.languages);
  fields.set(name, { view: propertyView, hints: fieldHints });
  const property = extractProperty(schema, propertyView, fieldHints, scope, context);
  setOwn(filled.value, name, property.value);
  for (const [pointer, source] of underPointer(property.provenance, childPointer('', name))) filled.provenance.set(pointer, source);
}

function scopedHints(name: string, view: SchemaView, scope: Scope, languages: ReadingLanguages): FieldHints {
  const hints = hintsFor(name, view, scope.parentWords, languages);
  const issuerName = scope.issuer && (hints.concepts.has('name') || hints.concepts.has('business'));
  if (!scope.qualifiedOnly && !issuerName) return hints;
  const qualified = hints.labels.filter((label) => scope.parentWords.every((word) => label.words.includes(word)));
  return { ...hints, labels: qualified };
}

function extractProperty(schema: unknown, view: SchemaView, hints: FieldHints, scope: Scope, context: ExtractionContext): FilledValue {
  const fieldContext: FieldContext = { lines: scope.lines, dayFirst: context.dayFirst, inBlock: scope.inBlock, languages: context.languages };
  if (view.types.includes('object') && Object.keys(view.properties).length > 0) {
    const identity = followRefs(schema, context.root);
    if (scope.ancestors.has(identity) || scope.ancestors.size > MAX_DEPTH) return { value: null, provenance: new Map() };
    return extractNested(view, hints, { ...scope, ancestors: new Set([...scope.ancestors, identity]) }, context) ?? { value: null, provenance: new Map() };
  }
  if (view.types.includes('array') && !view.types.includes('string')) {
    const itemView = viewSchema(view.items ?? true, context.root);
    if (itemView.types.includes('object')) {
      const table = extractTable(itemView, context.root, scope.lines, { languages: context.languages, dayFirst: context.dayFirst });
      return { value: table.items, provenance: table.provenance };
    }
    return listOf(extractList(itemView, hints, fieldContext));
  }
  return scalarOf(extractScalar(view, hints, fieldContext));
}

function scalarOf(reading: Reading | null): FilledValue {
  const provenance: Provenance = new Map();
  if (reading === null) return { value: null, provenance };
  if (reading.value !== null && reading.value !== undefined) provenance.set('', sourceOf(reading));
  return { value: reading.value, provenance };
}

function listOf(readings: Reading[]): FilledValue {
  const provenance: Provenance = new Map();
  readings.forEach((reading, index) => provenance.set(childPointer('', index), sourceOf(reading)));
  return { value: readings.map((reading) => reading.value), provenance };
}

function sourceOf(reading: Reading): ValueSource {
  const source: ValueSource = { words: reading.words };
  if (reading.score !== undefined) source.score = reading.score;
  if (reading.competition) source.competition = reading.competition;
  if (reading.role) source.role = reading.role;
  return source;
}

/** customer.name is searched under "Customer:" / "Bill to:"; vendor.name also in the document header. */
function extractNested(view: SchemaView, hints: FieldHints, scope: Scope, context: ExtractionContext): FilledObject | null {
  const parentWords = [...scope.parentWords, ...hints.nameWords];
  const isIssuer = hints.concepts.has('business');
  const isOtherParty = !isIssuer && (hints.concepts.has('customer') || hints.nameWords.some((w) => PARTY_WORDS.has(w)));
  const block = findBlock(scope.lines, hints, isIssuer || isOtherParty);
  if (block) {
    const fromBlock = extractProperties(view, { ...scope, lines: block, parentWords, qualifiedOnly: false, issuer: false, inBlock: true }, context);
    if (!isEmptyRecord(fromBlock.value) || isOtherParty) return isEmptyRecord(fromBlock.value) ? null : fromBlock;
  }
  const result = extractProperties(view, { ...scope, parentWords, qualifiedOnly: isOtherParty, issuer: isIssuer, inBlock: false }, context);
  if (isIssuer) fillIssuerName(result, view, scope.lines, hints, context.languages);
  // an object of which nothing was found is itself not found
  return isEmptyRecord(result.value) ? null : result;
}

function isEmptyRecord(record: Record<string, unknown>): boolean {
  return Object.values(record).every((value) => value === null || (Array.isArray(value) && value.length === 0));
}

function followRefs(schema: unknown, root: JsonSchema): unknown {
  let current = schema;
  for (let hops = 0; hops < 16 && isSchemaObject(current) && typeof current['$ref'] === 'string'; hops++) {
    current = resolveLocalRef(root, current['$ref']);
  }
  return current;
}

/** vendor.name / seller.company: the business name from the header when no label announced it. */
function fillIssuerName(result: FilledObject, view: SchemaView, lines: readonly RuleLine[], hints: FieldHints, languages: ReadingLanguages): void {
  let businessName: Reading | null | undefined;
  for (const name of Object.keys(view.properties)) {
    const child = hintsFor(name);
    const isName = child.concepts.has('name') || child.concepts.has('business');
    if (!isName || result.value[name] !== null) continue;
    if (businessName === undefined) {
      const found = issuerByLayout(lines, languages, hints.negatives);
      businessName = found ? { ...found.name, role: 'business-name' } : null;
    }
    result.value[name] = businessName?.value ?? null;
    if (businessName) result.provenance.set(childPointer('', name), sourceOf(businessName));
  }
}

/** Every labelled occurrence; contact details and links also without a label. */
function extractList(itemView: SchemaView, listHints: FieldHints, context: FieldContext): Reading[] {
  const hints = singularHints(listHints, context.languages);
  const kind = kindFor(itemView, hints);
  const values: Reading[] = [];
  const seen = new Set<string>();
  const add = (text: string, reading: Reading): void => {
    if (reading.value === null || reading.value === undefined || seen.has(text)) return;
    seen.add(text);
    values.push(reading);
  };
  for (const found of labelledValues(kind, hints, context).sort((a, b) => a.line.index - b.line.index)) {
    add(found.found.text, anchoredReading(found, present(found.found, kind, itemView, hints)));
  }
  if (values.length === 0 && (kind === 'email' || kind === 'phone' || kind === 'url')) {
    for (const line of context.lines) for (const found of findValues(kind, line.text, context.dayFirst)) add(found.text, readingOn(found.text, { line, found }));
  }
  // the parties of an agreement are named in its opening clause and signature blocks, not after a label
  if (values.length === 0) for (const party of partiesInProse(itemView, hints, context.lines)) add(String(party.value), party);
  return values;
}

/** "emails" is labelled "Email", "parties" "Party". */
function singularHints(hints: FieldHints, languages: ReadingLanguages): FieldHints {
  const singular = (word: string): string =>
    word.length <= 3 ? word : word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('sses') ? word.slice(0, -2) : word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
  const nameWords = hints.nameWords.map(singular);
  const rebuilt = hintsFor(nameWords.join('_'), hints.description, [], languages);
  return { ...rebuilt, labels: [...rebuilt.labels, ...hints.labels] };
}
