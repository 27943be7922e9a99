/**
 * The bounds of one reflect run: model tokens and wall time. A run checks them between steps
 * and stops cleanly at the first one reached; a model call in flight gets what is left of
 * both (its output capped by the tokens left, aborted at the deadline).
 */
import type { TokenUsage } from '../spec/language-model.js';
import { loadTokenCounter } from '../utils/token-counter.js';

/** Why a run stopped early. */
export type ReflectStopReason = 'tokens' | 'deadline';

/** What a run may spend and what it has spent. */
export interface ReflectBudget {
  /** Model tokens used so far (input and output, as the model reported them). */
  readonly tokensUsed: number;
  /** Wall time since the run started, ms. */
  elapsed(): number;
  /** The bound already reached, if any. */
  exhausted(): ReflectStopReason | undefined;
  /**
   * The bound a model call with this prompt would cross before it answers (its prompt alone
   * over the tokens left, or no time left), if any.
   */
  refuses(prompt: string): Promise<ReflectStopReason | undefined>;
  /** Most output tokens a call may ask for, when tokens are bounded. */
  outputCap(prompt: string): Promise<number | undefined>;
  /** A signal aborting a call at the deadline, when there is one. */
  signal(): AbortSignal | undefined;
  /** Count a call's tokens. */
  spend(usage: TokenUsage | undefined): void;
}

/**
 * A budget of `maxTokens` model tokens and `deadlineMs` of wall time, measured on the real
 * clock (a fixed test clock or a client clock set to the past must not stretch a deadline).
 * Either may be undefined: no bound.
 */
export function createReflectBudget(bounds: { maxTokens?: number; deadlineMs?: number }): ReflectBudget {
  const started = Date.now();
  let used = 0;
  const left = () => (bounds.maxTokens === undefined ? Number.POSITIVE_INFINITY : bounds.maxTokens - used);
  const timeLeft = () =>
    bounds.deadlineMs === undefined ? Number.POSITIVE_INFINITY : bounds.deadlineMs - (Date.now() - started);
  const promptTokens = async (prompt: string) =>
    bounds.maxTokens === undefined ? 0 : (await loadTokenCounter())(prompt);
  const budget: ReflectBudget = {
    get tokensUsed() {
      return used;
    },
    elapsed: () => Date.now() - started,
    exhausted() {
      if (timeLeft() <= 0) return 'deadline';
      if (left() <= 0) return 'tokens';
      return undefined;
    },
    async refuses(prompt) {
      const reached = budget.exhausted();
      if (reached !== undefined) return reached;
      // A prompt that alone fills what is left cannot get an answer inside the bound.
      return (await promptTokens(prompt)) >= left() ? 'tokens' : undefined;
    },
    async outputCap(prompt) {
      if (bounds.maxTokens === undefined) return undefined;
      return Math.max(1, Math.floor(left() - (await promptTokens(prompt))));
    },
    signal() {
      const remaining = timeLeft();
      return Number.isFinite(remaining) ? AbortSignal.timeout(Math.max(1, remaining)) : undefined;
    },
    spend(usage) {
      if (usage === undefined) return;
      const spent = usage.inputTokens + usage.outputTokens;
      if (Number.isFinite(spent) && spent > 0) used += spent;
    },
  };
  return budget;
}
