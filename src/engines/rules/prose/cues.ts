/**
 * Prose cues: phrases that announce a property's value inside a sentence
 * ("governed by the laws of ...", "for a period of ...", "dated as of ...").
 * They come from the property's own name and from the prose cues of the
 * language tables (meaning/languages/: `proseCues`), brought in by the words
 * of its name or description; nothing here knows a particular document or
 * dataset.
 */
import { LANGUAGES, type ProseCue } from '../../../meaning/languages/index.js';
import { splitName } from '../../../meaning/words.js';
import { tableWords } from '../core/table-words.js';
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
  triggers: readonly string[];
  target: ProseTarget;
  cues: Array<[string, number]>;
}

/** What each cue of the language tables announces. */
const TARGETS: ReadonlyArray<[ProseCue, ProseTarget]> = [['governingLaw', 'place'], ['term', 'duration'], ['effectiveDate', 'date']];

/** The cues of the language tables (meaning/languages/), English first: every language's phrases, read whatever the document's language. */
const GROUPS: CueGroup[] = TARGETS.map(([cue, target]) => ({
  triggers: tableWords((language) => language.proseCues?.[cue]?.triggers),
  target,
  cues: LANGUAGES.flatMap((language) => Object.entries(language.proseCues?.[cue]?.cues ?? {})),
}));

/** Name words that make a text property a duration (the triggers of the term cues); "terms" (payment terms) is not one. */
export const DURATION_NAMES: ReadonlySet<string> = new Set(GROUPS.find((group) => group.target === 'duration')!.triggers);

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
