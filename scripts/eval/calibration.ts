/**
 * Calibration of the per-value confidence (issue 12): do values given
 * confidence p turn out right a share p of the time? Every value the service
 * returned that the ground truth can judge is one sample, right when the
 * eval's strict match says so (a list item: when it strictly matches an
 * expected item). From the samples: a reliability table (confidence buckets
 * against the share right), the expected calibration error, and the two
 * numbers a user acts on: among values with confidence >= 0.9 the share
 * right (precision), and the share of all labelled values that reach 0.9
 * (coverage).
 */
import type { ValueFeatures } from '../../src/evidence/features.js';
import { childPointer } from '../../src/util/json-pointer.js';
import { normaliseText } from './normalise.js';
import { isMissing, scoreField, type FieldKind, type NullMeaning, type ScoreOptions } from './score.js';

/** What the service said about one value: its confidence, and (local runs) what it was computed from. */
export interface ValueConfidence {
  confidence: number;
  features?: ValueFeatures;
}

export interface CalibrationSample {
  id: string;
  field: string;
  pointer: string;
  confidence: number;
  correct: boolean;
  /** The value stands for a labelled value (not one predicted where the label says there is none). */
  labelled: boolean;
  features?: ValueFeatures;
}

/** The confidence a user may accept without looking. */
export const ACCEPT_AT = 0.9;
const BUCKETS = 10;

export interface ReliabilityBucket {
  from: number;
  to: number;
  count: number;
  meanConfidence: number | null;
  shareRight: number | null;
}

export interface CalibrationSummary {
  /** Values judged. */
  samples: number;
  /** Values the ground truth holds (scalars with a label, items of labelled lists). */
  labelled: number;
  buckets: ReliabilityBucket[];
  /** Expected calibration error: the buckets' |share right - mean confidence|, weighted by their counts. */
  ece: number | null;
  /** Values at or above ACCEPT_AT. */
  accepted: number;
  /** Share of them that are right. */
  precisionAtAccept: number | null;
  /** Share of the labelled values that are returned at or above ACCEPT_AT. */
  coverageAtAccept: number | null;
}

/** The samples of one document: every value of the result the ground truth can judge, with the confidence the service gave it. */
export function calibrationSamples(
  id: string,
  kinds: ReadonlyMap<string, FieldKind>,
  expected: Record<string, unknown>,
  predicted: Record<string, unknown>,
  confidences: Readonly<Record<string, ValueConfidence>>,
  nullMeaning: NullMeaning,
  options: ScoreOptions,
): { samples: CalibrationSample[]; labelled: number } {
  const samples: CalibrationSample[] = [];
  let labelled = 0;
  const add = (field: string, pointer: string, correct: boolean, isLabelled: boolean) => {
    const given = confidences[pointer];
    // a value the service returned without a confidence counts as 0: evidence must list every value
    samples.push({ id, field, pointer, confidence: given?.confidence ?? 0, correct, labelled: isLabelled, ...(given?.features ? { features: given.features } : {}) });
  };
  for (const [field, kind] of kinds) {
    // the cells of an array of objects are judged after matching items (items.ts), not as values of their own here
    if (kind === 'items') continue;
    const truth = expected[field];
    const value = predicted[field];
    const pointer = childPointer('', field);
    if (Array.isArray(value) || kind === 'name-list' || kind === 'text-list') {
      const wanted = (Array.isArray(truth) ? truth : isMissing(truth) ? [] : [truth]).filter((item) => !isMissing(item)).map((item) => normaliseText(String(item)));
      labelled += wanted.length;
      if (wanted.length === 0 && nullMeaning === 'not-annotated') continue;
      const unmatched = [...wanted];
      (Array.isArray(value) ? value : []).forEach((item, index) => {
        if (isMissing(item) || typeof item === 'object') return;
        const at = unmatched.indexOf(normaliseText(String(item)));
        if (at >= 0) unmatched.splice(at, 1);
        add(field, childPointer(pointer, index), at >= 0, wanted.length > 0);
      });
      continue;
    }
    const truthMissing = isMissing(truth);
    if (!truthMissing) labelled += 1;
    if (isMissing(value) || typeof value === 'object') continue;
    if (truthMissing) {
      // a value where the label says there is none is wrong; where nothing was annotated it cannot be judged
      if (nullMeaning === 'absent') add(field, pointer, false, false);
      continue;
    }
    add(field, pointer, scoreField(field, kind, truth, value, false, options).strict === true, true);
  }
  return { samples, labelled };
}

export function summariseCalibration(samples: readonly CalibrationSample[], labelled: number): CalibrationSummary {
  const buckets: ReliabilityBucket[] = [];
  let ece = 0;
  for (let b = 0; b < BUCKETS; b++) {
    const from = b / BUCKETS;
    const to = (b + 1) / BUCKETS;
    const inside = samples.filter((s) => s.confidence >= from && (b === BUCKETS - 1 ? s.confidence <= to : s.confidence < to));
    const meanConfidence = inside.length === 0 ? null : inside.reduce((sum, s) => sum + s.confidence, 0) / inside.length;
    const shareRight = inside.length === 0 ? null : inside.filter((s) => s.correct).length / inside.length;
    if (meanConfidence !== null && shareRight !== null) ece += (inside.length / samples.length) * Math.abs(shareRight - meanConfidence);
    buckets.push({ from, to, count: inside.length, meanConfidence, shareRight });
  }
  const accepted = samples.filter((s) => s.confidence >= ACCEPT_AT);
  return {
    samples: samples.length,
    labelled,
    buckets,
    ece: samples.length === 0 ? null : ece,
    accepted: accepted.length,
    precisionAtAccept: accepted.length === 0 ? null : accepted.filter((s) => s.correct).length / accepted.length,
    coverageAtAccept: labelled === 0 ? null : accepted.filter((s) => s.labelled).length / labelled,
  };
}
