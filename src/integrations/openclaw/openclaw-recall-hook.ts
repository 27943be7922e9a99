import type { Scope } from '../../core/spec/memory.js';
import type { CoreBlockState, Memory, MemoryClient, RecallResult } from '../../index.js';
import { formatContext } from '../../index.js';
import type { ParsedOpenClawConfig } from './openclaw-config.js';
import type { OpenClawLogger, OpenClawPromptBuildEvent, OpenClawPromptBuildResult } from './openclaw-host-types.js';
import { EXPERIENCE_OPEN, EXPERIENCE_TAG, roleOf, stripInjectedContext, textOf } from './openclaw-messages.js';

// Recall before each prompt: find the memories the request calls for, within the turn's
// scope, and put their one-sentence abstracts (L0) before the prompt in an
// <agent-experience> block, grouped by category, escaped and marked as untrusted data. The
// sender's core block goes first in the same block, every turn (seed 004: edited by the
// memory_core_* tools, re-injected on the next turn).

/** Shorter requests ("ok", "yes") say too little to search for. */
export const MIN_QUERY_CHARS = 5;

/**
 * The text to search for: `currentUserMessage` when the host gives it, else the newest message
 * when it is the user's (the request itself), else the prompt. On the gateway path of
 * 2026.9.6 `currentUserMessage` is undefined and `messages` holds only the earlier transcript,
 * whose last user message is the previous request, so it is not used then. `''` from the host
 * means the request has no text: nothing to search for.
 */
export function recallQuery(event: OpenClawPromptBuildEvent): string {
  if (typeof event.currentUserMessage === 'string') return stripInjectedContext(event.currentUserMessage);
  const last = event.messages?.at(-1);
  if (roleOf(last) === 'user') {
    const text = stripInjectedContext(textOf(last));
    if (text !== '') return text;
  }
  return stripInjectedContext(typeof event.prompt === 'string' ? event.prompt : '');
}

/** Results grouped by category: categories in the order of their best result, best first within. */
export function groupByCategory(results: readonly RecallResult[]): Memory[] {
  const groups = new Map<string, Memory[]>();
  for (const { memory } of results) {
    const group = groups.get(memory.category);
    if (group) group.push(memory);
    else groups.set(memory.category, [memory]);
  }
  return [...groups.values()].flat();
}

/**
 * The block put before the prompt: memoir's escaped, untrusted-data framing inside the
 * nonce-marked tag, the sender's core block first when there is one.
 */
export function experienceBlock(results: readonly RecallResult[], core?: CoreBlockState): string {
  const categories = [...new Set(results.map((result) => result.memory.category))];
  const title =
    categories.length === 0
      ? 'Agent experience from earlier conversations'
      : `Agent experience from earlier conversations (by category: ${categories.join(', ')})`;
  const body = formatContext(groupByCategory(results), {
    tier: 'abstract',
    title,
    ...(core === undefined ? {} : { core }),
  });
  // The nonce marks the block as memoir's own, so capture strips it and nothing a user types.
  return `${EXPERIENCE_OPEN}\n${body}\n</${EXPERIENCE_TAG}>`;
}

/**
 * Whether a result clears `recallMinScore`, a floor on cosine similarity as memory-lancedb's
 * 0.3 is (seed 002), not on memoir's fused rank score (a word match ranked first scores about
 * 0.9 there whatever its similarity). The similarity is the one memoir's vector search measured
 * (`breakdown.vector.score`). A result it did not measure — found by words alone, beyond the
 * vector search's nearest candidates, or listed for an entity or a date the prompt names — has
 * nothing to judge: it matched the prompt's words or a name in it, and is kept.
 */
export function clearsSimilarityFloor(result: RecallResult, minSimilarity: number): boolean {
  if (minSimilarity <= 0) return true;
  const similarity = result.breakdown.vector?.score;
  return similarity === undefined || similarity >= minSimilarity;
}

/** Settle with `undefined` when `work` takes longer than `ms`; the work is left to finish on its own. */
async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Recall for one prompt, and the sender's core block (`coreBlock`, every turn, however short
 * the request). Never throws and never holds the prompt past `recallTimeoutMs`: a failing or
 * slow store or embedder means this turn goes without what failed.
 */
export async function recallForPrompt(
  event: OpenClawPromptBuildEvent,
  scope: Scope,
  context: { client: () => MemoryClient; config: ParsedOpenClawConfig; logger: OpenClawLogger },
): Promise<OpenClawPromptBuildResult | undefined> {
  const query = recallQuery(event);
  const searching = query.length >= MIN_QUERY_CHARS;
  if (!searching && !context.config.coreBlock) return undefined;
  try {
    // Each part fails on its own: a broken core block does not cost the turn its memories.
    const recalled = searching
      ? context
          .client()
          .recall(query.slice(0, 2000), {
            k: context.config.recallLimit,
            scope,
            core: false,
          })
          .catch((error: unknown) => {
            context.logger.warn(`memoir: recall failed, prompt sent without it: ${errorText(error)}`);
            return undefined;
          })
      : Promise.resolve(undefined);
    const core = context.config.coreBlock
      ? context
          .client()
          .core.get({ scope })
          .catch((error: unknown) => {
            context.logger.warn(`memoir: core block not read, prompt sent without it: ${errorText(error)}`);
            return undefined;
          })
      : Promise.resolve(undefined);
    const both = await withinDeadline(Promise.all([recalled, core]), context.config.recallTimeoutMs);
    if (both === undefined) {
      context.logger.warn(
        `memoir: recall took longer than ${context.config.recallTimeoutMs} ms; prompt sent without it`,
      );
      return undefined;
    }
    const results = (both[0]?.results ?? []).filter((result) =>
      clearsSimilarityFloor(result, context.config.recallMinScore),
    );
    const block = both[1] !== undefined && both[1].text.trim() !== '' ? both[1] : undefined;
    if (results.length === 0 && block === undefined) return undefined;
    if (results.length > 0) context.logger.info(`memoir: injecting ${results.length} memories`);
    if (block !== undefined) context.logger.info(`memoir: injecting the core block (${block.tokens} tokens)`);
    return { prependContext: experienceBlock(results, block) };
  } catch (error) {
    context.logger.warn(`memoir: recall failed, prompt sent without it: ${errorText(error)}`);
    return undefined;
  }
}
