import type { MemoirEvents, MemorySkippedEvent } from '../../engine/events.js';
import type { PipelineStats } from '../../engine/pipeline-stats.js';
import { applyTallies } from '../../memories/record-tallies.js';
import type { Embedder } from '../../spec/embedder.js';
import type { LanguageModel } from '../../spec/language-model.js';
import type { Memory, MemoryInput, Scope } from '../../spec/memory.js';
import type { Logger } from '../../spec/runtime.js';
import type { MemoryStore } from '../../spec/store.js';
import { fullTranscript, type ParsedConversation } from './conversation-input.js';
import { deterministicFacts } from './deterministic-facts.js';
import { type ExtractionOutcome, type ExtractionSettings, runExtraction } from './extraction-pipeline.js';

/** What `retain({ messages })` resolves to. */
export interface ConversationRetainResult {
  /** Ids of the memories created or merged into, in that order. */
  ids: string[];
  /** Memories created (including an episode, when one was kept). */
  memories: Memory[];
  /** Stored memories that new information was merged into, as they are now. */
  merged: Memory[];
  /** Candidates not stored, and why. */
  skipped: MemorySkippedEvent[];
  /** The episode keeping the raw conversation, when extraction did not run or failed. */
  episodeId: string | null;
  /** Why extraction failed, when it did. */
  failure: string | null;
}

/** The client's parts the conversation path uses. */
export interface ConversationContext {
  store: MemoryStore;
  embedder: Embedder;
  model: LanguageModel | undefined;
  settings: ExtractionSettings;
  stats: PipelineStats;
  logger: Logger;
  scope: Scope | undefined;
  sessionId: string | undefined;
  now: () => string;
  newId: () => string;
  embed: (texts: string[]) => Promise<Float32Array[]>;
  /** The client's own batch retain: validation, embedding and one transaction. */
  retainMemories: (inputs: MemoryInput[]) => Promise<{ ids: string[]; memories: Memory[] }>;
  emit: <E extends keyof MemoirEvents>(event: E, ...args: Parameters<MemoirEvents[E]>) => void;
}

/**
 * Learn from a finished conversation. With a model: extract, deduplicate and merge. Without
 * one, or when guards or the model fail: keep the conversation as an experience episode
 * (plus facts simple rules find), so nothing said is lost. Never rejects for model trouble.
 */
export async function retainConversation(
  conversation: ParsedConversation,
  context: ConversationContext,
): Promise<ConversationRetainResult> {
  const now = context.now();
  const scope = conversation.scope ?? context.scope ?? {};
  const sessionId = conversation.sessionId ?? context.sessionId ?? null;
  const occurredAt = conversation.occurredAt ?? now;
  const messageIds = conversation.messages.flatMap((message) => (message.id ? [message.id] : []));
  const placed = { scope, ...(sessionId ? { sessionId } : {}), occurredAt };

  const keepEpisode = async (reason: string, withFacts: boolean): Promise<ConversationRetainResult> => {
    const episode: MemoryInput = {
      content: fullTranscript(conversation),
      kind: 'experience',
      category: 'events',
      ...placed,
      metadata: { episode: true, reason, success: conversation.success, messageIds },
    };
    const facts = withFacts ? deterministicFacts(conversation).map((fact) => ({ ...fact, ...placed })) : [];
    const stored = await context.retainMemories([episode, ...facts]);
    return {
      ids: stored.ids,
      memories: stored.memories,
      merged: [],
      skipped: [],
      episodeId: stored.ids[0] ?? null,
      failure: null,
    };
  };

  if (!context.model) return keepEpisode('no language model is configured', true);
  if (!conversation.success) return skipByGuard('the run did not succeed', keepEpisode, context);
  if (conversation.messages.length < context.settings.minMessages) {
    return skipByGuard(
      `${conversation.messages.length} message(s); extraction needs at least ${context.settings.minMessages}`,
      keepEpisode,
      context,
    );
  }

  let outcome: ExtractionOutcome;
  try {
    outcome = await runExtraction(
      conversation,
      { scope, sessionId, occurredAt },
      {
        store: context.store,
        embedder: context.embedder,
        model: context.model,
        settings: context.settings,
        stats: context.stats,
        logger: context.logger,
        now,
        newId: context.newId,
        embed: context.embed,
      },
    );
  } catch (error) {
    // The pipeline itself should not throw; if it does, the conversation is still kept.
    outcome = { creates: [], merges: [], skipped: [], failure: error instanceof Error ? error.message : String(error) };
  }
  if (outcome.failure !== null) {
    const failure = outcome.failure;
    const kept = await keepEpisode(`extraction failed: ${failure}`, true);
    context.emit('extraction:failed', { reason: failure, episodeId: kept.episodeId ?? '', sessionId });
    return { ...kept, failure };
  }

  const { store } = context;
  await store.transaction(async () => {
    const records = [...outcome.creates, ...outcome.merges];
    if (records.length > 0) await store.upsertMemories(records);
    if (outcome.creates.length > 0)
      await applyTallies(
        store,
        outcome.creates.map((item) => item.memory),
        1,
        now,
      );
    for (const merge of outcome.merges) {
      await applyTallies(store, [merge.previous], -1, now);
      await applyTallies(store, [merge.memory], 1, now);
    }
  });
  for (const skip of outcome.skipped) context.emit('memory:skipped', skip);
  for (const { memory } of outcome.creates) context.emit('memory:created', { memory });
  for (const { memory, previous } of outcome.merges) context.emit('memory:merged', { memory, previous });
  const memories = outcome.creates.map((item) => item.memory);
  if (memories.length > 0) context.emit('memory:retained', { memories });
  const merged = outcome.merges.map((item) => item.memory);
  return {
    ids: [...memories, ...merged].map((memory) => memory.id),
    memories,
    merged,
    skipped: outcome.skipped,
    episodeId: null,
    failure: null,
  };
}

async function skipByGuard(
  detail: string,
  keepEpisode: (reason: string, withFacts: boolean) => Promise<ConversationRetainResult>,
  context: ConversationContext,
): Promise<ConversationRetainResult> {
  const skip: MemorySkippedEvent = { index: 0, reason: 'guard', detail: `not extracted: ${detail}` };
  context.emit('memory:skipped', skip);
  const kept = await keepEpisode(`not extracted: ${detail}`, false);
  return { ...kept, skipped: [skip] };
}
