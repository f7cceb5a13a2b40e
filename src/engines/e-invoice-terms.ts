/**
 * An e-invoice's values by meaning. A Document that holds the EN 16931
 * business terms of an e-invoice (Page.eInvoice.invoice: CII or UBL XML, a
 * hybrid PDF's attachment or an XML file) answers every property that asks
 * for one of those terms straight from the XML: the property's meaning
 * (meaning/: "seller_vat_id" is the seller's VAT identifier, "lines_total"
 * the sum of the line net amounts) picks the term (BT-31, BT-106), and the
 * value is the XML's as written; only dates and amounts are normalised
 * (YYYY-MM-DD, a decimal), which the evidence says. A term the XML does not
 * state is null, never a neighbouring term's value; a list of invoice lines
 * or of VAT breakdown rows is the XML's group, one item per instance. What
 * no term answers (a store's opening hours, a website) is left to the
 * engine, which reads the e-invoice page and the printed pages as before.
 * The value's score is how sure the property -> term mapping is, so that an
 * ambiguous mapping does not come back as certain.
 */
import type { Document, EInvoiceGroup, EInvoiceValue, Page, WordRef } from '../document/document.js';
import type { Engine, EngineStatus, Extraction, ExtractionInput } from '../schema/engine.js';
import type { JsonSchema } from '../schema/json-schema.js';
import type { Provenance } from '../schema/provenance.js';
import type { PropertyMeaning } from '../meaning/meaning.js';
import { schemaMeanings, type PropertyAt } from '../meaning/schema-meanings.js';
import { childPointer, splitPointer } from '../util/json-pointer.js';
import { Pacer, runPaced, type PacedWork } from '../util/paced.js';

/** The business term a property asks for, and how well its meaning fits the term (1: exactly). */
interface TermChoice {
  term: string;
  fit: number;
}

/** A party's terms: name, trading name, identifiers, VAT id, address and its parts, contact. */
interface PartyTerms {
  [facet: string]: string | undefined;
}

const PARTY_TERMS: Record<string, PartyTerms> = {
  seller: {
    'party-name': 'BT-27', 'trading-name': 'BT-28', 'party-id': 'BT-29', 'legal-id': 'BT-30', 'vat-id': 'BT-31', 'tax-number': 'BT-32', 'electronic-address': 'BT-34',
    address: 'BG-5', street: 'BT-35', city: 'BT-37', postcode: 'BT-38', region: 'BT-39', country: 'BT-40', 'contact-name': 'BT-41', phone: 'BT-42', email: 'BT-43',
  },
  buyer: {
    'party-name': 'BT-44', 'trading-name': 'BT-45', 'party-id': 'BT-46', 'legal-id': 'BT-47', 'vat-id': 'BT-48', 'electronic-address': 'BT-49',
    address: 'BG-8', street: 'BT-50', city: 'BT-52', postcode: 'BT-53', region: 'BT-54', country: 'BT-55', 'contact-name': 'BT-56', phone: 'BT-57', email: 'BT-58',
  },
  payee: { 'party-name': 'BT-59', 'party-id': 'BT-60', 'legal-id': 'BT-61' },
  'tax-representative': { 'party-name': 'BT-62', 'vat-id': 'BT-63', address: 'BG-12' },
  'deliver-to': { 'party-name': 'BT-70', 'party-id': 'BT-71', address: 'BG-15', street: 'BT-75', city: 'BT-77', postcode: 'BT-78', region: 'BT-79', country: 'BT-80' },
};

/** Terms of the document (and of the groups it holds once: totals, delivery, payment) by facet; the fit where the facet is wider than the term. */
const DOCUMENT_TERMS: Record<string, TermChoice> = {
  'document-number': { term: 'BT-1', fit: 1 }, 'issue-date': { term: 'BT-2', fit: 1 }, 'document-type': { term: 'BT-3', fit: 1 }, currency: { term: 'BT-5', fit: 1 },
  'tax-point-date': { term: 'BT-7', fit: 1 }, 'due-date': { term: 'BT-9', fit: 1 }, 'buyer-reference': { term: 'BT-10', fit: 1 }, 'project-reference': { term: 'BT-11', fit: 1 },
  'contract-reference': { term: 'BT-12', fit: 1 }, 'order-number': { term: 'BT-13', fit: 1 }, 'sales-order': { term: 'BT-14', fit: 1 }, 'receiving-reference': { term: 'BT-15', fit: 1 },
  'despatch-reference': { term: 'BT-16', fit: 1 }, 'tender-reference': { term: 'BT-17', fit: 1 }, 'accounting-reference': { term: 'BT-19', fit: 1 }, 'payment-terms': { term: 'BT-20', fit: 1 },
  note: { term: 'BT-22', fit: 0.9 }, 'preceding-invoice': { term: 'BT-25', fit: 1 },
  // a customer number is most often the buyer's identifier as the seller knows it
  'customer-number': { term: 'BT-46', fit: 0.85 }, 'supplier-number': { term: 'BT-29', fit: 0.85 },
  'delivery-date': { term: 'BT-72', fit: 1 }, 'period-start': { term: 'BT-73', fit: 1 }, 'period-end': { term: 'BT-74', fit: 1 },
  'payment-means': { term: 'BT-82', fit: 0.95 }, 'payment-reference': { term: 'BT-83', fit: 1 }, iban: { term: 'BT-84', fit: 1 }, 'account-name': { term: 'BT-85', fit: 1 },
  bic: { term: 'BT-86', fit: 1 }, 'mandate-reference': { term: 'BT-89', fit: 1 }, 'creditor-id': { term: 'BT-90', fit: 1 },
  'line-total': { term: 'BT-106', fit: 1 }, 'allowance-total': { term: 'BT-107', fit: 1 }, 'charge-total': { term: 'BT-108', fit: 1 }, 'net-total': { term: 'BT-109', fit: 1 },
  'tax-total': { term: 'BT-110', fit: 1 }, 'gross-total': { term: 'BT-112', fit: 1 }, 'paid-amount': { term: 'BT-113', fit: 1 }, rounding: { term: 'BT-114', fit: 1 },
  'amount-due': { term: 'BT-115', fit: 1 },
  // "total" alone is the total with VAT; a "subtotal" beside a VAT and a total is the amount without VAT (most often also the sum of the lines)
  total: { term: 'BT-112', fit: 0.95 }, subtotal: { term: 'BT-109', fit: 0.85 }, 'taxable-amount': { term: 'BT-109', fit: 0.8 },
  'exemption-reason': { term: 'BT-120', fit: 0.85 },
};

/** Terms of an invoice line (BG-25) by facet. */
const LINE_TERMS: Record<string, TermChoice> = {
  'line-id': { term: 'BT-126', fit: 1 }, 'item-name': { term: 'BT-153', fit: 1 }, 'item-description': { term: 'BT-154', fit: 1 }, quantity: { term: 'BT-129', fit: 1 },
  unit: { term: 'BT-130', fit: 1 }, 'unit-price': { term: 'BT-146', fit: 1 }, 'gross-price': { term: 'BT-148', fit: 1 }, 'line-net': { term: 'BT-131', fit: 1 },
  'tax-rate': { term: 'BT-152', fit: 1 }, 'tax-category': { term: 'BT-151', fit: 1 }, 'seller-item-id': { term: 'BT-155', fit: 1 }, 'buyer-item-id': { term: 'BT-156', fit: 1 },
  gtin: { term: 'BT-157', fit: 1 }, 'origin-country': { term: 'BT-159', fit: 1 }, note: { term: 'BT-127', fit: 1 }, 'period-start': { term: 'BT-134', fit: 1 },
  'period-end': { term: 'BT-135', fit: 1 }, 'order-number': { term: 'BT-132', fit: 0.9 }, 'accounting-reference': { term: 'BT-133', fit: 1 },
};

/** Terms of a VAT breakdown row (BG-23) by facet. */
const VAT_BREAKDOWN_TERMS: Record<string, TermChoice> = {
  'taxable-amount': { term: 'BT-116', fit: 1 }, 'line-vat': { term: 'BT-117', fit: 1 }, 'tax-total': { term: 'BT-117', fit: 1 }, 'line-net': { term: 'BT-116', fit: 0.8 },
  'tax-category': { term: 'BT-118', fit: 1 }, 'tax-rate': { term: 'BT-119', fit: 1 }, 'exemption-reason': { term: 'BT-120', fit: 1 },
};

/** Facets of a line of goods or services: a list whose items ask for them is the invoice's lines. */
const LINE_FACETS = new Set(['item-name', 'item-description', 'quantity', 'unit-price', 'line-net', 'line-id', 'seller-item-id', 'gtin', 'unit', 'gross-price']);
/** Facets that only a VAT breakdown row has. */
const BREAKDOWN_FACETS = new Set(['taxable-amount', 'tax-category', 'exemption-reason']);

/** Mappings less sure than this leave the property to the engine. */
const MIN_CERTAINTY = 0.55;

/** The term a value of the document (not of a list's item) asks for. */
export function documentTerm(meaning: PropertyMeaning): TermChoice | undefined {
  const facet = meaning.facet?.id;
  if (!facet || meaning.level !== 'document') return undefined;
  if (meaning.facet?.ofParty || facet === 'party-name') {
    const term = PARTY_TERMS[meaning.party ?? 'seller']?.[facet];
    return term ? { term, fit: 1 } : undefined;
  }
  return DOCUMENT_TERMS[facet];
}

/** The EN 16931 group a list of objects is, from its items' facets: invoice lines, VAT breakdown rows, or none. */
function listGroup(items: readonly PropertyAt[]): 'BG-25' | 'BG-23' | undefined {
  const facets = items.map((item) => item.meaning.facet?.id).filter((id): id is string => id !== undefined);
  if (facets.some((id) => BREAKDOWN_FACETS.has(id))) return 'BG-23';
  if (facets.some((id) => LINE_FACETS.has(id))) return 'BG-25';
  if (facets.length > 0 && facets.every((id) => id === 'tax-rate' || id === 'line-vat' || id === 'tax-total')) return 'BG-23';
  return undefined;
}

/** The first value of a term in a group or in the groups it holds once (the seller's address, the totals, the payment). */
export function termValue(group: EInvoiceGroup, term: string): EInvoiceValue | undefined {
  const own = group.terms[term]?.[0];
  if (own) return own;
  for (const instances of Object.values(group.groups)) {
    const first = instances[0];
    const found = first ? termValue(first, term) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** How many different values a term has across every instance of the groups that hold it (two payment accounts: 2). */
function distinctValues(group: EInvoiceGroup, term: string, seen = new Set<string>()): number {
  for (const value of group.terms[term] ?? []) seen.add(value.value);
  for (const instances of Object.values(group.groups)) for (const instance of instances) distinctValues(instance, term, seen);
  return seen.size;
}

/**
 * What the mapping's certainty keeps when the term the property asks for has
 * several values in the XML (two payment accounts, two delivery dates): the
 * first is answered, and is one of two or more the property may mean.
 */
const SEVERAL_VALUES_SHARE = 0.75;

/** Every instance of a group, wherever it sits (BG-25 in the invoice, BG-23 in it too). */
function groupInstances(group: EInvoiceGroup, id: string): EInvoiceGroup[] {
  if (group.groups[id]) return group.groups[id]!;
  for (const instances of Object.values(group.groups)) {
    for (const instance of instances) {
      const found = groupInstances(instance, id);
      if (found.length > 0) return found;
    }
  }
  return [];
}

/** The value in the form its schema asks for: dates, amounts, quantities and rates normalised, everything else as written. */
function jsonValue(value: EInvoiceValue, at: PropertyAt): unknown {
  const normalisedKinds: ReadonlyArray<PropertyMeaning['kind']> = ['date', 'datetime', 'amount', 'quantity', 'rate', 'number', 'integer'];
  const text = normalisedKinds.includes(at.meaning.kind) || at.view.format === 'date' ? value.value : value.raw;
  const numeric = at.view.types.length > 0 && at.view.types.every((type) => type === 'number' || type === 'integer' || type === 'null');
  if (numeric && /^[-+]?\d+(?:\.\d+)?$/.test(value.value)) return Number(value.value);
  return text;
}

/** Where the e-invoice page shows a value, as words of the Document. */
function wordsOf(value: EInvoiceValue, file: number, page: Page): WordRef[] {
  if (!value.shown) return [];
  const refs: WordRef[] = [];
  for (let word = value.shown.words[0]; word < value.shown.words[1]; word++) refs.push({ file, page: page.index, line: value.shown.line, word });
  return refs;
}

interface EInvoiceSource {
  invoice: EInvoiceGroup;
  file: number;
  page: Page;
}

/** The first e-invoice of the Document with its terms (the rules engine's thread copy has none). */
export function eInvoiceSource(document: Document): EInvoiceSource | undefined {
  for (const file of document.files) {
    for (const page of file.pages) {
      const invoice = page.eInvoice?.invoice;
      if (page.source === 'e-invoice' && invoice && (Object.keys(invoice.terms).length > 0 || Object.keys(invoice.groups).length > 0)) return { invoice, file: file.index, page };
    }
  }
  return undefined;
}

/** Sets `value` at a pointer of `root`, making the objects on the way. */
function setAt(root: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = splitPointer(pointer);
  let current: Record<string, unknown> = root;
  tokens.slice(0, -1).forEach((token) => {
    const next = current[token];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      const made: Record<string, unknown> = {};
      Object.defineProperty(current, token, { value: made, enumerable: true, writable: true, configurable: true });
      current = made;
    } else current = next as Record<string, unknown>;
  });
  Object.defineProperty(current, tokens[tokens.length - 1]!, { value, enumerable: true, writable: true, configurable: true });
}

/** Removes the provenance at and under a pointer. */
function forget(provenance: Provenance, pointer: string): void {
  for (const key of [...provenance.keys()]) if (key === pointer || key.startsWith(`${pointer}/`)) provenance.delete(key);
}

/**
 * The engine's extraction with every property that asks for an EN 16931
 * term answered from the XML (value, words on the e-invoice page, the
 * mapping's certainty as score); the engine's own reading stands for the
 * rest. Paced: an e-invoice may hold thousands of lines.
 */
export function* answeringFromTerms(extraction: Extraction, schema: JsonSchema, source: EInvoiceSource): PacedWork<Extraction> {
  // the engine's answer is its own per call: filled in place (a copy of thousands of lines would hold the loop)
  const value = (typeof extraction.value === 'object' && extraction.value !== null && !Array.isArray(extraction.value) ? extraction.value : {}) as Record<string, unknown>;
  const provenance: Provenance = extraction.provenance;
  const properties = schemaMeanings(schema);
  const lists = new Map<string, PropertyAt[]>();
  for (const at of properties) {
    yield;
    const star = at.pointer.indexOf('/*/');
    if (star >= 0) {
      const list = at.pointer.slice(0, star);
      lists.set(list, [...(lists.get(list) ?? []), at]);
      continue;
    }
    const choice = at.meaning.level === 'document' ? documentTerm(at.meaning) : undefined;
    const certainty = choice ? at.meaning.certainty * choice.fit : 0;
    if (!choice || certainty < MIN_CERTAINTY) continue;
    const found = termValue(source.invoice, choice.term);
    setAt(value, at.pointer, found ? jsonValue(found, at) : null);
    forget(provenance, at.pointer);
    const share = found && distinctValues(source.invoice, choice.term) > 1 ? SEVERAL_VALUES_SHARE : 1;
    if (found) provenance.set(at.pointer, { words: wordsOf(found, source.file, source.page), score: certainty * share });
  }
  for (const [list, items] of lists) {
    const group = listGroup(items);
    const instances = group ? groupInstances(source.invoice, group) : [];
    // an XML without lines (a profile that carries none) leaves the list to the engine's reading of the page
    if (!group || instances.length === 0) continue;
    const terms = group === 'BG-25' ? LINE_TERMS : VAT_BREAKDOWN_TERMS;
    const rows: Record<string, unknown>[] = [];
    forget(provenance, list);
    for (const [index, instance] of instances.entries()) {
      yield;
      const row: Record<string, unknown> = {};
      const rowPointer = childPointer(list, index);
      for (const at of items) {
        const inRow = at.pointer.slice(list.length + 2);
        const choice = at.meaning.facet ? terms[at.meaning.facet.id] : undefined;
        const certainty = choice ? at.meaning.certainty * choice.fit : 0;
        const found = choice && certainty >= MIN_CERTAINTY ? termValue(instance, choice.term) : undefined;
        setAt(row, inRow, found ? jsonValue(found, at) : null);
        if (found) provenance.set(`${rowPointer}${inRow}`, { words: wordsOf(found, source.file, source.page), score: certainty });
      }
      rows.push(row);
    }
    setAt(value, list, rows);
  }
  return { ...extraction, value, provenance };
}

/**
 * Any engine, with an e-invoice's terms answered from the XML: the engine
 * reads as before, then every property that asks for a business term the
 * Document's e-invoice holds takes the XML's value.
 */
export class EInvoiceTermsEngine implements Engine {
  readonly name: string;

  constructor(private readonly inner: Engine) {
    this.name = inner.name;
  }

  async extract(input: ExtractionInput): Promise<Extraction> {
    const extraction = await this.inner.extract(input);
    const source = eInvoiceSource(input.document);
    if (!source) return extraction;
    return runPaced(answeringFromTerms(extraction, input.compiled.schema, source), new Pacer(input.signal));
  }

  status(): Promise<EngineStatus> {
    return this.inner.status();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
