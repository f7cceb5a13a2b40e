/**
 * Label hints for a schema property: which printed labels may announce its
 * value, which words next to such a label mean it is a different field, and
 * which general concept (total, date, phone...) the property is about.
 * The synonym table is deliberately small and generic.
 */
import { normaliseWord, tokenize } from './fuzzy.js';

export type Concept =
  | 'total' | 'subtotal' | 'tax' | 'discount' | 'date' | 'time' | 'identifier' | 'business' | 'customer'
  | 'address' | 'phone' | 'email' | 'url' | 'quantity' | 'description' | 'unitPrice' | 'amount' | 'percentage' | 'name' | 'currency';

interface ConceptEntry {
  /** Words of a property name or description that bring in the concept. */
  triggers: string[];
  /** Printed labels for it. */
  labels: string[];
  /** Words next to a matched label that mean another field. */
  negatives?: string[];
}

const CONCEPTS: Record<Concept, ConceptEntry> = {
  total: {
    triggers: ['total', 'grand total', 'amount due', 'balance due', 'payable', 'total amount'],
    labels: ['total', 'grand total', 'total due', 'amount due', 'amt due', 'balance due', 'total amount', 'amount payable', 'total payable', 'net total', 'total to pay', 'to pay', 'amount to pay', 'pay this amount', 'balance',
      // the same labels on receipts in German, French, Italian, Spanish, Dutch, Portuguese
      'summe', 'gesamt', 'gesamtbetrag', 'rechnungsbetrag', 'endbetrag', 'zu zahlen', 'montant total', 'net a payer', 'totale', 'importe', 'totaal', 'te betalen', 'a pagar'],
    negatives: ['sub', 'subtotal', 'tax', 'vat', 'gst', 'discount', 'discounts', 'saving', 'savings', 'saved', 'save', 'qty', 'quantity', 'items', 'item', 'excl', 'excluding', 'before', 'tendered', 'change', 'paid', 'cash', 'card', 'points', 'weight', 'pcs', 'units'],
  },
  subtotal: {
    triggers: ['subtotal', 'sub total'],
    labels: ['subtotal', 'sub total', 'net amount', 'item total', 'items total', 'food total', 'total sales', 'sales total', 'merchandise total',
      // before tax in German, French, Spanish, Italian, Dutch
      'zwischensumme', 'nettobetrag', 'sous total', 'total ht', 'total hors taxes', 'base imponible', 'subtotale', 'imponibile', 'subtotaal'],
  },
  tax: {
    triggers: ['tax', 'vat', 'gst', 'hst', 'sst'],
    labels: ['tax', 'taxes', 'vat', 'gst', 'sales tax', 'tax amount', 'hst', 'sst', 'mwst', 'ust', 'tva', 'iva', 'btw', 'cgst', 'sgst', 'igst'],
    negatives: ['id', 'reg', 'registration', 'no', 'number', 'incl', 'inclusive', 'including', 'excl', 'exclusive', 'excluding', 'invoice', 'summary', 'code'],
  },
  discount: { triggers: ['discount'], labels: ['discount', 'disc'] },
  date: {
    triggers: ['date', 'dated'],
    labels: ['date', 'dated', 'datum', 'fecha'],
    negatives: ['due', 'expiry', 'expiration', 'expires', 'birth', 'delivery', 'ship', 'shipping', 'start', 'end', 'payment', 'valid', 'print', 'printed'],
  },
  time: { triggers: ['time'], labels: ['time', 'uhrzeit', 'hora', 'heure'] },
  identifier: { triggers: ['number', 'no', 'num', 'nr', 'id', 'code', 'ref', 'reference'], labels: ['number', 'no', '#', 'num', 'nr', 'ref'] },
  business: {
    triggers: ['company', 'vendor', 'seller', 'supplier', 'store', 'merchant', 'shop', 'business', 'restaurant', 'issuer', 'retailer'],
    labels: ['company', 'vendor', 'seller', 'supplier', 'store', 'merchant', 'shop', 'from'],
  },
  customer: {
    triggers: ['customer', 'client', 'buyer', 'bill to', 'billed to', 'sold to', 'recipient', 'purchaser'],
    labels: ['customer', 'client', 'bill to', 'billed to', 'buyer', 'sold to', 'recipient'],
  },
  address: { triggers: ['address', 'addr'], labels: ['address', 'addr'] },
  phone: { triggers: ['phone', 'tel', 'telephone', 'mobile', 'fax'], labels: ['phone', 'tel', 'telephone', 'mobile', 'ph', 'hp', 'telefon', 'telefono'], negatives: ['fax'] },
  email: { triggers: ['email', 'e mail', 'mail'], labels: ['email', 'e mail'] },
  url: { triggers: ['url', 'website', 'web', 'site', 'homepage'], labels: ['website', 'web', 'www', 'url'] },
  quantity: { triggers: ['quantity', 'qty', 'count'], labels: ['quantity', 'qty', 'qnty', 'units', 'pcs', 'no of items'] },
  description: { triggers: ['description', 'item', 'product', 'article'], labels: ['description', 'item', 'product', 'details', 'particulars', 'article', 'desc'] },
  unitPrice: { triggers: ['unit price', 'price', 'unit cost'], labels: ['unit price', 'price', 'rate', 'unit cost', 'each'] },
  amount: {
    triggers: ['amount', 'amt', 'cost', 'fee', 'charge', 'paid', 'sum', 'balance', 'tip', 'price', 'value'],
    labels: ['amount', 'amt', 'line total', 'total', 'value'],
  },
  percentage: { triggers: ['percent', 'percentage', 'pct', 'rate'], labels: [] },
  name: { triggers: ['name'], labels: ['name'] },
  currency: {
    triggers: ['currency', 'curr', 'ccy'],
    labels: ['currency', 'amounts in', 'prices in', 'all amounts in', 'all prices in', 'wahrung', 'devise', 'moneda', 'valuta', 'divisa'],
  },
};

/** Concepts of a value of its own (unlike business/customer, which say whose value it is). */
const VALUE_CONCEPTS = new Set<Concept>(['total', 'subtotal', 'tax', 'discount', 'date', 'time', 'address', 'phone', 'email', 'url', 'currency']);

export interface LabelHint {
  words: string[];
  weight: number;
  /** A general label ("date") for a property whose name is more specific ("due_date"). */
  bare: boolean;
}

export interface FieldHints {
  /** Words of the property name, e.g. invoice_number -> ["invoice", "number"]. */
  nameWords: string[];
  labels: LabelHint[];
  /** Name words that no concept explains ("invoice" in invoice_date). */
  qualifiers: string[];
  negatives: string[];
  concepts: Set<Concept>;
  /** Which occurrence the description asks for when a label repeats. */
  occurrence: 'first' | 'last' | undefined;
  description: string;
}

export function splitName(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // "HTMLParser" -> "HTML Parser"; (?<![A-Z]) starts at the run of capitals, which otherwise is rescanned from each capital (quadratic)
    .replace(/(?<![A-Z])([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}#]+/u)
    .filter(Boolean)
    .map(normaliseWord);
}

const IDENTIFIER_WORDS = new Set(CONCEPTS.identifier.labels.concat(CONCEPTS.identifier.triggers));
const DESCRIPTION_STOPWORDS = new Set(['the', 'a', 'an', 'of', 'or', 'and', 'to', 'for', 'in', 'on', 'with', 'name', 'value', 'number', 'their', 'its', 'it', 'any', 'as', 'is', 's']);

/**
 * How much of a property name and description is read for hints. Both are the
 * caller's text and reach dozens of patterns; real ones are far shorter, and a
 * megabyte of "with with ..." kept some of those patterns busy for hours.
 */
const MAX_NAME_CHARS = 256;
const MAX_DESCRIPTION_CHARS = 4000;

export function hintsFor(fullName: string, fullDescription = '', parentWords: string[] = []): FieldHints {
  const name = fullName.slice(0, MAX_NAME_CHARS);
  const description = fullDescription.slice(0, MAX_DESCRIPTION_CHARS);
  const nameWords = splitName(name);
  const concepts = conceptsIn(nameWords.join(' '));
  // "store_address", "vendor_phone": the business word only says whose value it is; a bare "Store" label announces no address
  if ([...concepts].some((concept) => VALUE_CONCEPTS.has(concept))) concepts.delete('business');
  const firstSentence = description.split(/[.;(]/)[0] ?? '';
  if (concepts.size === 0) for (const concept of conceptsIn(splitName(firstSentence).join(' '))) concepts.add(concept);
  const labels: LabelHint[] = [];
  const explained = new Set([...concepts].flatMap((concept) => CONCEPTS[concept].triggers.filter((t) => ` ${nameWords.join(' ')} `.includes(` ${t} `)).flatMap((t) => t.split(' '))));
  const qualifiers = nameWords.filter((word) => !explained.has(word));
  const add = (words: string[], weight: number, bare = false): void => {
    if (words.length === 0) return;
    const existing = labels.find((l) => l.words.join(' ') === words.join(' '));
    if (existing) {
      existing.weight = Math.max(existing.weight, weight);
      existing.bare &&= bare;
    } else labels.push({ words, weight, bare });
  };
  add(nameWords, 1);
  if (parentWords.length > 0) add([...parentWords, ...nameWords], 1);
  addIdentifierVariants(nameWords, add);
  for (const concept of concepts) {
    // total_tax is not announced by a bare "Total", nor due_date by a bare "Date"
    if (CONCEPTS[concept].negatives?.some((word) => nameWords.includes(word))) continue;
    const weight = concept === 'identifier' || concept === 'name' ? 0.4 : qualifiers.length > 0 ? 0.75 : 0.9;
    for (const label of CONCEPTS[concept].labels) {
      const words = splitName(label);
      // "grand total" is as good a label for `total` as "total" itself
      const specific = nameWords.every((word) => words.includes(word));
      add(words, specific ? 1 : weight, qualifiers.length > 0 && !specific);
    }
  }
  const descriptionWords = splitName(firstSentence);
  if (descriptionWords.length > 0 && descriptionWords.length <= 5) add(descriptionWords, 0.9);
  const negatives = new Set<string>();
  for (const concept of concepts) for (const word of CONCEPTS[concept].negatives ?? []) negatives.add(word);
  for (const word of negativesFromDescription(description)) negatives.add(word);
  for (const word of nameWords) negatives.delete(word);
  return { nameWords, labels, qualifiers, negatives: [...negatives], concepts, occurrence: occurrenceIn(description), description };
}

/** "invoice number" is also printed "Invoice No.", "Invoice #", and as "Invoice" alone before the value. */
function addIdentifierVariants(nameWords: string[], add: (words: string[], weight: number) => void): void {
  const last = nameWords[nameWords.length - 1];
  if (last === undefined || nameWords.length < 2 || !IDENTIFIER_WORDS.has(last)) return;
  const stem = nameWords.slice(0, -1);
  for (const variant of ['number', 'no', '#', 'num', 'nr', 'ref', 'id']) add([...stem, variant], 1);
  add(stem, 0.6);
}

function conceptsIn(text: string): Set<Concept> {
  const words = ` ${text} `;
  const found = new Set<Concept>();
  for (const [concept, entry] of Object.entries(CONCEPTS) as Array<[Concept, ConceptEntry]>) {
    if (entry.triggers.some((trigger) => words.includes(` ${trigger} `))) found.add(concept);
  }
  if (found.has('subtotal')) found.delete('total');
  return found;
}

/** "Not the cashier, customer or a person's name" -> cashier, customer, person. */
function negativesFromDescription(description: string): string[] {
  const words: string[] = [];
  for (const match of description.matchAll(/\bnot (?:the |a |an |their |its )?([^.;:()]+)/gi)) {
    for (const word of tokenize(match[1]!)) {
      const plain = word.norm.replace(/'s$/, '');
      if (plain.length >= 3 && !DESCRIPTION_STOPWORDS.has(plain)) words.push(plain);
    }
  }
  return words;
}

function occurrenceIn(description: string): 'first' | 'last' | undefined {
  const first = /\b(?:first|top-?most|earliest|uppermost)\b/i.exec(description);
  const last = /\b(?:last|bottom-?most|latest|lowest)\b/i.exec(description);
  if (first && (!last || first.index < last.index)) return 'first';
  return last ? 'last' : undefined;
}

export function labelsOf(concept: Concept): string[][] {
  return CONCEPTS[concept].labels.map(splitName);
}
