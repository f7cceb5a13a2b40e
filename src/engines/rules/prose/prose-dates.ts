/**
 * The date an agreement states for itself: "entered into this 24th day of
 * August, 1999", "dated as of June 3, 2011", 'November 28, 2006 (the
 * "Effective Date")', or the date at the head of a letter agreement. Dates
 * of documents the agreement only cites ("the Supply Agreement dated ...")
 * count for little.
 */
import { findDates } from '../../../schema/dates.js';
import type { Cue } from './cues.js';
import { wordsInRange, type RuleLine } from '../core/lines.js';
import { tokenRange } from '../core/fuzzy.js';
import { cueHits, HitsByDistance, sentenceWords, wordsBetween, type ProseCandidate, type Sentence } from './prose.js';

const DATE_WINDOW = 6;

/** "entered into this 24th day of August, 1999", "dated as of June 3, 2011", "April 9, 2003 (the "Effective Date")". */
export function dateCandidates(sentences: readonly Sentence[], cues: readonly Cue[], dayFirst: boolean): ProseCandidate[] {
  const candidates: ProseCandidate[] = [];
  for (const sentence of sentences) {
    const hits = new HitsByDistance(sentence, cueHits(sentence, cues));
    if (hits.size === 0) continue;
    for (const date of findDates(sentence.text, { dayFirst })) {
      const dateEnd = date.index + date.text.length;
      const near = [
        ...hits.before(date.index, DATE_WINDOW).map((hit) => ({ hit, distance: wordsBetween(sentence, hit.end, date.index) })),
        // a defined term right after the date: 'November 28, 2006 (hereinafter "Effective Date")'
        ...hits
          .after(dateEnd, DATE_WINDOW)
          .filter((hit) => /^[\s,]*\(/.test(sentence.text.slice(dateEnd, hit.start)))
          .map((hit) => ({ hit, distance: wordsBetween(sentence, dateEnd, hit.start) })),
      ];
      for (const { hit, distance } of near) {
        const cited = citesOtherDocument(sentence, Math.min(hit.start, date.index)) ? CITED_DOCUMENT : 1;
        // as printed, like every other date of this engine: finalize re-prints it the way the schema asks
        const words = sentenceWords(sentence, date.index, dateEnd);
        candidates.push({ value: date.text, score: hit.cue.weight * cited * (1 - 0.02 * distance), position: sentence.position, words });
      }
    }
  }
  return candidates;
}

/** "the Supply Agreement, dated as of June 1, 2001": the date of a document this one cites. */
const CITED_DOCUMENT = 0.5;
const DOCUMENT_WORD = /\b(?:agreement|contract|amendment|plan|letter|order|policy|lease|note|indenture|addendum)\b/gi;

/**
 * Whether the document named just before `at` is another one: the nearest
 * "...Agreement" is not "this Agreement" / 'THIS NON-DISCLOSURE AGREEMENT
 * ("Agreement")'. The first sentence is the title: its date is the document's own.
 */
function citesOtherDocument(sentence: Sentence, at: number): boolean {
  if (sentence.position === 0) return false;
  // only a mention at most NEAR_MENTION words before counts: look no further back (the whole sentence per date was quadratic)
  const [, count] = tokenRange(sentence.tokens, 0, at);
  const from = sentence.tokens[Math.max(0, count - NEAR_MENTION - 2)]?.start ?? 0;
  const mentions = [...sentence.text.slice(from, at).matchAll(DOCUMENT_WORD)];
  const last = mentions[mentions.length - 1];
  if (!last) return false;
  const mentionAt = from + (last.index ?? 0);
  if (wordsBetween(sentence, mentionAt + last[0].length, at) > NEAR_MENTION) return false;
  const lead = sentence.text.slice(Math.max(0, mentionAt - LEAD_CHARACTERS), mentionAt).split(/\s+/).slice(-5).join(' ');
  return !/\b(?:this|hereby|present)\b/i.test(lead);
}

/** A document named further back than this many words is not what the date belongs to. */
const NEAR_MENTION = 10;
/** Where to look for "this" before the mention: its five words, within this many characters. */
const LEAD_CHARACTERS = 200;

const LETTER_HEAD_LINES = 20;

/**
 * A letter agreement is dated by the date standing alone at its head; it
 * counts less than any date a sentence gives, and is taken only when no
 * sentence gives one.
 */
export function letterDate(lines: readonly RuleLine[], dayFirst: boolean): ProseCandidate[] {
  for (const line of lines.slice(0, LETTER_HEAD_LINES)) {
    const text = line.text.trim();
    const dates = findDates(text, { dayFirst });
    if (dates.length === 1 && dates[0]!.text.length >= text.replace(/[.,]$/, '').length - 1) {
      const start = dates[0]!.index + line.text.length - line.text.trimStart().length;
      return [{ value: dates[0]!.text, score: 0.55, position: -1, words: wordsInRange(line, start, start + dates[0]!.text.length) }];
    }
  }
  return [];
}
