import type { Memory } from '../spec/memory.js';
import type { CoreBlockInContext } from './core-block-budget.js';
import type { RecallIntent } from './recall-intent.js';

/**
 * How one candidate list ranked a result.
 *
 * @group Recall
 */
export interface ListEvidence {
  /** 1-based rank in the list. */
  rank: number;
  /** The list's own score: BM25 for lexical, cosine similarity for vector. */
  score: number;
  /** What this list added to the fused score: weight / (rrfK + rank), normalised. */
  contribution: number;
}

/**
 * A multiplicative adjustment applied after fusion.
 *
 * @group Recall
 */
export interface Boost {
  /** Which signal. */
  name: 'importance' | 'recency' | 'bookmark' | 'session' | 'time' | 'entity' | 'superseded' | 'timeline';
  /** The factor the fused score was multiplied by. */
  factor: number;
}

/**
 * Where a result stands among the versions of a fact (see `supersededBy`).
 *
 * @group Recall
 */
export interface ValidityNote {
  /**
   * `current`: the version true at the time asked about, brought in or lifted by an older
   * version's match; `earlier`: a version a newer fact replaced, lifted for a question about
   * the past; `superseded` / `not yet valid`: kept, ranked below the version that was true.
   */
  state: 'current' | 'earlier' | 'superseded' | 'not yet valid';
  /** The result whose match brought this one in or lifted it. */
  via?: string;
  /** For a superseded result: the memory that superseded it. */
  supersededBy?: string;
}

/**
 * Why a result scored what it did.
 *
 * @group Recall
 */
export interface ScoreBreakdown {
  /** Lexical (BM25) list evidence, or null if that list didn't find it. */
  lexical: ListEvidence | null;
  /** Vector list evidence, or null if that list didn't find it. */
  vector: ListEvidence | null;
  /** Evidence of the feedback search (`ranking.feedback`), when it ran and found it. */
  feedback?: ListEvidence | null;
  /** Reciprocal-rank fusion of the lists, normalised so that rank 1 in every list is 1. */
  fused: number;
  /** Adjustments applied to the fused score. */
  boosts: Boost[];
  /** The final score, 0..1. */
  final: number;
  /** Set when the result's place was changed because of the versions of its fact. */
  validity?: ValidityNote;
  /**
   * Set when the result was brought in because it holds the slot the question asks about
   * ("where does Elena live" → `elena residence: valencia`): the claim it holds.
   */
  claim?: string;
}

/**
 * One recalled memory.
 *
 * @group Recall
 */
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
  /**
   * With `expand: 'window'` or `'session'`, for a turn of a conversation: the turns around it
   * in the order they were said, this one included. `formatContext` shows them as one entry,
   * and a lower result among them was folded into this one.
   */
  turns?: Memory[];
  /** An opinion's confidence, 0..1 (`O(c=…)`, or as reflect last updated it). */
  confidence?: number;
  /** For an opinion: its own citation, then the ids of memories reflect found supporting it, then `against:<id>` for each contradicting one. */
  evidence?: string[];
}

/**
 * What `recall` resolves to.
 *
 * @group Recall
 */
export interface RecallResponse {
  /** The query as given. */
  query: string;
  /** The recall kind the query was answered as, and the entity or time span it named. */
  intent?: RecallIntent;
  /** Results, best first. */
  results: RecallResult[];
  /** Total tokens of the results, when a token budget was given. */
  totalTokens?: number;
  /** Results that ranked in the top k but did not fit the token budget. */
  droppedForBudget: number;
  /**
   * The core block of the call's scope, when it has text and `core` was not false; cut to its
   * share of `tokenBudget` (`truncatedFrom` set) when it did not fit. `formatContext` puts it first.
   */
  core?: CoreBlockInContext;
}
