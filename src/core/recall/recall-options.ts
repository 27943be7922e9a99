import { z } from 'zod';
import { filterOptionFields, timeBoundSchema } from '../search/filter-options.js';
import { EXPAND_MODES } from './expand-turns.js';
import { RECALL_INTENTS } from './recall-intent.js';

/** Options of `recall`. */
export const recallOptionsSchema = z
  .object({
    /** Maximum results. Default: the client's `recallK` (10). */
    k: z.number().int().min(1).max(1000).optional(),
    /**
     * Drop results whose final score (0..1) is below this. Default 0. Unlike the ranking's
     * `minVectorSimilarity`, which judges the evidence (is it a match at all?), this judges
     * the rank: a result found by one list alone at rank 40 scores about 0.2–0.3 whatever its text.
     */
    minScore: z.number().min(0).max(1).optional(),
    /** Pack whole results, best first, until this many tokens (o200k_base) are used. */
    tokenBudget: z.number().int().positive().max(10_000_000).optional(),
    ...filterOptionFields,
    /**
     * Only these categories. The transcripts the conversation pipeline keeps beside what it
     * extracts (category `transcript`) are left out of recall unless this names `'transcript'`.
     */
    categories: z.array(z.string().min(1)).min(1).optional(),
    /**
     * The recall kind: `lexical` (hybrid search), `entity` (an entity's page, then the facts
     * that mention it, newest first), `temporal` (narrowed to the time span a cue in the query
     * names: "around Nov 27", "during Nov 2025", "since last week", "last time we tried Y"),
     * `opinion` (opinions with confidence and evidence). Default `auto`: read from the query.
     */
    intent: z.enum(RECALL_INTENTS).optional(),
    /**
     * Include memories invalidated by hand (`invalidate`), and those not valid yet. Default
     * false. Superseded memories are always candidates: they rank below the version that
     * replaced them, which their match brings in (see `breakdown.validity`).
     */
    includeInvalid: z.boolean().optional(),
    /**
     * Answer as of this time: the versions of facts that were true then come first, later ones
     * below them. The forms `until` takes (`'2024-06-01'` means the end of that day). Without it,
     * a query about the past ("before he moved", "used to", "in 2023") does the same on its own.
     */
    asOf: timeBoundSchema(true).optional(),
    /**
     * Add `explanation` to each result: which lists found it, at what rank and score, and
     * every boost, in one line. (`breakdown` carries the same as data on every result.)
     */
    explain: z.boolean().optional(),
    /**
     * Attach the core block of the call's scope (`response.core`), which `formatContext` puts at
     * the top of the context. Default true; `false` leaves it out (and reads nothing).
     */
    core: z.boolean().optional(),
    /**
     * With `tokenBudget`: the most of the budget the core block may take, 0..1 (default 0.5).
     * A longer block is cut (marked as cut in the context); memories get what it leaves.
     */
    coreShare: z.number().min(0).max(1).optional(),
    /**
     * For a recalled turn of a conversation: `turn` (default) returns it alone; `window` folds
     * in the turns said around it (two on either side), `session` its whole session, as
     * `result.turns` — one result, and a lower result among those turns is not repeated. Each
     * whole entry counts against `tokenBudget`; one that does not fit falls back to the turn alone.
     */
    expand: z.enum(EXPAND_MODES).optional(),
  })
  .strict();
/**
 * Options of `recall`.
 *
 * @group Recall
 */
export type RecallOptions = z.input<typeof recallOptionsSchema>;

/** Parsed recall options. */
export type ParsedRecallOptions = z.output<typeof recallOptionsSchema>;

/** Tuning of recall's ranking. Every field has a default. */
// The default tie-breaking boosts (importance, recency, bookmark) multiply to at most 1.02 × 1.01 ×
// 1.01 ≈ 1.04, less than the 4.8 % step between ranks 1 and 2 at rrfK 20: they reorder near-ties,
// never a clearly better match. The entity cue (1.1) is meant to move results: it is evidence.
export const rankingOptionsSchema = z
  .object({
    /** Candidates taken from each list before fusion (at least `k`). Default 100. */
    candidates: z.number().int().min(1).max(10_000).default(100),
    /**
     * The constant of reciprocal-rank fusion: 1 / (rrfK + rank). Smaller values trust the
     * top of each list more. Default 20: memory recall wants the few best items, and with
     * the classic 60 ranks 1 and 2 differ by under 2 %, less than any boost.
     */
    rrfK: z.number().positive().max(10_000).default(20),
    /** Weight of the lexical (BM25) list in fusion. Default 1. */
    lexicalWeight: z.number().min(0).max(100).default(1),
    /**
     * Weight of the vector list in fusion. Default 1 for a semantic embedder, 0.1 for a
     * lexical one (`embedder.semantic === false`), whose list mostly repeats BM25's with more noise.
     */
    vectorWeight: z.number().min(0).max(100).optional(),
    /**
     * The relevance floor: a candidate that only the vector list found, with a cosine
     * similarity to the query below this, is not a match and is not returned (`recall("deploy")`
     * does not pad its results with "Alice moved to Lisbon"). A candidate the lexical list
     * found is always a match. Default 0.3 for a lexical embedder (`embedder.semantic ===
     * false`), whose cosine without a shared term is hash and character n-gram noise (on
     * LoCoMo, 99.9 % of such pairs score below 0.3, and no evidence turn reaches the top 50
     * through the vector list alone); 0.15 for a semantic one, which only removes near-unrelated
     * vectors — raise it for a model whose unrelated texts score higher (many open models sit
     * at 0.3–0.6). 0 turns the floor off: every candidate of either list counts.
     */
    minVectorSimilarity: z.number().min(0).max(1).optional(),
    /** Largest relative boost importance gives (importance 1 → ×(1+w), 0 → ×(1-w)). Default 0.02. */
    importanceWeight: z.number().min(0).max(1).default(0.02),
    /** Largest relative boost a brand-new memory gets over an old one. Default 0.01. */
    recencyWeight: z.number().min(0).max(1).default(0.01),
    /** Age at which the recency boost has halved, in days. Default 30. */
    recencyHalfLifeDays: z.number().positive().default(30),
    /** Relative boost of bookmarked memories. Default 0.01. */
    bookmarkWeight: z.number().min(0).max(1).default(0.01),
    /**
     * Relative boost of the memories of the session named by `resumeSession`. Default 0.1:
     * unlike the tie-breakers above, resuming a session is meant to bring its memories up.
     */
    sessionWeight: z.number().min(0).max(10).default(0.1),
    /**
     * Relative boost of memories one of whose `entities` the query names ("What did Caroline
     * say about…" and a memory with entity Caroline). Default 0.1: on LoCoMo, with each half of
     * the conversations held out, it adds 0.5–1 point of recall@5 on both halves; 0.2 costs more
     * than it gains.
     */
    entityWeight: z.number().min(0).max(1).default(0.1),
    /**
     * Pseudo-relevance feedback (RM3-style): words shared by the best lexical hits, other than
     * the query's, are searched again and fused as a third list with this `weight`. Off by
     * default (`false`): on LoCoMo it lifts recall@25 by about a point but costs 1–2 points
     * of recall@5 on both halves of the conversations.
     */
    feedback: z
      .union([
        z.literal(false),
        z
          .object({
            /** How many of the best lexical hits to draw words from. Default 5. */
            documents: z.number().int().min(1).max(50).default(5),
            /** How many words to search again. Default 10. */
            terms: z.number().int().min(1).max(100).default(10),
            /** Weight of the second search in fusion. Default 0.3. */
            weight: z.number().min(0).max(100).default(0.3),
          })
          .strict(),
      ])
      .default(false),
  })
  .strict();
/**
 * Ranking options as accepted (all optional).
 *
 * @group Recall
 */
export type RankingOptions = z.input<typeof rankingOptionsSchema>;
/**
 * Ranking options with defaults filled; `vectorWeight` and `minVectorSimilarity` stay
 * optional until the embedder is known.
 */
export type ParsedRankingOptions = z.output<typeof rankingOptionsSchema>;
/** Ranking options with defaults filled and the embedder-dependent ones resolved for the embedder. */
export type ResolvedRankingOptions = z.output<typeof rankingOptionsSchema> & {
  vectorWeight: number;
  minVectorSimilarity: number;
};
