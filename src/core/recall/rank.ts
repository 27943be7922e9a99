import { z } from 'zod';
import type { ResolvedRankingOptions } from '../client/memory-options.js';
import { filterOptionFields } from '../search/filter-options.js';
import { scanLexical, scanVector } from '../search/native-or-scan.js';
import type { Embedder } from '../spec/embedder.js';
import type { Memory } from '../spec/memory.js';
import type { MemoryFilter, MemoryStore, SearchHit } from '../spec/store.js';
import type { LruCache } from '../utils/lru-cache.js';
import { loadTokenCounter } from '../utils/token-counter.js';
import { citationOf, renderMemoryEntry } from './format-context.js';

/** Options of `recall`. */
export const recallOptionsSchema = z
  .object({
    /** Maximum results. Default: the client's `recallK` (10). */
    k: z.number().int().min(1).max(1000).optional(),
    /** Drop results whose final score (0..1) is below this. Default 0. */
    minScore: z.number().min(0).max(1).optional(),
    /** Pack whole results, best first, until this many tokens (o200k_base) are used. */
    tokenBudget: z.number().int().positive().max(10_000_000).optional(),
    ...filterOptionFields,
    /** Include invalidated memories. Default false. */
    includeInvalid: z.boolean().optional(),
    /**
     * Add `explanation` to each result: which lists found it, at what rank and score, and
     * every boost, in one line. (`breakdown` carries the same as data on every result.)
     */
    explain: z.boolean().optional(),
  })
  .strict();
/** Options of `recall`. */
export type RecallOptions = z.input<typeof recallOptionsSchema>;

/** How one candidate list ranked a result. */
export interface ListEvidence {
  /** 1-based rank in the list. */
  rank: number;
  /** The list's own score: BM25 for lexical, cosine similarity for vector. */
  score: number;
  /** What this list added to the fused score: weight / (rrfK + rank), normalised. */
  contribution: number;
}

/** A multiplicative adjustment applied after fusion. */
export interface Boost {
  /** Which signal. */
  name: 'importance' | 'recency' | 'bookmark' | 'session';
  /** The factor the fused score was multiplied by. */
  factor: number;
}

/** Why a result scored what it did. */
export interface ScoreBreakdown {
  /** Lexical (BM25) list evidence, or null if that list didn't find it. */
  lexical: ListEvidence | null;
  /** Vector list evidence, or null if that list didn't find it. */
  vector: ListEvidence | null;
  /** Reciprocal-rank fusion of the lists, normalised so that rank 1 in every list is 1. */
  fused: number;
  /** Adjustments applied to the fused score. */
  boosts: Boost[];
  /** The final score, 0..1. */
  final: number;
}

/** One recalled memory. */
export interface RecallResult {
  /** The memory (with its access count already incremented). */
  memory: Memory;
  /** Final score, 0..1; results are sorted by it. */
  score: number;
  /** Where the memory came from, e.g. `memory/2025-11-27.md#L12`. */
  citation: string;
  /** How the score was reached. */
  breakdown: ScoreBreakdown;
  /** Tokens the memory takes in the formatted context; set when a token budget was given. */
  tokens?: number;
  /** The breakdown in words; set when `explain: true`. */
  explanation?: string;
}

const round = (value: number) => Number(value.toPrecision(4));

/** One line saying how a result's score was reached, e.g. for logs and the bench's `--explain`. */
export function explainScore(breakdown: ScoreBreakdown): string {
  const lists = [
    breakdown.lexical
      ? `lexical #${breakdown.lexical.rank} (bm25 ${round(breakdown.lexical.score)}, +${round(breakdown.lexical.contribution)})`
      : 'lexical: not found',
    breakdown.vector
      ? `vector #${breakdown.vector.rank} (cosine ${round(breakdown.vector.score)}, +${round(breakdown.vector.contribution)})`
      : 'vector: not found',
  ];
  const boosts = breakdown.boosts.map((boost) => `${boost.name} ×${round(boost.factor)}`).join(', ');
  return `${lists.join('; ')} → fused ${round(breakdown.fused)}${boosts ? `; ${boosts}` : ''} → ${round(breakdown.final)}`;
}

/** What `recall` resolves to. */
export interface RecallResponse {
  /** The query as given. */
  query: string;
  /** Results, best first. */
  results: RecallResult[];
  /** Total tokens of the results, when a token budget was given. */
  totalTokens?: number;
  /** Results that ranked in the top k but did not fit the token budget. */
  droppedForBudget: number;
}

/** Parsed recall options. */
export type ParsedRecallOptions = z.output<typeof recallOptionsSchema>;

/** What the ranking needs from the client. */
export interface RankingContext {
  store: MemoryStore;
  embedder: Embedder;
  ranking: ResolvedRankingOptions;
  now: number;
  k: number;
  /** The session `resumeSession` named, whose memories rank higher; null when none. */
  resumedSession: string | null;
  /** Recent query embeddings, so a repeated query is not embedded again. */
  queryVectors?: LruCache<string, Float32Array>;
}

const DAY_MS = 86_400_000;

async function candidateLists(query: string, filter: MemoryFilter, limit: number, context: RankingContext) {
  const { store, embedder } = context;
  const lexical = store.searchLexical
    ? store.searchLexical({ text: query, filter, limit })
    : scanLexical(store, query, filter, limit);
  const cached = context.queryVectors?.get(query);
  const vector = cached ?? (await embedder.embed([query]))[0];
  if (!cached && vector) context.queryVectors?.set(query, vector);
  const vectorHits = vector?.some((value) => value !== 0)
    ? store.searchVector
      ? store.searchVector({ vector, filter, limit })
      : scanVector(store, vector, filter, limit)
    : Promise.resolve([] as SearchHit[]);
  return Promise.all([lexical, vectorHits]);
}

function evidenceMap(hits: readonly SearchHit[], weight: number, rrfK: number, norm: number) {
  const map = new Map<string, ListEvidence>();
  hits.forEach((hit, index) => {
    const rank = index + 1;
    map.set(hit.id, { rank, score: hit.score, contribution: weight / (rrfK + rank) / norm });
  });
  return map;
}

function boostsFor(memory: Memory, context: RankingContext): Boost[] {
  const { ranking, now } = context;
  const boosts: Boost[] = [];
  if (ranking.importanceWeight > 0) {
    boosts.push({ name: 'importance', factor: 1 + ranking.importanceWeight * (2 * memory.importance - 1) });
  }
  if (ranking.recencyWeight > 0) {
    const ageDays = Math.max(0, (now - Date.parse(memory.occurredAt)) / DAY_MS);
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
  return (1 + ranking.importanceWeight) * (1 + ranking.recencyWeight) * (1 + ranking.bookmarkWeight) * session;
}

/**
 * Hybrid ranking: lexical and vector candidate lists fused by reciprocal rank, then
 * boosted by importance, recency and bookmarks. Returns up to `k` results, best first.
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
  const norm = (ranking.lexicalWeight + ranking.vectorWeight) / (ranking.rrfK + 1) || 1;
  const lexical = evidenceMap(lexicalHits, ranking.lexicalWeight, ranking.rrfK, norm);
  const vector = evidenceMap(vectorHits, ranking.vectorWeight, ranking.rrfK, norm);
  const fusedScores = [...new Set([...lexical.keys(), ...vector.keys()])]
    .map((id) => ({ id, fused: (lexical.get(id)?.contribution ?? 0) + (vector.get(id)?.contribution ?? 0) }))
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
      const lexicalEvidence = lexical.get(memory.id) ?? null;
      const vectorEvidence = vector.get(memory.id) ?? null;
      const fused = (lexicalEvidence?.contribution ?? 0) + (vectorEvidence?.contribution ?? 0);
      const boosts = boostsFor(memory, context);
      const final = (fused * boosts.reduce((product, boost) => product * boost.factor, 1)) / ceiling;
      if (final < minScore || final <= 0) continue;
      kept.push({
        memory,
        score: final,
        citation: citationOf(memory),
        breakdown: { lexical: lexicalEvidence, vector: vectorEvidence, fused, boosts, final },
      });
    }
    kept.sort(better);
    kept.length = Math.min(kept.length, context.k);
  }
  return kept;
}

type ScoredResult = Omit<RecallResult, 'tokens'>;

/**
 * Keep whole results, best first, while they fit in `budget` tokens. A result too large
 * for what is left is dropped and smaller ones after it may still fit.
 */
export async function packIntoBudget(results: Array<Omit<RecallResult, 'tokens'>>, budget: number) {
  const count = await loadTokenCounter();
  const packed: RecallResult[] = [];
  let used = 0;
  let dropped = 0;
  for (const result of results) {
    const tokens = count(renderMemoryEntry(result.memory));
    if (used + tokens > budget) {
      dropped++;
      continue;
    }
    used += tokens;
    packed.push({ ...result, tokens });
  }
  return { packed, used, dropped };
}
