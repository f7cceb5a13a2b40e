/**
 * The shape of one language's table. Words are written as printed, with
 * their accents ("Käufer", "numéro"); matching folds case and accents (and
 * OCR's lost umlauts), so "KAUFER" finds "Käufer". Multi-word labels are
 * phrases ("total ttc", "date de facture"); punctuation inside a label
 * ("Rechnungs-Nr.", "N° TVA") is a word break.
 */

/** General concepts a property can be about, each with its own printed labels. */
export type Concept =
  | 'total' | 'subtotal' | 'tax' | 'discount' | 'date' | 'time' | 'identifier' | 'business' | 'customer'
  | 'address' | 'phone' | 'email' | 'url' | 'quantity' | 'description' | 'unitPrice' | 'amount' | 'percentage' | 'name' | 'currency';

export interface ConceptWords {
  /** Words of a property name or description that bring in the concept. */
  triggers?: readonly string[];
  /** Printed labels for it. */
  labels?: readonly string[];
  /** Words next to a matched label that mean another field ("Total HT", "Gesamtbetrag der Zuschläge"). */
  negatives?: readonly string[];
}

/**
 * Fields named by several words rather than a concept: the English name is
 * the key ("invoice number"), the table lists what the language prints for
 * it. A caller's property named in the language ("Rechnungsnummer",
 * "numero_facture") is read as the English name.
 */
export type Phrase =
  | 'invoice number' | 'invoice date' | 'due date' | 'delivery date' | 'order number' | 'customer number'
  | 'vat id' | 'iban' | 'bic' | 'amount due' | 'tax total' | 'net total' | 'gross total' | 'delivery address';

export interface LanguageTable {
  /** ISO 639-1 code. */
  code: string;
  concepts: Partial<Record<Concept, ConceptWords>>;
  phrases: Partial<Record<Phrase, readonly string[]>>;
  /** Titles of the documents whose number an "invoice number" is: invoices and credit notes. */
  titles: readonly string[];
  /**
   * Label words that keep their meaning closing a compound word: a
   * "Handelsrechnung" is a "Rechnung", a "Versicherungsteuer" a "Steuer".
   */
  compoundHeads?: readonly string[];
  /** Words printed between a title and its number ("Nr.", "n°", "numéro"). */
  numberMarkers: readonly string[];
  /** Words that say a tax is part of the amount beside them ("inkl.", "TTC"). */
  inclusionWords: readonly string[];
  /** Legal forms of companies, as printed ("GmbH", "S.A.R.L.", "Sp. z o.o."). */
  legalForms: readonly string[];
  /** Words of street names ("rue", "calle", "ulica"), for telling an address line. */
  streetWords: readonly string[];
  /** Salutations that open a recipient's address ("Herrn", "Madame", "Sr."), as printed. */
  salutations: readonly string[];
  /**
   * Words of this language's running text that other tables use as labels
   * ("general", "data", "base" in English): printing them does not make a
   * document one of those other languages.
   */
  proseWords?: readonly string[];
  /**
   * The words callers name and describe fields with, in English: "rechnung":
   * "invoice", "nr": "number", "des": "" (a word that adds nothing to the
   * meaning). The meaning layer (../translate.ts) reads a property named or
   * described in this language through it, word by word; compound words are
   * split into glossary words ("Rechnungsnummer" = rechnung + s + nummer,
   * with `compoundLinks`). Keys are written as printed, with accents; values
   * are English words that facets.ts and the rules engine know.
   */
  glossary?: Readonly<Record<string, string>>;
  /** Letters that may join the parts of a compound word ("s" in Rechnungs|nummer, "en" in Kunden|nummer). */
  compoundLinks?: readonly string[];
}
