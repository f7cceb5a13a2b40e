/** Every language the rules engine reads; English first. */
import { GERMAN } from './de.js';
import { ENGLISH } from './en.js';
import { SPANISH } from './es.js';
import { FRENCH } from './fr.js';
import { ITALIAN } from './it.js';
import type { LanguageTable } from './language.js';
import { DUTCH } from './nl.js';
import { POLISH } from './pl.js';
import { PORTUGUESE } from './pt.js';

export type { Concept, ConceptWords, LanguageTable, Phrase, ProseCue, ProseCueWords } from './language.js';

export const LANGUAGES: readonly LanguageTable[] = [ENGLISH, GERMAN, FRENCH, SPANISH, ITALIAN, DUTCH, PORTUGUESE, POLISH];
