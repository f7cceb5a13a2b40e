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
      labels: ['customer', 'client', 'bill to', 'billed to', 'buyer', 'sold to', 'recipient'],
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
  },
  titles: ['invoice', 'credit note', 'tax invoice'],
  numberMarkers: ['number', 'no', '#', 'num', 'nr', 'ref', 'id'],
  inclusionWords: ['incl', 'include', 'includes', 'included', 'inclusive', 'including', 'inc', 'after', 'with'],
  legalForms: ['Ltd', 'Limited', 'Inc', 'Incorporated', 'LLC', 'LLP', 'PLC', 'Corp', 'Corporation', 'Co', 'Company', 'Pty', 'Sdn', 'Bhd'],
  salutations: ['Mr', 'Mrs', 'Ms', 'Miss', 'Dr', 'Attn', 'Attention'],
  proseWords: ['general', 'data', 'base', 'internet', 'designation', 'portable', 'social', 'articles', 'numero', 'prestation', 'site', 'termin', 'pedido'],
};
