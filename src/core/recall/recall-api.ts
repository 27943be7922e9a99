import { z } from 'zod';
import { TRANSCRIPT_CATEGORY } from '../conversation/conversation-input.js';
import type { CoreBlock } from '../core-block/core-block-api.js';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import { resolveTimeBound, toStoreFilter } from '../search/filter-options.js';
import { narrowScope } from '../search/scope-boundary.js';
import { citationOf, type FormatContextOptions, formatContext } from '../shared/format-context.js';
import type { Memory, Scope } from '../spec/memory.js';
import { loadTokenCounter } from '../utils/token-counter.js';
import { parseInput } from '../utils/validate.js';
import { withAskedSlots } from './asked-slot.js';
import { type CoreBlockInContext, DEFAULT_CORE_SHARE, fitCoreBlock } from './core-block-budget.js';
import { applyCurrentTruth, type TruthSettings } from './current-truth.js';
import { expandTurns } from './expand-turns.js';
import { explainScore } from './explain.js';
import { packIntoBudget } from './pack-budget.js';
import { asksAboutThePast } from './past-cue.js';
import { type RecallIntent, recallIntentOf } from './recall-intent.js';
import { recallByIntent } from './recall-kinds.js';
import {
  type ParsedRankingOptions,
  type ParsedRecallOptions,
  type RecallOptions,
  type ResolvedRankingOptions,
  recallOptionsSchema,
} from './recall-options.js';
import type { RecallResponse } from './recall-result.js';

// Measured on LoCoMo, each half of the conversations held out (bench:locomo --folds 2): once a
// memory's own words outweigh its context's in BM25, the hashing embedder's list only adds noise
// at the top (0.3 cost 2–3 points of recall@5 on both halves); 0.1 keeps its vector-only matches
// (a misspelt name, say) below every lexical one.
const LEXICAL_VECTOR_WEIGHT = 0.1;
// The relevance floor for vector-only candidates (see `minVectorSimilarity`). Lexical: on LoCoMo,
// question/turn pairs sharing no term score below 0.22 (99.9 %) and one-to-three-word queries below
// 0.29 (99.9 %), while no evidence turn enters the top 50 through the vector list alone. Semantic:
// near-orthogonal vectors only, so no model's real matches are lost.
const LEXICAL_MIN_VECTOR_SIMILARITY = 0.3;
const SEMANTIC_MIN_VECTOR_SIMILARITY = 0.15;
// A semantic embedder's first hit that stands out this clearly is trusted like a lexical hit.
const CONFIDENT_VECTOR = { similarity: 0.55, margin: 0.15 };

const querySchema = z.string().trim().min(1, 'expected a non-empty query').max(10_000);

/**
 * Finding the memories that answer a query, and putting them into a prompt.
 *
 * @group Client
 */
export interface RecallApi {
  /**
   * Find the memories that best answer a query: a hybrid of lexical (BM25) and vector
   * search, fused by rank, filtered and packed into a token budget. Each result has its
   * `score` (0..1), a `citation` and a `breakdown` of how it ranked. See {@link RecallOptions}.
   *
   * @example
   * ```ts
   * const response = await memory.recall('Where does Peter live?', { k: 5, kinds: ['world'], tokenBudget: 800 });
   * for (const { memory: m, score, citation } of response.results) {
   *   console.log(score.toFixed(3), m.abstract, citation);
   * }
   * ```
   */
  recall(query: string, options?: RecallOptions): Promise<RecallResponse>;
  /**
   * Render recalled memories as an escaped, clearly-framed prompt block: memory text is
   * introduced as untrusted historical data, never as instructions. See {@link formatContext}.
   *
   * @example
   * ```ts
   * const response = await memory.recall(userMessage, { tokenBudget: 800 });
   * const system = `You are a helpful assistant.\n\n${memory.formatContext(response)}`;
   * ```
   */
  formatContext(response: RecallResponse | RecallResponse['results'], options?: FormatContextOptions): string;
}

const isTranscript = (memory: Memory) => memory.category === TRANSCRIPT_CATEGORY && memory.metadata.episode === true;

/** What recall needs from createMemory's options. */
export interface RecallSettings {
  /** Ranking tuning, defaults filled. */
  ranking: ParsedRankingOptions;
  /** Default number of results. */
  recallK: number;
  /** The client's core block, attached to each response unless a call says `core: false`. */
  core?: Pick<CoreBlock, 'get'>;
}

/**
 * The core block for one recall: read in the call's scope, cut to its share of the token
 * budget. Undefined when it is empty, turned off, or the call names another tenant.
 */
async function coreFor(
  core: Pick<CoreBlock, 'get'> | undefined,
  options: ParsedRecallOptions,
  scope: Scope | null | undefined,
): Promise<CoreBlockInContext | undefined> {
  if (core === undefined || options.core === false || scope === null) return undefined;
  const state = await core.get(options.scope ? { scope: options.scope } : {});
  if (state.text.trim() === '') return undefined;
  if (options.tokenBudget === undefined) return state;
  const share = options.coreShare ?? DEFAULT_CORE_SHARE;
  const fitted = fitCoreBlock(state, Math.floor(options.tokenBudget * share), await loadTokenCounter());
  return fitted.text === '' ? undefined : fitted;
}

/** How the current-truth pass reads time: `asOf`, a span in the past, a past cue, or now. */
function truthSettings(
  query: string,
  intent: RecallIntent | undefined,
  options: ParsedRecallOptions,
  now: number,
  scope: Scope | null | undefined,
): TruthSettings {
  const base = { includeInvalid: options.includeInvalid === true, scope: scope ?? undefined };
  const nowIso = new Date(now).toISOString();
  if (options.asOf !== undefined) return { ...base, mode: 'asOf', at: resolveTimeBound(options.asOf, now) };
  // "What was my rent in 2023?": what was true at the end of the span the query names.
  if (intent?.until !== undefined && intent.until < nowIso)
    return { ...base, mode: 'asOf', at: intent.until, versionsOnly: true };
  if (asksAboutThePast(query)) return { ...base, mode: 'before', at: nowIso };
  return { ...base, mode: 'now', at: nowIso };
}

/** The recall feature over an engine. */
export function createRecallApi(engine: MemoryEngine, settings: RecallSettings): RecallApi {
  const lexicalEmbedder = engine.embedder.semantic === false;
  const ranking: ResolvedRankingOptions = {
    ...settings.ranking,
    vectorWeight:
      settings.ranking.vectorWeight ??
      engine.embedder.fusion?.vectorWeight ??
      (lexicalEmbedder ? LEXICAL_VECTOR_WEIGHT : 1),
    minVectorSimilarity:
      settings.ranking.minVectorSimilarity ??
      engine.embedder.fusion?.minVectorSimilarity ??
      (lexicalEmbedder ? LEXICAL_MIN_VECTOR_SIMILARITY : SEMANTIC_MIN_VECTOR_SIMILARITY),
  };

  async function recall(queryInput: unknown, optionsInput?: unknown): Promise<RecallResponse> {
    const started = performance.now();
    const query = parseInput(querySchema, queryInput, 'recall', 'query');
    const options = parseInput(recallOptionsSchema, optionsInput ?? {}, 'recall', 'options');
    await engine.ready('recall');
    const now = engine.clock.now();
    const scope = narrowScope(engine.scope, options.scope);
    // Every version is a candidate; the current-truth pass below decides what each one is worth.
    const filter = toStoreFilter(options, scope ?? undefined, undefined, now);
    const k = options.k ?? settings.recallK;
    const context = {
      store: engine.store,
      embed: (texts: readonly string[]) => engine.embed(texts, 'recall'),
      ranking,
      now,
      // Room for versions the current-truth pass demotes or drops.
      k: Math.min(1000, k * 2),
      resumedSession: engine.session.resumed,
      ...(lexicalEmbedder ? {} : { confidentVector: CONFIDENT_VECTOR }),
      queryVectors: engine.metrics.queryVectors,
      // Transcripts repeat what was extracted from them: shown only when asked for by category.
      ...(options.categories?.includes(TRANSCRIPT_CATEGORY) ? {} : { hidden: isTranscript }),
    };
    // The core block is read beside the search, not after it: one round trip less per recall.
    const coreRead = coreFor(settings.core, options, scope);
    // A failed search leaves it unawaited; its own failure, if any, is then of no interest.
    coreRead.catch(() => undefined);
    // A call asking for another tenant's scope finds nothing, as if it were empty.
    const intent =
      scope === null
        ? undefined
        : await recallIntentOf(query, options.intent ?? 'auto', { store: engine.store, filter, now });
    const searched = intent === undefined ? [] : await recallByIntent(query, intent, filter, options, context);
    const found =
      intent === undefined || intent.kind === 'opinion'
        ? searched
        : await withAskedSlots(query, searched, engine.store, filter, citationOf);
    const truthful = await applyCurrentTruth(
      found,
      engine.store,
      truthSettings(query, intent, options, now, scope),
      k,
      citationOf,
    );
    const ranked = await expandTurns(truthful, engine.store, options.expand ?? 'turn');
    const core = await coreRead;
    let response: RecallResponse;
    if (options.tokenBudget !== undefined) {
      // The core block takes its share first; memories are packed into what it leaves.
      const { packed, used, dropped } = await packIntoBudget(ranked, options.tokenBudget - (core?.tokens ?? 0));
      response = {
        query,
        ...(intent ? { intent } : {}),
        results: packed,
        totalTokens: used,
        droppedForBudget: dropped,
      };
    } else {
      response = { query, ...(intent ? { intent } : {}), results: ranked, droppedForBudget: 0 };
    }
    if (core !== undefined) response.core = core;
    const accessedAt = new Date(now).toISOString();
    for (const result of response.results) {
      result.memory = { ...result.memory, accessCount: result.memory.accessCount + 1, lastAccessedAt: accessedAt };
      if (options.explain) result.explanation = explainScore(result.breakdown);
    }
    const recalledIds = response.results.map((result) => result.memory.id);
    if (recalledIds.length > 0) {
      engine.background('recordAccess', () => engine.store.recordAccess(recalledIds, accessedAt));
    }
    const durationMs = performance.now() - started;
    engine.metrics.recall.count++;
    engine.metrics.recall.totalMs += durationMs;
    engine.emit('recall', { query, ids: recalledIds, durationMs });
    return response;
  }

  return {
    ...drained<AsyncMembers<RecallApi>>({ recall: (query, options) => recall(query, options) }),
    formatContext: (response, options) => formatContext(response, options),
  };
}
