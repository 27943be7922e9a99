import type { Memory } from '../spec/memory.js';
import type { SearchHit } from '../spec/store.js';
import { analyzeTerms, splitWords, termsOfWords } from '../text/analyze.js';
import { lexicalText } from '../text/memory-text.js';

/** Pseudo-relevance feedback settings (see `RankingOptions.feedback`). */
export interface FeedbackSettings {
  /** How many of the best lexical hits the expansion terms are drawn from. */
  documents: number;
  /** How many expansion terms the second search uses. */
  terms: number;
  /** Weight of the second search's list in fusion, beside the lexical list's. */
  weight: number;
}

/**
 * Expansion terms in the manner of RM3: each feedback document spreads its BM25 score over
 * its terms in proportion to how often it uses them; the terms that collect most, other than
 * the query's own, name what the best matches are about. Terms found in a single document
 * are left out: with a handful of documents, one turn's rare words are noise, not topic.
 * Returns words as written (the store analyses its query itself; a stem stemmed again may change).
 */
export function expansionTerms(
  query: string,
  hits: readonly SearchHit[],
  memories: ReadonlyMap<string, Memory>,
  settings: FeedbackSettings,
): string[] {
  const queryTerms = new Set(analyzeTerms(query));
  const top = hits.slice(0, settings.documents);
  const total = top.reduce((sum, hit) => sum + Math.max(0, hit.score), 0) || 1;
  const weights = new Map<string, number>();
  const documentsWith = new Map<string, number>();
  const surface = new Map<string, string>();
  for (const hit of top) {
    const memory = memories.get(hit.id);
    if (!memory) continue;
    const counts = new Map<string, number>();
    let length = 0;
    for (const word of splitWords(lexicalText(memory))) {
      const term = termsOfWords([word])[0];
      if (term === undefined) continue;
      length++;
      counts.set(term, (counts.get(term) ?? 0) + 1);
      if (!surface.has(term)) surface.set(term, word);
    }
    if (length === 0) continue;
    const share = Math.max(0, hit.score) / total;
    for (const [term, count] of counts) {
      if (queryTerms.has(term)) continue;
      weights.set(term, (weights.get(term) ?? 0) + (share * count) / length);
      documentsWith.set(term, (documentsWith.get(term) ?? 0) + 1);
    }
  }
  return [...weights]
    .filter(([term]) => (documentsWith.get(term) ?? 0) >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, settings.terms)
    .map(([term]) => surface.get(term) ?? term);
}
