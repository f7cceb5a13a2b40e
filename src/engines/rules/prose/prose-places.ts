/**
 * Places and names stated in sentences, for a property such as
 * `jurisdiction`: the capitalised phrase after a cue ("governed by the laws
 * of the State of New York" -> "New York").
 */
import type { Cue } from './cues.js';
import { isRoleOnly, nameRuns, type NameRun } from './names.js';
import type { WordRef } from '../../../document/document.js';
import { cueHits, sentenceWords, type ProseCandidate, type Sentence } from './prose.js';

const PLACE_PREFIX = /^(?:the\s+)?(?:state|commonwealth|province|republic|kingdom|territory|country|canton|emirate|principality|federation)\s+of\s+(?:the\s+)?/i;
const PLACE_NOUNS = /\b(?:state|states|commonwealth|province|republic|kingdom|territory|district|isle|islands)$/i;
const MAX_SKIPPED = 6;
/**
 * The words after a cue that are read for the place: it starts within
 * MAX_SKIPPED words and has at most 5, so a run cut short here was too long
 * to be one anyway (reading the rest of the sentence after every cue was
 * quadratic in a long sentence).
 */
const LOOKAHEAD_WORDS = 64;
/** Characters before a name where "of", "in", "under" or "by" (and "the") are looked for. */
const PREPOSITION_WINDOW = 48;

/**
 * "governed by and construed in accordance with the laws of the State of
 * New York" -> "New York": the first capitalised phrase after the cue, over
 * at most a few lower-case words, not across ";", ":" or brackets.
 */
export function placeCandidates(sentences: readonly Sentence[], cues: readonly Cue[]): ProseCandidate[] {
  const candidates: ProseCandidate[] = [];
  sentences.forEach((sentence, i) => {
    if (sentence.heading) {
      // "Governing Law. This Agreement is construed under New Jersey law."
      const weight = Math.max(0, ...cueHits(sentence, cues).map((h) => h.cue.weight));
      const next = sentences[i + 1];
      const run = next && weight > 0 ? nameRuns(next.text, { allowAnd: true }).find((r) => followsPreposition(next.text, r.start)) : undefined;
      const place = run && placeName(run);
      if (place) candidates.push({ value: place, score: weight * 0.75, position: next!.position, words: placeWords(next!, 0, run!, place) });
      return;
    }
    for (const hit of cueHits(sentence, cues)) {
      const rest = sentence.text.slice(hit.end, endOfWords(sentence.text, hit.end, LOOKAHEAD_WORDS));
      const run = nameRuns(rest, { allowAnd: true })[0];
      if (!run) continue;
      const gap = rest.slice(0, run.start);
      const skipped = gap.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
      if (skipped > MAX_SKIPPED || /[;:()[\]]/.test(gap) || /[“"]$/.test(gap.trim())) continue;
      const place = placeName(run);
      if (!place) continue;
      const direct = /\b(?:of|in)\s+(?:the\s+)?$/i.test(gap) || PLACE_PREFIX.test(run.text) ? 1 : 0.85;
      candidates.push({ value: place, score: hit.cue.weight * direct * (1 - 0.03 * skipped), position: sentence.position, words: placeWords(sentence, hit.end, run, place) });
    }
  });
  return candidates;
}

/** Where the `count`th word from `from` ends (the text's end when it has fewer). */
function endOfWords(text: string, from: number, count: number): number {
  const word = /\S+/g;
  word.lastIndex = from;
  let end = from;
  for (let i = 0; i < count; i++) {
    const match = word.exec(text);
    if (!match) return text.length;
    end = word.lastIndex;
  }
  return end;
}

/** "... under the" just before `at`; only the last characters are tested (testing all the text before each name run was quadratic). */
function followsPreposition(text: string, at: number): boolean {
  const from = Math.max(0, at - PREPOSITION_WINDOW);
  const match = /\b(?:of|in|under|by)\s+(?:the\s+)?$/i.exec(text.slice(from, at));
  // a match at the cut must also start a word in the whole text
  return match !== null && (match.index > 0 || from === 0 || !/\w/.test(text[from - 1]!));
}

/** The words of the place inside its name run (found at `offset` of the sentence's text): "New York" of "the State of New York". */
function placeWords(sentence: Sentence, offset: number, run: NameRun, place: string): WordRef[] {
  const inRun = run.text.indexOf(place);
  const start = offset + run.start + Math.max(0, inRun);
  return sentenceWords(sentence, start, start + (inRun >= 0 ? place.length : run.text.length));
}

/** "the State of New York" -> "New York"; "Delaware of the United States" -> "Delaware". */
function placeName(run: NameRun): string | undefined {
  if (isRoleOnly(run)) return undefined;
  let name = run.text.trim();
  for (let i = 0; i < 2 && PLACE_PREFIX.test(name); i++) name = name.replace(PLACE_PREFIX, '');
  // "of" stays only inside a place's own name ("United States of America", "District of Columbia")
  const words = name.split(/\s+/);
  const cut = words.findIndex((w, k) => k > 0 && /^of$/i.test(w) && !PLACE_NOUNS.test(words[k - 1]!));
  const kept = (cut > 0 ? words.slice(0, cut) : words).join(' ').replace(/[.,]+$/, '');
  if (kept === '' || kept.split(/\s+/).length > 5 || !/^\p{Lu}/u.test(kept)) return undefined;
  return kept;
}
