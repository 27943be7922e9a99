import type { TokenUsage } from '../spec/language-model.js';

/** The stages of the conversation pipeline that cost model calls or time. */
export const PIPELINE_STAGES = ['extract', 'dedup', 'merge', 'embed'] as const;
/**
 * A stage of the conversation pipeline: `extract`, `dedup`, `merge` or `embed`.
 *
 * @group Backups and maintenance
 */
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

/**
 * What one stage has cost so far.
 *
 * @group Backups and maintenance
 */
export interface StageStats {
  /** Model (or embedder) calls, retries included. */
  calls: number;
  /** Prompt tokens. */
  inputTokens: number;
  /** Completion tokens. */
  outputTokens: number;
  /** Wall time, milliseconds. */
  ms: number;
  /** Calls that ended without a usable answer. */
  failures: number;
}

/**
 * What memory has cost, per pipeline stage, since the client was created.
 *
 * @group Backups and maintenance
 */
export type PipelineStats = Record<PipelineStage, StageStats>;

/** Fresh, zeroed counters. */
export function emptyPipelineStats(): PipelineStats {
  const zero = (): StageStats => ({ calls: 0, inputTokens: 0, outputTokens: 0, ms: 0, failures: 0 });
  return { extract: zero(), dedup: zero(), merge: zero(), embed: zero() };
}

/** Add one stage's call (or calls) to the counters. */
export function recordStage(
  stats: PipelineStats,
  stage: PipelineStage,
  cost: { calls: number; usage?: TokenUsage; ms: number; failed?: boolean },
) {
  const entry = stats[stage];
  entry.calls += cost.calls;
  entry.inputTokens += cost.usage?.inputTokens ?? 0;
  entry.outputTokens += cost.usage?.outputTokens ?? 0;
  entry.ms += cost.ms;
  if (cost.failed) entry.failures += 1;
}

/** A deep copy, so callers can't change the live counters. */
export function snapshotStats(stats: PipelineStats): PipelineStats {
  return structuredClone(stats);
}
