/**
 * How an opinion's confidence moves with evidence. Explainable on purpose:
 *
 * 1. Evidence is grouped by its source (a file): several lines of one note are one piece of
 *    independent evidence. Each source counts as its strongest support minus its strongest
 *    contradiction, a number in -1..1.
 * 2. The sources' sum times {@link STEP} moves the confidence in log-odds, so a step near 0.5
 *    moves it more than a step near 0 or 1, and it never leaves 0..1.
 * 3. One reflect moves it by at most {@link SMALL_STEP} log-odds either way (about ±0.12 at
 *    c = 0.5). Only strong contradiction (strength >= {@link STRONG}) repeated in at least
 *    {@link REPEATED} independent sources allows a big drop, up to {@link BIG_STEP}.
 *
 * The sum makes the order of evidence irrelevant; support never lowers and contradiction
 * never raises the result (the big cap widens only the downward side).
 */

/** One piece of evidence about an opinion. */
export interface OpinionEvidence {
  /** Where it came from (a workspace file or a memory id): evidence from one source is not independent. */
  source: string;
  /** Whether it backs the opinion or goes against it. */
  direction: 'support' | 'contradict';
  /** How clearly, 0..1. */
  strength: number;
}

/** Log-odds one fully clear, independent source moves the confidence. */
export const STEP = 0.3;
/** The most one reflect moves the confidence, in log-odds, without strong repeated contradiction. */
export const SMALL_STEP = 0.5;
/** The most a strong, repeated contradiction lowers it in one reflect, in log-odds. */
export const BIG_STEP = 2.5;
/** The strength a contradiction needs to count towards a big drop. */
export const STRONG = 0.8;
/** How many independent sources must contradict strongly for a big drop. */
export const REPEATED = 3;

const EPSILON = 1e-4;
const logit = (c: number) => Math.log(c / (1 - c));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** What the rule decided. */
export interface ConfidenceUpdate {
  /** The new confidence, 0..1, rounded to 3 decimals. */
  confidence: number;
  /** Independent sources that supported and contradicted it. */
  sources: { supporting: number; contradicting: number };
  /** True when strong repeated contradiction allowed a big drop. */
  bigDrop: boolean;
}

/** Apply the rule to confidence `c` and a batch of evidence. */
export function updateConfidence(c: number, evidence: readonly OpinionEvidence[]): ConfidenceUpdate {
  const bySource = new Map<string, { support: number; contradict: number }>();
  for (const item of evidence) {
    const strength = clamp(Number.isFinite(item.strength) ? item.strength : 0, 0, 1);
    const entry = bySource.get(item.source) ?? { support: 0, contradict: 0 };
    entry[item.direction] = Math.max(entry[item.direction], strength);
    bySource.set(item.source, entry);
  }
  let pull = 0;
  let strongContradictions = 0;
  let supporting = 0;
  let contradicting = 0;
  for (const { support, contradict } of bySource.values()) {
    pull += (support - contradict) * STEP;
    if (contradict >= STRONG) strongContradictions++;
    if (support > contradict) supporting++;
    if (contradict > support) contradicting++;
  }
  const bigDrop = strongContradictions >= REPEATED;
  const move = clamp(pull, bigDrop ? -BIG_STEP : -SMALL_STEP, SMALL_STEP);
  const start = clamp(c, EPSILON, 1 - EPSILON);
  const next = move === 0 ? c : sigmoid(logit(start) + move);
  return {
    confidence: Math.round(clamp(next, 0, 1) * 1000) / 1000,
    sources: { supporting, contradicting },
    bigDrop: bigDrop && pull < -SMALL_STEP,
  };
}

/** The most the confidence `c` can move in one reflect without a big drop. */
export function smallMoveBound(c: number): number {
  const start = clamp(c, EPSILON, 1 - EPSILON);
  return Math.max(sigmoid(logit(start) + SMALL_STEP) - start, start - sigmoid(logit(start) - SMALL_STEP)) + 0.0006;
}
