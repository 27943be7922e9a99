import type { z } from 'zod';
import type { ParsedConversation } from '../../conversation/conversation-input.js';
import { recentTranscript } from '../../conversation/conversation-input.js';
import type { MemorySkippedEvent } from '../../engine/events.js';
import { type PipelineStats, recordStage } from '../../engine/pipeline-stats.js';
import { generateStructured } from '../../llm/model-json.js';
import {
  buildDedupPrompt,
  buildExtractionPrompt,
  buildMergePrompt,
  DEDUP_CONTRACT,
  dedupDecisionSchema,
  EXTRACTION_CONTRACT,
  extractionOutputSchema,
  type MEMORY_CATEGORIES,
  MERGE_CONTRACT,
  mergeOutputSchema,
} from '../../prompts/index.js';
import { searchVector } from '../../search/native-or-scan.js';
import { buildMemory, fingerprintOf, uniqueEntities } from '../../shared/memory-builder.js';
import type { Embedder } from '../../spec/embedder.js';
import type { LanguageModel } from '../../spec/language-model.js';
import type { Memory, MemoryKind, Scope } from '../../spec/memory.js';
import type { Logger } from '../../spec/runtime.js';
import type { CoreStore } from '../../store/store-facade.js';
import { embeddingText } from '../../text/memory-text.js';
import { dedupSimilarity } from './dedup-threshold.js';

/** Settings of the conversation pipeline. */
export interface ExtractionSettings {
  /** Fewest messages worth extracting from. */
  minMessages: number;
  /** Transcript characters sent to the model, newest kept. */
  maxChars: number;
  /** Cosine similarity from which a stored memory counts as a possible duplicate; default per embedder kind. */
  similarityThreshold?: number | undefined;
  /** Possible duplicates shown to the dedup decision. */
  maxMatches: number;
  /** Retries after an unusable model answer. */
  retries: number;
}

/** The text the model reads: the newest turns that fit in `maxChars`, as transcript lines. */
export interface TranscriptToExtract {
  /** The transcript, one line per message (`speaker: words`). */
  text: string;
  /** Ids of the messages in `text` that have one. */
  messageIds: string[];
  /** How many of the oldest messages are not in `text` (kept as an episode by the caller). */
  unsent: number;
  /** The user's name, when the conversation gives one. */
  userName?: string;
}

/** Where extracted memories go, and which stored memories the run must leave alone. */
export interface ExtractionTarget {
  /** Scope of the memories. */
  scope: Scope;
  /** Session of the memories. */
  sessionId: string | null;
  /** When the conversation happened. */
  occurredAt: string;
  /** Ids of memories this run replaces: never a duplicate or merge target. */
  exclude?: ReadonlySet<string>;
}

/** The newest turns of `conversation` that fit in `maxChars`, ready for {@link runExtraction}. */
export function transcriptToExtract(conversation: ParsedConversation, maxChars: number): TranscriptToExtract {
  const userName = conversation.messages.find((message) => message.role === 'user')?.name;
  return { ...recentTranscript(conversation, maxChars), ...(userName ? { userName } : {}) };
}

/** Everything the pipeline needs from the client. */
export interface PipelineContext {
  store: CoreStore;
  embedder: Embedder;
  model: LanguageModel;
  settings: ExtractionSettings;
  stats: PipelineStats;
  logger: Logger;
  now: string;
  newId: () => string;
  embed: (texts: string[]) => Promise<Float32Array[]>;
}

/** What the pipeline decided; the client writes it in one transaction. */
export interface ExtractionOutcome {
  /** New memories with their embeddings. */
  creates: Array<{ memory: Memory; embedding: Float32Array | null }>;
  /** Stored memories rewritten by a merge. */
  merges: Array<{ memory: Memory; previous: Memory; embedding: Float32Array | null }>;
  /** Candidates the dedup decision dropped. */
  skipped: MemorySkippedEvent[];
  /** Why extraction produced nothing usable; the conversation is then kept as an episode. */
  failure: string | null;
  /** How many of the oldest messages the model did not see whole (beyond `maxChars`); they are kept as an episode. */
  unsent: number;
  /** Why the embedder failed during the run, when it did; memories without an embedding are embedded later. */
  embedFailure: string | null;
}

type Category = (typeof MEMORY_CATEGORIES)[number];
type Candidate = { category: Category; abstract: string; overview: string; content: string; entities: string[] };

// The seed design lets only these categories merge; events and cases are distinct happenings.
const MERGEABLE: ReadonlySet<Category> = new Set(['preferences', 'entities', 'patterns']);

const KIND_OF: Record<Category, MemoryKind> = {
  profile: 'world',
  preferences: 'opinion',
  entities: 'world',
  events: 'world',
  cases: 'experience',
  patterns: 'observation',
};

function mergedMemory(
  existing: Memory,
  merged: Omit<Candidate, 'category' | 'entities'>,
  extra: Candidate,
  context: PipelineContext,
  messageIds: string[],
  sessionId: string | null,
): Memory {
  const previousHistory = Array.isArray(existing.metadata.history) ? existing.metadata.history : [];
  const previousIds = Array.isArray(existing.metadata.messageIds) ? existing.metadata.messageIds : [];
  const next: Memory = {
    ...existing,
    abstract: merged.abstract,
    overview: merged.overview || null,
    content: merged.content,
    entities: uniqueEntities([...existing.entities, ...extra.entities]),
    updatedAt: context.now,
    metadata: {
      ...existing.metadata,
      // The tiers as they were before, so a merge can be audited or undone.
      history: [
        ...previousHistory,
        {
          at: context.now,
          sessionId,
          abstract: existing.abstract,
          overview: existing.overview,
          content: existing.content,
        },
      ],
      messageIds: [...new Set([...previousIds.map(String), ...messageIds])],
    },
  };
  next.fingerprint = fingerprintOf(next);
  return next;
}

/**
 * Extract candidates from a conversation and decide, for each, create / merge / skip.
 * Never throws: a failure of the extraction call is returned as `failure`, and failures
 * of later calls fall back to creating the candidate, so nothing extracted is lost.
 */
export async function runExtraction(
  transcript: TranscriptToExtract,
  target: ExtractionTarget,
  context: PipelineContext,
): Promise<ExtractionOutcome> {
  const { text, messageIds, unsent, userName } = transcript;
  // Memories being replaced (by `reextract`) are neither duplicates nor merge targets.
  const excluded = (id: string) => target.exclude?.has(id) ?? false;
  const outcome: ExtractionOutcome = {
    creates: [],
    merges: [],
    skipped: [],
    failure: null,
    unsent,
    embedFailure: null,
  };
  const extraction = await askModel(
    context,
    'extract',
    buildExtractionPrompt({ conversation: text, userName, now: target.occurredAt }),
    extractionOutputSchema,
    EXTRACTION_CONTRACT,
  );
  if (!extraction.ok) {
    outcome.failure = extraction.error;
    return outcome;
  }
  if (extraction.value.memories.length === 0) {
    // Nothing learned means nothing covers the conversation: it is kept whole instead.
    outcome.failure = 'the model extracted no memories from the conversation';
    return outcome;
  }
  const embedOne = embedderOf(context, outcome);

  const build = (candidate: Candidate): Memory =>
    buildMemory(
      {
        content: candidate.content,
        abstract: candidate.abstract,
        overview: candidate.overview || undefined,
        kind: KIND_OF[candidate.category],
        category: candidate.category,
        entities: candidate.entities,
        occurredAt: target.occurredAt,
        ...(messageIds.length > 0 ? { source: { messageId: messageIds[messageIds.length - 1]! } } : {}),
        metadata: { extractedBy: context.model.id, messageIds },
      },
      { id: context.newId(), now: context.now, scope: target.scope, sessionId: target.sessionId ?? undefined },
    );
  // Which stored memories the model is asked about: per embedder kind unless configured.
  const threshold = dedupSimilarity(context.embedder, context.settings.similarityThreshold);
  // Memories this run has already rewritten, so a second merge into one builds on the first.
  const rewritten = new Map<string, { memory: Memory; previous: Memory; embedding: Float32Array | null }>();

  const merge = async (existing: Memory, candidate: Candidate): Promise<boolean> => {
    const current = rewritten.get(existing.id)?.memory ?? existing;
    const result = await askModel(
      context,
      'merge',
      buildMergePrompt({ category: candidate.category, existing: current, incoming: candidate }),
      mergeOutputSchema,
      MERGE_CONTRACT,
    );
    if (!result.ok) {
      context.logger.log(
        'warn',
        `merge into ${existing.id} failed (${result.error}); keeping the candidate as a new memory`,
      );
      return false;
    }
    const next = mergedMemory(current, result.value, candidate, context, messageIds, target.sessionId);
    rewritten.set(existing.id, {
      memory: next,
      previous: rewritten.get(existing.id)?.previous ?? existing,
      embedding: await embedOne(embeddingText(next)),
    });
    return true;
  };

  for (const [index, candidate] of extraction.value.memories.entries()) {
    if (candidate.category === 'profile') {
      // One profile per scope: every profile candidate merges into it, never dedups.
      const profiles = await context.store.listMemories({
        filter: { scope: target.scope, categories: ['profile'], validAt: context.now },
        orderBy: 'createdAt',
        direction: 'asc',
        limit: 1 + (target.exclude?.size ?? 0),
      });
      const profile = profiles.find((item) => !excluded(item.id));
      const exact = profile && profileScopeEquals(profile.scope, target.scope) ? profile : undefined;
      if (exact && (await merge(exact, candidate))) continue;
      const memory = build(candidate);
      outcome.creates.push({ memory, embedding: await embedOne(embeddingText(memory)) });
      continue;
    }

    const memory = build(candidate);
    // Without an embedding there is no pre-filter: the candidate is created, never dropped.
    const embedding = await embedOne(embeddingText(memory));
    const sameKind = { scope: target.scope, categories: [candidate.category], validAt: context.now };
    const nearest = !embedding
      ? []
      : await searchVector(context.store, { vector: embedding, filter: sameKind, limit: context.settings.maxMatches });
    const matches = nearest.filter((hit) => hit.score >= threshold && !excluded(hit.id));
    if (matches.length === 0) {
      outcome.creates.push({ memory, embedding });
      continue;
    }
    const existing = await context.store.getMemories(matches.map((hit) => hit.id));
    const decision = await askModel(
      context,
      'dedup',
      buildDedupPrompt({
        candidate,
        existing: existing.map((item) => ({
          id: item.id,
          abstract: rewritten.get(item.id)?.memory.abstract ?? item.abstract,
          overview: rewritten.get(item.id)?.memory.overview ?? item.overview ?? '',
          content: rewritten.get(item.id)?.memory.content ?? item.content,
          similarity: matches.find((hit) => hit.id === item.id)?.score ?? 0,
        })),
      }),
      dedupDecisionSchema,
      DEDUP_CONTRACT,
    );
    if (!decision.ok) {
      context.logger.log('warn', `dedup decision failed (${decision.error}); creating the candidate`);
      outcome.creates.push({ memory, embedding });
      continue;
    }
    const { decision: verdict, targetId, reason } = decision.value;
    // A decision may only name a memory among the matches shown (all of this scope); a
    // decision naming anything else is not followed, and the candidate is kept.
    const named = targetId === undefined ? undefined : existing.find((item) => item.id === targetId);
    const stray = targetId !== undefined && !named;
    if (stray) {
      const note = `${verdict} named ${JSON.stringify(targetId)}, not one of the matches shown; created instead`;
      context.logger.log('warn', note, { reason });
      // `decision` on the memory says why the model's decision was not followed.
      outcome.creates.push({ memory: { ...memory, metadata: { ...memory.metadata, decision: note } }, embedding });
      continue;
    }
    if (verdict === 'SKIP') {
      outcome.skipped.push({
        index,
        reason: 'duplicate',
        detail: `the model judged it a duplicate: ${reason}`,
        existingId: named?.id ?? existing[0]?.id,
      });
      continue;
    }
    if (verdict === 'MERGE') {
      if (!MERGEABLE.has(candidate.category)) {
        context.logger.log('info', `MERGE refused for category ${candidate.category}; creating instead`, { reason });
      } else if (!named) {
        context.logger.log('warn', 'MERGE named no memory; creating instead');
      } else if (await merge(named, candidate)) {
        continue;
      }
    }
    outcome.creates.push({ memory, embedding });
  }
  outcome.merges = [...rewritten.values()];
  return outcome;
}

/** One structured model call, with its cost recorded against a pipeline stage. */
async function askModel<T>(
  context: PipelineContext,
  stage: 'extract' | 'dedup' | 'merge',
  request: Parameters<typeof generateStructured>[1],
  schema: z.ZodType<T>,
  contract: string,
) {
  const result = await generateStructured(context.model, request, schema, {
    retries: context.settings.retries,
    contract,
  });
  recordStage(context.stats, stage, { calls: result.attempts, usage: result.usage, ms: result.ms, failed: !result.ok });
  return result;
}

function profileScopeEquals(a: Scope, b: Scope): boolean {
  return a.agentId === b.agentId && a.userId === b.userId && a.namespace === b.namespace;
}

/**
 * Embeds one text for the run, recording the cost. When the embedder fails, the run goes on
 * without it (each later call would fail the same way): null vectors, and the failure noted
 * in the outcome so the memories are embedded later.
 */
function embedderOf(context: PipelineContext, outcome: ExtractionOutcome) {
  return async (text: string): Promise<Float32Array | null> => {
    if (outcome.embedFailure !== null) return null;
    const started = performance.now();
    try {
      const [vector] = await context.embed([text]);
      recordStage(context.stats, 'embed', { calls: 1, ms: performance.now() - started });
      return vector ?? null;
    } catch (error) {
      recordStage(context.stats, 'embed', { calls: 1, ms: performance.now() - started, failed: true });
      outcome.embedFailure = error instanceof Error ? error.message : String(error);
      context.logger.log('warn', `embedding failed (${outcome.embedFailure}); storing without embeddings`);
      return null;
    }
  };
}
