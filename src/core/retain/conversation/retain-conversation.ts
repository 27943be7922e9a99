import type { MemoirEvents, MemorySkippedEvent } from '../../engine/events.js';
import type { PipelineStats } from '../../engine/pipeline-stats.js';
import { applyTallies } from '../../memories/record-tallies.js';
import type { Embedder } from '../../spec/embedder.js';
import type { LanguageModel } from '../../spec/language-model.js';
import type { Memory, MemoryInput, Scope } from '../../spec/memory.js';
import type { Logger } from '../../spec/runtime.js';
import type { MemoryStore } from '../../spec/store.js';
import { type ParsedConversation, transcriptChunks } from './conversation-input.js';
import { deterministicFacts } from './deterministic-facts.js';
import { type ExtractionOutcome, type ExtractionSettings, runExtraction } from './extraction-pipeline.js';

/**
 * What `retain({ messages })` resolves to.
 *
 * @group Retain
 */
export interface ConversationRetainResult {
  /** Ids of the memories created or merged into, in that order. */
  ids: string[];
  /** Memories created (including an episode, when one was kept). */
  memories: Memory[];
  /** Stored memories that new information was merged into, as they are now. */
  merged: Memory[];
  /** Candidates not stored, and why. */
  skipped: MemorySkippedEvent[];
  /**
   * The episode keeping the raw conversation: all of it when extraction did not run or
   * failed, or the older messages the model did not see (beyond `maxChars`). The first
   * chunk when the episode took several memories.
   */
  episodeId: string | null;
  /** Every memory of the episode, oldest messages first (a long conversation is kept in chunks). */
  episodeIds: string[];
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
  /** The client's own batch retain: validation, embedding (deferred when the embedder fails) and one transaction. */
  retainMemories: (inputs: MemoryInput[]) => Promise<{ ids: string[]; memories: Memory[] }>;
  /** Announce memories stored without an embedding, to be embedded later. */
  deferEmbeddings: (ids: string[], reason: string) => void;
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
  const placed = { scope, ...(sessionId ? { sessionId } : {}), occurredAt };

  // Messages `from` to `to` kept verbatim, in as many memories as their size takes.
  const keepEpisode = async (
    reason: string,
    withFacts: boolean,
    from = 0,
    to = conversation.messages.length,
  ): Promise<ConversationRetainResult> => {
    const chunks = transcriptChunks(conversation, from, to);
    const episodes: MemoryInput[] = chunks.map((chunk, part) => ({
      content: chunk.text,
      kind: 'experience',
      category: 'events',
      ...placed,
      metadata: {
        episode: true,
        reason,
        success: conversation.success,
        messageIds: chunk.messageIds,
        // Where a partial episode sits in the conversation: chunk `part` of `parts`, messages [from, to).
        ...(chunks.length > 1 || from > 0 || to < conversation.messages.length
          ? { part: part + 1, parts: chunks.length, messages: [chunk.from, chunk.to] }
          : {}),
      },
    }));
    const facts = withFacts ? deterministicFacts(conversation).map((fact) => ({ ...fact, ...placed })) : [];
    const stored = await context.retainMemories([...episodes, ...facts]);
    const episodeIds = stored.ids.slice(0, episodes.length);
    return {
      ids: stored.ids,
      memories: stored.memories,
      merged: [],
      skipped: [],
      episodeId: episodeIds[0] ?? null,
      episodeIds,
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
    const failure = error instanceof Error ? error.message : String(error);
    outcome = { creates: [], merges: [], skipped: [], failure, unsent: 0, embedFailure: null };
  }
  if (outcome.failure !== null) {
    const failure = outcome.failure;
    const kept = await keepEpisode(`extraction failed: ${failure}`, true);
    context.emit('extraction:failed', { reason: failure, episodeId: kept.episodeId ?? '', sessionId });
    return { ...kept, failure };
  }

  try {
    await commit(context.store, outcome, now);
  } catch (error) {
    // What was learned could not be written; the conversation itself still may be.
    const failure = `storing what was learned failed: ${error instanceof Error ? error.message : String(error)}`;
    const kept = await keepEpisode(failure, true);
    context.emit('extraction:failed', { reason: failure, episodeId: kept.episodeId ?? '', sessionId });
    return { ...kept, failure };
  }
  for (const skip of outcome.skipped) context.emit('memory:skipped', skip);
  for (const { memory } of outcome.creates) context.emit('memory:created', { memory });
  for (const { memory, previous } of outcome.merges) context.emit('memory:merged', { memory, previous });
  const unembedded = records(outcome).filter((record) => record.embedding === null);
  if (unembedded.length > 0) {
    context.deferEmbeddings(
      unembedded.map((record) => record.memory.id),
      outcome.embedFailure ?? 'the embedder gave no vector',
    );
  }
  const memories = outcome.creates.map((item) => item.memory);
  if (memories.length > 0) context.emit('memory:retained', { memories });
  const merged = outcome.merges.map((item) => item.memory);
  const learned = {
    ids: [...memories, ...merged].map((memory) => memory.id),
    memories,
    merged,
    skipped: outcome.skipped,
    episodeId: null,
    episodeIds: [],
    failure: null,
  };
  if (outcome.unsent === 0) return learned;

  // The model saw only the newest messages; the older ones are kept verbatim, not dropped.
  const detail = `not extracted: ${outcome.unsent} older message(s) beyond maxChars (${context.settings.maxChars})`;
  const older = await keepEpisode(detail, false, 0, outcome.unsent);
  const skip: MemorySkippedEvent = { index: 0, reason: 'guard', detail: `${detail}; kept as an episode` };
  context.emit('memory:skipped', skip);
  return {
    ...learned,
    ids: [...learned.ids, ...older.ids],
    memories: [...memories, ...older.memories],
    skipped: [...learned.skipped, skip],
    episodeId: older.episodeId,
    episodeIds: older.episodeIds,
  };
}

/** Write the pipeline's creates and merges, and their tallies, in one transaction. */
async function commit(store: MemoryStore, outcome: ExtractionOutcome, now: string): Promise<void> {
  await store.transaction(async () => {
    const written = records(outcome);
    if (written.length > 0) await store.upsertMemories(written);
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
}

function records(outcome: ExtractionOutcome): Array<{ memory: Memory; embedding: Float32Array | null }> {
  return [...outcome.creates, ...outcome.merges];
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
