import type { z } from 'zod';
import {
  type ConversationInput,
  conversationInputSchema,
  isConversationInput,
} from '../conversation/conversation-input.js';
import { TURN_WINDOW } from '../conversation/session-turns.js';
import { pendingEmbeddings } from '../embeddings/pending-embeddings.js';
import type { MemorySkippedEvent } from '../engine/events.js';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import { evictForRoom } from '../retention/eviction.js';
import type { RetentionOrigin } from '../retention/protection.js';
import { withSuperseded } from '../search/memory-versions.js';
import { scopeForWrite } from '../search/scope-boundary.js';
import { buildMemory } from '../shared/memory-builder.js';
import { applyTallies } from '../shared/record-tallies.js';
import { memoriesInScope } from '../shared/require-memory.js';
import { ValidationError } from '../spec/errors.js';
import { type MemoryInput, memoryInputSchema, type Scope } from '../spec/memory.js';
import type { MemoryRecord } from '../spec/store.js';
import { batchClaims, findRuleSupersessions, loadClaimReader } from '../supersession/find-supersessions.js';
import { embeddingText } from '../text/memory-text.js';
import { MAX_BATCH } from '../utils/common-schemas.js';
import { parseInput } from '../utils/validate.js';
import type { WorkspaceJournal } from '../workspace-format/workspace-journal.js';
import type { ParsedExtractionOptions } from './conversation/extraction-options.js';
import {
  keptConversations,
  type ReextractResult,
  type ReextractTarget,
  reextractConversation,
  reextractTargetSchema,
  requireModel,
} from './conversation/reextract.js';
import {
  type ConversationContext,
  type ConversationRetainResult,
  retainConversation,
} from './conversation/retain-conversation.js';
import { correctionsByModel } from './model-corrections.js';
import { addNeighbourContext } from './neighbour-context.js';
import { type RetainOptions, type RetainResult, retainOptionsSchema } from './retain-options.js';
import { supersededRecords } from './supersede.js';

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

/** What retain needs from createMemory's options. */
export interface RetainSettings {
  /** Conversation pipeline settings. */
  extraction: ParsedExtractionOptions;
  /** Most memories to keep; storing beyond it evicts the lowest-ranked ones that may expire. */
  maxMemories: number | undefined;
  /** Which memories eviction may delete, by origin (as for cleanup). */
  retentionAppliesTo: readonly RetentionOrigin[];
  /** A workspace client's Markdown: what is retained is written there and indexed from it. */
  journal?: WorkspaceJournal;
}

// Inputs are parsed and placed inside the client's scope before anything is written.
function parseRetainInputs(input: unknown, clientScope: Scope | undefined): z.output<typeof memoryInputSchema>[] {
  const single = !Array.isArray(input);
  const items: unknown[] = single ? [input] : (input as unknown[]);
  if (items.length === 0 || items.length > MAX_BATCH) {
    throw new ValidationError(
      [{ field: 'input', message: `expected 1 to ${MAX_BATCH} memories (got ${items.length})` }],
      { component: 'retain' },
    );
  }
  // Array.from visits the holes of a sparse array, which `map` would skip and keep as holes.
  return Array.from(items, (item, index) => {
    const field = single ? 'input' : `input[${index}]`;
    const parsed = parseInput(memoryInputSchema, typeof item === 'string' ? { content: item } : item, 'retain', field);
    return { ...parsed, scope: scopeForWrite(clientScope, parsed.scope, `${field}.scope`, 'retain') };
  });
}

/** Ids the inputs bring themselves; the same id twice in one batch is refused. */
function ownIds(inputs: readonly { id?: string }[]): Set<string> {
  const seen = new Set<string>();
  inputs.forEach((item, index) => {
    if (item.id === undefined) return;
    if (seen.has(item.id)) {
      throw new ValidationError(
        [{ field: `input[${index}].id`, message: `id "${item.id}" appears twice in the batch` }],
        { component: 'retain' },
      );
    }
    seen.add(item.id);
  });
  return seen;
}

/**
 * How the conversation path marks its inputs: `turns` selects the inputs that are turns of the
 * conversation (windowed across calls with {@link TURN_WINDOW} neighbours, and kept even when
 * identical to a stored turn — "ok" said twice is two turns).
 */
interface ConversationBatch {
  turns?: (index: number) => boolean;
}

/** The retain feature over an engine. */
export function createRetainApi(engine: MemoryEngine, settings: RetainSettings): RetainApi {
  const { store } = engine;
  const pending = pendingEmbeddings(engine);

  async function retainMemories(
    input: unknown,
    retainOptions?: unknown,
    conversation?: ConversationBatch,
  ): Promise<RetainResult> {
    const inputs = parseRetainInputs(input, engine.scope);
    const {
      onDuplicate,
      contextWindow,
      corrections: correctionMode,
    } = parseInput(retainOptionsSchema, retainOptions ?? {}, 'retain', 'options');
    if (correctionMode === 'model' && !engine.languageModel)
      throw new ValidationError(
        [{ field: 'options.corrections', message: "'model' needs a languageModel on the client" }],
        {
          component: 'retain',
        },
      );
    const seenIds = ownIds(inputs);
    await engine.ready('retain');
    const now = engine.nowIso();
    const sessionId = engine.session.current ?? undefined;
    const memories = inputs.map((item) =>
      buildMemory(item, { id: engine.ids.next('mem'), now, scope: engine.scope, sessionId }),
    );
    const reader = correctionMode !== 'marked' ? await loadClaimReader() : undefined;
    // The model is asked about what the parser leaves undecided: it needs the claims first.
    const readFirst = correctionMode === 'model' && reader ? batchClaims(memories, reader) : undefined;
    const found = readFirst ? await correctionsByModel(engine, memories, now, readFirst) : [];
    // An embedder that fails does not lose the text: it is stored now and embedded later.
    // A slow encoder embeds after the write, in the background; the text is stored now.
    const later = engine.embedder.background === true;
    const embedding = later
      ? Promise.resolve({ vectors: memories.map(() => null), failure: null })
      : pending.embedOrDefer(memories.map(embeddingText), 'retain');
    // Otherwise the parser reads the claims while the embedder works (off this thread when it has workers).
    const claims = readFirst ?? (reader ? batchClaims(memories, reader) : undefined);
    const { vectors, failure } = await embedding;

    const window = conversation?.turns !== undefined ? TURN_WINDOW : contextWindow;
    const outcome = await store.transaction(async () => {
      // Neighbours are read inside the transaction: a concurrent retain of the same session waits its turn.
      const neighbours =
        window > 0
          ? await addNeighbourContext(store, memories, inputs, window, conversation?.turns ?? (() => true))
          : [];
      // Only inputs that bring their own id can clash with a stored memory.
      const claimed = seenIds.size > 0 ? await store.getMemories([...seenIds]) : [];
      const taken = new Map(claimed.map((memory) => [memory.id, memory]));
      const duplicates = new Map<string, string>();
      const keepAll = onDuplicate === 'keep';
      const skips = (index: number) => !keepAll && !(conversation?.turns?.(index) ?? false);
      if (!keepAll) {
        const existing = await store.listMemories({
          filter: { fingerprints: [...new Set(memories.map((memory) => memory.fingerprint))], validAt: now },
        });
        for (const memory of existing) duplicates.set(memory.fingerprint, memory.id);
      }
      const records: MemoryRecord[] = [];
      const skipped: MemorySkippedEvent[] = [];
      const resultIds = memories.map((memory, index) => {
        const clash = taken.get(memory.id);
        if (clash && clash.fingerprint !== memory.fingerprint) {
          throw new ValidationError(
            [{ field: `input[${index}].id`, message: `a different memory with id "${memory.id}" already exists` }],
            { component: 'retain', suggestion: 'Use update() to change an existing memory.' },
          );
        }
        const duplicateOf = clash?.id ?? (skips(index) ? duplicates.get(memory.fingerprint) : undefined);
        if (duplicateOf !== undefined) {
          skipped.push({
            index,
            reason: 'duplicate',
            detail: `identical to memory ${duplicateOf}`,
            existingId: duplicateOf,
          });
          return duplicateOf;
        }
        if (skips(index)) duplicates.set(memory.fingerprint, memory.id);
        records.push({ memory, embedding: vectors[index] ?? null });
        return memory.id;
      });
      // The rules first: a correction an input or the model names explicitly wins over them.
      const ruled =
        correctionMode !== 'marked' && records.length > 0
          ? await findRuleSupersessions(
              engine,
              records.map((record) => record.memory),
              claims,
            )
          : undefined;
      if (ruled) for (const record of records) record.memory = ruled.batch.get(record.memory.id) ?? record.memory;
      const written = new Set(records.map((record) => record.memory.id));
      const corrections = memories.flatMap((memory, index) => {
        const marked = [...(inputs[index]!.supersedes ?? []), ...(found[index] ?? [])];
        const supersedes = marked.length > 0 ? [...new Set(marked)] : undefined;
        const field = Array.isArray(input) ? `input[${index}]` : 'input';
        return supersedes && written.has(memory.id) ? [{ memory, supersedes, field }] : [];
      });
      const superseded = await supersededRecords(engine, corrections, now);
      // The new memory names what it replaced: the reverse link `history` and recall follow.
      for (const { memory, supersedes } of corrections) {
        const record = records.find((candidate) => candidate.memory.id === memory.id);
        if (record) for (const id of supersedes) record.memory = withSuperseded(record.memory, id);
      }
      const changed = new Map<string, MemoryRecord>();
      for (const record of [...(ruled?.stored ?? []), ...superseded]) changed.set(record.memory.id, record);
      for (const record of neighbours) {
        const other = changed.get(record.memory.id);
        changed.set(
          record.memory.id,
          other ? { ...other, memory: { ...other.memory, context: record.memory.context } } : record,
        );
      }
      let evicted: string[] = [];
      if (records.length > 0) {
        if (settings.maxMemories !== undefined) {
          evicted = await evictForRoom(store, {
            maxMemories: settings.maxMemories,
            incoming: records.length,
            now: engine.clock.now(),
            appliesTo: settings.retentionAppliesTo,
            ...(engine.scope ? { scope: engine.scope } : {}),
          });
        }
        await store.upsertMemories([...records, ...changed.values()]);
        await applyTallies(
          store,
          records.map((record) => record.memory),
          1,
          now,
        );
      }
      return {
        ids: resultIds,
        memories: records.map((record) => record.memory),
        skipped,
        links: ruled?.links ?? [],
        // Only a workspace journal rewrites them; no copy on the plain path.
        changed: settings.journal ? [...changed.values()].map((record) => record.memory) : [],
        evicted,
      };
    });
    // In a workspace the Markdown is the source of truth: the new memories go to their day's
    // file and come back indexed from there (citing their line); older ones this retain
    // changed (superseded, or a turn given its new neighbours) are rewritten there, so a
    // rebuilt index knows it too.
    if (settings.journal) {
      outcome.memories = await settings.journal.retained(outcome.memories);
      await settings.journal.changed(outcome.changed);
      // What eviction deleted to make room leaves the files, or a rebuild would bring it back.
      await settings.journal.forgottenIds(outcome.evicted);
    }

    for (const skip of outcome.skipped) engine.emit('memory:skipped', skip);
    for (const link of outcome.links)
      engine.logger.log('debug', `retain: ${link.older} superseded by ${link.newer} (${link.reason})`);
    const unembedded = failure ? outcome.memories.map((memory) => memory.id) : [];
    if (failure) pending.defer(unembedded, failure.message);
    else if (later && outcome.memories.length > 0) pending.later();
    if (outcome.memories.length > 0) engine.emit('memory:retained', { memories: outcome.memories });
    const { links: _links, changed: _changed, evicted: _evicted, ...result } = outcome;
    return result;
  }

  // A conversation lands in the client's scope, narrowed by its own; another tenant's is refused.
  const parseConversation = (input: unknown, component: string) => {
    const conversation = parseInput(conversationInputSchema, input, component, 'input');
    return { ...conversation, scope: scopeForWrite(engine.scope, conversation.scope, 'input.scope', component) };
  };

  const conversationContext: ConversationContext = {
    store,
    embedder: engine.embedder,
    model: engine.languageModel,
    settings: settings.extraction,
    stats: engine.metrics.pipeline,
    logger: engine.logger,
    scope: engine.scope,
    get sessionId() {
      return engine.session.current ?? undefined;
    },
    now: engine.nowIso,
    newId: () => engine.ids.next('mem'),
    embed: (texts) => engine.embed(texts, 'retain'),
    retainMemories: (inputs, turns = 0) =>
      retainMemories(inputs, {}, turns > 0 ? { turns: (index) => index < turns } : undefined),
    deferEmbeddings: (ids, reason) => pending.defer(ids, reason),
    emit: engine.emit,
    ...(settings.journal ? { journal: settings.journal } : {}),
  };

  async function retain(input: unknown, retainOptions?: unknown): Promise<RetainResult | ConversationRetainResult> {
    if (isConversationInput(input)) {
      const conversation = parseConversation(input, 'retain');
      await engine.ready('retain');
      return retainConversation(conversation, conversationContext);
    }
    return retainMemories(input, retainOptions);
  }

  async function reextract(targetInput: unknown): Promise<ReextractResult> {
    const target = parseInput(reextractTargetSchema, targetInput, 'reextract', 'target');
    requireModel(conversationContext);
    await engine.ready('reextract');
    const conversations = await keptConversations(target, conversationContext, (ids) => memoriesInScope(engine, ids));
    const result: ReextractResult = {
      conversations: conversations.length,
      created: [],
      merged: [],
      invalidated: [],
      kept: [],
      skipped: [],
      failure: null,
    };
    for (const conversation of conversations) {
      const one = await reextractConversation(conversation, conversationContext);
      result.created.push(...one.created);
      result.merged.push(...one.merged);
      result.invalidated.push(...one.invalidated);
      result.kept.push(...one.kept);
      result.skipped.push(...one.skipped);
      result.failure ??= one.failure;
    }
    return result;
  }

  return {
    ...drained<AsyncMembers<RetainApi>>({
      retain: retain as RetainApi['retain'],
      reextract: (target) => reextract(target),
    }),
    retainAsync(input, retainOptions) {
      engine.assertOpen('retainAsync');
      // Validate now: a caller's mistake should surface at the call, not as an event later.
      if (isConversationInput(input)) parseConversation(input, 'retainAsync');
      else {
        parseRetainInputs(input, engine.scope);
        parseInput(retainOptionsSchema, retainOptions ?? {}, 'retainAsync', 'options');
      }
      engine.background(
        'retain',
        async () => {
          await retain(input, retainOptions);
        },
        input,
      );
    },
  };
}
