/** Italian: fattura, nota di credito. */
import type { LanguageTable } from './language.js';

export const ITALIAN: LanguageTable = {
  code: 'it',
  concepts: {
    total: {
      triggers: ['totale', 'totale fattura', 'totale documento', 'importo totale'],
      labels: ['totale', 'totale fattura', 'totale documento', 'importo totale', 'totale da pagare', 'netto a pagare', 'da pagare', 'totale complessivo', 'totale generale'],
      negatives: ['imponibile', 'iva', 'imposta', 'imposte', 'sconto', 'sconti', 'acconto', 'resto', 'contanti', 'netto', 'merce'],
    },
    subtotal: {
      triggers: ['imponibile', 'subtotale', 'totale imponibile'],
      labels: ['imponibile', 'subtotale', 'totale imponibile', 'totale netto', 'importo netto', 'imponibile totale'],
    },
    tax: {
      triggers: ['iva', 'imposta', 'imposte'],
      labels: ['iva', 'imposta', 'imposte', 'totale iva', 'importo iva', 'iva totale'],
      negatives: ['aliquota', 'partita', 'codice', 'esente', 'esenzione', 'cod'],
    },
    discount: { triggers: ['sconto'], labels: ['sconto'] },
    date: {
      triggers: ['data'],
      labels: ['data'],
      negatives: ['scadenza', 'consegna', 'pagamento', 'spedizione', 'ordine', 'nascita', 'validità'],
    },
    time: { triggers: ['ora'], labels: ['ora'] },
    identifier: { triggers: ['numero'], labels: ['numero'] },
    business: {
      triggers: ['fornitore', 'venditore', 'cedente', 'prestatore', 'emittente'],
      labels: ['fornitore', 'venditore', 'cedente', 'cedente prestatore', 'prestatore', 'mittente'],
    },
    customer: {
      triggers: ['cliente', 'acquirente', 'committente', 'cessionario', 'destinatario'],
      labels: ['cliente', 'acquirente', 'committente', 'cessionario', 'cessionario committente', 'destinatario', 'intestatario'],
    },
    address: { triggers: ['indirizzo', 'sede'], labels: ['indirizzo', 'sede'] },
    phone: { triggers: ['telefono'], labels: ['telefono', 'cellulare'] },
    email: { triggers: ['posta elettronica', 'pec'], labels: ['posta elettronica', 'pec'] },
    url: { triggers: ['sito web'], labels: ['sito web', 'sito'] },
    quantity: { triggers: ['quantità'], labels: ['quantità', 'qtà', 'q tà'] },
    description: { triggers: ['descrizione'], labels: ['descrizione', 'articolo', 'prodotto', 'dettaglio'] },
    unitPrice: { triggers: ['prezzo unitario', 'prezzo'], labels: ['prezzo unitario', 'prezzo', 'prezzo unit'] },
    amount: { triggers: ['importo'], labels: ['importo', 'totale riga'] },
    percentage: { triggers: ['percentuale', 'aliquota'] },
    name: { triggers: ['nome'], labels: ['nome', 'ragione sociale', 'denominazione'] },
    currency: { triggers: ['valuta', 'divisa'], labels: ['valuta', 'divisa'] },
  },
  phrases: {
    'invoice number': ['numero fattura', 'fattura n', 'fattura n°', 'fattura numero', 'n fattura', 'numero documento', 'numero della fattura', 'nota di credito n'],
    'invoice date': ['data fattura', 'data documento', 'data di emissione', 'data emissione', 'data della fattura'],
    'due date': ['data scadenza', 'scadenza', 'data di scadenza', 'scadenza pagamento'],
    'delivery date': ['data consegna', 'data di consegna', 'data spedizione', 'data ddt'],
    'order number': ['numero ordine', 'ordine n', 'n ordine', 'vs ordine', 'rif ordine'],
    'customer number': ['codice cliente', 'cod cliente', 'numero cliente'],
    'vat id': ['partita iva', 'p iva', 'piva', 'codice fiscale', 'c f'],
    bic: ['bic', 'swift'],
    'amount due': ['netto a pagare', 'totale da pagare', 'da pagare', 'importo da pagare'],
    'tax total': ['totale iva', 'iva totale', 'importo iva', 'totale imposta', 'totale imposte'],
    'net total': ['imponibile', 'totale imponibile', 'imponibile totale', 'totale netto', 'importo netto'],
    'gross total': ['totale fattura', 'totale documento', 'importo totale', 'totale complessivo', 'totale iva inclusa'],
  },
  titles: ['fattura', 'nota di credito', 'fattura elettronica', 'nota credito'],
  numberMarkers: ['n', 'n°', 'no', 'numero', 'nr', 'num'],
  inclusionWords: ['inclusa', 'incluso', 'compresa', 'compreso', 'ivato', 'ivata'],
  legalForms: ['S.r.l.', 'Srl', 'S.p.A.', 'SpA', 'S.a.s.', 'S.n.c.', 'Snc', 'S.r.l.s.', 'Srls', 'Scarl'],
  salutations: ['Spett.le', 'Spettabile', 'Sig.', 'Sig.ra', 'Sigg.', 'Gent.mo', 'Gent.ma', 'Egr.', 'Egregio', 'Gentile'],
};
