/**
 * Values stated in sentences: after a cue phrase of the property ("governed
 * by the laws of", "for a period of", "entered into as of"), the typed value
 * that follows within the same sentence. Each reader scores its candidates
 * by the cue's weight and by how directly the value follows it, and the best
 * one wins; ties go to the earlier sentence, where contracts state their
 * terms before they cite other documents.
 */
import { competitionAmong, type Competition } from '../../../schema/provenance.js';
import type { SchemaView } from '../../../schema/schema-view.js';
import { cuesFor, type ProseTarget } from './cues.js';
import type { FieldHints } from '../core/labels.js';
import type { RuleLine } from '../core/lines.js';
import { readSentences, type ProseCandidate } from './prose.js';
import { dateCandidates, letterDate } from './prose-dates.js';
import { placeCandidates } from './prose-places.js';
import { durationCandidates } from './prose-terms.js';

/** Below this a duration is more likely about something else (a covenant, a notice) than about the property. */
const MIN_DURATION_SCORE = 0.6;
const MIN_SCORE = 0.5;

/** The property's value read from the document's sentences (with its words, score and the rivals it beat), or undefined when none is stated. */
export function readProseValue(target: ProseTarget, view: SchemaView, hints: FieldHints, lines: readonly RuleLine[], dayFirst: boolean): (ProseCandidate & { competition: Competition }) | undefined {
  const sentences = readSentences(lines);
  const cues = cuesFor(hints, target);
  const candidates = target === 'date' ? [...dateCandidates(sentences, cues, dayFirst), ...letterDate(lines, dayFirst)] : target === 'duration' ? durationCandidates(sentences, cues, view, hints) : placeCandidates(sentences, cues);
  const best = candidates.sort((a, b) => b.score - a.score || a.position - b.position)[0];
  if (!best || best.score < (target === 'duration' ? MIN_DURATION_SCORE : MIN_SCORE)) return undefined;
  return { ...best, competition: competitionAmong(best, candidates, (c) => c.score, (c) => JSON.stringify(c.value)) };
}
