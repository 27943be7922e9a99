import type { ConversationInput } from '../conversation/conversation-input.js';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import type { MemoryInput } from '../spec/memory.js';
import type { ReextractResult, ReextractTarget } from './conversation/reextract.js';
import type { ConversationRetainResult } from './conversation/retain-conversation.js';
import type { RetainOptions, RetainResult } from './retain-options.js';
import { conversationContextOf } from './steps/conversation-context.js';
import { reextract } from './steps/reextract-conversations.js';
import { retain } from './steps/retain.js';
import { retainAsync } from './steps/retain-async.js';
import { createRetainContext, type RetainSettings } from './steps/retain-context.js';

export type { RetainSettings } from './steps/retain-context.js';

/**
 * Storing what happened: memories one by one or in batches, and whole conversations.
 *
 * @group Client
 */
export interface RetainApi {
  /**
   * Store one memory or a batch. Validates every input first (nothing is written if any
   * is invalid), fills defaults, embeds in batches and stores the batch in one transaction.
   * An input identical to a valid stored memory is skipped (`memory:skipped`) unless
   * `onDuplicate: 'keep'`.
   *
   * @example
   * ```ts
   * await memory.retain('The staging deploy runs from the release branch.'); // a bare string is { content }
   * const { ids, skipped } = await memory.retain([
   *   { content: 'Peter prefers concise replies.', kind: 'opinion', entities: ['Peter'], importance: 0.8 },
   *   { content: 'Peter moved to Lisbon.', category: 'profile', occurredAt: '2024-03-01', source: { messageId: 'msg_42' } },
   * ]);
   * ```
   */
  retain(
    input: string | MemoryInput | ReadonlyArray<string | MemoryInput>,
    options?: RetainOptions,
  ): Promise<RetainResult>;
  /**
   * Learn from a finished conversation (`{ messages, sessionId, success }`). With a
   * `languageModel`: one extraction call into the six categories with L0/L1/L2 tiers,
   * then per candidate a vector pre-filter and a CREATE / MERGE / SKIP decision; the
   * profile always merges into the scope's one profile. Without a model, or when the
   * guards or the model fail, the conversation is kept as an experience episode: nothing
   * said is lost, and model trouble never rejects the call.
   *
   * @example
   * ```ts
   * // After each turn (or at the end of a run): hand memoir what was said.
   * const { memories, merged, skipped } = await memory.retain({
   *   messages: [
   *     { role: 'user', content: 'I moved to Lisbon last month, so meetings are on Lisbon time now.' },
   *     { role: 'assistant', content: 'Noted: I will schedule in Lisbon time.' },
   *   ],
   *   sessionId: 'chat-2025-11-27',
   * });
   * ```
   */
  retain(input: ConversationInput): Promise<ConversationRetainResult>;
  /**
   * Extract again from conversations whose turns were kept (`retain({ messages })` keeps them
   * whatever the model returned), with the client's current `languageModel`: every
   * conversation of a session (`{ sessionId }`), or the one a kept episode or transcript
   * memory belongs to (`{ episodeId }`), inside the client's scope only. What the earlier
   * extraction created is replaced softly: invalidated with a reason (`validTo`, listed with
   * `includeInvalid`), never deleted; one someone bookmarked or marked `manual_save` stays
   * valid. A conversation whose extraction fails again is left exactly as it was and the
   * failure reported. Memories an earlier run merged new words into keep them (their
   * `metadata.history` holds each earlier version).
   *
   * @example
   * ```ts
   * // The model was steered by text inside the conversation; a better one reads it again.
   * const { created, invalidated } = await memory.reextract({ sessionId: 'chat-2025-11-27' });
   * ```
   */
  reextract(target: ReextractTarget): Promise<ReextractResult>;
  /**
   * Like `retain`, but queued: validates the input now (a ValidationError throws at once),
   * then returns while the work runs in the background. Failures become `error` and
   * `extraction:failed` events, never exceptions. `flush()` waits for the queue.
   */
  retainAsync(
    input: string | MemoryInput | ReadonlyArray<string | MemoryInput> | ConversationInput,
    options?: RetainOptions,
  ): void;
}

/**
 * The retain feature over an engine: its steps (parse, prepare, store, publish) and
 * operations are modules of their own under `steps/`, given retain's context.
 */
export function createRetainApi(engine: MemoryEngine, settings: RetainSettings): RetainApi {
  const ctx = createRetainContext(engine, settings);
  const conversationContext = conversationContextOf(ctx);
  const retainAny = (input: unknown, options?: unknown) => retain(ctx, conversationContext, input, options);
  return {
    ...drained<AsyncMembers<RetainApi>>({
      retain: retainAny as RetainApi['retain'],
      reextract: (target) => reextract(ctx, conversationContext, target),
    }),
    retainAsync: (input, options) => retainAsync(ctx, input, options, () => retainAny(input, options)),
  };
}
