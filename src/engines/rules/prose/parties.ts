/**
 * The parties to an agreement, for a list property such as `parties` or
 * `signatories`. Agreements name their parties in three usual places, tried
 * in this order:
 * 1. the opening clause: "... by and between X, a Delaware corporation
 *    (the "Company"), and Y (the "Recipient")";
 * 2. the signature blocks: "X / By: ... / Name: ... / Title: ...";
 * 3. names introduced with a role label in the opening sentences:
 *    'X (hereinafter referred to as "MICHIGAN") and Y ("COMPANY") each ...'.
 * Role labels, descriptions ("a Delaware corporation") and addresses are
 * left out; legal forms ("Inc.", "Corp.") stay. Each party is returned once.
 */
import { splitName } from '../../../meaning/words.js';
import type { FieldHints } from '../core/labels.js';
import { tableWords, tableWordSet } from '../core/table-words.js';
import { wordsInRange, type RuleLine } from '../core/lines.js';
import type { Reading } from '../core/reading.js';
import { isNameLike, nameRuns, type NameRun } from './names.js';
import { readSentences, sentenceWords, type Sentence } from './prose.js';

/** The opening clause comes early; later "between" clauses cite other agreements. */
const OPENING_SENTENCES = 25;
/** Words of a property name that ask for the parties (the tables' `proseCues.parties`). */
const PARTY_WORDS = tableWordSet((language) => language.proseCues?.parties?.triggers);
/** Phrases of a description that do: "Names of all parties", "Who signed this agreement?". */
const PARTY_PHRASES: readonly string[][] = tableWords((language) => language.proseCues?.parties?.descriptionTriggers).map(splitName);

/** A list of strings that names the parties of an agreement. */
export function isPartyList(hints: FieldHints): boolean {
  if (hints.nameWords.some((w) => PARTY_WORDS.has(w))) return true;
  // the description in English (meaning/): "Names of all parties", "Who signed this agreement?", "Wer hat den Vertrag unterschrieben?"
  const words = splitName(hints.description.split(/[.;?]/)[0] ?? '');
  return PARTY_PHRASES.some((phrase) => words.some((_word, at) => phrase.every((word, i) => words[at + i] === word)));
}

/** The parties, each once, as readings: the name and the words it was read from. */
export function readParties(lines: readonly RuleLine[]): Reading[] {
  const opening = readSentences(lines).slice(0, OPENING_SENTENCES);
  const defined = definedTerms(lines);
  // a term the agreement defines in quotes ('(the "Evaluation Material")') is a thing, never a party: a party's quotes hold its role
  const parties = (names: readonly Reading[]) => unique(names.filter((name) => !defined.has(folded(String(name.value)))));
  // the defining clause gives each party a role label; a title ("CONTRACT BETWEEN X AND Y") may cite another document
  const lists = opening.map((sentence) => partiesBetween(sentence)).map((list) => ({ ...list, names: parties(list.names) })).filter((list) => list.names.length > 0);
  const between = lists.find((list) => list.labelled) ?? lists[0];
  if (between) return between.names;
  const signed = parties(signatureNames(lines));
  if (signed.length > 0) return signed;
  return parties(opening.slice(0, 10).flatMap(roleLabelledNames));
}

/** Quoted terms of at most a few words, folded: '(the "Evaluation Material")', '(“Prior Inventions”)'. */
const QUOTED_TERM = /["“]([^"“”]{2,60})["”]/g;

function definedTerms(lines: readonly RuleLine[]): Set<string> {
  const terms = new Set<string>();
  for (const line of lines) for (const match of line.text.matchAll(QUOTED_TERM)) terms.add(folded(match[1]!));
  return terms;
}

function folded(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * A parenthetical with a quoted term: ("Company"), (the "Recipient"),
 * (hereinafter referred to as "MICHIGAN"), also with one bracket inside:
 * (together with its Affiliates (as defined in section 14), "Amgen"). The
 * alternatives start with different characters, so the match is linear.
 */
const ROLE_LABEL = /\((?:[^()]|\([^()]*\))*\)/g;
const QUOTE = /["“”]/;

/**
 * The role labels of a text. The quote is checked apart: /\([^()]*["“”][^()]*\)/
 * backtracks over every quote of an unclosed bracket, quadratic in a run of quotes.
 */
function roleLabels(text: string): RegExpMatchArray[] {
  return [...text.matchAll(ROLE_LABEL)].filter((match) => QUOTE.test(match[0]));
}

/** Names after "between" / "among" / "entered into by" in one sentence; `labelled` when they came with role labels. */
function partiesBetween(sentence: Sentence): { names: Reading[]; labelled: boolean } {
  // "made and entered into in Cambridge, Massachusetts, by X": a place may come before "by"
  const keyword = /\b(?:between|among|amongst|(?:entered into|made|executed)(?: and entered into)?(?: (?:in|at) [^,()]{1,40}(?:, [^,()]{1,30})?,)? by)\s+/i.exec(sentence.text);
  if (!keyword) return { names: [], labelled: false };
  const listStart = keyword.index + keyword[0].length;
  const list = sentence.text.slice(listStart);
  const labels = roleLabels(list);
  if (labels.length === 0) return { names: plainList(sentence, listStart), labelled: false };
  const names: Reading[] = [];
  let from = 0;
  for (const label of [...labels, undefined]) {
    const to = label ? label.index ?? 0 : list.length;
    const name = firstName(sentence, listStart + from, list.slice(from, to));
    // the list ends where a labelled part holds no name ('... (the "Transaction")')
    if (!name) {
      if (names.length > 0 || label === undefined) break;
    } else names.push(name);
    if (!label) break;
    from = to + label[0].length;
  }
  return { names, labelled: true };
}

/** A name found at characters [start, end) of a sentence. */
function nameIn(sentence: Sentence, run: NameRun, offset: number): Reading {
  return { value: run.text, words: sentenceWords(sentence, offset + run.start, offset + run.end) };
}

/** The party's name opens its part of the list (which starts at `offset` of the sentence): "Joseph Chalhoub, a resident of Westmount, Quebec". */
function firstName(sentence: Sentence, offset: number, part: string): Reading | undefined {
  const run = nameRuns(part).find(isNameLike);
  return run && nameIn(sentence, run, offset);
}

/** "between Acme, Inc. and Beta LLC": names joined by commas and "and", nothing else in between. */
function plainList(sentence: Sentence, listStart: number): Reading[] {
  const list = sentence.text.slice(listStart);
  const names: Reading[] = [];
  let end = 0;
  for (const run of nameRuns(list)) {
    const gap = list.slice(end, run.start);
    const joined = end === 0 ? /^\s*(?:the\s+)?$/i.test(gap) : /^[\s,;]*(?:and|&)?[\s,;]*(?:the\s+)?$/i.test(gap);
    if (!joined) break;
    if (isNameLike(run)) names.push(nameIn(sentence, run, listStart));
    end = run.end;
  }
  return names;
}

/** 'X (hereinafter "MICHIGAN") and Y, with offices at ... ("COMPANY")': each name just before its role label. */
function roleLabelledNames(sentence: Sentence): Reading[] {
  const names: Reading[] = [];
  let from = 0;
  for (const label of roleLabels(sentence.text)) {
    const name = firstName(sentence, from, sentence.text.slice(from, label.index ?? 0));
    if (name) names.push(name);
    from = (label.index ?? 0) + label[0].length;
  }
  return names;
}

const SIGNATURE_LINE = /^By\b\s*:?/;
const BLOCK_FIELDS = /^(?:By|Name|Title|Date|Dated|Its|Signed|Signature|Address|Witness)\b/i;

/** "ACME CORP." on the line above "By: /s/ Jane Doe", in the same column. */
function signatureNames(lines: readonly RuleLine[]): Reading[] {
  const names: Reading[] = [];
  lines.forEach((line, i) => {
    for (const cell of line.cells) {
      if (!SIGNATURE_LINE.test(cell.text)) continue;
      const name = nameAbove(lines, i, cell.x0, line.charWidth);
      if (name) names.push(name);
    }
  });
  return names;
}

function nameAbove(lines: readonly RuleLine[], index: number, x: number, charWidth: number): Reading | undefined {
  const tolerance = 4 * charWidth;
  for (let k = index - 1; k >= Math.max(0, index - 3); k--) {
    const line = lines[k]!;
    if (line.page !== lines[index]!.page) return undefined;
    const cells = line.cells.length === 1 ? line.cells : line.cells.filter((c) => Math.abs(c.x0 - x) <= tolerance);
    const cell = cells[0];
    if (!cell) continue;
    // "By: Harbert GP, LLC, its general partner" above "By: /s/ ..." is part of the same block
    if (BLOCK_FIELDS.test(cell.text)) continue;
    const run = signatureName(cell.text);
    if (!run || !(run.legalForm || (run.upper && run.content.length >= 2))) return undefined;
    return { value: run.text, words: wordsInRange(line, cell.start + run.start, cell.start + run.end) };
  }
  return undefined;
}

/** The whole cell as one name: "HERITAGE-CRYSTAL CLEAN, LLC:" -> "HERITAGE-CRYSTAL CLEAN, LLC". */
function signatureName(text: string): NameRun | undefined {
  const runs = nameRuns(text.replace(/:\s*$/, ''));
  return runs.length === 1 && isNameLike(runs[0]!) ? runs[0] : undefined;
}

/** Each party once, compared without case and punctuation ("Acme, Inc." = "ACME INC"). */
function unique(names: readonly Reading[]): Reading[] {
  const seen = new Set<string>();
  const result: Reading[] = [];
  for (const name of names) {
    const text = String(name.value);
    const key = folded(text);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    result.push({ ...name, value: text.trim() });
  }
  return result;
}
