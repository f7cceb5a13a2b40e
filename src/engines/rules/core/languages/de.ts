/** German (Germany, Austria, Switzerland): Rechnung, Gutschrift, ZUGFeRD/XRechnung renderings. */
import type { LanguageTable } from './language.js';

export const GERMAN: LanguageTable = {
  code: 'de',
  concepts: {
    total: {
      triggers: ['gesamtbetrag', 'gesamtsumme', 'bruttobetrag', 'bruttosumme', 'rechnungsbetrag', 'endbetrag', 'summe', 'gesamt', 'zahlbetrag'],
      labels: ['summe', 'gesamt', 'gesamtbetrag', 'gesamtsumme', 'rechnungsbetrag', 'rechnungssumme', 'endbetrag', 'endsumme', 'bruttobetrag', 'bruttosumme', 'gesamt brutto', 'summe brutto', 'zu zahlen', 'zahlbetrag'],
      negatives: ['netto', 'ohne', 'zwischensumme', 'zuschläge', 'abschläge', 'zuschlag', 'abschlag', 'rabatt', 'skonto', 'mwst', 'ust', 'steuer', 'anzahlung', 'anzahlungen', 'erhaltene', 'bezahlt', 'gegeben', 'rückgeld', 'artikel', 'positionen'],
    },
    subtotal: {
      triggers: ['zwischensumme', 'nettobetrag', 'nettosumme', 'netto', 'nettowert'],
      labels: ['zwischensumme', 'nettobetrag', 'nettosumme', 'netto', 'summe netto', 'gesamt netto', 'netto gesamt', 'nettowert', 'rechnungssumme ohne ust', 'rechnungssumme ohne mwst', 'summe ohne mwst', 'summe ohne ust', 'gesamtbetrag netto'],
    },
    tax: {
      triggers: ['mwst', 'ust', 'umsatzsteuer', 'mehrwertsteuer', 'steuer', 'steuerbetrag'],
      labels: ['mwst', 'ust', 'umsatzsteuer', 'mehrwertsteuer', 'steuer', 'steuerbetrag', 'mwst betrag', 'ust betrag', 'steuern'],
      negatives: ['satz', 'steuersatz', 'idnr', 'nr', 'nummer', 'identifikationsnummer', 'befreit', 'steuerfrei', 'steuernummer', 'ohne'],
    },
    discount: { triggers: ['rabatt', 'skonto', 'nachlass'], labels: ['rabatt', 'skonto', 'nachlass'] },
    date: {
      triggers: ['datum'],
      labels: ['datum'],
      negatives: ['fällig', 'fälligkeit', 'liefer', 'lieferung', 'leistung', 'bestellung', 'bestell', 'zahlbar', 'gültig', 'auftrag', 'lieferschein', 'geburtsdatum'],
    },
    time: { triggers: ['uhrzeit', 'zeit'], labels: ['uhrzeit', 'zeit'] },
    identifier: { triggers: ['nummer', 'nr'], labels: ['nr', 'nummer'] },
    business: {
      triggers: ['verkäufer', 'lieferant', 'anbieter', 'rechnungssteller', 'aussteller', 'firma', 'unternehmen', 'händler', 'absender', 'leistungserbringer'],
      labels: ['verkäufer', 'lieferant', 'rechnungssteller', 'aussteller', 'absender', 'leistungserbringer', 'anbieter', 'auftragnehmer'],
    },
    customer: {
      triggers: ['kunde', 'käufer', 'rechnungsempfänger', 'leistungsempfänger', 'empfänger', 'auftraggeber', 'besteller', 'abnehmer'],
      labels: ['kunde', 'käufer', 'rechnungsempfänger', 'leistungsempfänger', 'auftraggeber', 'rechnungsadresse', 'rechnung an', 'besteller'],
    },
    address: { triggers: ['anschrift', 'adresse'], labels: ['anschrift', 'adresse'] },
    phone: { triggers: ['telefon', 'telefonnummer'], labels: ['telefon', 'tel', 'fon', 'mobil', 'handy'], negatives: ['fax', 'telefax'] },
    email: { triggers: ['e mail'], labels: ['e mail'] },
    url: { triggers: ['webseite', 'internet'], labels: ['internet', 'webseite'] },
    quantity: { triggers: ['menge', 'anzahl'], labels: ['menge', 'anzahl'] },
    description: { triggers: ['beschreibung', 'bezeichnung', 'artikel', 'leistung'], labels: ['beschreibung', 'bezeichnung', 'artikelbezeichnung', 'artikel', 'leistung', 'produkt'] },
    unitPrice: { triggers: ['einzelpreis', 'stückpreis', 'preis'], labels: ['einzelpreis', 'stückpreis', 'preis', 'nettopreis', 'e preis', 'preis je einheit'] },
    amount: { triggers: ['betrag', 'gesamtpreis'], labels: ['betrag', 'gesamtpreis', 'positionsbetrag', 'nettowert'] },
    percentage: { triggers: ['prozent', 'satz'] },
    name: { triggers: ['name'], labels: ['name', 'firma', 'firmenname'] },
    currency: { triggers: ['währung'], labels: ['währung', 'rechnungswährung', 'währungscode'] },
  },
  phrases: {
    'invoice number': ['rechnungsnummer', 'rechnungs nr', 'rechnungsnr', 'rechnung nr', 'rechnung no', 'rechnung #', 'rechnungs no', 'belegnummer', 'beleg nr', 'belegnr', 'gutschriftsnummer', 'gutschrift nr'],
    'invoice date': ['rechnungsdatum', 'rechnungs datum', 'belegdatum', 'beleg datum', 'ausstellungsdatum', 'datum der rechnung', 'gutschriftsdatum'],
    'due date': ['fälligkeitsdatum', 'fällig am', 'fälligkeit', 'zahlbar bis', 'zahlungsziel', 'fälligkeitstag'],
    'delivery date': ['lieferdatum', 'leistungsdatum', 'liefer und leistungsdatum', 'liefertermin', 'leistungszeitraum'],
    'order number': ['bestellnummer', 'bestell nr', 'bestellung', 'auftragsnummer', 'auftrag nr', 'auftrags nr'],
    'customer number': ['kundennummer', 'kunden nr', 'kundennr', 'kd nr'],
    'vat id': ['ust id', 'ust idnr', 'ust id nr', 'umsatzsteuer id', 'umsatzsteuer identifikationsnummer', 'ust identnummer', 'steuernummer', 'st nr', 'ust nr'],
    bic: ['bic', 'swift'],
    'amount due': ['zahlbetrag', 'zu zahlen', 'offener betrag', 'noch zu zahlen', 'restbetrag', 'fälliger betrag'],
    'tax total': ['steuerbetrag', 'mwst betrag', 'ust betrag', 'summe mwst', 'mwst gesamt', 'ust gesamt', 'gesamt mwst', 'gesamt ust', 'umsatzsteuer gesamt', 'steuer gesamt', 'summe steuer', 'summe ust', 'mehrwertsteuer gesamt', 'mehrwertsteuerbetrag'],
    'net total': ['nettobetrag', 'nettosumme', 'summe netto', 'gesamt netto', 'netto gesamt', 'rechnungssumme ohne ust', 'rechnungssumme ohne mwst', 'gesamtbetrag netto', 'summe ohne mwst', 'summe ohne ust', 'nettowert'],
    'gross total': ['bruttobetrag', 'bruttosumme', 'gesamtbetrag brutto', 'summe brutto', 'brutto gesamt', 'gesamt brutto', 'rechnungsbetrag', 'gesamtbetrag', 'endbetrag', 'gesamtsumme', 'rechnungssumme'],
  },
  titles: ['rechnung', 'gutschrift', 'rechnungskorrektur', 'stornorechnung', 'korrekturrechnung'],
  compoundHeads: ['rechnung', 'gutschrift', 'steuer'],
  numberMarkers: ['nr', 'nummer', 'no'],
  inclusionWords: ['inkl', 'inklusive', 'einschl', 'einschließlich', 'enthalten', 'enthaltene', 'enthält'],
  legalForms: ['GmbH', 'gGmbH', 'AG', 'KG', 'OHG', 'GbR', 'UG', 'e.K.', 'e.V.', 'a.G.', 'KGaA', 'mbH', 'eG'],
  salutations: ['Herrn', 'Herr', 'Frau', 'Firma', 'Familie', 'Eheleute'],
};
