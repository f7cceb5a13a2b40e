/**
 * Names and descriptions read into English through the language tables:
 * the cue words the engines look for ("first", "as printed", "without
 * currency symbol", "two decimals") come out in English, quoted examples and
 * digits as written; and every word a glossary translates to is one the
 * meaning layer reads.
 */
import { expect } from 'chai';
import { LANGUAGES } from '../../src/meaning/languages/index.js';
import { descriptionInEnglish, ENGLISH_WORDS, inEnglish, nameWords } from '../../src/meaning/translate.js';

describe('translate: descriptions in English', () => {
  it('reads a German description word by word and keeps the example as written', () => {
    expect(descriptionInEnglish("Datum wie gedruckt (z. B. '25/12/2018')", 'de')).to.equal("date as printed (e. g. '25/12/2018')");
    expect(descriptionInEnglish('Händlername, erstes Vorkommen oben auf dem Beleg', 'de')).to.contain('first occurrence top');
    expect(descriptionInEnglish('Betrag ohne das Währungssymbol', 'de')).to.contain('without the currency symbol');
  });

  it('brings the cue words of every language out in English', () => {
    const cues: Array<[string, string, string]> = [
      ['fr', "Montant sans symbole monétaire, tel qu'imprimé", 'without currency symbol'],
      ['fr', 'Le dernier total de la page', 'last total'],
      ['es', 'Importe con dos decimales, sin símbolo de moneda', 'two decimals'],
      ['es', 'Importe con dos decimales, sin símbolo de moneda', 'without currency symbol'],
      ['it', 'Importo arrotondato, senza simbolo di valuta', 'rounded'],
      ['it', 'Il primo numero, esattamente come stampato', 'first number'],
      ['nl', 'Het eerste bedrag, zonder valutasymbool', 'first amount, without currency symbol'],
      ['nl', 'Datum zoals afgedrukt, niet de vervaldatum', 'as printed, not the due date'],
      ['pt', 'Valor total com IVA incluído', 'amount total with vat including'],
      ['pt', 'O último valor, sem símbolo', 'last amount, without currency symbol'],
      ['pl', 'Kwota bez symbolu waluty', 'amount without currency symbol'],
      ['pl', 'Pierwsza data wystawienia', 'first date issue'],
    ];
    for (const [language, description, cue] of cues) expect(descriptionInEnglish(description, language), `${language}: ${description}`).to.contain(cue);
  });

  it('copies quoted examples and numbers as written, whatever their words', () => {
    const english = descriptionInEnglish("Nom du magasin, p. ex. 'Café de la Gare', 2 lignes au plus", 'fr');
    expect(english).to.contain("'Café de la Gare'");
    expect(english).to.match(/^name {1,2}store/);
    expect(english).to.contain(' 2 lines');
    expect(descriptionInEnglish('Rechnungsbetrag 2024 in EUR', 'de')).to.contain('2024');
  });

  it('returns an English description as it is', () => {
    const description = 'The total "as printed", not the subtotal';
    expect(descriptionInEnglish(description, 'en')).to.equal(description);
  });
});

describe('translate: names in English', () => {
  it('expands English short forms and splits compounds of German and Dutch', () => {
    const cases: Array<[string, string, string]> = [
      ['inv_no', 'en', 'invoice number'], ['amt', 'en', 'amount'], ['ccy', 'en', 'currency'], ['invoicenumber', 'en', 'invoice number'],
      ['Rechnungsnummer', 'de', 'invoice number'], ['Kundennummer', 'de', 'customer number'], ['UStIdNr', 'de', 'and tax id number'],
      ['factuurnummer', 'nl', 'invoice number'], ['btwBedrag', 'nl', 'vat amount'], ['betalingstermijn', 'nl', 'payment term'],
      ['nr_faktury', 'pl', 'number invoice'], ['termin_platnosci', 'pl', 'due payment'], ['montantHT', 'fr', 'amount net'],
    ];
    expect(cases.map(([name, language]) => inEnglish(nameWords(name), language).join(' '))).to.deep.equal(cases.map(([, , english]) => english));
  });
});

describe('translate: the glossaries of the language tables', () => {
  it('translate every word into English words the meaning layer reads', () => {
    const unread: string[] = [];
    for (const language of LANGUAGES) {
      for (const [word, english] of Object.entries(language.glossary ?? {})) {
        for (const part of english.split(/[\s.-]+/).filter(Boolean)) if (!ENGLISH_WORDS.has(part)) unread.push(`${language.code}: ${word} -> ${part}`);
      }
    }
    expect(unread).to.deep.equal([]);
  });

  it('give every language of the tables a glossary', () => {
    for (const language of LANGUAGES) expect(Object.keys(language.glossary ?? {}).length, language.code).to.be.greaterThan(100);
  });
});
