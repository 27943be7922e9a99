import type { Embedder } from '../../spec/embedder.js';

// The similarity from which a stored memory is shown to the model's dedup decision (SKIP,
// MERGE or CREATE) beside a newly extracted one. It only chooses what the model is asked about:
// below it a reworded duplicate is never seen and is stored twice; above it the model decides,
// and only preferences, entities and patterns may merge. Chosen per embedder kind on the DEV
// pairs of tests/fixtures/paraphrase-pairs/dev.json (npm run bench:dedup; the held-out test
// pairs were not looked at until both were fixed). Cosine cannot tell a paraphrase from a
// related but different fact ("moved to Berlin" / "moved to Munich") with either kind of
// embedder, so no threshold is a guard against a false merge: the model's decision is.

/**
 * The seed's threshold for a neural embedder (OpenViking's 0.7). With the sentence encoder on
 * the DEV pairs, 0.9 of the reworded duplicates reach the model at it.
 *
 * @group Retain
 */
export const SEMANTIC_DEDUP_SIMILARITY = 0.7;

/**
 * The threshold for the local hashing embedder (`embedder.semantic === false`). Its cosine for
 * a rewording that shares few words sits far below a neural model's: at 0.7 only 0.32 of the
 * DEV duplicates reached the model, so the rest were stored twice. 0.4 is the highest threshold
 * on a 0.05 grid whose DEV recall (0.88) lies within 0.05 of the semantic default's (0.9); it
 * lets 0.6 % of unrelated memory pairs through (the sentence encoder at 0.7: 0.2 %), each one a
 * dedup call the model answers CREATE.
 *
 * @group Retain
 */
export const LEXICAL_DEDUP_SIMILARITY = 0.4;

/**
 * The dedup threshold in effect: the one configured (`extraction.similarityThreshold`), else
 * the default for the embedder's kind.
 *
 * @param embedder - The client's embedder (its `semantic` flag).
 * @param configured - The configured threshold, if any.
 * @returns A cosine similarity.
 */
export function dedupSimilarity(embedder: Pick<Embedder, 'semantic'>, configured?: number): number {
  if (configured !== undefined) return configured;
  return embedder.semantic === false ? LEXICAL_DEDUP_SIMILARITY : SEMANTIC_DEDUP_SIMILARITY;
}
