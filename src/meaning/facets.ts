/**
 * What a property can ask for, in English: each facet with the kind of value
 * it holds, its role (whose value, which amount, which date), the level it
 * lives at (the document or one of its lines) and the English phrases that
 * name it. Names and descriptions in other languages reach these phrases
 * through the language tables' glossaries (translate.ts); nothing here names
 * a language, a dataset or a document producer.
 *
 * A phrase matches when all its words are among the property's words, in any
 * order ("amountNet" and "net amount" are the same); the phrase with most
 * words wins, so "vat id" beats "vat" and "line net amount" beats "net amount".
 */
import type { Concept } from './languages/index.js';

/** The kind of value: how it is recognised in text and written in JSON. */
export type MeaningKind =
  | 'identifier' | 'amount' | 'quantity' | 'rate' | 'date' | 'time' | 'datetime' | 'party-name' | 'person-name'
  | 'address' | 'code' | 'currency' | 'country' | 'text' | 'boolean' | 'email' | 'phone' | 'url' | 'iban' | 'bic'
  | 'duration' | 'number' | 'integer';

/** Whose value it is. */
export type Party = 'seller' | 'buyer' | 'payee' | 'tax-representative' | 'deliver-to';

/** Which amount of the document (EN 16931's document totals, and what receipts print). */
export type AmountRole =
  | 'line-total' | 'allowances' | 'charges' | 'net' | 'vat' | 'gross' | 'paid' | 'rounding' | 'due'
  | 'subtotal' | 'total' | 'discount' | 'tip' | 'change' | 'tendered' | 'taxable'
  | 'unit-price' | 'gross-price' | 'line-net' | 'line-vat';

/** Which date of the document. */
export type DateRole = 'issue' | 'due' | 'delivery' | 'period-start' | 'period-end' | 'tax-point' | 'order' | 'effective' | 'expiry' | 'payment';

export type Level = 'document' | 'line';

export interface Facet {
  id: string;
  kind: MeaningKind;
  /** English phrases that name it, in property names and in descriptions. */
  phrases: readonly string[];
  /** How the rules engine looks for its printed label: the English words of its name ("invoice number"). */
  words: string;
  /** The rules engine's concepts of this value (which label families and strategies apply). */
  concepts: readonly Concept[];
  /** A value of a party (its name, VAT id, address...): the party comes from the path, the name or the description. */
  ofParty?: boolean;
  /** The party it belongs to whatever the context ("customer number" is the buyer's). */
  party?: Party;
  amount?: AmountRole;
  date?: DateRole;
  /** Only at this level: "line net amount" is a line's, "sum of line amounts" the document's. */
  level?: Level;
  /** What sets it apart from its neighbours, for a language model's field notes ("without VAT"). */
  note?: string;
}

/** Facets of a party: the party comes from the context. */
const PARTY_FACETS: Facet[] = [
  { id: 'party-name', kind: 'party-name', ofParty: true, words: 'name', concepts: ['business', 'name'], phrases: ['name', 'party', 'party name', 'company name', 'legal name', 'registered name', 'business name', 'company', 'firm', 'organisation', 'organization', 'entity'] },
  { id: 'trading-name', kind: 'party-name', ofParty: true, words: 'trading name', concepts: ['business', 'name'], phrases: ['trading name', 'trade name', 'brand name', 'doing business as', 'dba'] },
  { id: 'vat-id', kind: 'identifier', note: 'not an amount',  ofParty: true, words: 'vat id', concepts: ['identifier'], phrases: ['vat id', 'vat number', 'vat identifier', 'vat identification', 'vat identification number', 'vat registration', 'vat registration number', 'vat reg number', 'tax id', 'tax identifier', 'tax identification', 'tax identification number', 'taxpayer id', 'tin', 'vatin', 'gst number', 'gst registration', 'gst id', 'sales tax id', 'vat code'] },
  { id: 'tax-number', kind: 'identifier', ofParty: true, words: 'tax number', concepts: ['identifier'], phrases: ['tax number', 'tax registration number', 'tax reference', 'fiscal number', 'fiscal code', 'tax code'] },
  { id: 'legal-id', kind: 'identifier', ofParty: true, words: 'registration number', concepts: ['identifier'], phrases: ['registration number', 'company registration', 'company number', 'register number', 'commercial register', 'trade register', 'legal registration', 'legal entity identifier', 'legal id', 'registration id', 'siren', 'siret', 'lei', 'chamber commerce number', 'business registration number', 'company id', 'registry number'] },
  { id: 'party-id', kind: 'identifier', ofParty: true, words: 'id', concepts: ['identifier'], phrases: ['id', 'identifier', 'number', 'party id', 'gln', 'global location number'] },
  { id: 'electronic-address', kind: 'identifier', ofParty: true, words: 'electronic address', concepts: ['identifier'], phrases: ['electronic address', 'endpoint', 'endpoint id', 'peppol id', 'routing id', 'leitweg id'] },
  { id: 'address', kind: 'address', ofParty: true, words: 'address', concepts: ['address'], phrases: ['address', 'postal address', 'mailing address', 'location', 'full address', 'street address', 'address located'] },
  { id: 'street', kind: 'text', ofParty: true, words: 'street', concepts: ['address'], phrases: ['street', 'address line', 'address line 1', 'line 1', 'street name', 'house number'] },
  { id: 'city', kind: 'text', ofParty: true, words: 'city', concepts: ['address'], phrases: ['city', 'town', 'locality', 'municipality', 'place'] },
  { id: 'postcode', kind: 'code', ofParty: true, words: 'postcode', concepts: ['address'], phrases: ['postcode', 'post code', 'postal code', 'zip', 'zip code', 'zipcode', 'plz'] },
  { id: 'region', kind: 'text', ofParty: true, words: 'region', concepts: ['address'], phrases: ['region', 'state', 'province', 'county', 'subdivision', 'country subdivision'] },
  { id: 'country', kind: 'country', ofParty: true, words: 'country', concepts: ['address'], phrases: ['country', 'country code', 'nation'] },
  { id: 'contact-name', kind: 'person-name', ofParty: true, words: 'contact', concepts: ['name'], phrases: ['contact', 'contact name', 'contact person', 'contact point', 'attention', 'attn', 'person'] },
  { id: 'phone', kind: 'phone', ofParty: true, words: 'phone', concepts: ['phone'], phrases: ['phone', 'telephone', 'phone number', 'telephone number', 'mobile', 'cell', 'contact phone', 'number to call', 'number call'] },
  { id: 'fax', kind: 'phone', ofParty: true, words: 'fax', concepts: ['phone'], phrases: ['fax', 'fax number', 'telefax'] },
  { id: 'email', kind: 'email', ofParty: true, words: 'email', concepts: ['email'], phrases: ['email', 'e mail', 'mail', 'email address', 'contact email'] },
  { id: 'website', kind: 'url', ofParty: true, words: 'website', concepts: ['url'], phrases: ['website', 'web site', 'url', 'homepage', 'web', 'web address'] },
];

const DOCUMENT_FACETS: Facet[] = [
  { id: 'document-number', kind: 'identifier', words: 'invoice number', concepts: ['identifier'], level: 'document', phrases: ['invoice number', 'invoice id', 'invoice identifier', 'invoice reference', 'bill number', 'receipt number', 'credit note number', 'document number', 'document id', 'voucher number', 'receipt id', 'transaction number', 'invoice'] },
  { id: 'document-type', kind: 'code', words: 'document type', concepts: [], level: 'document', phrases: ['document type', 'invoice type', 'type code', 'invoice type code', 'document type code', 'kind of document'] },
  { id: 'issue-date', kind: 'date', date: 'issue', words: 'invoice date', concepts: ['date'], level: 'document', phrases: ['invoice date', 'issue date', 'date issue', 'date issued', 'day issued', 'document date', 'day', 'receipt date', 'bill date', 'billing date', 'transaction date', 'purchase date', 'sale date', 'date'] },
  { id: 'time', kind: 'time', words: 'time', concepts: ['time'], phrases: ['time', 'transaction time', 'purchase time', 'hour'] },
  { id: 'datetime', kind: 'datetime', words: 'date time', concepts: ['date', 'time'], phrases: ['date time', 'timestamp', 'datetime'] },
  { id: 'due-date', kind: 'date', date: 'due', words: 'due date', concepts: ['date'], phrases: ['due date', 'payment due date', 'date due', 'payment due', 'pay by', 'due', 'payable by', 'payment deadline', 'maturity date', 'invoice due date'] },
  { id: 'delivery-date', kind: 'date', date: 'delivery', words: 'delivery date', concepts: ['date'], phrases: ['delivery date', 'date delivery', 'supply date', 'date supply', 'service date', 'performance date', 'shipping date', 'ship date', 'actual delivery date'] },
  { id: 'period-start', kind: 'date', date: 'period-start', words: 'period start', concepts: ['date'], phrases: ['period start', 'start date', 'start period', 'period from', 'from date', 'billing period start', 'service period start', 'invoicing period start'] },
  { id: 'period-end', kind: 'date', date: 'period-end', words: 'period end', concepts: ['date'], phrases: ['period end', 'end date', 'end period', 'period to', 'to date', 'billing period end', 'service period end', 'invoicing period end'] },
  { id: 'tax-point-date', kind: 'date', date: 'tax-point', words: 'tax point date', concepts: ['date'], phrases: ['tax point date', 'tax point', 'vat point date', 'tax date'] },
  { id: 'order-date', kind: 'date', date: 'order', words: 'order date', concepts: ['date'], phrases: ['order date', 'date order', 'purchase order date'] },
  { id: 'effective-date', kind: 'date', date: 'effective', words: 'effective date', concepts: ['date'], phrases: ['effective date', 'effective', 'commencement date', 'start agreement', 'effective as', 'date agreement apply', 'date agreement applies', 'in force', 'date agreement start', 'date agreement begin'] },
  { id: 'expiry-date', kind: 'date', date: 'expiry', words: 'expiry date', concepts: ['date'], phrases: ['expiry date', 'expiration date', 'expiry', 'expiration', 'valid until', 'valid to'] },
  { id: 'currency', kind: 'currency', words: 'currency', concepts: ['currency'], level: 'document', phrases: ['currency', 'currency code', 'invoice currency', 'iso currency'] },
  { id: 'buyer-reference', kind: 'identifier', words: 'buyer reference', concepts: ['identifier'], level: 'document', phrases: ['buyer reference', 'customer reference', 'your reference', 'client reference', 'reference buyer'] },
  { id: 'order-number', kind: 'identifier', words: 'order number', concepts: ['identifier'], level: 'document', phrases: ['order number', 'purchase order', 'purchase order number', 'po number', 'po', 'order reference', 'order id', 'purchase order reference', 'order'] },
  { id: 'sales-order', kind: 'identifier', words: 'sales order number', concepts: ['identifier'], level: 'document', phrases: ['sales order', 'sales order number', 'sales order reference', 'seller order'] },
  { id: 'contract-reference', kind: 'identifier', words: 'contract number', concepts: ['identifier'], level: 'document', phrases: ['contract number', 'contract reference', 'contract id', 'agreement number', 'contract'] },
  { id: 'project-reference', kind: 'identifier', words: 'project number', concepts: ['identifier'], level: 'document', phrases: ['project number', 'project reference', 'project id', 'project'] },
  { id: 'despatch-reference', kind: 'identifier', words: 'delivery note number', concepts: ['identifier'], level: 'document', phrases: ['despatch advice', 'dispatch advice', 'delivery note', 'delivery note number', 'packing slip', 'despatch reference', 'dispatch reference', 'shipping note'] },
  { id: 'receiving-reference', kind: 'identifier', words: 'receiving advice', concepts: ['identifier'], level: 'document', phrases: ['receiving advice', 'goods receipt', 'receiving reference'] },
  { id: 'tender-reference', kind: 'identifier', words: 'tender reference', concepts: ['identifier'], level: 'document', phrases: ['tender', 'tender reference', 'lot reference', 'tender lot'] },
  { id: 'accounting-reference', kind: 'identifier', words: 'accounting reference', concepts: ['identifier'], phrases: ['accounting reference', 'cost centre', 'cost center', 'account code', 'accounting code', 'booking reference', 'gl account', 'ledger account'] },
  { id: 'preceding-invoice', kind: 'identifier', words: 'preceding invoice number', concepts: ['identifier'], level: 'document', phrases: ['preceding invoice', 'previous invoice', 'original invoice', 'invoice corrected', 'corrected invoice', 'credited invoice', 'related invoice', 'referenced invoice'] },
  { id: 'customer-number', kind: 'identifier', party: 'buyer', words: 'customer number', concepts: ['identifier'], level: 'document', phrases: ['customer number', 'customer id', 'client number', 'client id', 'account number', 'customer account', 'member number', 'membership number', 'debtor number', 'customer code', 'client code'] },
  { id: 'supplier-number', kind: 'identifier', party: 'seller', words: 'supplier number', concepts: ['identifier'], level: 'document', phrases: ['supplier number', 'supplier id', 'vendor number', 'vendor id', 'creditor number', 'merchant id'] },
  { id: 'note', kind: 'text', words: 'note', concepts: [], level: 'document', phrases: ['note', 'notes', 'remark', 'remarks', 'comment', 'comments', 'memo', 'free text'] },
  { id: 'payment-terms', kind: 'text', words: 'payment terms', concepts: [], level: 'document', phrases: ['payment terms', 'terms payment', 'payment condition', 'payment conditions', 'terms'] },
  { id: 'payment-means', kind: 'text', words: 'payment method', concepts: [], level: 'document', phrases: ['payment means', 'payment method', 'method payment', 'payment type', 'means payment', 'paid by', 'payment mode', 'tender type', 'payment means code'] },
  { id: 'payment-reference', kind: 'identifier', words: 'payment reference', concepts: ['identifier'], level: 'document', phrases: ['payment reference', 'remittance information', 'remittance', 'remittance reference', 'reference payment', 'transfer reference', 'purpose payment'] },
  { id: 'iban', kind: 'iban', words: 'iban', concepts: ['identifier'], level: 'document', phrases: ['iban', 'bank account', 'account iban', 'payment account', 'bank account number', 'account number iban', 'payee account'] },
  { id: 'bic', kind: 'bic', words: 'bic', concepts: ['identifier'], level: 'document', phrases: ['bic', 'swift', 'swift code', 'bic code', 'bank code', 'bank identifier'] },
  { id: 'bank-name', kind: 'text', words: 'bank', concepts: [], level: 'document', phrases: ['bank', 'bank name', 'financial institution'] },
  { id: 'account-name', kind: 'party-name', words: 'account holder', concepts: ['name'], level: 'document', phrases: ['account name', 'account holder', 'account owner', 'beneficiary name'] },
  { id: 'mandate-reference', kind: 'identifier', words: 'mandate reference', concepts: ['identifier'], level: 'document', phrases: ['mandate reference', 'mandate', 'mandate id', 'sepa mandate'] },
  { id: 'creditor-id', kind: 'identifier', words: 'creditor id', concepts: ['identifier'], level: 'document', phrases: ['creditor id', 'creditor identifier', 'creditor reference', 'bank assigned creditor'] },
  { id: 'jurisdiction', kind: 'text', words: 'jurisdiction', concepts: [], phrases: ['jurisdiction', 'governing law', 'law', 'venue', 'applicable law', 'governing state'] },
  { id: 'term', kind: 'duration', words: 'term', concepts: [], phrases: ['term', 'duration', 'length', 'period validity', 'term agreement', 'contract term', 'contract duration', 'agreement duration'] },
];

/** Amounts of the whole document. */
const TOTAL_FACETS: Facet[] = [
  { id: 'line-total', kind: 'amount', note: 'before document allowances and charges, without VAT', amount: 'line-total', words: 'sum of line net amounts', concepts: ['subtotal'], level: 'document', phrases: ['line total', 'lines total', 'line net total', 'sum line', 'sum line net', 'sum line net amount', 'sum line amount', 'total line', 'total line net', 'line extension amount', 'line extension', 'items total', 'item total', 'total items', 'total line amount', 'sum items', 'sum positions', 'position total'] },
  { id: 'allowance-total', kind: 'amount', amount: 'allowances', words: 'allowances', concepts: ['discount'], level: 'document', phrases: ['allowance', 'allowance total', 'total allowance', 'sum allowance', 'discount total', 'total discount', 'discount', 'rebate', 'reduction', 'deduction'] },
  { id: 'charge-total', kind: 'amount', amount: 'charges', words: 'charges', concepts: ['amount'], level: 'document', phrases: ['charge total', 'total charge', 'sum charge', 'surcharge', 'charges', 'fees', 'fee', 'shipping cost', 'freight', 'delivery charge', 'handling'] },
  { id: 'net-total', kind: 'amount', note: 'without VAT', amount: 'net', words: 'net total', concepts: ['subtotal'], level: 'document', phrases: ['net total', 'net amount', 'total net', 'net', 'total excluding vat', 'total excluding tax', 'total without vat', 'total without tax', 'amount without vat', 'amount without tax', 'without vat', 'without tax', 'excluding vat', 'excluding tax', 'excl vat', 'excl tax', 'before tax', 'before vat', 'pre tax', 'total excl', 'tax exclusive', 'tax exclusive amount', 'taxable total', 'net value'] },
  { id: 'subtotal', kind: 'amount', note: 'before tax', amount: 'subtotal', words: 'subtotal', concepts: ['subtotal'], level: 'document', phrases: ['subtotal', 'sub total', 'sub amount'] },
  { id: 'tax-total', kind: 'amount', note: 'the VAT amount, not a rate or a taxable amount', amount: 'vat', words: 'tax total', concepts: ['tax'], level: 'document', phrases: ['vat', 'tax', 'vat amount', 'tax amount', 'vat total', 'tax total', 'total vat', 'total tax', 'sales tax', 'gst', 'hst', 'sst', 'gst amount', 'taxes', 'vat sum', 'sum vat', 'sum tax', 'tax charged', 'vat charged'] },
  { id: 'gross-total', kind: 'amount', note: 'including VAT', amount: 'gross', words: 'gross total', concepts: ['total'], level: 'document', phrases: ['gross total', 'gross amount', 'total gross', 'gross', 'grand total', 'total including vat', 'total including tax', 'including vat', 'including tax', 'incl vat', 'incl tax', 'with vat', 'with tax', 'total with vat', 'amount with vat', 'tax inclusive', 'tax inclusive amount', 'after tax', 'total incl vat', 'total incl tax', 'invoice total', 'invoice amount', 'total invoice', 'total invoice amount', 'gross value'] },
  { id: 'total', kind: 'amount', amount: 'total', words: 'total', concepts: ['total'], level: 'document', phrases: ['total', 'total amount', 'amount total', 'final total', 'final amount', 'sum total'] },
  { id: 'paid-amount', kind: 'amount', note: 'already paid or prepaid', amount: 'paid', words: 'paid amount', concepts: ['amount'], level: 'document', phrases: ['paid amount', 'amount paid', 'paid', 'prepaid', 'prepaid amount', 'prepayment', 'already paid', 'deposit', 'advance payment', 'down payment', 'paid to date'] },
  { id: 'rounding', kind: 'amount', amount: 'rounding', words: 'rounding', concepts: ['amount'], level: 'document', phrases: ['rounding', 'rounding amount', 'rounding adjustment', 'round off', 'rounding difference'] },
  { id: 'amount-due', kind: 'amount', note: 'what remains to be paid', amount: 'due', words: 'amount due', concepts: ['total'], level: 'document', phrases: ['amount due', 'due amount', 'balance due', 'amount payable', 'payable amount', 'payable', 'to pay', 'amount to pay', 'total due', 'total payable', 'balance', 'outstanding', 'outstanding amount', 'amount outstanding', 'open amount', 'remaining amount', 'due for payment', 'amount due for payment'] },
  { id: 'tip', kind: 'amount', amount: 'tip', words: 'tip', concepts: ['amount'], phrases: ['tip', 'gratuity', 'service charge'] },
  { id: 'change', kind: 'amount', amount: 'change', words: 'change', concepts: ['amount'], phrases: ['change', 'change given', 'change due'] },
  { id: 'tendered', kind: 'amount', amount: 'tendered', words: 'cash', concepts: ['amount'], phrases: ['tendered', 'cash tendered', 'amount tendered', 'cash', 'cash given', 'amount given'] },
  { id: 'taxable-amount', kind: 'amount', amount: 'taxable', words: 'taxable amount', concepts: ['amount'], phrases: ['taxable amount', 'taxable', 'tax base', 'vat base', 'basis', 'taxable basis', 'category taxable amount', 'amount subject vat'] },
  { id: 'tax-rate', kind: 'rate', note: 'a percentage, not an amount',  words: 'vat rate', concepts: ['percentage'], phrases: ['vat rate', 'tax rate', 'rate', 'vat percentage', 'tax percentage', 'vat percent', 'tax percent', 'vat %', 'tax %', 'percentage', 'percent'] },
  { id: 'tax-category', kind: 'code', words: 'vat category', concepts: [], phrases: ['vat category', 'tax category', 'vat category code', 'tax category code', 'vat code', 'tax code', 'category code'] },
  { id: 'exemption-reason', kind: 'text', words: 'exemption reason', concepts: [], phrases: ['exemption reason', 'vat exemption', 'tax exemption', 'exemption', 'exemption reason code'] },
];

/** Values of one line of a table (an invoice line, a receipt item, a statement's transaction). */
const LINE_FACETS: Facet[] = [
  { id: 'line-id', kind: 'identifier', words: 'position', concepts: ['identifier'], level: 'line', phrases: ['line id', 'line number', 'position', 'pos', 'line', 'item number', 'row', 'line no'] },
  { id: 'item-name', kind: 'text', words: 'description', concepts: ['description'], level: 'line', phrases: ['description', 'item', 'item name', 'product', 'product name', 'article', 'article name', 'name', 'designation', 'service', 'goods', 'item description', 'details', 'particulars', 'label', 'text', 'title', 'what', 'line description', 'line label', 'line text', 'position description'] },
  { id: 'item-description', kind: 'text', words: 'item description', concepts: ['description'], level: 'line', phrases: ['long description', 'additional description', 'item details', 'item note'] },
  { id: 'quantity', kind: 'quantity', words: 'quantity', concepts: ['quantity'], level: 'line', phrases: ['quantity', 'qty', 'count', 'pieces', 'number units', 'amount units', 'invoiced quantity', 'billed quantity', 'number', 'hours'] },
  { id: 'unit', kind: 'code', words: 'unit', concepts: [], level: 'line', phrases: ['unit', 'unit measure', 'uom', 'unit code', 'measure'] },
  { id: 'unit-price', kind: 'amount', note: 'per unit', amount: 'unit-price', words: 'unit price', concepts: ['unitPrice'], level: 'line', phrases: ['unit price', 'price', 'price per unit', 'price unit', 'net price', 'unit cost', 'rate', 'each', 'item price', 'single price', 'price each', 'unit net price', 'item net price', 'unit amount'] },
  { id: 'gross-price', kind: 'amount', amount: 'gross-price', words: 'gross price', concepts: ['unitPrice'], level: 'line', phrases: ['gross price', 'list price', 'gross unit price', 'price before discount'] },
  { id: 'line-net', kind: 'amount', note: 'the line total without VAT', amount: 'line-net', words: 'amount', concepts: ['amount'], level: 'line', phrases: ['amount', 'line amount', 'net amount', 'line net amount', 'line total', 'total', 'line net', 'net', 'total price', 'price total', 'sum', 'value', 'line value', 'extended price', 'extended amount', 'subtotal', 'total net', 'amount without vat', 'total without vat', 'net total'] },
  { id: 'line-vat', kind: 'amount', amount: 'line-vat', words: 'vat amount', concepts: ['tax'], level: 'line', phrases: ['vat amount', 'tax amount', 'vat', 'tax'] },
  { id: 'line-gross', kind: 'amount', amount: 'gross', words: 'gross amount', concepts: ['amount'], level: 'line', phrases: ['gross amount', 'gross total', 'amount including vat', 'total including vat', 'gross', 'incl vat', 'including vat', 'with vat'] },
  { id: 'line-discount', kind: 'amount', amount: 'discount', words: 'discount', concepts: ['discount'], level: 'line', phrases: ['discount', 'allowance', 'rebate', 'reduction', 'discount amount'] },
  { id: 'seller-item-id', kind: 'identifier', words: 'article number', concepts: ['identifier'], level: 'line', phrases: ['sku', 'article number', 'item code', 'product code', 'item id', 'product id', 'article id', 'part number', 'seller item id', 'catalogue number', 'catalog number', 'reference', 'ref', 'code', 'article code', 'article reference', 'product reference'] },
  { id: 'buyer-item-id', kind: 'identifier', words: 'buyer item id', concepts: ['identifier'], level: 'line', phrases: ['buyer item id', 'customer item number', 'customer article number', 'buyer article number'] },
  { id: 'gtin', kind: 'identifier', words: 'gtin', concepts: ['identifier'], level: 'line', phrases: ['gtin', 'ean', 'barcode', 'upc', 'standard id', 'standard identifier'] },
  { id: 'origin-country', kind: 'country', words: 'country of origin', concepts: [], level: 'line', phrases: ['country origin', 'origin', 'origin country', 'made in'] },
];

/** Every facet; order breaks ties (the earlier is the more common reading). */
export const FACETS: readonly Facet[] = [...DOCUMENT_FACETS, ...TOTAL_FACETS, ...LINE_FACETS, ...PARTY_FACETS];

/** English words that say whose value it is, strong (a role) or weak (a kind of party that is usually the issuer). */
export const PARTY_WORDS: Readonly<Record<Party, { strong: readonly string[]; weak?: readonly string[] }>> = {
  seller: { strong: ['seller', 'vendor', 'supplier', 'merchant', 'store', 'shop', 'restaurant', 'issuer', 'biller', 'sender', 'sent', 'retailer', 'provider', 'contractor', 'creditor', 'lessor', 'landlord', 'issued', 'issuing', 'from'], weak: ['company', 'business', 'firm', 'outlet', 'branch'] },
  buyer: { strong: ['buyer', 'customer', 'client', 'purchaser', 'recipient', 'addressee', 'billed', 'bill', 'debtor', 'lessee', 'tenant', 'addressed', 'sold', 'invoicee', 'consumer', 'patient', 'insured', 'policyholder', 'payer'] },
  payee: { strong: ['payee', 'beneficiary'] },
  'tax-representative': { strong: ['representative'] },
  'deliver-to': { strong: ['ship', 'shipping', 'deliver', 'delivery', 'consignee', 'shipped', 'delivered'] },
};
