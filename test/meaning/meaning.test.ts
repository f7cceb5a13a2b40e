/**
 * What a property asks for, read from the names and descriptions callers
 * write in each language of the tables: snake_case, camelCase, compounds and
 * short forms, with and without a description, a description under a name
 * that says nothing ("field1"), and a party's value inside the party's object
 * ("buyer.name"). Each row states the reading a user's schema depends on:
 * the facet, the kind of value, whose value it is and, in a list's items,
 * that it is a line's.
 */
import { expect } from 'chai';
import { meaningOf, type MeaningKind, type Party } from '../../src/meaning/meaning.js';

/**
 * A property and its reading: its name ("seller.vat_id" is `vat_id` inside
 * `seller`), its description ('' for none), the facet, the kind and, for a
 * party's value or a number that is always one party's, whose it is.
 */
type Row = readonly [name: string, description: string, facet: string, kind: MeaningKind, party?: Party];

interface Language {
  code: string;
  /** Properties of the document. */
  document: readonly Row[];
  /** Properties of a list's items: one line of a table. */
  line: readonly Row[];
}

const NUMERIC: ReadonlySet<MeaningKind> = new Set(['amount', 'quantity', 'rate']);

function read(row: Row, inItems: boolean): ReturnType<typeof meaningOf> {
  const [dotted, description, , kind] = row;
  const parts = dotted.split('.');
  // the schema declares what such a value is written as: amounts, quantities and rates as numbers
  const types = NUMERIC.has(kind) ? ['number'] : ['string'];
  return meaningOf({ name: parts[parts.length - 1]!, description, types, path: parts.slice(0, -1), inItems });
}

const ENGLISH: Language = {
  code: 'en',
  document: [
    ['inv_no', '', 'document-number', 'identifier'],
    ['invoiceNumber', '', 'document-number', 'identifier'],
    ['invoicenumber', '', 'document-number', 'identifier'],
    ['inv_date', '', 'issue-date', 'date'],
    ['due_date', '', 'due-date', 'date'],
    ['ccy', '', 'currency', 'currency'],
    ['vendor', '', 'party-name', 'party-name', 'seller'],
    ['bill_to', '', 'party-name', 'party-name', 'buyer'],
    ['ship_to', '', 'party-name', 'party-name', 'deliver-to'],
    ['buyer.name', '', 'party-name', 'party-name', 'buyer'],
    ['seller.address', '', 'address', 'address', 'seller'],
    ['company', 'Name of the store or company that issued the receipt', 'party-name', 'party-name', 'seller'],
    ['seller', 'The supplier that issued the invoice.', 'party-name', 'party-name', 'seller'],
    ['buyer', 'The customer the invoice is addressed to.', 'party-name', 'party-name', 'buyer'],
    ['field3', 'The customer the invoice is addressed to.', 'party-name', 'party-name', 'buyer'],
    ['field4', 'The date the invoice was issued', 'issue-date', 'date'],
    ['gross_total', '', 'gross-total', 'amount'],
    ['amountNet', '', 'net-total', 'amount'],
    ['tax_amount', '', 'tax-total', 'amount'],
    ['amount_due', '', 'amount-due', 'amount'],
    ['lines_total', '', 'line-total', 'amount'],
    ['seller_vat_id', '', 'vat-id', 'identifier', 'seller'],
    ['buyer_vat_id', '', 'vat-id', 'identifier', 'buyer'],
    ['seller.vat_number', '', 'vat-id', 'identifier', 'seller'],
    ['vat_rate', '', 'tax-rate', 'rate'],
    ['po_number', '', 'order-number', 'identifier'],
    ['customer_no', '', 'customer-number', 'identifier', 'buyer'],
    ['iban', '', 'iban', 'iban'],
    ['bic', '', 'bic', 'bic'],
    ['payment_terms', '', 'payment-terms', 'text'],
    ['governing_law', '', 'jurisdiction', 'text'],
    ['effective_date', '', 'effective-date', 'date'],
    ['total', 'Grand total including VAT', 'gross-total', 'amount'],
    ['number', 'The customer number printed on the invoice', 'customer-number', 'identifier', 'buyer'],
    ['field1', 'Invoice number exactly as printed', 'document-number', 'identifier'],
    ['value', 'Amount of VAT charged', 'tax-total', 'amount'],
  ],
  line: [
    ['qty', '', 'quantity', 'quantity'],
    ['amt', '', 'line-net', 'amount'],
    ['unit_price', '', 'unit-price', 'amount'],
    ['desc', '', 'item-name', 'text'],
    ['sku', '', 'seller-item-id', 'identifier'],
    ['uom', '', 'unit', 'code'],
    ['vat_rate', '', 'tax-rate', 'rate'],
    ['line_total', '', 'line-net', 'amount'],
    ['col3', 'Price per unit before discount', 'unit-price', 'amount'],
  ],
};

const GERMAN: Language = {
  code: 'de',
  document: [
    ['Rechnungsnummer', '', 'document-number', 'identifier'],
    ['Rg-Nr', '', 'document-number', 'identifier'],
    ['rechnungs_nr', 'Nummer der Rechnung', 'document-number', 'identifier'],
    ['Rechnungsdatum', '', 'issue-date', 'date'],
    ['faelligkeitsdatum', '', 'due-date', 'date'],
    ['Lieferdatum', '', 'delivery-date', 'date'],
    ['haendler', 'Name des Geschäfts', 'party-name', 'party-name', 'seller'],
    ['Lieferant', '', 'party-name', 'party-name', 'seller'],
    ['Kunde', '', 'party-name', 'party-name', 'buyer'],
    ['kaeufer.anschrift', '', 'address', 'address', 'buyer'],
    ['Lieferadresse', '', 'address', 'address', 'deliver-to'],
    ['Kundennummer', '', 'customer-number', 'identifier', 'buyer'],
    ['UStIdNr', '', 'vat-id', 'identifier', 'seller'],
    ['ust_id_kaeufer', '', 'vat-id', 'identifier', 'buyer'],
    ['Steuernummer', '', 'tax-number', 'identifier', 'seller'],
    ['Nettobetrag', '', 'net-total', 'amount'],
    ['Bruttobetrag', '', 'gross-total', 'amount'],
    ['mwst_betrag', '', 'tax-total', 'amount'],
    ['Zahlbetrag', '', 'amount-due', 'amount'],
    ['Steuersatz', '', 'tax-rate', 'rate'],
    ['Waehrung', '', 'currency', 'currency'],
    ['Zahlungsbedingungen', '', 'payment-terms', 'text'],
    ['Bestellnummer', '', 'order-number', 'identifier'],
    ['Skonto', '', 'allowance-total', 'amount'],
    ['Telefon', '', 'phone', 'phone', 'seller'],
    ['Gerichtsstand', '', 'jurisdiction', 'text'],
    ['Gesamtbetrag', 'Gesamtbetrag inklusive Mehrwertsteuer', 'gross-total', 'amount'],
    ['Laufzeit', 'Laufzeit des Vertrags', 'term', 'duration'],
    ['feld1', 'Datum der Rechnung wie gedruckt', 'issue-date', 'date'],
    ['feld2', 'Betrag der Mehrwertsteuer', 'tax-total', 'amount'],
    ['feld3', 'Name des Käufers', 'party-name', 'party-name', 'buyer'],
  ],
  line: [
    ['Menge', '', 'quantity', 'quantity'],
    ['Einzelpreis', '', 'unit-price', 'amount'],
    ['Bezeichnung', '', 'item-name', 'text'],
    ['Artikelnummer', '', 'seller-item-id', 'identifier'],
    ['Einheit', '', 'unit', 'code'],
    ['Gesamtpreis', '', 'line-net', 'amount'],
    ['MwSt-Satz', '', 'tax-rate', 'rate'],
    ['Pos', '', 'line-id', 'identifier'],
    ['spalte4', 'Betrag der Position ohne Mehrwertsteuer', 'line-net', 'amount'],
  ],
};

const FRENCH: Language = {
  code: 'fr',
  document: [
    ['numero_facture', 'Numéro de la facture', 'document-number', 'identifier'],
    ['n_facture', '', 'document-number', 'identifier'],
    ['numFacture', '', 'document-number', 'identifier'],
    ['date_facture', '', 'issue-date', 'date'],
    ['date_echeance', '', 'due-date', 'date'],
    ['dateEcheance', "Date d'échéance de la facture", 'due-date', 'date'],
    ['date_livraison', '', 'delivery-date', 'date'],
    ['fournisseur', '', 'party-name', 'party-name', 'seller'],
    ['nom_du_magasin', '', 'party-name', 'party-name', 'seller'],
    ['raison_sociale', '', 'party-name', 'party-name', 'seller'],
    ['acheteur.nom', '', 'party-name', 'party-name', 'buyer'],
    ['adresse_client', '', 'address', 'address', 'buyer'],
    ['adresse_livraison', '', 'address', 'address', 'deliver-to'],
    ['code_postal', '', 'postcode', 'code', 'seller'],
    ['tva_intracom', '', 'vat-id', 'identifier', 'seller'],
    ['client.numero_tva', '', 'vat-id', 'identifier', 'buyer'],
    ['total_ht', '', 'net-total', 'amount'],
    ['siret', '', 'legal-id', 'identifier', 'seller'],
    ['montantHT', '', 'net-total', 'amount'],
    ['montant_ttc', '', 'gross-total', 'amount'],
    ['total_tva', '', 'tax-total', 'amount'],
    ['taux_tva', '', 'tax-rate', 'rate'],
    ['acompte', '', 'paid-amount', 'amount'],
    ['remise', '', 'allowance-total', 'amount'],
    ['devise', '', 'currency', 'currency'],
    ['conditions_paiement', '', 'payment-terms', 'text'],
    ['mode_de_paiement', '', 'payment-means', 'text'],
    ['numero_commande', '', 'order-number', 'identifier'],
    ['code_client', '', 'customer-number', 'identifier', 'buyer'],
    ['droit_applicable', '', 'jurisdiction', 'text'],
    ['champ1', 'Montant total TTC tel que imprimé', 'gross-total', 'amount'],
    ['champ2', 'Nom du client', 'party-name', 'party-name', 'buyer'],
    ['champ3', 'Date de la facture', 'issue-date', 'date'],
  ],
  line: [
    ['designation', '', 'item-name', 'text'],
    ['quantite', '', 'quantity', 'quantity'],
    ['qte', '', 'quantity', 'quantity'],
    ['prix_unitaire', '', 'unit-price', 'amount'],
    ['pu_ht', '', 'unit-price', 'amount'],
    ['montant_ht', '', 'line-net', 'amount'],
    ['taux_tva', '', 'tax-rate', 'rate'],
    ['unite', '', 'unit', 'code'],
    ['reference', '', 'seller-item-id', 'identifier'],
    ['code_article', '', 'seller-item-id', 'identifier'],
    ['colonne2', 'Libellé de la ligne', 'item-name', 'text'],
  ],
};

const SPANISH: Language = {
  code: 'es',
  document: [
    ['numero_factura', '', 'document-number', 'identifier'],
    ['num_factura', 'Número de la factura', 'document-number', 'identifier'],
    ['FechaFactura', '', 'issue-date', 'date'],
    ['fecha_factura', 'Fecha de la factura', 'issue-date', 'date'],
    ['cliente.nif', '', 'vat-id', 'identifier', 'buyer'],
    ['fecha_emision', '', 'issue-date', 'date'],
    ['fecha_vencimiento', '', 'due-date', 'date'],
    ['fecha_entrega', '', 'delivery-date', 'date'],
    ['nombre_tienda', '', 'party-name', 'party-name', 'seller'],
    ['proveedor', '', 'party-name', 'party-name', 'seller'],
    ['razon_social', '', 'party-name', 'party-name', 'seller'],
    ['cliente.nombre', '', 'party-name', 'party-name', 'buyer'],
    ['direccion_cliente', '', 'address', 'address', 'buyer'],
    ['nif_emisor', '', 'vat-id', 'identifier', 'seller'],
    ['codigo_postal', '', 'postcode', 'code', 'seller'],
    ['telefono', '', 'phone', 'phone', 'seller'],
    ['importe_total', 'Importe total con IVA', 'gross-total', 'amount'],
    ['importeIVA', '', 'tax-total', 'amount'],
    ['base_imponible', '', 'taxable-amount', 'amount'],
    ['total_sin_iva', '', 'net-total', 'amount'],
    ['descuento', '', 'allowance-total', 'amount'],
    ['porcentaje_iva', '', 'tax-rate', 'rate'],
    ['moneda', '', 'currency', 'currency'],
    ['forma_de_pago', '', 'payment-means', 'text'],
    ['numero_pedido', '', 'order-number', 'identifier'],
    ['cuenta_bancaria', '', 'iban', 'iban'],
    ['ley_aplicable', '', 'jurisdiction', 'text'],
    ['campo1', 'Fecha de vencimiento del pago', 'due-date', 'date'],
    ['campo2', 'Nombre del cliente', 'party-name', 'party-name', 'buyer'],
    ['campo3', 'Cuota total del IVA', 'tax-total', 'amount'],
  ],
  line: [
    ['concepto', '', 'item-name', 'text'],
    ['descripcion', '', 'item-name', 'text'],
    ['cantidad', '', 'quantity', 'quantity'],
    ['precio_unitario', '', 'unit-price', 'amount'],
    ['importe', '', 'line-net', 'amount'],
    ['dto', '', 'line-discount', 'amount'],
    ['codigo_articulo', '', 'seller-item-id', 'identifier'],
    ['unidad', '', 'unit', 'code'],
    ['columna4', 'Importe de la línea sin IVA', 'line-net', 'amount'],
  ],
};

const ITALIAN: Language = {
  code: 'it',
  document: [
    ['numero_fattura', '', 'document-number', 'identifier'],
    ['nr_fattura', 'Numero della fattura', 'document-number', 'identifier'],
    ['data_fattura', '', 'issue-date', 'date'],
    ['dataEmissione', '', 'issue-date', 'date'],
    ['data', 'Data del documento', 'issue-date', 'date'],
    ['data_scadenza', '', 'due-date', 'date'],
    ['data_consegna', '', 'delivery-date', 'date'],
    ['fornitore', '', 'party-name', 'party-name', 'seller'],
    ['ragione_sociale', '', 'party-name', 'party-name', 'seller'],
    ['cliente.denominazione', '', 'party-name', 'party-name', 'buyer'],
    ['indirizzo_cliente', '', 'address', 'address', 'buyer'],
    ['partita_iva', '', 'vat-id', 'identifier', 'seller'],
    ['cliente.partita_iva', '', 'vat-id', 'identifier', 'buyer'],
    ['codice_fiscale', '', 'tax-number', 'identifier', 'seller'],
    ['cap', '', 'postcode', 'code', 'seller'],
    ['citta', '', 'city', 'text', 'seller'],
    ['importo_totale', '', 'total', 'amount'],
    ['totale_imponibile', '', 'net-total', 'amount'],
    ['totale_iva', '', 'tax-total', 'amount'],
    ['aliquota_iva', '', 'tax-rate', 'rate'],
    ['netto_a_pagare', '', 'amount-due', 'amount'],
    ['sconto', '', 'allowance-total', 'amount'],
    ['valuta', '', 'currency', 'currency'],
    ['modalita_pagamento', '', 'payment-means', 'text'],
    ['condizioni_pagamento', '', 'payment-terms', 'text'],
    ['numero_ordine', '', 'order-number', 'identifier'],
    ['foro_competente', '', 'jurisdiction', 'text'],
    ['campo1', 'Totale della fattura IVA inclusa', 'gross-total', 'amount'],
    ['campo2', 'Nome del fornitore', 'party-name', 'party-name', 'seller'],
  ],
  line: [
    ['descrizione', '', 'item-name', 'text'],
    ['quantita', '', 'quantity', 'quantity'],
    ['qta', '', 'quantity', 'quantity'],
    ['prezzo_unitario', '', 'unit-price', 'amount'],
    ['importo', '', 'line-net', 'amount'],
    ['aliquota_iva', '', 'tax-rate', 'rate'],
    ['sconto', '', 'line-discount', 'amount'],
    ['unita_misura', '', 'unit', 'code'],
    ['codice_articolo', '', 'seller-item-id', 'identifier'],
    ['colonna3', 'Prezzo unitario della riga', 'unit-price', 'amount'],
  ],
};

const DUTCH: Language = {
  code: 'nl',
  document: [
    ['factuurnummer', '', 'document-number', 'identifier'],
    ['factuur_nr', 'Nummer van de factuur', 'document-number', 'identifier'],
    ['factuurdatum', '', 'issue-date', 'date'],
    ['vervaldatum', '', 'due-date', 'date'],
    ['leverdatum', '', 'delivery-date', 'date'],
    ['leverancier', '', 'party-name', 'party-name', 'seller'],
    ['bedrijfsnaam', '', 'party-name', 'party-name', 'seller'],
    ['klant.naam', '', 'party-name', 'party-name', 'buyer'],
    ['klantNaam', '', 'party-name', 'party-name', 'buyer'],
    ['afleveradres', '', 'address', 'address', 'deliver-to'],
    ['woonplaats', '', 'city', 'text', 'seller'],
    ['postcode', '', 'postcode', 'code', 'seller'],
    ['btwNummer', '', 'vat-id', 'identifier', 'seller'],
    ['kvk_nummer', '', 'legal-id', 'identifier', 'seller'],
    ['klantnummer', '', 'customer-number', 'identifier', 'buyer'],
    ['btwBedrag', '', 'tax-total', 'amount'],
    ['totaal_excl_btw', '', 'net-total', 'amount'],
    ['totaalInclBtw', '', 'gross-total', 'amount'],
    ['te_betalen', '', 'amount-due', 'amount'],
    ['btw_tarief', '', 'tax-rate', 'rate'],
    ['korting', '', 'allowance-total', 'amount'],
    ['valuta', '', 'currency', 'currency'],
    ['betalingstermijn', '', 'payment-terms', 'text'],
    ['betaalwijze', '', 'payment-means', 'text'],
    ['ordernummer', '', 'order-number', 'identifier'],
    ['rekeningnummer', '', 'customer-number', 'identifier', 'buyer'],
    ['veld1', 'Totaalbedrag inclusief btw', 'gross-total', 'amount'],
    ['veld2', 'Naam van de klant', 'party-name', 'party-name', 'buyer'],
  ],
  line: [
    ['omschrijving', '', 'item-name', 'text'],
    ['aantal', '', 'quantity', 'quantity'],
    ['stukprijs', '', 'unit-price', 'amount'],
    ['bedrag', '', 'line-net', 'amount'],
    ['btw_tarief', '', 'tax-rate', 'rate'],
    ['artikelnummer', '', 'seller-item-id', 'identifier'],
    ['eenheid', '', 'unit', 'code'],
    ['regelbedrag', '', 'line-net', 'amount'],
    ['kolom2', 'Prijs per eenheid', 'unit-price', 'amount'],
  ],
};

const PORTUGUESE: Language = {
  code: 'pt',
  document: [
    ['numero_fatura', '', 'document-number', 'identifier'],
    ['num_fatura', 'Número da fatura', 'document-number', 'identifier'],
    ['data_emissao', '', 'issue-date', 'date'],
    ['dataFatura', '', 'issue-date', 'date'],
    ['data_vencimento', '', 'due-date', 'date'],
    ['data_entrega', '', 'delivery-date', 'date'],
    ['fornecedor', '', 'party-name', 'party-name', 'seller'],
    ['nome_loja', '', 'party-name', 'party-name', 'seller'],
    ['cliente.nome', '', 'party-name', 'party-name', 'buyer'],
    ['morada_cliente', '', 'address', 'address', 'buyer'],
    ['codigo_postal', '', 'postcode', 'code', 'seller'],
    ['cnpj', '', 'vat-id', 'identifier', 'seller'],
    ['valor_total', '', 'total', 'amount'],
    ['fornecedor.nif', '', 'vat-id', 'identifier', 'seller'],
    ['cliente.nif', '', 'vat-id', 'identifier', 'buyer'],
    ['valor_iva', '', 'tax-total', 'amount'],
    ['total_sem_iva', '', 'net-total', 'amount'],
    ['total_com_iva', '', 'gross-total', 'amount'],
    ['taxa_iva', '', 'tax-rate', 'rate'],
    ['desconto', '', 'allowance-total', 'amount'],
    ['moeda', '', 'currency', 'currency'],
    ['forma_pagamento', '', 'payment-means', 'text'],
    ['condicoes_pagamento', '', 'payment-terms', 'text'],
    ['numero_encomenda', '', 'order-number', 'identifier'],
    ['campo1', 'Data de vencimento da fatura', 'due-date', 'date'],
    ['campo2', 'Nome do cliente', 'party-name', 'party-name', 'buyer'],
    ['campo3', 'Valor total com IVA incluído', 'gross-total', 'amount'],
  ],
  line: [
    ['descricao', '', 'item-name', 'text'],
    ['quantidade', '', 'quantity', 'quantity'],
    ['qtd', '', 'quantity', 'quantity'],
    ['preco_unitario', '', 'unit-price', 'amount'],
    ['valor', '', 'line-net', 'amount'],
    ['taxa_iva', '', 'tax-rate', 'rate'],
    ['desconto', '', 'line-discount', 'amount'],
    ['unidade', '', 'unit', 'code'],
    ['codigo_artigo', '', 'seller-item-id', 'identifier'],
  ],
};

const POLISH: Language = {
  code: 'pl',
  document: [
    ['numer_faktury', '', 'document-number', 'identifier'],
    ['nr_faktury', 'Numer faktury', 'document-number', 'identifier'],
    ['data_wystawienia', '', 'issue-date', 'date'],
    ['dataWystawienia', 'Data wystawienia faktury', 'issue-date', 'date'],
    ['data_sprzedazy', '', 'delivery-date', 'date'],
    ['termin_platnosci', '', 'due-date', 'date'],
    ['sprzedawca', '', 'party-name', 'party-name', 'seller'],
    ['nazwa_sprzedawcy', '', 'party-name', 'party-name', 'seller'],
    ['nazwa_nabywcy', '', 'party-name', 'party-name', 'buyer'],
    ['nabywca.nazwa', '', 'party-name', 'party-name', 'buyer'],
    ['adres_nabywcy', '', 'address', 'address', 'buyer'],
    ['kod_pocztowy', '', 'postcode', 'code', 'seller'],
    ['miasto', '', 'city', 'text', 'seller'],
    ['nip_sprzedawcy', '', 'vat-id', 'identifier', 'seller'],
    ['nip_nabywcy', '', 'vat-id', 'identifier', 'buyer'],
    ['regon', '', 'legal-id', 'identifier', 'seller'],
    ['kwota_brutto', '', 'gross-total', 'amount'],
    ['kwota_netto', '', 'net-total', 'amount'],
    ['kwota_vat', '', 'tax-total', 'amount'],
    ['wartosc_brutto', '', 'gross-total', 'amount'],
    ['do_zaplaty', '', 'amount-due', 'amount'],
    ['stawka_vat', '', 'tax-rate', 'rate'],
    ['waluta', '', 'currency', 'currency'],
    ['forma_platnosci', '', 'payment-means', 'text'],
    ['numer_rachunku', '', 'iban', 'iban'],
    ['numer_zamowienia', '', 'order-number', 'identifier'],
    ['rabat', '', 'allowance-total', 'amount'],
    ['pole1', 'Kwota brutto faktury', 'gross-total', 'amount'],
    ['pole2', 'Nazwa nabywcy', 'party-name', 'party-name', 'buyer'],
  ],
  line: [
    ['nazwa_towaru', '', 'item-name', 'text'],
    ['opis', '', 'item-name', 'text'],
    ['ilosc', '', 'quantity', 'quantity'],
    ['cena_jednostkowa', '', 'unit-price', 'amount'],
    ['wartosc_netto', '', 'line-net', 'amount'],
    ['stawka_vat', '', 'tax-rate', 'rate'],
    ['jm', '', 'unit', 'code'],
    ['rabat', '', 'line-discount', 'amount'],
    ['kolumna3', 'Cena jednostkowa netto', 'unit-price', 'amount'],
  ],
};

const LANGUAGES: readonly Language[] = [ENGLISH, GERMAN, FRENCH, SPANISH, ITALIAN, DUTCH, PORTUGUESE, POLISH];

describe('meaning: what a property asks for, in every language of the tables', () => {
  for (const language of LANGUAGES) {
    describe(language.code, () => {
      for (const [level, rows] of [['document', language.document], ['line', language.line]] as const) {
        for (const row of rows) {
          const [name, description, facet, kind, party] = row;
          it(`${level}: ${name}${description ? ` "${description}"` : ''} -> ${facet}${party ? ` (${party})` : ''}`, () => {
            const meaning = read(row, level === 'line');
            expect({ facet: meaning.facet?.id, kind: meaning.kind, party: meaning.party, level: meaning.level }).to.deep.equal({ facet, kind, party, level });
          });
        }
      }
    });
  }
});

describe('meaning: a word is read in the language of its property', () => {
  function nameIn(name: string, description = ''): ReturnType<typeof meaningOf> {
    return meaningOf({ name, description, types: [], path: [], inItems: false });
  }

  it('reads each language\'s own name in that language', () => {
    const names: Array<[string, string]> = [
      ['Rechnungsnummer', 'de'], ['numero_facture', 'fr'], ['fecha_factura', 'es'], ['numero_fattura', 'it'],
      ['factuurnummer', 'nl'], ['numero_fatura', 'pt'], ['numer_faktury', 'pl'], ['invoice_number', 'en'],
    ];
    expect(names.map(([name]) => [name, nameIn(name).language])).to.deep.equal(names);
  });

  it('an Italian or Polish "data" is a date, an English "rate" a rate and a German "Rate" an instalment', () => {
    expect(nameIn('data', 'Data del documento').facet?.id).to.equal('issue-date');
    expect(nameIn('data', 'Data wystawienia dokumentu').facet?.id).to.equal('issue-date');
    expect(nameIn('rate').facet?.id).to.equal('tax-rate');
    const instalment = nameIn('Rate', 'Höhe der monatlichen Rate');
    expect(instalment.language).to.equal('de');
    expect(instalment.facet?.id).to.not.equal('tax-rate');
  });
});
