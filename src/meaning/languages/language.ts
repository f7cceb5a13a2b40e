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

/** What a prose reader looks for in a contract's running text (the rules engine's prose/cues.ts and prose/parties.ts read them). */
export type ProseCue = 'governingLaw' | 'term' | 'effectiveDate' | 'parties';

export interface ProseCueWords {
  /** Words of a property name or description (read in English) that bring the cue in: "jurisdiction", "term". */
  triggers?: readonly string[];
  /** Phrases of the description (read in English) that bring it in, as triggers in a name do: "party to", "between". */
  descriptionTriggers?: readonly string[];
  /** Phrases of running text that announce the value, each with how surely it does (0 to 1): "governed by": 1, "jurisdiction": 0.7. */
  cues?: Readonly<Record<string, number>>;
}

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
  /** Legal forms of two or three letters that mark a company name printed without dots too ("AG", "BV", "Ltd"); other short ones ("NV", "SL") are also codes and words, and count only dotted. */
  bareLegalForms?: readonly string[];
  /** Words closing a business name that say its trade, not its legal form ("Trading", "Restaurant", "Bakery"). */
  tradeWords?: readonly string[];
  /** Words of street names and the other lines of an address ("rue", "calle", "ulica", "suite", "building"), for telling an address line. */
  streetWords: readonly string[];
  /** Street words that close a street name written as one word, with the house number after ("Bahnstr." 42, "Kerkstraat" 12). */
  compoundStreetEndings?: readonly string[];
  /** Salutations that open a recipient's address ("Herrn", "Madame", "Sr."), as printed. */
  salutations: readonly string[];
  /**
   * Words of this language's running text that other tables use as labels
   * ("general", "data", "base" in English): printing them does not make a
   * document one of those other languages.
   */
  proseWords?: readonly string[];
  /** Words of a total's label that make it what is paid, ahead of the other totals ("due", "payable", "grand"). */
  payableWords?: readonly string[];
  /** Words of a rounding line that make it the rounding adjustment, not the rounded total ("adj", "difference"). */
  adjustmentWords?: readonly string[];
  /** Words of opening hours and schedules, whose times are not the transaction's ("open", "daily", "until"). */
  scheduleWords?: readonly string[];
  /** Words that open a line of another block than an address: contact details, tax ids, the receipt's own fields ("Tel", "GST", "Cashier"). */
  notAddressWords?: readonly string[];
  /** Words that announce a number other than a phone number ("fax", "VAT", "invoice", "terminal"). */
  otherNumberWords?: readonly string[];
  /** Words of a date property's name (read in English) that leave it the document's own date, the first one printed ("invoice", "issued", "agreement"). */
  documentDateWords?: readonly string[];
  /** Phrases of running text, and the property words that ask for them, by what they announce: governing law, term, effective date, the parties. */
  proseCues?: Partial<Record<ProseCue, ProseCueWords>>;
  /** Lower-case words that join the parts of a name and never open one ("of" in "University of Michigan", "and", "&"). */
  nameConnectors?: readonly string[];
  /** Articles and particles printed lower case inside a name, which may also open one ("the", "van", "de"). */
  nameParticles?: readonly string[];
  /** Words that close a person's name as a legal form closes a company's ("Jr.", "III"). */
  nameSuffixes?: readonly string[];
  /** Capitalised words of running text that are never part of a name: document furniture ("Agreement", "Exhibit") and words capitalised for opening a sentence ("Whereas", "However"). */
  notNameWords?: readonly string[];
  /** Role nouns of a contract ("Company", "Receiving Party"): a name made only of them is a role, not a party's name. */
  roleWords?: readonly string[];
  /** Abbreviations whose full stop does not end a sentence ("Inc.", "No.", "e.g."), as printed. */
  abbreviations?: readonly string[];
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
