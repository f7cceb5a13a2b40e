/**
 * What the rewrites of scripts/ocr-models add to a model, by name: the
 * sessions (sessions.ts) find a recogniser's per-column outputs and the two
 * parts of a joint recogniser model by these names. Kept here so that the
 * script that writes them and the service that reads them agree.
 */

/**
 * Per-column summaries a rewritten recogniser computes itself: greedy CTC
 * decoding needs only these, not the probability of each of the ~6,600 to
 * ~18,700 classes per column (16 MB or more per line batch copied into JavaScript).
 */
export interface BestClassOutputs {
  /** Int32 [items, columns]: the most likely class per column (the first of equals, as ArgMax keeps). */
  best: string;
  /** Float [items, columns]: its probability. */
  bestProbability: string;
  /** Float [items, columns]: the probability of the last class (the space, when the model writes one). */
  lastProbability: string;
}

export const BEST_CLASS_OUTPUTS: BestClassOutputs = {
  best: 'docshape_best_class',
  bestProbability: 'docshape_best_probability',
  lastProbability: 'docshape_last_class_probability',
};

/** The prefixes of the recogniser (`full`) and the quick recogniser in a joint model: every name of each part starts with its own. */
export const JOINT_PREFIXES = { full: 'full/', quick: 'quick/' } as const;
