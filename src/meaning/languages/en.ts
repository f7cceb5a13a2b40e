/** English: the labels of receipts and invoices, and the names callers give their fields. */
import type { LanguageTable } from './language.js';

export const ENGLISH: LanguageTable = {
  code: 'en',
  concepts: {
    total: {
      triggers: ['total', 'grand total', 'amount due', 'balance due', 'payable', 'total amount', 'gross', 'gross total', 'gross amount'],
      labels: ['total', 'grand total', 'total due', 'amount due', 'amt due', 'balance due', 'total amount', 'amount payable', 'total payable', 'net total', 'total to pay', 'to pay', 'amount to pay', 'pay this amount', 'balance'],
      negatives: ['sub', 'subtotal', 'tax', 'vat', 'gst', 'discount', 'discounts', 'saving', 'savings', 'saved', 'save', 'qty', 'quantity', 'items', 'item', 'excl', 'excluding', 'before', 'tendered', 'change', 'paid', 'cash', 'card', 'points', 'weight', 'pcs', 'units'],
    },
    subtotal: {
      triggers: ['subtotal', 'sub total', 'net total', 'net amount', 'total net'],
      labels: ['subtotal', 'sub total', 'net amount', 'item total', 'items total', 'food total', 'total sales', 'sales total', 'merchandise total'],
    },
    tax: {
      triggers: ['tax', 'vat', 'gst', 'hst', 'sst'],
      labels: ['tax', 'taxes', 'vat', 'gst', 'sales tax', 'tax amount', 'hst', 'sst', 'cgst', 'sgst', 'igst'],
      negatives: ['id', 'reg', 'registration', 'no', 'number', 'incl', 'inclusive', 'including', 'excl', 'exclusive', 'excluding', 'invoice', 'summary', 'code'],
    },
    discount: { triggers: ['discount'], labels: ['discount', 'disc'] },
    date: {
      triggers: ['date', 'dated'],
      labels: ['date', 'dated'],
      negatives: ['due', 'expiry', 'expiration', 'expires', 'birth', 'delivery', 'ship', 'shipping', 'start', 'end', 'payment', 'valid', 'print', 'printed'],
    },
    time: { triggers: ['time'], labels: ['time'] },
    identifier: { triggers: ['number', 'no', 'num', 'nr', 'id', 'code', 'ref', 'reference'], labels: ['number', 'no', '#', 'num', 'nr', 'ref'] },
    business: {
      triggers: ['company', 'vendor', 'seller', 'supplier', 'store', 'merchant', 'shop', 'business', 'restaurant', 'issuer', 'retailer'],
      labels: ['company', 'vendor', 'seller', 'supplier', 'store', 'merchant', 'shop', 'from'],
    },
    customer: {
      triggers: ['customer', 'client', 'buyer', 'bill to', 'billed to', 'sold to', 'recipient', 'purchaser'],
      labels: ['customer', 'client', 'bill to', 'billed to', 'buyer', 'sold to', 'recipient', 'to'],
    },
    address: { triggers: ['address', 'addr'], labels: ['address', 'addr'] },
    phone: { triggers: ['phone', 'tel', 'telephone', 'mobile', 'fax'], labels: ['phone', 'tel', 'telephone', 'mobile', 'ph', 'hp'], negatives: ['fax'] },
    email: { triggers: ['email', 'e mail', 'mail'], labels: ['email', 'e mail'] },
    url: { triggers: ['url', 'website', 'web', 'site', 'homepage'], labels: ['website', 'web', 'www', 'url'] },
    quantity: { triggers: ['quantity', 'qty', 'count'], labels: ['quantity', 'qty', 'qnty', 'units', 'pcs', 'no of items'] },
    description: { triggers: ['description', 'item', 'product', 'article'], labels: ['description', 'item', 'product', 'details', 'particulars', 'article', 'desc'] },
    unitPrice: { triggers: ['unit price', 'price', 'unit cost'], labels: ['unit price', 'price', 'rate', 'unit cost', 'each'] },
    amount: {
      triggers: ['amount', 'amt', 'cost', 'fee', 'charge', 'paid', 'sum', 'balance', 'tip', 'price', 'value'],
      labels: ['amount', 'amt', 'line total', 'total', 'value'],
    },
    percentage: { triggers: ['percent', 'percentage', 'pct', 'rate'] },
    name: { triggers: ['name'], labels: ['name'] },
    currency: { triggers: ['currency', 'curr', 'ccy'], labels: ['currency', 'amounts in', 'prices in', 'all amounts in', 'all prices in'] },
  },
  phrases: {
    'invoice number': ['invoice number', 'invoice no', 'invoice #', 'invoice num', 'invoice nr', 'invoice id', 'bill no', 'bill number', 'credit note number', 'credit note no'],
    'invoice date': ['invoice date', 'date of invoice', 'issue date', 'date of issue', 'issued on', 'billing date', 'credit note date'],
    'due date': ['due date', 'payment due', 'due on', 'pay by', 'payment due date', 'due by'],
    'delivery date': ['delivery date', 'date of delivery', 'date of supply', 'service date', 'ship date', 'shipping date'],
    'order number': ['order number', 'order no', 'po number', 'po no', 'purchase order', 'order #', 'po #'],
    'customer number': ['customer number', 'customer no', 'customer id', 'account number', 'account no', 'client number', 'customer #'],
    'vat id': ['vat id', 'vat number', 'vat no', 'vat reg no', 'tax id', 'vat registration number', 'tax number'],
    iban: ['iban'],
    bic: ['bic', 'swift', 'swift code'],
    'amount due': ['amount due', 'balance due', 'total due', 'amount payable', 'total payable', 'to pay', 'amount to pay', 'pay this amount'],
    'tax total': ['tax total', 'total tax', 'vat total', 'total vat', 'tax amount', 'vat amount', 'total taxes', 'gst total', 'total gst'],
    'net total': ['net total', 'net amount', 'total net', 'total excl vat', 'total excluding vat', 'total before tax', 'total excl tax', 'amount excl vat'],
    'gross total': ['gross total', 'grand total', 'total incl vat', 'total including vat', 'total gross', 'gross amount', 'total incl tax', 'invoice total'],
    'delivery address': ['ship to', 'shipped to', 'deliver to', 'delivery address', 'shipping address', 'delivered to'],
  },
  titles: ['invoice', 'credit note', 'tax invoice'],
  numberMarkers: ['number', 'no', '#', 'num', 'nr', 'ref', 'id'],
  inclusionWords: ['incl', 'include', 'includes', 'included', 'inclusive', 'including', 'inc', 'after', 'with'],
  // "Sdn Bhd" is Malay, but printed in the registered names of Malaysian companies written in English
  legalForms: ['Ltd', 'Limited', 'Inc', 'Incorporated', 'LLC', 'L.L.C.', 'LP', 'L.P.', 'LLP', 'L.L.P.', 'PLC', 'P.L.C.', 'N.A.', 'Corp', 'Corporation', 'Co', 'Company', 'Pty', 'Sdn', 'Bhd'],
  bareLegalForms: ['Ltd', 'Inc', 'LLC', 'LLP', 'PLC', 'Co', 'Pty', 'Sdn', 'Bhd'],
  tradeWords: [
    'enterprise', 'enterprises', 'trading', 'holdings', 'group', 'industries', 'services', 'restaurant', 'cafe', 'café', 'store', 'stores', 'mart', 'market',
    'supermarket', 'hotel', 'bakery', 'pharmacy', 'shop',
  ],
  streetWords: [
    'street', 'st', 'road', 'rd', 'avenue', 'ave', 'av', 'lane', 'ln', 'drive', 'dr', 'boulevard', 'blvd', 'way', 'court', 'ct', 'place', 'pl',
    'square', 'sq', 'highway', 'hwy', 'parkway', 'pkwy', 'crescent', 'terrace', 'close', 'row', 'park', 'route', 'rte', 'circle', 'cir', 'pike', 'trail',
    'plaza', 'plz', 'mall', 'centre', 'center', 'tower', 'industrial', 'estate', 'km', 'mile',
    // the other lines of an address
    'suite', 'ste', 'floor', 'flr', 'fl', 'level', 'lvl', 'unit', 'building', 'bldg', 'block', 'blk', 'lot', 'box', 'po',
  ],
  salutations: ['Mr', 'Mrs', 'Ms', 'Miss', 'Dr', 'Attn', 'Attention'],
  proseWords: ['general', 'data', 'base', 'internet', 'designation', 'portable', 'social', 'articles', 'numero', 'prestation', 'site', 'termin', 'pedido'],
  payableWords: ['due', 'payable', 'pay', 'grand', 'final', 'owing', 'nett'],
  adjustmentWords: ['adj', 'adjustment', 'adjust', 'adjustments', 'diff', 'difference'],
  // not "closed" nor weekday names: "Closed 11/06/2011 1:38 AM" and "Mon 12/03/18 10:22" are transaction stamps
  scheduleWords: ['open', 'opening', 'hours', 'daily', 'until', 'till', 'weekdays', 'weekends', 'valid', 'happy'],
  notAddressWords: [
    'tel', 'phone', 'telephone', 'fax', 'hp', 'mobile', 'email', 'e-mail', 'www', 'http', 'gst', 'vat', 'tax', 'reg', 'registration', 'abn', 'tin', 'company no',
    'co. no', 'invoice', 'receipt', 'cashier', 'server', 'operator', 'clerk', 'check', 'guest', 'date', 'time', 'table', 'order', 'terminal', 'member', 'card',
    'ref', 'trans', 'transaction', 'batch', 'account', 'acct', 'slip',
  ],
  otherNumberWords: [
    'fax', 'gst', 'vat', 'tax', 'reg', 'registration', 'tin', 'abn', 'ein', 'invoice', 'inv', 'order', 'card', 'acct', 'account', 'auth', 'authorization',
    'approval', 'ref', 'reference', 'trans', 'transaction', 'terminal', 'tid', 'mid', 'member', 'check', 'chk', 'ticket', 'serial', 'batch', 'trace', 'slip',
    'bill', 'table',
  ],
  documentDateWords: [
    'invoice', 'receipt', 'transaction', 'purchase', 'order', 'issue', 'issued', 'document', 'bill', 'sale', 'sales', 'statement', 'letter', 'visit', 'print',
    'printed', 'agreement', 'contract', 'effective',
  ],
  proseCues: {
    governingLaw: {
      triggers: ['jurisdiction', 'governing', 'law', 'laws', 'governed'],
      cues: { 'governing law': 1, 'governed by': 1, 'laws of': 1, 'law of': 1, 'construed in accordance with': 0.9, 'jurisdiction of': 0.8, 'courts of': 0.8, 'courts located in': 0.8, jurisdiction: 0.7 },
    },
    // "terms" (payment terms) is no trigger
    term: {
      triggers: ['term', 'duration', 'period', 'length', 'validity', 'tenure'],
      cues: {
        term: 1, duration: 1, 'for a period of': 0.9, 'period of': 0.85, period: 0.8, 'remain in effect': 0.9, 'remain in full force': 0.9,
        'continue in full force': 0.9, 'continue in effect': 0.9, 'in effect for': 0.9, terminate: 0.8, expire: 0.8, expires: 0.8, anniversary: 0.8,
      },
    },
    // not "start": a start date of employment or of a lease is not the date an agreement is made
    effectiveDate: {
      triggers: ['effective', 'commencement', 'execution', 'signing', 'agreement', 'contract'],
      cues: {
        'effective as of': 1, 'effective date': 1, 'effective on': 1, 'entered into': 1, 'made and entered into': 1, made: 0.9,
        'dated as of': 0.95, dated: 0.9, 'as of': 0.8, commencing: 0.8, 'commencement date': 1, 'executed on': 0.9, 'signed on': 0.9,
      },
    },
    parties: {
      triggers: ['party', 'parties', 'signatory', 'signatories', 'counterparty', 'counterparties', 'contracting'],
      descriptionTriggers: ['parties', 'signatories', 'party to', 'between', 'signed', 'signs', 'signing'],
    },
  },
  nameConnectors: ['of', 'and', '&', 'for'],
  nameParticles: ['the'],
  nameSuffixes: ['Jr.', 'Sr.', 'II', 'III', 'IV'],
  notNameWords: [
    'this', 'that', 'these', 'those', 'agreement', 'exhibit', 'schedule', 'annex', 'appendix', 'section', 'article', 'confidential', 'confidentiality',
    'non-disclosure', 'nondisclosure', 'whereas', 'now', 'therefore', 'witnesseth', 'recitals', 'in', 'witness', 'whereof', 'by', 'for', 'name', 'title',
    'date', 'dated', 'signed', 'signature', 'accepted', 'agreed', 'acknowledged', 'very', 'sincerely', 'dear', 'between', 'among', 'if', 'each', 'any', 'all',
    'no', 'neither', 'either', 'such', 'as', 'on', 'at', 'to', 'from', 'with', 'and', 'or', 'an', 'a', 'it', 'its', 'you', 'your', 'we', 'our', 'they',
    'notwithstanding', 'except', 'upon', 'during', 'after', 'before', 'under', 'pursuant', 'subject', 'provided', 'however', 'mutual',
    // capitalised only because they open a sentence
    'then', 'thereafter', 'there', 'here', 'when', 'where', 'while', 'unless', 'although', 'because', 'since', 'whether', 'please', 'also', 'further',
    'furthermore', 'moreover', 'thus', 'hence', 'accordingly', 'following', 'attention', 'attn', 're', 'so', 'but', 'yet', 'i',
  ],
  roleWords: [
    'company', 'corporation', 'party', 'parties', 'recipient', 'receiving', 'disclosing', 'discloser', 'employee', 'employer', 'executive', 'director',
    'directors', 'board', 'undersigned', 'provider', 'licensee', 'licensor', 'purchaser', 'seller', 'buyer', 'consultant', 'contractor', 'client',
    'customer', 'holder', 'member', 'state', 'information', 'representatives', 'representative', 'affiliates', 'transaction', 'business', 'purpose',
    'effective', 'government', 'court', 'courts', 'laws', 'law', 'agent', 'vendor', 'supplier', 'landlord', 'tenant', 'lender', 'borrower',
  ],
  abbreviations: [
    'Inc.', 'Corp.', 'Co.', 'Ltd.', 'LLC.', 'L.L.C.', 'L.P.', 'N.A.', 'No.', 'Nos.', 'Mr.', 'Mrs.', 'Ms.', 'Dr.', 'St.', 'Jr.', 'Sr.', 'Ph.D.', 'Esq.', 'vs.', 'v.',
    'etc.', 'e.g.', 'i.e.', 'U.S.', 'Sec.', 'Art.', 'Para.', 'p.', 'pp.', 'approx.', 'Dept.', 'Est.', 'ft.',
  ],
  // the short forms callers write in property names; English words stand for themselves
  glossary: {
    inv: 'invoice', invc: 'invoice', no: 'number', nr: 'number', num: 'number', nbr: 'number', nmbr: 'number', numb: 'number',
    qty: 'quantity', qnty: 'quantity', quant: 'quantity', amt: 'amount', amnt: 'amount', ref: 'reference', refs: 'reference',
    dt: 'date', addr: 'address', adr: 'address', tel: 'phone', ph: 'phone', phn: 'phone', mob: 'mobile', ccy: 'currency',
    cur: 'currency', curr: 'currency', crncy: 'currency', desc: 'description', descr: 'description', tot: 'total', ttl: 'total',
    subtot: 'subtotal', pct: 'percent', perc: 'percent', cnt: 'count', pmt: 'payment', pymt: 'payment',
    acct: 'account', acc: 'account', cust: 'customer', supp: 'supplier', vend: 'vendor', org: 'organisation', co: 'company',
    eff: 'effective', exp: 'expiry', del: 'delivery', dlv: 'delivery', dlvry: 'delivery', tx: 'tax', itm: 'item', ln: 'line',
    prc: 'price', uom: 'uom', excl: 'excl', incl: 'incl', w: 'with', wo: 'without', govt: 'government', reg: 'registration',
    regn: 'registration', ident: 'identifier', txn: 'transaction', trx: 'transaction', trans: 'transaction', purch: 'purchase',
    ord: 'order', po: 'po', recv: 'received', rcpt: 'receipt', merch: 'merchant', biz: 'business', str: 'street',
    post: 'postal', dob: 'birth', eg: 'e.g.', ie: 'i.e.', approx: 'approximately',
    vatno: 'vat number', vatid: 'vat id', vatreg: 'vat registration', taxid: 'tax id', taxno: 'tax number', gstin: 'gst id', abn: 'tax id', ein: 'tax id',
    pcs: 'pieces', ea: 'each', hrs: 'hours', disc: 'discount', frt: 'freight', chg: 'charge', chrg: 'charge', adj: 'adjustment', bal: 'balance',
    corp: 'company', doc: 'document', docno: 'document number', invno: 'invoice number', invnum: 'invoice number', invdate: 'invoice date',
    custno: 'customer number', acctno: 'account number', pono: 'po number', gov: 'governing', juris: 'jurisdiction',
    // names written as one word ("invoicenumber", "duedate"): the words they join
    invoiceno: 'invoice number', invoicenumber: 'invoice number', invoiceid: 'invoice id', invoicedate: 'invoice date', duedate: 'due date',
    issuedate: 'issue date', totalamount: 'total amount', grandtotal: 'grand total', taxamount: 'tax amount', vatamount: 'vat amount', netamount: 'net amount',
    grossamount: 'gross amount', amountdue: 'amount due', balancedue: 'balance due', unitprice: 'unit price', lineitems: 'line items', lineitem: 'line item',
    linetotal: 'line total', ordernumber: 'order number', ponumber: 'po number', customername: 'customer name', companyname: 'company name',
    vendorname: 'vendor name', suppliername: 'supplier name', phonenumber: 'phone number', postalcode: 'postal code', shipto: 'ship to', billto: 'bill to',
    soldto: 'sold to', paymentterms: 'payment terms', currencycode: 'currency code', countrycode: 'country code', taxrate: 'tax rate', vatrate: 'vat rate',
    vatnumber: 'vat number', taxnumber: 'tax number',
  },
};
