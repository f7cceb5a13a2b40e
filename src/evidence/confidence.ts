/**
 * How sure docshape is of a value: the probability that it is right, from
 * its features (features.ts). Not a formula tuned by hand: a small logistic
 * model per kind of value, fitted on labelled documents by
 * scripts/fit-confidence.ts (which writes confidence-model.ts) and judged by
 * calibration (values given 0.9 should be right nine times in ten).
 *
 * An answer from a language model is also read by the rules engine; the
 * model's value is then scored with Bayes' rule from the rules reading's own
 * calibrated confidence and whether the two agree (`combineReadings`).
 */
import { CONFIDENCE_MODEL } from './confidence-model.js';
import type { ValueFeatures, ValueKind } from './features.js';
import type { OcrEngineName } from '../document/document.js';

/** The fitted constants (a plain literal, checked against the types here). */
const FITTED: ConfidenceModel = CONFIDENCE_MODEL;

/** The inputs of the logistic model, in the order of its weights. */
export const FEATURE_NAMES = [
  'textLayer',
  'ocrMin',
  'notLocated',
  'multiline',
  'unscored',
  'score',
  'rivals',
  'contested',
  'repeated',
  'addsUp',
  'irregular',
  'answerSum',
  'answerNoSum',
  'weakestLetter',
  'weakLabel',
  'meaningGuessed',
] as const;

export interface KindModel {
  intercept: number;
  /** One per FEATURE_NAMES entry. */
  weights: number[];
}

/** One model per kind of value, fitted on the documents it names. */
export interface KindModels {
  fittedOn: string;
  kinds: Record<ValueKind, KindModel>;
}

/**
 * A set of kind models per OCR engine (an engine's 0.95 is not another's),
 * each fitted with the text-layer documents too; `combine` are the constants
 * for a language model's answer checked against the rules engine.
 */
export interface ConfidenceModel {
  features: readonly string[];
  byOcr: Record<OcrEngineName, KindModels>;
  /**
   * How often a negative amount's sign is the one the caller wants (ValueFeatures.negative): a convention no
   * feature of the reading can vouch for, so it multiplies the kind model's probability. Fitted by the rule of
   * succession, (right + 1) / (negatives + 2), on the fit's negative amounts: few in the dev sets, and a
   * document type never seen may keep the other convention (a credit note prints "-233,47", its XML 233.47).
   */
  negativeSign: number;
  combine: ReadingCombination;
}

/** The set for values that no OCR engine read (a PDF's text layer): the default engine's, fitted on the same text-layer documents as every set. */
const TEXT_LAYER_SET: OcrEngineName = 'paddle';

/**
 * Bayes' rule for two readings: `modelPrior` is how often the language
 * model's value is right on its own (per kind), `coincidence` how often two
 * wrong readings still name the same value.
 */
export interface ReadingCombination {
  fitted: boolean;
  modelPrior: Record<ValueKind, number>;
  coincidence: number;
}

/** OCR confidences above this count as this (an engine's 0.9999 is no surer than its 0.999). */
const MAX_OCR_CONFIDENCE = 0.999;

/**
 * A letter PP-OCR reads at least this likely counts as sure, and no surer above it: the cascade
 * (ingest/ocr/paddle/read-page.ts, REREAD_BELOW) reads a line again with the full recogniser when the quick
 * one has a letter below it, so every kept line's letters are at or above it by construction, and above it
 * the weakest letter tells which recogniser read the line rather than whether a letter is in doubt. Below it
 * the full recogniser was unsure too. Tesseract gives no letters (a word's weakest is its confidence) and keeps
 * the scale its weights were fitted on.
 */
export const SURE_LETTER = 0.99;

/**
 * A label the rules engine itself scores below this points at a value right little more than half the time
 * (the four dev sets, PP-OCRv6 cascade: 59 % of 109 such values, against 91 % of 937 above): a weak label is a
 * doubt of its own, more than the linear score conveys.
 */
export const WEAK_LABEL_BELOW = 0.8;

/**
 * The model's inputs for one value: interpretable numbers, each 0..1 or a
 * small count. How well the value's words were read, and what the engine
 * matched: the label's score (and whether it was weak), the rivals it beat, the value printed again,
 * sums that hold; a negative amount's sign is a factor of its own
 * (ConfidenceModel.negativeSign). Facts of a layout (how far down the page, how clean the
 * page, whether a name ends in "Sdn Bhd") are left out: they made a
 * receipt's habits look sure on an invoice (issue 19), where a letterhead
 * at the top is a logo and an amount low on the page a VAT base.
 */
export function featureVector(features: ValueFeatures): number[] {
  const contested = features.rivals !== undefined && features.rivals > 0 ? 1 - (features.margin ?? 0) : 0;
  // OCR confidence as "how sure": -ln(1 - c), so that 0.9 -> 0.95 counts as much as 0.8 -> 0.9; a text layer (1) is as sure as the surest OCR
  const sure = (confidence: number) => -Math.log(1 - Math.min(confidence, MAX_OCR_CONFIDENCE));
  const weakest = features.weakestLetter ?? features.ocrMin;
  return [
    features.textLayer ? 1 : 0,
    sure(features.ocrMin),
    features.located ? 0 : 1,
    features.lines > 1 ? 1 : 0,
    features.score === undefined ? 1 : 0,
    features.score ?? 0,
    Math.log1p(features.rivals ?? 0),
    contested,
    features.repeats > 0 ? 1 : 0,
    features.addsUp ? 1 : 0,
    features.irregular ? 1 : 0,
    features.answerSum === true ? 1 : 0,
    features.answerSum === false ? 1 : 0,
    sure(features.ocrEngine === 'tesseract' ? weakest : Math.min(weakest, SURE_LETTER)),
    features.score !== undefined && features.score < WEAK_LABEL_BELOW ? 1 : 0,
    // a property whose meaning is guessed ("x1", a name the tables do not know) is read less surely
    1 - (features.meaning ?? 1),
  ];
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** The probability that a value read by the rules engine (or any engine on its own) is right. */
export function singleReadingConfidence(features: ValueFeatures, model: ConfidenceModel = FITTED): number {
  const { intercept, weights } = model.byOcr[features.ocrEngine ?? TEXT_LAYER_SET].kinds[features.kind];
  const inputs = featureVector(features);
  let logit = intercept;
  inputs.forEach((input, i) => (logit += (weights[i] ?? 0) * input));
  return sigmoid(logit) * (features.negative === true ? model.negativeSign : 1);
}

/**
 * A language model's value, knowing the rules engine's reading of the same
 * property: `rulesConfidence` is that reading's calibrated confidence
 * (undefined when the rules engine found nothing there).
 *   agrees:  P = m r / (m r + (1 - m)(1 - r) c)
 *   differs: P = m (1 - r) / (m (1 - r) + (1 - m)(r + (1 - r)(1 - c)))
 *   none:    P = m
 * with m the model's prior for the kind (halved as the value's words spell
 * it less exactly) and c the coincidence rate.
 */
export function combineReadings(kind: ValueKind, agreement: 'agrees' | 'differs' | 'none', rulesConfidence: number | undefined, exactness: number, combination: ReadingCombination = FITTED.combine): number {
  // a value the model wrote that the document does not spell is half as likely (one it does not hold at all, a guess)
  const m = combination.modelPrior[kind] * (0.5 + 0.5 * exactness);
  const c = combination.coincidence;
  const r = rulesConfidence ?? 0;
  if (agreement === 'agrees' && rulesConfidence !== undefined) return (m * r) / (m * r + (1 - m) * (1 - r) * c);
  if (agreement === 'differs' && rulesConfidence !== undefined) return (m * (1 - r)) / (m * (1 - r) + (1 - m) * (r + (1 - r) * (1 - c)));
  return m;
}
