/** Reading kept conversation turns again with the client's current model (`reextract`). */
import { z } from 'zod';
import { TRANSCRIPT_CATEGORY } from '../../conversation/conversation-input.js';
import type { MemorySkippedEvent } from '../../engine/events.js';
import { isProtected } from '../../retention/protection.js';
import { fingerprintOf } from '../../shared/memory-builder.js';
import { NotFoundError, ValidationError } from '../../spec/errors.js';
import type { Memory } from '../../spec/memory.js';
import type { MemoryRecord } from '../../spec/store.js';
import { memoryPages } from '../../utils/pages.js';
import type { TranscriptToExtract } from './extraction-pipeline.js';
import { type ConversationContext, commit, extractSafely, records } from './retain-conversation.js';

const idField = z.string().trim().min(1, 'expected a non-empty id').max(256);

/** What `reextract` accepts: one session, or one kept episode (and the rest of its conversation). */
export const reextractTargetSchema = z
  .object({
    /** Every conversation of this session whose turns were kept. */
    sessionId: idField.optional(),
    /** The conversation one kept episode or transcript memory belongs to (any of its chunks). */
    episodeId: idField.optional(),
  })
  .strict()
  .refine((target) => (target.sessionId === undefined) !== (target.episodeId === undefined), {
    message: 'expected exactly one of sessionId or episodeId',
  });

/**
 * What to extract again: `{ sessionId }` or `{ episodeId }`.
 *
 * @group Retain
 */
export type ReextractTarget = z.input<typeof reextractTargetSchema>;

/**
 * What `reextract` did.
 *
 * @group Retain
 */
export interface ReextractResult {
  /** Conversations whose kept turns were read again. */
  conversations: number;
  /** Memories extracted this time. */
  created: Memory[];
  /** Stored memories new information was merged into, as they are now. */
  merged: Memory[];
  /** Ids of the memories the earlier extraction made, now invalidated (kept, with `validTo` and a reason). */
  invalidated: string[];
  /** Ids of earlier extracted memories left valid because someone kept them (bookmarked or `manual_save`). */
  kept: string[];
  /** Candidates not stored, and why. */
  skipped: MemorySkippedEvent[];
  /** Why extraction failed for a conversation, when it did; that conversation is left exactly as it was. */
  failure: string | null;
}

/** The kept memories of one conversation: its episode chunks, oldest words first. */
interface KeptConversation {
  key: string;
  chunks: Memory[];
}

const isConversationEpisode = (memory: Memory) =>
  memory.metadata.episode === true &&
  Array.isArray(memory.metadata.messageIds) &&
  memory.metadata.procedureReflection !== true;
const conversationKey = (memory: Memory) =>
  typeof memory.metadata.conversationId === 'string' ? memory.metadata.conversationId : memory.id;
const firstMessage = (memory: Memory) => {
  const range = memory.metadata.messages;
  return Array.isArray(range) && typeof range[0] === 'number' ? range[0] : 0;
};

/** The text the model reads: the kept chunks in order, cut to the newest `maxChars` at a line break. */
function keptTranscript(
  chunks: readonly Memory[],
  maxChars: number,
): { transcript: TranscriptToExtract; whole: boolean } {
  let text = chunks.map((chunk) => chunk.content).join('\n');
  const whole = text.length <= maxChars;
  if (!whole) {
    const tail = text.slice(text.length - maxChars);
    const lineStart = tail.indexOf('\n');
    text = lineStart >= 0 && lineStart < tail.length - 1 ? tail.slice(lineStart + 1) : tail;
  }
  const messageIds = chunks.flatMap((chunk) =>
    (chunk.metadata.messageIds as unknown[]).filter((id): id is string => typeof id === 'string'),
  );
  const userName = chunks.map((chunk) => chunk.metadata.userName).find((name) => typeof name === 'string');
  return {
    transcript: { text, messageIds, unsent: 0, ...(typeof userName === 'string' ? { userName } : {}) },
    whole,
  };
}

/** Find the kept conversations a target names, inside the client's scope only. */
export async function keptConversations(
  target: z.output<typeof reextractTargetSchema>,
  context: ConversationContext,
  inScope: (ids: readonly string[]) => Promise<Memory[]>,
): Promise<KeptConversation[]> {
  const scope = context.scope ?? {};
  let sessionId: string | undefined = target.sessionId;
  let key: string | undefined;
  if (target.episodeId !== undefined) {
    const [episode] = await inScope([target.episodeId]);
    if (!episode || !isConversationEpisode(episode)) {
      throw new NotFoundError('conversation episode', target.episodeId, {
        component: 'reextract',
        suggestion: 'Pass the id of a memory retain({ messages }) kept (result.transcriptIds or result.episodeIds).',
      });
    }
    key = conversationKey(episode);
    sessionId = episode.sessionId ?? undefined;
  }
  const groups = new Map<string, Memory[]>();
  const filter = { scope, kinds: ['experience' as const], ...(sessionId === undefined ? {} : { sessionId }) };
  for await (const page of memoryPages(context.store, filter)) {
    for (const memory of page) {
      if (!isConversationEpisode(memory)) continue;
      const own = conversationKey(memory);
      if (key !== undefined && own !== key) continue;
      groups.set(own, [...(groups.get(own) ?? []), memory]);
    }
  }
  return [...groups].map(([group, chunks]) => ({
    key: group,
    chunks: chunks.sort((a, b) => firstMessage(a) - firstMessage(b) || a.createdAt.localeCompare(b.createdAt)),
  }));
}

/**
 * Extract one kept conversation again and write the result: the new memories, the earlier
 * extraction invalidated (unless someone kept a memory of it), and the kept chunks marked as
 * transcripts when the model read all of them. Nothing is written when extraction fails.
 */
export async function reextractConversation(
  conversation: KeptConversation,
  context: ConversationContext,
): Promise<Omit<ReextractResult, 'conversations'>> {
  const { store } = context;
  const model = context.model!;
  const now = context.now();
  const [first] = conversation.chunks;
  const scope = first!.scope;
  const sessionId = first!.sessionId;
  const earlier: Memory[] = [];
  const filter = { scope, validAt: now, ...(sessionId === null ? {} : { sessionId }) };
  for await (const page of memoryPages(store, filter)) {
    for (const memory of page) {
      if (memory.metadata.episode !== true && memory.metadata.conversationId === conversation.key) earlier.push(memory);
    }
  }
  const { transcript, whole } = keptTranscript(conversation.chunks, context.settings.maxChars);
  const outcome = await extractSafely(
    transcript,
    { scope, sessionId, occurredAt: first!.occurredAt, exclude: new Set(earlier.map((memory) => memory.id)) },
    { ...context, store },
    model,
    now,
  );
  const unchanged = { created: [], merged: [], invalidated: [], kept: [], skipped: outcome.skipped };
  if (outcome.failure !== null) return { ...unchanged, failure: outcome.failure };

  const episodeIds = conversation.chunks.map((chunk) => chunk.id);
  for (const create of outcome.creates) {
    create.memory = {
      ...create.memory,
      metadata: { ...create.memory.metadata, conversationId: conversation.key, episodeIds, reextractedAt: now },
    };
  }
  // Soft: the earlier extraction stays listed (includeInvalid), with why it stopped holding.
  const replaced = earlier.filter((memory) => !isProtected(memory));
  const kept = earlier.filter((memory) => isProtected(memory)).map((memory) => memory.id);
  const ids = [...replaced, ...conversation.chunks].map((memory) => memory.id);
  const vectors = await store.getEmbeddings(ids);
  const rewritten: MemoryRecord[] = replaced.map((memory) => ({
    memory: {
      ...memory,
      validTo: now,
      invalidationReason: `re-extracted from its conversation by ${model.id}`,
      updatedAt: now,
    },
    embedding: vectors.get(memory.id) ?? null,
  }));
  // Chunks kept because extraction failed earlier now sit beside what was extracted from them.
  if (whole) {
    for (const chunk of conversation.chunks) {
      if (chunk.category === TRANSCRIPT_CATEGORY) continue;
      const next: Memory = {
        ...chunk,
        category: TRANSCRIPT_CATEGORY,
        metadata: { ...chunk.metadata, transcript: true, conversationId: conversation.key, extractedWith: model.id },
        updatedAt: now,
      };
      next.fingerprint = fingerprintOf(next);
      rewritten.push({ memory: next, embedding: vectors.get(chunk.id) ?? null });
    }
  }
  await commit(store, outcome, now, [], rewritten);
  if (context.journal) {
    // A workspace's Markdown follows: the new facts appended, the replaced ones rewritten as invalid.
    const written = await context.journal.retained(outcome.creates.map((item) => item.memory));
    const byId = new Map(written.map((memory) => [memory.id, memory]));
    for (const create of outcome.creates) create.memory = byId.get(create.memory.id) ?? create.memory;
    await context.journal.changed([
      ...rewritten.map((record) => record.memory),
      ...outcome.merges.map((item) => item.memory),
    ]);
  }

  for (const skip of outcome.skipped) context.emit('memory:skipped', skip);
  for (const { memory } of outcome.creates) context.emit('memory:created', { memory });
  for (const { memory, previous } of outcome.merges) context.emit('memory:merged', { memory, previous });
  for (const record of rewritten.slice(0, replaced.length)) {
    context.emit('memory:invalidated', { memory: record.memory, reason: record.memory.invalidationReason ?? '' });
  }
  const created = outcome.creates.map((item) => item.memory);
  if (created.length > 0) context.emit('memory:retained', { memories: created });
  const unembedded = records(outcome).filter((record) => record.embedding === null);
  if (unembedded.length > 0) {
    context.deferEmbeddings(
      unembedded.map((record) => record.memory.id),
      outcome.embedFailure ?? 'the embedder gave no vector',
    );
  }
  return {
    created,
    merged: outcome.merges.map((item) => item.memory),
    invalidated: replaced.map((memory) => memory.id),
    kept,
    skipped: outcome.skipped,
    failure: null,
  };
}

/** Refuses a reextract on a client without a model to extract with. */
export function requireModel(context: ConversationContext): void {
  if (!context.model) {
    throw new ValidationError(
      [{ field: 'languageModel', message: 'reextract needs a languageModel on the client to extract with' }],
      {
        component: 'reextract',
        suggestion: 'Create the client with a languageModel (e.g. from memoir/openai).',
        hint: { code: 'language-model' },
      },
    );
  }
}
