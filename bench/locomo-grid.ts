// The settings bench:locomo --folds chooses among: the library's defaults first, then each
// tunable feature moved on its own, so the table shows what each one does on each fold.
import type { EvalSetting } from './locomo-eval.js';

export function tuningGrid(): EvalSetting[] {
  return [
    { name: 'defaults' },
    // The neighbour window each turn is indexed with.
    { name: 'contextWindow 0', retain: { contextWindow: 0 } },
    { name: 'contextWindow 1', retain: { contextWindow: 1 } },
    { name: 'contextWindow 3', retain: { contextWindow: 3 } },
    // The local (hashing) embedder's list beside BM25's.
    { name: 'vectorWeight 0', ranking: { vectorWeight: 0 } },
    { name: 'vectorWeight 0.3', ranking: { vectorWeight: 0.3 } },
    { name: 'vectorWeight 0.6', ranking: { vectorWeight: 0.6 } },
    // Query cues: a speaker or entity the question names.
    { name: 'entityWeight 0', ranking: { entityWeight: 0 } },
    { name: 'entityWeight 0.3', ranking: { entityWeight: 0.3 } },
    // Pseudo-relevance feedback.
    { name: 'feedback 5 docs, 10 words, 0.3', ranking: { feedback: { documents: 5, terms: 10, weight: 0.3 } } },
    { name: 'feedback 10 docs, 20 words, 0.3', ranking: { feedback: { documents: 10, terms: 20, weight: 0.3 } } },
    // Fusion: how much the top of each list is trusted.
    { name: 'rrfK 60', ranking: { rrfK: 60 } },
    { name: 'rrfK 10', ranking: { rrfK: 10 } },
  ];
}

/**
 * The fusion of the lexical and vector lists, for an embedder: the vector list's weight beside
 * BM25's, and the similarity below which a memory found by the vector list alone is dropped.
 * The first row is the library's default for the embedder.
 */
export function fusionGrid(): EvalSetting[] {
  const grid: EvalSetting[] = [{ name: 'defaults' }];
  for (const vectorWeight of [0.1, 0.15, 0.2, 0.3, 0.5, 1]) {
    for (const minVectorSimilarity of [0.15, 0.3]) {
      grid.push({
        name: `vectorWeight ${vectorWeight}, floor ${minVectorSimilarity}`,
        ranking: { vectorWeight, minVectorSimilarity },
      });
    }
  }
  return grid;
}
