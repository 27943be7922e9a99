import { searchLexical, searchVector } from '../search/native-or-scan.js';
import { citationOf } from '../shared/format-context.js';
import type { Memory } from '../spec/memory.js';
import type { MemoryFilter, SearchHit } from '../spec/store.js';
import type { CoreStore } from '../store/store-facade.js';
import { foldText } from '../text/analyze.js';
import type { LruCache } from '../utils/lru-cache.js';
import { DAY_MS } from '../utils/time.js';
import { isUndated } from '../utils/undated.js';
import { expansionTerms } from './query-feedback.js';
import type { ParsedRecallOptions, ResolvedRankingOptions } from './recall-options.js';
import type { Boost, ListEvidence, RecallResult } from './recall-result.js';

/** What the ranking needs from the engine. */
export interface RankingContext {
  store: CoreStore;
  /** Embeds texts with the client's embedder (batched, checked, under the engine's deadline). */
  embed: (texts: readonly string[]) => Promise<Float32Array[]>;
  ranking: ResolvedRankingOptions;
  now: number;
  k: number;
  /** The session `resumeSession` named, whose memories rank higher; null when none. */
  resumedSession: string | null;
  /** Recent query embeddings, so a repeated query is not embedded again. */
  queryVectors?: LruCache<string, Float32Array>;
  /** Memories recall leaves out though the filter matches them (transcripts, unless asked for). */
  hidden?: (memory: Memory) => boolean;
  /** When a semantic embedder's first hit stands out, it weighs as a lexical hit (see `confidentMatch`). */
  confidentVector?: { similarity: number; margin: number };
}

async function queryVector(query: string, context: RankingContext): Promise<Float32Array | undefined> {
  const cached = context.queryVectors?.get(query);
  if (cached) return cached;
  const [vector] = await context.embed([query]);
  if (vector) context.queryVectors?.set(query, vector);
  return vector;
}

async function candidateLists(query: string, filter: MemoryFilter, limit: number, context: RankingContext) {
  const { store } = context;
  const lexical = searchLexical(store, { text: query, filter, limit });
  const vector = await queryVector(query, context);
  // An all-zero vector (a query of stop words, say) is similar to nothing.
  const vectorHits = vector?.some((value) => value !== 0)
    ? searchVector(store, { vector, filter, limit })
    : Promise.resolve([] as SearchHit[]);
  return Promise.all([lexical, vectorHits]);
}

/** The second, expanded search of pseudo-relevance feedback; empty when it is off. */
async function feedbackList(
  query: string,
  filter: MemoryFilter,
  limit: number,
  lexicalHits: readonly SearchHit[],
  context: RankingContext,
): Promise<SearchHit[]> {
  const settings = context.ranking.feedback;
  if (settings === false || lexicalHits.length < 2) return [];
  const top = lexicalHits.slice(0, settings.documents);
  const memories = new Map(
    (await context.store.getMemories(top.map((hit) => hit.id))).map((memory) => [memory.id, memory]),
  );
  const words = expansionTerms(query, top, memories, settings);
  if (words.length === 0) return [];
  return searchLexical(context.store, { text: words.join(' '), filter, limit });
}

/**
 * The vector list's first hit when it stands out: a cosine of at least `similarity`, ahead of the
 * second by at least `margin` — a match by meaning the words missed ("what food does Sam like?"
 * for the ramen). It then counts in fusion as a lexical hit of its rank would.
 */
function confidentMatch(hits: readonly SearchHit[], rule: RankingContext['confidentVector']): string | undefined {
  if (!rule || hits.length === 0) return undefined;
  const [first, second] = hits;
  if (first!.score < rule.similarity) return undefined;
  return first!.score - (second?.score ?? 0) >= rule.margin ? first!.id : undefined;
}

function evidenceMap(hits: readonly SearchHit[], weight: number, rrfK: number, norm: number) {
  const map = new Map<string, ListEvidence>();
  hits.forEach((hit, index) => {
    const rank = index + 1;
    map.set(hit.id, { rank, score: hit.score, contribution: weight / (rrfK + rank) / norm });
  });
  return map;
}

/** Whether the folded query names `entity` as whole words (anywhere: "Annabel and Ann" names Ann). */
function names(foldedQuery: string, entity: string): boolean {
  const name = foldText(entity).trim();
  if (name.length < 2) return false;
  const wordChar = /[\p{L}\p{N}]/u;
  for (let at = foldedQuery.indexOf(name); at >= 0; at = foldedQuery.indexOf(name, at + 1)) {
    const before = at === 0 ? '' : foldedQuery[at - 1]!;
    const after = foldedQuery[at + name.length] ?? '';
    if (!wordChar.test(before) && !wordChar.test(after)) return true;
  }
  return false;
}

function boostsFor(memory: Memory, context: RankingContext, foldedQuery: string): Boost[] {
  const { ranking, now } = context;
  const boosts: Boost[] = [];
  if (ranking.entityWeight > 0 && memory.entities.some((entity) => names(foldedQuery, entity))) {
    boosts.push({ name: 'entity', factor: 1 + ranking.entityWeight });
  }
  if (ranking.importanceWeight > 0) {
    boosts.push({ name: 'importance', factor: 1 + ranking.importanceWeight * (2 * memory.importance - 1) });
  }
  if (ranking.recencyWeight > 0) {
    // An undated memory (a curated page's line) says what holds now.
    const ageDays = isUndated(memory) ? 0 : Math.max(0, (now - Date.parse(memory.occurredAt)) / DAY_MS);
    boosts.push({
      name: 'recency',
      factor: 1 + ranking.recencyWeight * 0.5 ** (ageDays / ranking.recencyHalfLifeDays),
    });
  }
  if (memory.bookmarked && ranking.bookmarkWeight > 0) {
    boosts.push({ name: 'bookmark', factor: 1 + ranking.bookmarkWeight });
  }
  if (context.resumedSession !== null && memory.sessionId === context.resumedSession && ranking.sessionWeight > 0) {
    boosts.push({ name: 'session', factor: 1 + ranking.sessionWeight });
  }
  return boosts;
}

// The largest product of boosts, so that final scores stay within 0..1.
function maxBoost(ranking: ResolvedRankingOptions, resumedSession: string | null): number {
  const session = resumedSession === null ? 1 : 1 + ranking.sessionWeight;
  return (
    (1 + ranking.importanceWeight) *
    (1 + ranking.recencyWeight) *
    (1 + ranking.bookmarkWeight) *
    (1 + ranking.entityWeight) *
    session
  );
}

/**
 * Hybrid ranking: lexical and vector candidate lists fused by reciprocal rank, then
 * boosted by importance, recency and bookmarks. A candidate found only by the vector list
 * with a similarity below `minVectorSimilarity` is dropped. Returns up to `k` results, best first.
 */
export async function rankMemories(
  query: string,
  filter: MemoryFilter,
  options: ParsedRecallOptions,
  context: RankingContext,
): Promise<Array<Omit<RecallResult, 'tokens'>>> {
  const { ranking, store } = context;
  const limit = Math.max(ranking.candidates, context.k);
  const [lexicalHits, vectorHits] = await candidateLists(query, filter, limit, context);
  const feedbackHits = await feedbackList(query, filter, limit, lexicalHits, context);
  const feedbackWeight = ranking.feedback === false ? 0 : ranking.feedback.weight;
  const confident = confidentMatch(vectorHits, context.confidentVector);
  // Scores stay within 0..1: a confident match weighs as a lexical hit, so the scale allows for it.
  const topVectorWeight = confident ? Math.max(ranking.vectorWeight, ranking.lexicalWeight) : ranking.vectorWeight;
  const norm = (ranking.lexicalWeight + topVectorWeight + feedbackWeight) / (ranking.rrfK + 1) || 1;
  const lexical = evidenceMap(lexicalHits, ranking.lexicalWeight, ranking.rrfK, norm);
  const vector = evidenceMap(vectorHits, ranking.vectorWeight, ranking.rrfK, norm);
  if (confident) {
    const evidence = vector.get(confident)!;
    vector.set(confident, { ...evidence, contribution: topVectorWeight / (ranking.rrfK + evidence.rank) / norm });
  }
  const feedback = evidenceMap(feedbackHits, feedbackWeight, ranking.rrfK, norm);
  const foldedQuery = foldText(query);
  // The relevance floor: a candidate only the vector list found, and only weakly, matched nothing.
  const floor = ranking.minVectorSimilarity;
  const matched = (id: string) =>
    floor <= 0 || lexical.has(id) || feedback.has(id) || (vector.get(id)?.score ?? -1) >= floor;
  const fusedOf = (id: string) =>
    (lexical.get(id)?.contribution ?? 0) + (vector.get(id)?.contribution ?? 0) + (feedback.get(id)?.contribution ?? 0);
  const fusedScores = [...new Set([...lexical.keys(), ...vector.keys(), ...feedback.keys()])]
    .filter(matched)
    .map((id) => ({ id, fused: fusedOf(id) }))
    .sort((a, b) => b.fused - a.fused || (a.id < b.id ? -1 : 1));
  const ceiling = maxBoost(ranking, context.resumedSession);
  const minScore = options.minScore ?? 0;
  const better = (a: ScoredResult, b: ScoredResult) => b.score - a.score || (a.memory.id < b.memory.id ? -1 : 1);
  const kept: ScoredResult[] = [];
  // Boosts never raise a score above its fused value, so once the next candidate's fused
  // score is below the k-th final score nothing after it can enter: fetch only what can.
  const batch = Math.max(context.k * 2, 16);
  for (let start = 0; start < fusedScores.length; start += batch) {
    const next = fusedScores[start]!;
    const kth = kept.length >= context.k ? kept[context.k - 1]!.score : 0;
    if (next.fused < Math.max(kth, minScore) || next.fused === 0) break;
    const memories = await store.getMemories(fusedScores.slice(start, start + batch).map((entry) => entry.id));
    for (const memory of memories) {
      if (context.hidden?.(memory)) continue;
      const lexicalEvidence = lexical.get(memory.id) ?? null;
      const vectorEvidence = vector.get(memory.id) ?? null;
      const feedbackEvidence = feedback.get(memory.id) ?? null;
      const fused = fusedOf(memory.id);
      const boosts = boostsFor(memory, context, foldedQuery);
      const final = (fused * boosts.reduce((product, boost) => product * boost.factor, 1)) / ceiling;
      if (final < minScore || final <= 0) continue;
      kept.push({
        memory,
        score: final,
        citation: citationOf(memory),
        breakdown: {
          lexical: lexicalEvidence,
          vector: vectorEvidence,
          ...(ranking.feedback === false ? {} : { feedback: feedbackEvidence }),
          fused,
          boosts,
          final,
        },
      });
    }
    kept.sort(better);
    kept.length = Math.min(kept.length, context.k);
  }
  return kept;
}

type ScoredResult = Omit<RecallResult, 'tokens'>;
