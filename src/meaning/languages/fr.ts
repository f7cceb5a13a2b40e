/** French (France, Belgium, Switzerland, Luxembourg): facture, avoir, Factur-X. */
import type { LanguageTable } from './language.js';

export const FRENCH: LanguageTable = {
  code: 'fr',
  concepts: {
    total: {
      triggers: ['montant total', 'total ttc', 'montant ttc', 'net à payer'],
      labels: ['montant total', 'total ttc', 'montant ttc', 'net à payer', 'à payer', 'total à payer', 'montant à payer', 'total général', 'total facture', 'reste à payer', 'solde à payer', 'montant dû', 'solde dû'],
      negatives: ['ht', 'hors', 'remise', 'remises', 'tva', 'taxe', 'taxes', 'acompte', 'acomptes', 'déjà', 'réglé', 'escompte', 'articles'],
    },
    subtotal: {
      triggers: ['sous total', 'total ht', 'montant ht', 'hors taxes'],
      labels: ['sous total', 'total ht', 'montant ht', 'total hors taxes', 'total hors taxe', 'montant hors taxes', 'net ht', 'total net ht', 'base ht'],
    },
    tax: {
      triggers: ['tva', 'taxe', 'taxes'],
      labels: ['tva', 'taxe', 'montant tva', 'total tva', 'total taxes'],
      negatives: ['taux', 'intracommunautaire', 'intra', 'numéro', 'exonération', 'exonéré', 'hors'],
    },
    discount: { triggers: ['remise', 'rabais', 'escompte'], labels: ['remise', 'rabais', 'escompte'] },
    date: {
      labels: ['date'],
      negatives: ['échéance', 'livraison', 'paiement', 'expédition', 'commande', 'naissance', 'validité', 'début', 'fin', 'prestation', 'règlement', 'associée'],
    },
    time: { triggers: ['heure'], labels: ['heure'] },
    identifier: { triggers: ['numéro', 'référence'], labels: ['numéro', 'réf', 'référence'] },
    business: {
      triggers: ['fournisseur', 'vendeur', 'émetteur', 'prestataire', 'société'],
      labels: ['fournisseur', 'vendeur', 'émetteur', 'prestataire', 'expéditeur'],
    },
    customer: {
      triggers: ['client', 'acheteur', 'destinataire'],
      labels: ['client', 'acheteur', 'destinataire', 'facturé à', 'facturer à', 'adresse de facturation', 'adresse facturation'],
    },
    address: { triggers: ['adresse'], labels: ['adresse'] },
    phone: { triggers: ['téléphone'], labels: ['téléphone', 'tél', 'portable'] },
    email: { triggers: ['courriel'], labels: ['courriel', 'mél'] },
    url: { triggers: ['site web'], labels: ['site web', 'site'] },
    quantity: { triggers: ['quantité'], labels: ['quantité', 'qté'] },
    description: { triggers: ['désignation', 'libellé'], labels: ['description', 'désignation', 'libellé', 'article', 'produit', 'prestation'] },
    unitPrice: { triggers: ['prix unitaire', 'prix'], labels: ['prix unitaire', 'pu', 'p u', 'prix unitaire ht', 'pu ht', 'prix'] },
    amount: { triggers: ['montant'], labels: ['montant', 'total ligne', 'prix total'] },
    percentage: { triggers: ['pourcentage', 'taux'] },
    name: { triggers: ['nom'], labels: ['nom', 'raison sociale', 'dénomination'] },
    currency: { triggers: ['devise', 'monnaie'], labels: ['devise', 'monnaie'] },
  },
  phrases: {
    'invoice number': ['numéro de facture', 'n° de facture', 'n° facture', 'numéro facture', 'facture n°', 'facture numéro', 'num facture', 'avoir n°', "numéro d'avoir", "n° d'avoir", 'référence facture'],
    'invoice date': ['date de facture', 'date facture', 'date de facturation', "date d'émission", "date d'avoir", "date de l'avoir", 'émise le'],
    'due date': ["date d'échéance", 'échéance', 'date limite de paiement', 'à régler avant le', 'payable le'],
    'delivery date': ['date de livraison', 'livraison le', 'date de prestation', "date d'expédition"],
    'order number': ['numéro de commande', 'n° de commande', 'bon de commande', 'n° bon de commande', 'commande n°', 'votre commande', 'référence commande'],
    'customer number': ['numéro client', 'n° client', 'n° de client', 'code client', 'référence client', 'réf client'],
    'vat id': ['n° tva', 'numéro de tva', 'n° tva intracommunautaire', 'tva intracommunautaire', 'n° tva intra', 'tva intra', 'numéro tva', 'identifiant tva'],
    bic: ['bic', 'code bic', 'swift'],
    'amount due': ['net à payer', 'reste à payer', 'solde à payer', 'montant à payer', 'à payer', 'total à payer', 'montant dû', 'solde dû'],
    'tax total': ['total tva', 'total taxes', 'montant total tva', 'total de la tva', 'tva totale'],
    'net total': ['total ht', 'montant ht', 'total hors taxes', 'sous total ht', 'total net ht', 'montant total ht', 'net ht', 'base ht'],
    'gross total': ['total ttc', 'montant ttc', 'total toutes taxes comprises', 'montant total ttc', 'total facture'],
    'delivery address': ['adresse de livraison', 'livrer à', 'livré à', 'lieu de livraison', 'adresse livraison'],
  },
  titles: ['facture', 'avoir', "facture d'avoir", 'note de crédit', 'facture rectificative'],
  numberMarkers: ['n°', 'no', 'numéro', 'num'],
  inclusionWords: ['ttc', 'compris', 'incluse', 'inclus'],
  legalForms: ['SARL', 'S.A.R.L.', 'SAS', 'S.A.S.', 'SASU', 'EURL', 'SA', 'S.A.', 'SNC', 'SCI', 'SCOP', 'SELARL'],
  streetWords: ['rue', 'avenue', 'boulevard', 'bd', 'chemin', 'allée', 'impasse', 'place', 'route', 'quai', 'cours'],
  salutations: ['Monsieur', 'Madame', 'Mademoiselle', 'M.', 'Mme', 'Mlle', 'Messieurs', 'Société', 'Sté'],
};
