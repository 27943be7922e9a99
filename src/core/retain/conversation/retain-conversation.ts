import {
  type ParsedConversation,
  TRANSCRIPT_CATEGORY,
  transcriptChunks,
} from '../../conversation/conversation-input.js';
import type { MemoirEvents, MemorySkippedEvent } from '../../engine/events.js';
import type { PipelineStats } from '../../engine/pipeline-stats.js';
import { buildMemory } from '../../shared/memory-builder.js';
import { applyTallies } from '../../shared/record-tallies.js';
import type { Embedder } from '../../spec/embedder.js';
import { MemoirError, StoreError } from '../../spec/errors.js';
import type { LanguageModel } from '../../spec/language-model.js';
import type { Memory, MemoryInput, Metadata, Scope } from '../../spec/memory.js';
import type { Logger } from '../../spec/runtime.js';
import type { MemoryRecord } from '../../spec/store.js';
import type { CoreStore } from '../../store/store-facade.js';
import { embeddingText } from '../../text/memory-text.js';
import type { WorkspaceJournal } from '../../workspace-format/workspace-journal.js';
import { conversationTurns } from './conversation-turns.js';
import { deterministicFacts } from './deterministic-facts.js';
import {
  type ExtractionOutcome,
  type ExtractionSettings,
  runExtraction,
  transcriptToExtract,
} from './extraction-pipeline.js';

/**
 * What `retain({ messages })` resolves to.
 *
 * @group Retain
 */
export interface ConversationRetainResult {
  /** Ids of the memories created or merged into, in that order (the turns are in `turnIds`). */
  ids: string[];
  /** Memories created (including an episode, when one was kept), but not the turns. */
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
  /**
   * When extraction succeeded: the memories keeping, word for word, the turns the model read
   * (category `transcript`, `metadata.episode: true`), the source every extracted memory
   * names in `metadata.episodeIds`. Whatever the model returned, nothing said is lost, and
   * `reextract` can read the turns again. Recall leaves transcripts out unless
   * `categories` asks for `'transcript'`; `list` and `export` show them. Empty otherwise.
   */
  transcriptIds: string[];
  /**
   * The memories keeping one turn each (category `conversation`, what recall returns for a
   * conversation), in message order: every user and assistant message with words, with the
   * speaker's name as an entity and its message id as source, indexed with its neighbours
   * across calls of the session.
   */
  turnIds: string[];
  /** Why extraction failed, when it did. */
  failure: string | null;
}

/** The client's parts the conversation path uses. */
export interface ConversationContext {
  store: CoreStore;
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
  /**
   * The client's own batch retain: validation, embedding (deferred when the embedder fails) and
   * one transaction. The first `turns` inputs are turns of the conversation.
   */
  retainMemories: (inputs: MemoryInput[], turns?: number) => Promise<{ ids: string[]; memories: Memory[] }>;
  /** A workspace client's Markdown, where what the model learned is written too. */
  journal?: WorkspaceJournal;
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

  // One id names the conversation on all it leaves (episodes, transcripts, extracted memories),
  // so `reextract` finds them together: the id of the first memory that keeps its words.
  let conversationId: string | undefined;
  const userName = conversation.messages.find((message) => message.role === 'user')?.name;
  const speakers = userName ? { userName } : {};

  const turns = conversationTurns(conversation, { scope, ...(sessionId ? { sessionId } : {}), occurredAt });

  // Messages `from` to `to` kept verbatim, in as many memories as their size takes, with the
  // conversation's turns unless they were already written.
  const keepEpisode = async (
    reason: string,
    withFacts: boolean,
    from = 0,
    to = conversation.messages.length,
    withTurns = true,
  ): Promise<ConversationRetainResult> => {
    const chunks = transcriptChunks(conversation, from, to);
    const ids = chunks.map(() => context.newId());
    conversationId ??= ids[0];
    const episodes: MemoryInput[] = chunks.map((chunk, part) => ({
      id: ids[part],
      content: chunk.text,
      kind: 'experience',
      category: TRANSCRIPT_CATEGORY,
      ...placed,
      metadata: {
        episode: true,
        transcript: true,
        reason,
        ...(conversationId ? { conversationId } : {}),
        ...speakers,
        success: conversation.success,
        messageIds: chunk.messageIds,
        // Where a partial episode sits in the conversation: chunk `part` of `parts`, messages [from, to).
        ...(chunks.length > 1 || from > 0 || to < conversation.messages.length
          ? { part: part + 1, parts: chunks.length, messages: [chunk.from, chunk.to] }
          : {}),
      },
    }));
    const facts = withFacts
      ? deterministicFacts(conversation).map((fact) => ({
          ...fact,
          ...placed,
          metadata: { ...fact.metadata, ...(conversationId ? { conversationId } : {}), episodeIds: ids },
        }))
      : [];
    const kept = withTurns ? turns : [];
    const stored = await context.retainMemories([...kept, ...episodes, ...facts], kept.length);
    const episodeIds = stored.ids.slice(kept.length, kept.length + episodes.length);
    const turnIds = new Set(stored.ids.slice(0, kept.length));
    return {
      ids: stored.ids.slice(kept.length),
      memories: stored.memories.filter((memory) => !turnIds.has(memory.id)),
      merged: [],
      skipped: [],
      episodeId: episodeIds[0] ?? null,
      episodeIds,
      transcriptIds: [],
      turnIds: [...turnIds],
      failure: null,
    };
  };

  const model = context.model;
  if (!model) return keepEpisode('no language model is configured', true);
  if (!conversation.success) return skipByGuard('the run did not succeed', keepEpisode, context);
  if (conversation.messages.length < context.settings.minMessages) {
    return skipByGuard(
      `${conversation.messages.length} message(s); extraction needs at least ${context.settings.minMessages}`,
      keepEpisode,
      context,
    );
  }

  const outcome = await extractSafely(
    transcriptToExtract(conversation, context.settings.maxChars),
    { scope, sessionId, occurredAt },
    context,
    model,
    now,
  );
  if (outcome.failure !== null) {
    const failure = outcome.failure;
    const kept = await keepEpisode(`extraction failed: ${failure}`, true);
    context.emit('extraction:failed', { reason: failure, episodeId: kept.episodeId ?? '', sessionId });
    return { ...kept, failure };
  }

  // The turns the model read are kept word for word beside what it extracted, in the same
  // transaction: a model steered by text inside the conversation (or simply wrong) cannot
  // make what was said unrecoverable, and `reextract` can read it again.
  const transcripts = await transcriptRecords(conversation, outcome, {
    context,
    now,
    scope,
    sessionId,
    occurredAt,
    speakers,
  });
  conversationId = transcripts[0]?.memory.id;
  const transcriptIds = transcripts.map((record) => record.memory.id);
  const source: Metadata = conversationId ? { conversationId, episodeIds: transcriptIds } : {};
  for (const create of outcome.creates) {
    create.memory = { ...create.memory, metadata: { ...create.memory.metadata, ...source } };
  }
  try {
    await commit(context.store, outcome, now, transcripts);
  } catch (error) {
    // What was learned could not be written; the conversation itself still may be.
    const failure = `storing what was learned failed: ${error instanceof Error ? error.message : String(error)}`;
    conversationId = undefined;
    const kept = await keepEpisode(failure, true);
    context.emit('extraction:failed', { reason: failure, episodeId: kept.episodeId ?? '', sessionId });
    return { ...kept, failure };
  }
  if (context.journal) {
    // What the model learned lands in the day's Markdown like any retained memory.
    const written = await context.journal.retained([
      ...outcome.creates.map((item) => item.memory),
      ...transcripts.map((record) => record.memory),
    ]);
    const byId = new Map(written.map((memory) => [memory.id, memory]));
    for (const create of outcome.creates) create.memory = byId.get(create.memory.id) ?? create.memory;
    await context.journal.changed(outcome.merges.map((item) => item.memory));
  }
  for (const skip of outcome.skipped) context.emit('memory:skipped', skip);
  for (const { memory } of outcome.creates) context.emit('memory:created', { memory });
  for (const { memory, previous } of outcome.merges) context.emit('memory:merged', { memory, previous });
  const unembedded = [...records(outcome), ...transcripts].filter((record) => record.embedding === null);
  if (unembedded.length > 0) {
    context.deferEmbeddings(
      unembedded.map((record) => record.memory.id),
      outcome.embedFailure ?? 'the embedder gave no vector',
    );
  }
  const memories = outcome.creates.map((item) => item.memory);
  if (memories.length + transcripts.length > 0) {
    context.emit('memory:retained', { memories: [...memories, ...transcripts.map((record) => record.memory)] });
  }
  const merged = outcome.merges.map((item) => item.memory);
  // What was said, turn by turn, beside what was learned from it.
  const said = await keepTurns(turns, context);
  const learned = {
    ids: [...memories, ...merged].map((memory) => memory.id),
    memories,
    merged,
    skipped: outcome.skipped,
    episodeId: null,
    episodeIds: [],
    transcriptIds,
    turnIds: said.ids,
    failure: null,
  };
  if (outcome.unsent === 0) return learned;

  // The model saw only the newest messages; the older ones are kept verbatim, not dropped.
  const detail = `not extracted: ${outcome.unsent} older message(s) beyond maxChars (${context.settings.maxChars})`;
  const older = await keepEpisode(detail, false, 0, outcome.unsent, false);
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

/**
 * Write the transcripts and the pipeline's creates and merges, and their tallies, in one
 * transaction; `rewritten` are stored memories changed in place (invalidated, recategorised),
 * whose tallies do not move.
 */
/**
 * Run the extraction pipeline with the conversation context's parts. The pipeline should not
 * throw; if it does, the outcome is a failure (and the caller keeps the raw turns).
 */
export async function extractSafely(
  transcript: Parameters<typeof runExtraction>[0],
  target: Parameters<typeof runExtraction>[1],
  context: ConversationContext,
  model: LanguageModel,
  now: string,
): Promise<ExtractionOutcome> {
  try {
    return await runExtraction(transcript, target, {
      store: context.store,
      embedder: context.embedder,
      model,
      settings: context.settings,
      stats: context.stats,
      logger: context.logger,
      now,
      newId: context.newId,
      embed: context.embed,
    });
  } catch (error) {
    const failure = error instanceof Error ? error.message : String(error);
    return { creates: [], merges: [], skipped: [], failure, unsent: 0, embedFailure: null };
  }
}

export async function commit(
  store: CoreStore,
  outcome: ExtractionOutcome,
  now: string,
  transcripts: readonly MemoryRecord[] = [],
  rewritten: readonly MemoryRecord[] = [],
): Promise<void> {
  await store.transaction(async () => {
    const written = [...transcripts, ...records(outcome), ...rewritten];
    if (written.length > 0) await store.upsertMemories(written);
    const created = [...transcripts, ...outcome.creates].map((item) => item.memory);
    if (created.length > 0) await applyTallies(store, created, 1, now);
    for (const merge of outcome.merges) {
      await applyTallies(store, [merge.previous], -1, now);
      await applyTallies(store, [merge.memory], 1, now);
    }
  });
}

/** The records an outcome writes: its creates, then its merges. */
export function records(outcome: ExtractionOutcome): Array<{ memory: Memory; embedding: Float32Array | null }> {
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

/**
 * The turns the model read (messages `unsent` onwards), as `transcript` memories ready to
 * write: kind `experience`, `metadata.episode: true`, split between messages like episodes.
 * Embedded when the embedder answers; otherwise stored without a vector and embedded later.
 */
async function transcriptRecords(
  conversation: ParsedConversation,
  outcome: ExtractionOutcome,
  placement: {
    context: ConversationContext;
    now: string;
    scope: Scope;
    sessionId: string | null;
    occurredAt: string;
    speakers: { userName?: string };
  },
): Promise<MemoryRecord[]> {
  const { context, now, scope, sessionId, occurredAt, speakers } = placement;
  const total = conversation.messages.length;
  const chunks = transcriptChunks(conversation, outcome.unsent, total);
  if (chunks.length === 0) return [];
  const ids = chunks.map(() => context.newId());
  const memories = chunks.map((chunk, part) =>
    buildMemory(
      {
        id: ids[part],
        content: chunk.text,
        kind: 'experience',
        category: TRANSCRIPT_CATEGORY,
        occurredAt,
        metadata: {
          episode: true,
          transcript: true,
          reason: 'the turns as said; the memories extracted from them name it in episodeIds',
          conversationId: ids[0]!,
          ...speakers,
          extractedWith: context.model?.id ?? null,
          success: conversation.success,
          messageIds: chunk.messageIds,
          ...(chunks.length > 1 || chunk.from > 0 || chunk.to < total
            ? { part: part + 1, parts: chunks.length, messages: [chunk.from, chunk.to] }
            : {}),
        },
      },
      { id: ids[part]!, now, scope, sessionId: sessionId ?? undefined },
    ),
  );
  let vectors: Float32Array[] = [];
  if (outcome.embedFailure === null) {
    try {
      vectors = await context.embed(memories.map(embeddingText));
    } catch (error) {
      outcome.embedFailure = error instanceof Error ? error.message : String(error);
    }
  }
  return memories.map((memory, index) => ({ memory, embedding: vectors[index] ?? null }));
}

/**
 * Write a conversation's turns after what was learned from it is stored. The transcript already
 * holds every word, so a failure here is reported (an `error` event and a warning), never thrown
 * into the caller's code.
 */
async function keepTurns(
  turns: MemoryInput[],
  context: ConversationContext,
): Promise<{ ids: string[]; memories: Memory[] }> {
  if (turns.length === 0) return { ids: [], memories: [] };
  try {
    return await context.retainMemories(turns, turns.length);
  } catch (error) {
    const cause = MemoirError.isInstance(error)
      ? error
      : new StoreError(error instanceof Error ? error.message : String(error), { component: 'retain', cause: error });
    context.logger.log(
      'warn',
      `the conversation's turns could not be stored; its transcript keeps them: ${cause.message}`,
    );
    context.emit('error', { operation: 'retain turns', error: cause, input: turns });
    return { ids: [], memories: [] };
  }
}
