/**
 * The word lists of the language tables that the rules engine's strategies
 * read (street words, legal forms, prose cues...): consistent within a table,
 * and the words of property names only where names are read, in English.
 */
import { expect } from 'chai';
import { LANGUAGES } from '../../src/meaning/languages/index.js';

describe('meaning: the word lists of the language tables', () => {
  it('lists bare legal forms among the legal forms of the same table', () => {
    for (const language of LANGUAGES) for (const form of language.bareLegalForms ?? []) expect(language.legalForms, `${language.code}: ${form}`).to.include(form);
  });

  it('weighs every prose cue above 0 and at most 1', () => {
    for (const language of LANGUAGES) {
      for (const [cue, words] of Object.entries(language.proseCues ?? {})) {
        for (const [phrase, weight] of Object.entries(words.cues ?? {})) expect(weight, `${language.code} ${cue}: ${phrase}`).to.be.within(0.01, 1);
      }
    }
  });

  it('keeps the words of property names in English: other tables reach them through their glossaries', () => {
    for (const language of LANGUAGES.filter((table) => table.code !== 'en')) {
      expect(language.documentDateWords, language.code).to.equal(undefined);
      for (const words of Object.values(language.proseCues ?? {})) expect([...(words.triggers ?? []), ...(words.descriptionTriggers ?? [])], language.code).to.deep.equal([]);
    }
  });
});
