/**
 * Durations stated in sentences, for a property such as `term`: the
 * duration near a cue ("for a period of", "shall remain in effect"), in a
 * sentence about what the property is a duration of.
 */
import type { SchemaView } from '../../../schema/schema-view.js';
import { DURATION_NAMES, firstClause, type Cue } from './cues.js';
import { durationInUnit, findDurations, wantsNumberUnit, type Duration } from './durations.js';
import type { FieldHints } from '../core/labels.js';
import { cueHits, HitsByDistance, MIN_PROSE_WORDS, sentenceWords, subjectOf, type CueHit, type ProseCandidate, type Sentence } from './prose.js';

/**
 * "This Agreement shall remain in effect for five (5) years from the
 * Effective Date." A duration counts when a cue is in its sentence (or in
 * the heading just above), when the sentence is about what the description
 * names ("Duration of the agreement" -> its subject mentions the agreement),
 * and when it runs from the agreement's own date rather than from some
 * later event ("one year after the Director ceases to be a director").
 */
export function durationCandidates(sentences: readonly Sentence[], cues: readonly Cue[], view: SchemaView, hints: FieldHints): ProseCandidate[] {
  const subjects = subjectWords(hints);
  const candidates: ProseCandidate[] = [];
  sentences.forEach((sentence, i) => {
    const durations = findDurations(sentence.text).filter((d) => d.role !== 'notice');
    if (durations.length === 0) return;
    const previous = sentences[i - 1];
    const headingWeight = previous?.heading ? strongestCue(cueHits(previous, cues)) : 0;
    const hits = new HitsByDistance(sentence, cueHits(sentence, cues));
    let about: number | undefined;
    for (const duration of durations) {
      // a cue inside the duration counts as next to it ("the second anniversary")
      const near = [...hits.before(duration.start, CUE_WINDOW), ...hits.overlapping(duration.start, duration.end), ...hits.after(duration.end, CUE_WINDOW)];
      const cueWeight = Math.max(headingWeight, strongestCue(near));
      if (cueWeight === 0) continue;
      about ??= aboutFactor(sentence, subjects);
      const score = cueWeight * duration.score * about * anchorFactor(sentence.text, duration) * (duration.role === 'deadline' ? 0.6 : 1);
      const value = presentDuration(duration, view, hints);
      if (value !== undefined) candidates.push({ value, score, position: sentence.position, words: sentenceWords(sentence, duration.start, duration.end) });
    }
  });
  return candidates;
}

/** A cue this many words from a duration or nearer is about it. */
const CUE_WINDOW = 12;

function strongestCue(hits: readonly CueHit[]): number {
  let weight = 0;
  for (const hit of hits) weight = Math.max(weight, hit.cue.weight);
  return weight;
}

/**
 * What the duration is of: the nouns after "of" in the description ("Duration
 * of the agreement (or of the confidentiality obligation)"), the name's own
 * qualifiers ("warranty" in warranty_period), else the agreement itself.
 */
function subjectWords(hints: FieldHints): string[] {
  const words: string[] = hints.qualifiers.filter((w) => !DURATION_NAMES.has(w) && w.length >= 4);
  for (const match of firstClause(hints.description).matchAll(/\bof (?:the |this |an? |any )?([a-z]+)(?: ([a-z]+))?/gi)) {
    for (const word of [match[1], match[2]]) if (word && word.length >= 4 && !/^(?:which|that|with|from|into|such|their|stated|days?|years?|months?)$/i.test(word)) words.push(word.toLowerCase());
  }
  return words.length > 0 ? words : ['agreement', 'contract'];
}

function aboutFactor(sentence: Sentence, subjects: readonly string[]): number {
  // a short line ("Term: 12 months") has no sentence subject to check
  if (sentence.tokens.length < MIN_PROSE_WORDS) return 1;
  const subject = subjectOf(sentence.text);
  if (subject === undefined) return 0.5;
  const stems = subjects.map((w) => w.slice(0, 6));
  const words = subject.toLowerCase().split(/[^\p{L}]+/u);
  return words.some((w) => stems.some((stem) => w.startsWith(stem))) ? 1 : 0.5;
}

const OWN_DATE = /^\W*(?:(?:from|after|following|of|commencing on|beginning on|starting on)\s+)?(?:the\s+)?(?:date\s+(?:hereof|of\s+(?:this|the)\s+(?:agreement|contract))|effective\s+date|execution|signing|date\s+(?:first\s+)?(?:above\s+|set\s+forth\s+above\s+)?written|date\s+on\s+which\s+this)/i;

/** A duration counted from a later event ("after termination of employment") is no fixed term. */
function anchorFactor(text: string, duration: Duration): number {
  const after = text.slice(duration.end);
  if (!/^\W*(?:from|after|following|of|since|upon|commencing|beginning|starting|prior to|before)\b/i.test(after)) return 1;
  if (OWN_DATE.test(after)) return 1;
  // "of five (5) years." / "anniversary of the date hereof" are fine; "of the Director's ..." is not
  if (/^\W*of\s+(?:this|the)\s+(?:agreement|contract)\b/i.test(after)) return 1;
  return 0.4;
}

function presentDuration(duration: Duration, view: SchemaView, hints: FieldHints): unknown {
  const numeric = view.types.some((t) => t === 'number' || t === 'integer') && !view.types.includes('string');
  if (numeric) return durationInUnit(duration, hints.description);
  return wantsNumberUnit(hints.description) || !/\bas (?:printed|written in the document)\b/i.test(hints.description) ? duration.value : duration.text;
}
