/**
 * Prose cues: phrases that announce a property's value inside a sentence
 * ("governed by the laws of ...", "for a period of ...", "dated as of ...").
 * They come from the property's own name and from a small, generic synonym
 * table keyed by the words of its name or description; nothing here knows a
 * particular document or dataset.
 */
import { splitName } from '../../../meaning/words.js';
import type { SchemaView } from '../../../schema/schema-view.js';
import { wantsNumberUnit } from './durations.js';
import { type FieldHints } from '../core/labels.js';
import type { ValueKind } from '../core/kinds.js';

/** What a prose reader looks for after a cue. */
export type ProseTarget = 'date' | 'duration' | 'place';

export interface Cue {
  words: string[];
  weight: number;
}

interface CueGroup {
  /** Words of a property name (or its description) that bring the group in. */
  triggers: string[];
  target: ProseTarget;
  cues: Array<[string, number]>;
}

const GROUPS: CueGroup[] = [
  {
    triggers: ['jurisdiction', 'governing', 'law', 'laws', 'governed'],
    target: 'place',
    cues: [['governing law', 1], ['governed by', 1], ['laws of', 1], ['law of', 1], ['construed in accordance with', 0.9], ['jurisdiction of', 0.8], ['courts of', 0.8], ['courts located in', 0.8], ['jurisdiction', 0.7]],
  },
  {
    triggers: ['term', 'duration', 'period', 'length', 'validity', 'tenure'],
    target: 'duration',
    cues: [
      ['term', 1], ['duration', 1], ['for a period of', 0.9], ['period of', 0.85], ['period', 0.8], ['remain in effect', 0.9], ['remain in full force', 0.9],
      ['continue in full force', 0.9], ['continue in effect', 0.9], ['in effect for', 0.9], ['terminate', 0.8], ['expire', 0.8], ['expires', 0.8], ['anniversary', 0.8],
    ],
  },
  {
    // not "start": a start date of employment or of a lease is not the date an agreement is made
    triggers: ['effective', 'commencement', 'execution', 'signing', 'agreement', 'contract'],
    target: 'date',
    cues: [
      ['effective as of', 1], ['effective date', 1], ['effective on', 1], ['entered into', 1], ['made and entered into', 1], ['made', 0.9],
      ['dated as of', 0.95], ['dated', 0.9], ['as of', 0.8], ['commencing', 0.8], ['commencement date', 1], ['executed on', 0.9], ['signed on', 0.9],
    ],
  },
];

/** Name words that make a text property a duration; "terms" (payment terms) is not one. */
export const DURATION_NAMES = new Set(['term', 'duration', 'period', 'length', 'validity', 'tenure']);

/** Which prose reader, if any, fits a property. */
export function proseTargetFor(kind: ValueKind, view: SchemaView, hints: FieldHints): ProseTarget | undefined {
  const numeric = view.types.some((t) => t === 'number' || t === 'integer') && !view.types.includes('string');
  if (kind === 'date' || kind === 'datetime') return hints.qualifiers.length > 0 && groupsFor(hints, 'date').length > 0 ? 'date' : undefined;
  const durationName = hints.nameWords.some((w) => DURATION_NAMES.has(w)) || /\bduration\b/i.test(firstClause(hints.description));
  if (durationName && (kind === 'text' || numeric)) return 'duration';
  if (kind === 'text' && wantsNumberUnit(hints.description)) return 'duration';
  if (kind === 'text' && groupsFor(hints, 'place').length > 0) return 'place';
  return undefined;
}

/** The cues of a property for a target: its own name as a phrase, then the synonym groups its words bring in. */
export function cuesFor(hints: FieldHints, target: ProseTarget): Cue[] {
  const cues: Cue[] = [];
  const add = (words: string[], weight: number): void => {
    const existing = cues.find((c) => c.words.join(' ') === words.join(' '));
    if (existing) existing.weight = Math.max(existing.weight, weight);
    else if (words.length > 0) cues.push({ words, weight });
  };
  if (hints.nameWords.length > 1) add(hints.nameWords, 1);
  for (const group of groupsFor(hints, target)) for (const [phrase, weight] of group.cues) add(splitName(phrase), weight);
  if (hints.nameWords.length === 1) add(hints.nameWords, 0.7);
  return cues;
}

function groupsFor(hints: FieldHints, target: ProseTarget): CueGroup[] {
  const nameWords = new Set(hints.nameWords);
  const descriptionWords = new Set(splitName(firstClause(hints.description)));
  const inName = GROUPS.filter((g) => g.target === target && g.triggers.some((t) => nameWords.has(t)));
  if (inName.length > 0) return inName;
  return GROUPS.filter((g) => g.target === target && g.triggers.some((t) => descriptionWords.has(t)));
}

/** The description up to its first full stop or example: the part that says what the property is. */
export function firstClause(description: string): string {
  return description.split(/\.\s|;|\be\.g\b|\(e\.g/)[0] ?? '';
}
