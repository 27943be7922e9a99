import { EventEmitter } from 'eventemitter3';
import PQueue from 'p-queue';
import { z } from 'zod';
import {
  type Capture,
  type CaptureEvent,
  type CaptureOptions,
  type CaptureResult,
  createCapture,
} from '../capture/index.js';
import type { MemoirEvents, MemorySkippedEvent } from '../engine/events.js';
import { type Attachment, copyAttachment, readAttachmentFile } from '../lifecycle/attachments.js';
import {
  type BackupCounts,
  type BackupInfo,
  clearStore,
  createBackup,
  type RestoreReport,
  restoreBackup,
} from '../lifecycle/backup/index.js';
import {
  type CleanupResult,
  type ConsolidateResult,
  cleanup,
  consolidate,
  evictForRoom,
  scheduleDaily,
} from '../lifecycle/retention.js';
import { exportRecords, type ImportResult, importRecords } from '../lifecycle/transfer.js';
import { buildMemory, deriveAbstract, fingerprintOf, uniqueEntities } from '../memories/memory-builder.js';
import { applyTallies } from '../memories/record-tallies.js';
import {
  type ActionWarning,
  type AnalyzePatternsOptions,
  analyzePatterns,
  type DetectedWorkflow,
  type DetectWorkflowsOptions,
  detectWorkflows,
  type PatternAnalysis,
  type PlannedAction,
  type Suggestion,
  storeWorkflows,
  suggest,
  warn,
  workflowFromSession,
} from '../procedures/workflows.js';
import { type FormatContextOptions, formatContext } from '../recall/format-context.js';
import {
  explainScore,
  packIntoBudget,
  type RecallOptions,
  type RecallResponse,
  rankMemories,
  recallOptionsSchema,
} from '../recall/rank.js';
import {
  type ConversationInput,
  conversationInputSchema,
  isConversationInput,
} from '../retain/conversation/conversation-input.js';
import { emptyPipelineStats, type PipelineStats, snapshotStats } from '../retain/conversation/pipeline-stats.js';
import {
  type ConversationContext,
  type ConversationRetainResult,
  retainConversation,
} from '../retain/conversation/retain-conversation.js';
import { filterOptionFields, toStoreFilter } from '../search/filter-options.js';
import {
  generateSessionId,
  type SessionSummary,
  summariseSession,
  type Tally,
  topTallies,
} from '../sessions/session-summaries.js';
import type { Embedder } from '../spec/embedder.js';
import { MemoirError, NotFoundError, ProviderError, StoreError, ValidationError } from '../spec/errors.js';
import {
  type Memory,
  type MemoryInput,
  type MemoryPatch,
  memoryInputSchema,
  memoryPatchSchema,
  timeInputSchema,
} from '../spec/memory.js';
import type { Procedure, Session } from '../spec/records.js';
import type { Logger } from '../spec/runtime.js';
import type { MemoryRecord, MemoryStore, StoreStats } from '../spec/store.js';
import { embeddingText } from '../text/memory-text.js';
import { LruCache } from '../utils/lru-cache.js';
import { createConsoleLogger, randomIds, systemClock } from '../utils/runtime-defaults.js';
import { parseInput } from '../utils/validate.js';
import { type MemoryOptions, parseMemoryOptions } from './memory-options.js';

const MAX_BATCH = 100_000;
// Measured on LoCoMo: with the hashing embedder, weights above ~0.3 let its noisy list push out BM25's hits.
const LEXICAL_VECTOR_WEIGHT = 0.3;
const DEFAULT_EMBED_BATCH = 256;

const idSchema = z.string().min(1, 'expected a non-empty id').max(256);
const idsSchema = z.union([idSchema, z.array(idSchema).min(1).max(MAX_BATCH)]);
const querySchema = z.string().trim().min(1, 'expected a non-empty query').max(10_000);
const retainOptionsSchema = z
  .object({
    /** What to do with an input identical to a stored, valid memory. Default `skip`. */
    onDuplicate: z.enum(['skip', 'keep']).default('skip'),
    /**
     * Index each memory with the text of up to this many neighbours on either side, among
     * the inputs of this call that share its session and scope, in input order — for the
     * turns of a conversation, so a turn is found by what was said around it. Inputs with
     * their own `context` keep it. Default 0 (off).
     */
    contextWindow: z.number().int().min(0).max(20).default(0),
  })
  .strict();
const invalidateSchema = z.union([
  z.string().trim().min(1, 'expected a non-empty reason').max(2000),
  z
    .object({
      /** Why it no longer holds. */
      reason: z.string().trim().min(1, 'expected a non-empty reason').max(2000),
      /** Id of the memory that replaces it. */
      supersededBy: idSchema.optional(),
      /** When it stopped holding. Default: now. */
      at: timeInputSchema.optional(),
    })
    .strict(),
]);
const reindexOptionsSchema = z
  .object({
    /** Called after each batch with the memories done so far and the total. */
    onProgress: z.custom<(done: number, total: number) => void>((value) => typeof value === 'function').optional(),
    /** Memories embedded and written per transaction. Default 500. */
    batchSize: z.number().int().min(1).max(100_000).default(500),
  })
  .strict();
const listOptionsSchema = z
  .object({
    ...filterOptionFields,
    /** Only bookmarked (true) or only unbookmarked (false) memories. */
    bookmarked: z.boolean().optional(),
    /** Include invalidated memories. Default true. */
    includeInvalid: z.boolean().default(true),
    /** Sort key. Default `createdAt`. */
    orderBy: z.enum(['occurredAt', 'createdAt', 'updatedAt', 'importance']).default('createdAt'),
    /** Sort direction. Default `desc`. */
    direction: z.enum(['asc', 'desc']).default('desc'),
    /** Page size, 1..100000. Default 100. */
    limit: z.number().int().min(1).max(MAX_BATCH).default(100),
    /** Rows to skip. Default 0. */
    offset: z.number().int().min(0).default(0),
  })
  .strict();

/** Options of `retain`. */
export type RetainOptions = z.input<typeof retainOptionsSchema>;
/** Options of `invalidate`: a reason, or a reason with the replacing memory and the time it stopped holding. */
export type InvalidateOptions = z.input<typeof invalidateSchema>;
/** Options of `list`. Invalidated memories are included unless `includeInvalid: false`. */
export type ListOptions = z.input<typeof listOptionsSchema>;

/** Options of `reindex`. */
export type ReindexOptions = z.input<typeof reindexOptionsSchema>;

/** What `reindex` resolves to. */
export interface ReindexResult {
  /** Memories embedded again. */
  reembedded: number;
}

/** What `retain` resolves to. */
export interface RetainResult {
  /** One id per input, in input order: the new memory's id, or for a skipped duplicate the id of the memory it duplicates. */
  ids: string[];
  /** The memories stored by this call. */
  memories: Memory[];
  /** Inputs that were not stored, and why. */
  skipped: MemorySkippedEvent[];
}

/** What `stats()` reports. */
export interface MemoryStats extends StoreStats {
  /** Model calls, tokens and time per conversation-pipeline stage since the client was created. */
  pipeline: PipelineStats;
  /** Memories of the client's scope per kind. */
  byKind: Record<string, number>;
  /** Memories of the client's scope per category. */
  byCategory: Record<string, number>;
  /** Storage against the `maxSizeMb` quota. */
  quota: {
    /** The quota, megabytes. */
    maxSizeMb: number;
    /** `bytes` as a percentage of it. */
    usedPercent: number;
  };
  /** Most frequent captured actions (by tool). */
  topActions: Tally[];
  /** Sessions of the scope and their average number of memories. */
  sessionActivity: {
    /** Sessions. */
    count: number;
    /** Mean memories per session. */
    averageMemories: number;
  };
  /** Recalls since the client was created and their mean wall time. */
  recall: {
    /** Recalls. */
    count: number;
    /** Mean wall time, milliseconds. */
    averageMs: number;
  };
  /** The LRU cache of query embeddings. */
  embeddingCache: {
    /** Entries held. */
    size: number;
    /** Lookups answered from the cache. */
    hits: number;
    /** Lookups that had to embed. */
    misses: number;
    /** hits / (hits + misses), 0 before any lookup. */
    hitRate: number;
  };
}

/** A memory client: the object agent code talks to. Create one with {@link createMemory}. */
export interface MemoryClient {
  /** The store in use. */
  readonly store: MemoryStore;
  /** The embedder in use. */
  readonly embedder: Embedder;
  /**
   * Store one memory or a batch. Validates every input first (nothing is written if any
   * is invalid), fills defaults, embeds in batches and stores the batch in one transaction.
   * An input identical to a valid stored memory is skipped (`memory:skipped`) unless
   * `onDuplicate: 'keep'`.
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
   */
  retain(input: ConversationInput): Promise<ConversationRetainResult>;
  /**
   * Like `retain`, but queued: validates the input now (a ValidationError throws at once),
   * then returns while the work runs in the background. Failures become `error` and
   * `extraction:failed` events, never exceptions. `flush()` waits for the queue.
   */
  retainAsync(
    input: string | MemoryInput | ReadonlyArray<string | MemoryInput> | ConversationInput,
    options?: RetainOptions,
  ): void;
  /** One memory by id. Rejects with NotFoundError when it doesn't exist. */
  get(id: string): Promise<Memory>;
  /** Memories matching filters, newest first by default, including invalidated ones unless asked not to. */
  list(options?: ListOptions): Promise<Memory[]>;
  /** Change fields of a memory; re-embeds when its text changes. Resolves to the updated memory. */
  update(id: string, patch: MemoryPatch): Promise<Memory>;
  /** Hard-delete one memory or several; resolves to the number deleted. Unknown ids are ignored. */
  forget(ids: string | readonly string[]): Promise<number>;
  /**
   * Soft-invalidate: the memory stops being recalled (unless `includeInvalid`) but stays
   * listed and exported, with `validTo` and the reason recorded.
   */
  invalidate(id: string, reason: InvalidateOptions): Promise<Memory>;
  /** Find the memories that best answer a query. See {@link RecallOptions}. */
  recall(query: string, options?: RecallOptions): Promise<RecallResponse>;
  /** Render recalled memories as an escaped, clearly-framed prompt block. */
  formatContext(response: RecallResponse | RecallResponse['results'], options?: FormatContextOptions): string;
  /** Counts and sizes of the store, and what the conversation pipeline has cost per stage. */
  stats(): Promise<MemoryStats>;
  /**
   * Re-embed every memory with this client's embedder, replacing vectors made by another
   * one (a store refuses to open with a different embedder until this runs).
   */
  reindex(options?: ReindexOptions): Promise<ReindexResult>;
  /** The session new memories go to (`sessionId` option, `'auto'`, or the last `resumeSession`); null when none. */
  currentSession(): string | null;
  /**
   * Continue an earlier session: new memories go to it, and recall ranks its memories
   * higher (`ranking.sessionWeight`). Rejects with NotFoundError for an unknown session.
   */
  resumeSession(id: string): Promise<Session>;
  /** Sessions of the client's scope with start/end, memory count and a summary of what happened. */
  listSessions(options?: { limit?: number }): Promise<SessionSummary[]>;
  /**
   * Delete every memory of a session, and the session. Refuses without `{ confirm: true }`.
   * Resolves to the number of memories deleted.
   */
  deleteSession(id: string, options: { confirm: boolean }): Promise<number>;
  /**
   * Write a tar.gz of the store's data with a manifest of checksums and counts into the
   * backup directory (`<home>/backups` by default). Automatic backups made before
   * deleteSession, restore and clearAll are named `auto-…`; the newest 5 are kept.
   */
  backup(name?: string): Promise<BackupInfo>;
  /**
   * Replace the store's data with a backup's. Refuses without `{ confirm: true }`; checks
   * the whole archive first (paths, entry types, checksums, counts, every record) and
   * rejects a hostile or damaged one without touching the current data, which is itself
   * backed up before being replaced.
   */
  restore(path: string, options: { confirm: boolean }): Promise<RestoreReport>;
  /** Back up, then delete every memory and record. Refuses without `{ confirm: true }`. */
  clearAll(options: { confirm: boolean }): Promise<BackupCounts>;
  /**
   * Record a tool interaction (tool, parameters, result, success, screen text) as an
   * `action` or `screen` memory without blocking: secrets and personal data are redacted,
   * repeats within `minIntervalSeconds` and excluded sessions are skipped (and logged),
   * and with `capture.enabled` false (the default) it does nothing. Wrap a handler with
   * `withCapture` to capture every call.
   */
  capture(event: CaptureEvent): CaptureResult;
  /** The client's capture pipeline (events land in its current session); pass it to `withCapture`. */
  readonly capturer: Capture;
  /**
   * Copy a file (never move it) into the store's `attachments/` directory and record it in
   * the memory's `metadata.attachments`. A missing file, a directory or a memory that
   * doesn't exist is refused with a clear error.
   */
  attach(memoryId: string, path: string): Promise<Attachment>;
  /** Read back an attachment of a memory by its name. */
  readAttachment(memoryId: string, name: string): Promise<Buffer>;
  /**
   * Find tool sequences (2–6 steps) repeated at least 3 times in the last 7 days and store
   * each as a `workflow` memory with a confidence score. Resolves to what was found.
   */
  detectWorkflows(options?: Omit<DetectWorkflowsOptions, 'now' | 'scope'>): Promise<DetectedWorkflow[]>;
  /** Turn a session's successful actions into a reusable Procedure (source `session`) and store it. */
  createWorkflowFromSession(sessionId: string, name: string): Promise<Procedure>;
  /** Past successful actions and workflows similar to `context`, with their memory ids. */
  suggest(context: string, options?: { k?: number }): Promise<Suggestion[]>;
  /** The record of a planned action: attempts, failures, success rate, a warning and alternatives. */
  warn(action: PlannedAction): Promise<ActionWarning>;
  /** Success rates per tool, with the high- and low-success ones named. */
  analyzePatterns(options?: Omit<AnalyzePatternsOptions, 'scope'>): Promise<PatternAnalysis>;
  /**
   * Every memory of the client's scope (with its embedding, metadata and content) and every
   * record, as JSON Lines: the format the CLI's `memoir export` writes.
   */
  export(): AsyncGenerator<string>;
  /**
   * Read JSON Lines written by `export()` back. Embeddings are kept when they came from this
   * client's embedder; otherwise memories are imported without them (run `reindex`).
   */
  import(lines: AsyncIterable<string> | Iterable<string>): Promise<ImportResult>;
  /** Delete memories older than `retentionDays`, except bookmarked and manual ones; reports the count and bytes freed. */
  cleanup(): Promise<CleanupResult>;
  /**
   * Keep one representative of each cluster of near-identical memories (cosine >= 0.95 by
   * default), delete the rest, and record the consolidation on the one kept.
   */
  consolidate(options?: { threshold?: number; category?: string }): Promise<ConsolidateResult>;
  /** Subscribe to an event. */
  on<E extends keyof MemoirEvents>(event: E, listener: MemoirEvents[E]): MemoryClient;
  /** Subscribe to the next occurrence of an event. */
  once<E extends keyof MemoirEvents>(event: E, listener: MemoirEvents[E]): MemoryClient;
  /** Unsubscribe. */
  off<E extends keyof MemoirEvents>(event: E, listener: MemoirEvents[E]): MemoryClient;
  /** Wait until queued background work is done. */
  flush(): Promise<void>;
  /** Wait for background work, then close the store. Later calls reject. Calling twice is harmless. */
  close(): Promise<void>;
}

// Neighbours are the other inputs of the same call with the same session and scope.
function addNeighbourContext(memories: Memory[], inputs: readonly { context?: string }[], window: number) {
  const groups = new Map<string, number[]>();
  memories.forEach((memory, index) => {
    const key = JSON.stringify([memory.sessionId, memory.scope.agentId, memory.scope.userId, memory.scope.namespace]);
    const members = groups.get(key);
    if (members) members.push(index);
    else groups.set(key, [index]);
  });
  for (const members of groups.values()) {
    members.forEach((index, position) => {
      if (inputs[index]?.context !== undefined) return;
      const around = members
        .slice(Math.max(0, position - window), position + window + 1)
        .filter((other) => other !== index)
        .map((other) => memories[other]!.content);
      if (around.length > 0) memories[index]!.context = around.join('\n');
    });
  }
}

function wrapError(error: unknown, component: string): MemoirError {
  if (MemoirError.isInstance(error)) return error;
  return new StoreError(error instanceof Error ? error.message : String(error), { component, cause: error });
}

/** Factories for the parts a caller did not supply. */
export interface ClientDefaults {
  /** Where backups go when `options.backupDirectory` is absent; asked only when a backup is made. */
  backupDirectory: (settings: { home: string | undefined }) => string;
  /** Where attachments go when `options.attachmentDirectory` is absent; asked only when one is stored or read. */
  attachmentDirectory: (settings: { home: string | undefined }) => string;
  /** Store used when `options.store` is absent; receives the validated `home` and logger. */
  store: (settings: { home: string | undefined; logger: Logger }) => MemoryStore;
  /** Embedder used when `options.embedder` is absent. */
  embedder: () => Embedder;
}

/**
 * The engine behind `createMemory`: validates options once (a bad option is a
 * ConfigError) and builds the client, taking missing parts from `defaults`.
 */
export function createMemoryClient(options: MemoryOptions | undefined, defaults: ClientDefaults): MemoryClient {
  const settings = parseMemoryOptions(options);
  const logger = settings.logger ?? createConsoleLogger();
  const store = settings.store ?? defaults.store({ home: settings.home, logger });
  const embedder = settings.embedder ?? defaults.embedder();
  const ranking = {
    ...settings.ranking,
    vectorWeight: settings.ranking.vectorWeight ?? (embedder.semantic === false ? LEXICAL_VECTOR_WEIGHT : 1),
  };
  const clock = settings.clock ?? systemClock;
  const ids = settings.ids ?? randomIds;
  const emitter = new EventEmitter<MemoirEvents>();
  const queue = new PQueue({ concurrency: settings.concurrency });
  let opened: Promise<void> | undefined;
  let closed = false;

  const nowIso = () => new Date(clock.now()).toISOString();

  function emit<E extends keyof MemoirEvents>(event: E, ...args: Parameters<MemoirEvents[E]>) {
    try {
      (emitter.emit as (event: E, ...rest: Parameters<MemoirEvents[E]>) => boolean)(event, ...args);
    } catch (error) {
      // A listener's bug must not turn a committed write into a rejected call.
      logger.log('error', `listener for ${event} threw`, { error: String(error) });
    }
  }

  function assertOpen(component: string) {
    if (closed) {
      throw new StoreError('the memory client is closed', {
        component,
        suggestion: 'Create a new client with createMemory().',
      });
    }
  }

  async function ready(component: string) {
    assertOpen(component);
    opened ??= store.open({ id: embedder.id, dimensions: embedder.dimensions });
    try {
      await opened;
    } catch (error) {
      opened = undefined;
      throw wrapError(error, component);
    }
  }

  async function embedAll(texts: readonly string[], component: string): Promise<Float32Array[]> {
    const batchSize = Math.max(1, embedder.maxBatchSize ?? DEFAULT_EMBED_BATCH);
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      const batch = texts.slice(start, start + batchSize);
      let result: Float32Array[];
      try {
        result = await embedder.embed(batch);
      } catch (error) {
        if (MemoirError.isInstance(error)) throw error;
        throw new ProviderError(`embedder ${embedder.id} failed`, { component, cause: error });
      }
      if (result.length !== batch.length || result.some((vector) => vector.length !== embedder.dimensions)) {
        throw new ProviderError(
          `embedder ${embedder.id} returned ${result.length} vectors for ${batch.length} texts, or a vector whose length is not ${embedder.dimensions}`,
          { component, suggestion: 'Check the embedder implementation and its `dimensions`.' },
        );
      }
      vectors.push(...result);
    }
    return vectors;
  }

  function background(operation: string, work: () => Promise<void>, input?: unknown) {
    void queue.add(async () => {
      try {
        await work();
      } catch (error) {
        const wrapped = wrapError(error, operation);
        logger.log('warn', `background ${operation} failed: ${wrapped.message}`);
        emit('error', { operation, error: wrapped, ...(input === undefined ? {} : { input }) });
      }
    });
  }

  async function requireMemory(id: string, component: string): Promise<Memory> {
    const [memory] = await store.getMemories([id]);
    if (!memory) throw new NotFoundError('memory', id, { component });
    return memory;
  }

  function parseRetainInputs(input: unknown): z.output<typeof memoryInputSchema>[] {
    const single = !Array.isArray(input);
    const items: unknown[] = single ? [input] : (input as unknown[]);
    if (items.length === 0 || items.length > MAX_BATCH) {
      throw new ValidationError(
        [{ field: 'input', message: `expected 1 to ${MAX_BATCH} memories (got ${items.length})` }],
        {
          component: 'retain',
        },
      );
    }
    return items.map((item, index) =>
      parseInput(
        memoryInputSchema,
        typeof item === 'string' ? { content: item } : item,
        'retain',
        single ? 'input' : `input[${index}]`,
      ),
    );
  }

  // Built now so a bad capture option is a ConfigError from createMemory, not from the first call.
  const capturer = createCapture(
    { retainAsync: (input) => client.retainAsync(input) },
    {
      ...(settings.capture as CaptureOptions | undefined),
      clock,
      logger,
      ...(settings.scope ? { scope: settings.scope } : {}),
    },
  );
  // Filtered captures are announced like other skips, so hosts can see what was left out and why.
  const reportSkip = (event: CaptureEvent, result: CaptureResult): CaptureResult => {
    if (!result.stored && (result.reason === 'interval' || result.reason === 'excluded')) {
      const tool = typeof event?.tool === 'string' ? event.tool : 'tool';
      const detail =
        result.reason === 'interval'
          ? `${tool} with the same parameters was captured less than minIntervalSeconds ago`
          : `${tool} ran in a session excluded from capture`;
      emit('memory:skipped', { index: 0, reason: result.reason, detail });
    }
    return result;
  };
  // Events that name no session land in the client's current one, which resumeSession may change.
  const inSession = (event: CaptureEvent): CaptureEvent =>
    event !== null && typeof event === 'object' && event.sessionId === undefined && currentSession !== null
      ? { ...event, sessionId: currentSession }
      : event;
  const sessionCapturer: Capture = {
    get enabled() {
      return capturer.enabled;
    },
    capture(event) {
      assertOpen('capture');
      return reportSkip(event, capturer.capture(inSession(event)));
    },
    tryCapture(event) {
      if (closed) return { stored: false, reason: 'error' };
      return reportSkip(event, capturer.tryCapture(inSession(event)));
    },
  };
  let currentSession: string | null =
    settings.sessionId === 'auto' ? generateSessionId(clock.now()) : (settings.sessionId ?? null);
  let resumedSession: string | null = null;
  const pipelineStats = emptyPipelineStats();
  // Agents repeat their questions; embedding a query once saves a model call each time after.
  const queryVectors = new LruCache<string, Float32Array>(256);
  const recallTimes = { count: 0, totalMs: 0 };
  const conversationContext: ConversationContext = {
    store,
    embedder,
    model: settings.languageModel,
    settings: settings.extraction,
    stats: pipelineStats,
    logger,
    scope: settings.scope,
    get sessionId() {
      return currentSession ?? undefined;
    },
    now: nowIso,
    newId: () => ids.next('mem'),
    embed: (texts) => embedAll(texts, 'retain'),
    retainMemories: (inputs) => retainMemories(inputs, {}),
    emit,
  };

  async function retain(input: unknown, retainOptions?: unknown): Promise<RetainResult | ConversationRetainResult> {
    if (isConversationInput(input)) {
      const conversation = parseInput(conversationInputSchema, input, 'retain', 'input');
      await ready('retain');
      return retainConversation(conversation, conversationContext);
    }
    return retainMemories(input, retainOptions);
  }

  function retainAsync(input: unknown, retainOptions?: unknown): void {
    assertOpen('retainAsync');
    // Validate now: a caller's mistake should surface at the call, not as an event later.
    if (isConversationInput(input)) parseInput(conversationInputSchema, input, 'retainAsync', 'input');
    else {
      parseRetainInputs(input);
      parseInput(retainOptionsSchema, retainOptions ?? {}, 'retainAsync', 'options');
    }
    background(
      'retain',
      async () => {
        await retain(input, retainOptions);
      },
      input,
    );
  }

  async function retainMemories(input: unknown, retainOptions?: unknown): Promise<RetainResult> {
    const inputs = parseRetainInputs(input);
    const { onDuplicate, contextWindow } = parseInput(retainOptionsSchema, retainOptions ?? {}, 'retain', 'options');
    const seenIds = new Set<string>();
    inputs.forEach((item, index) => {
      if (item.id === undefined) return;
      if (seenIds.has(item.id)) {
        throw new ValidationError(
          [{ field: `input[${index}].id`, message: `id "${item.id}" appears twice in the batch` }],
          {
            component: 'retain',
          },
        );
      }
      seenIds.add(item.id);
    });
    await ready('retain');
    const now = nowIso();
    const memories = inputs.map((item) =>
      buildMemory(item, { id: ids.next('mem'), now, scope: settings.scope, sessionId: currentSession ?? undefined }),
    );
    if (contextWindow > 0) addNeighbourContext(memories, inputs, contextWindow);
    const vectors = await embedAll(memories.map(embeddingText), 'retain');

    const outcome = await store.transaction(async () => {
      // Only inputs that bring their own id can clash with a stored memory.
      const claimed = seenIds.size > 0 ? await store.getMemories([...seenIds]) : [];
      const taken = new Map(claimed.map((memory) => [memory.id, memory]));
      const duplicates = new Map<string, string>();
      if (onDuplicate === 'skip') {
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
        const duplicateOf = clash?.id ?? duplicates.get(memory.fingerprint);
        if (duplicateOf !== undefined) {
          skipped.push({
            index,
            reason: 'duplicate',
            detail: `identical to memory ${duplicateOf}`,
            existingId: duplicateOf,
          });
          return duplicateOf;
        }
        if (onDuplicate === 'skip') duplicates.set(memory.fingerprint, memory.id);
        records.push({ memory, embedding: vectors[index] ?? null });
        return memory.id;
      });
      if (records.length > 0) {
        if (settings.maxMemories !== undefined) {
          await evictForRoom(store, {
            maxMemories: settings.maxMemories,
            incoming: records.length,
            now: clock.now(),
            ...(settings.scope ? { scope: settings.scope } : {}),
          });
        }
        await store.upsertMemories(records);
        await applyTallies(
          store,
          records.map((record) => record.memory),
          1,
          now,
        );
      }
      return { ids: resultIds, memories: records.map((record) => record.memory), skipped };
    });

    for (const skip of outcome.skipped) emit('memory:skipped', skip);
    if (outcome.memories.length > 0) emit('memory:retained', { memories: outcome.memories });
    return outcome;
  }

  async function update(id: unknown, patchInput: unknown): Promise<Memory> {
    const memoryId = parseInput(idSchema, id, 'update', 'id');
    const patch = parseInput(memoryPatchSchema, patchInput, 'update', 'patch');
    await ready('update');
    const result = await store.transaction(async () => {
      const previous = await requireMemory(memoryId, 'update');
      const content = patch.content ?? previous.content;
      const abstractWasDerived = previous.abstract === deriveAbstract(previous.content);
      const abstract = patch.abstract || (abstractWasDerived ? deriveAbstract(content) : previous.abstract);
      const next: Memory = {
        ...previous,
        kind: patch.kind ?? previous.kind,
        category: patch.category ?? previous.category,
        content,
        abstract,
        overview: patch.overview === undefined ? previous.overview : patch.overview,
        context: patch.context === undefined ? previous.context : patch.context,
        entities: patch.entities ? uniqueEntities(patch.entities) : previous.entities,
        sessionId: patch.sessionId ?? previous.sessionId,
        source: patch.source ?? previous.source,
        occurredAt: patch.occurredAt ?? previous.occurredAt,
        importance: patch.importance ?? previous.importance,
        bookmarked: patch.bookmarked ?? previous.bookmarked,
        metadata: patch.metadata ?? previous.metadata,
        updatedAt: nowIso(),
      };
      next.fingerprint = fingerprintOf({ ...next, occurredAt: next.occurredAt });
      const textChanged = next.content !== previous.content || next.abstract !== previous.abstract;
      const [embedding] = textChanged
        ? await embedAll([embeddingText(next)], 'update')
        : [(await store.getEmbeddings([memoryId])).get(memoryId) ?? null];
      await store.upsertMemories([{ memory: next, embedding: embedding ?? null }]);
      const talliesChanged =
        next.sessionId !== previous.sessionId || next.entities.join('\u0000') !== previous.entities.join('\u0000');
      if (talliesChanged) {
        await applyTallies(store, [previous], -1, next.updatedAt);
        await applyTallies(store, [next], 1, next.updatedAt);
      }
      return { next, previous };
    });
    emit('memory:updated', { memory: result.next, previous: result.previous });
    return result.next;
  }

  async function forget(input: unknown): Promise<number> {
    const parsed = parseInput(idsSchema, input, 'forget', 'ids');
    const targets = [...new Set(typeof parsed === 'string' ? [parsed] : parsed)];
    await ready('forget');
    const deleted = await store.transaction(async () => {
      const existing = await store.getMemories(targets);
      if (existing.length === 0) return [];
      await store.deleteMemories(existing.map((memory) => memory.id));
      await applyTallies(store, existing, -1, nowIso());
      return existing.map((memory) => memory.id);
    });
    if (deleted.length > 0) emit('memory:forgotten', { ids: deleted });
    return deleted.length;
  }

  async function invalidate(id: unknown, reasonInput: unknown): Promise<Memory> {
    const memoryId = parseInput(idSchema, id, 'invalidate', 'id');
    const parsed = parseInput(invalidateSchema, reasonInput, 'invalidate', 'reason');
    const { reason, supersededBy, at } = typeof parsed === 'string' ? { reason: parsed } : parsed;
    await ready('invalidate');
    const memory = await store.transaction(async () => {
      const previous = await requireMemory(memoryId, 'invalidate');
      if (supersededBy !== undefined) await requireMemory(supersededBy, 'invalidate');
      const now = nowIso();
      const next: Memory = {
        ...previous,
        validTo: previous.validTo ?? at ?? now,
        invalidationReason: reason,
        supersededBy: supersededBy ?? previous.supersededBy,
        updatedAt: now,
      };
      const embedding = (await store.getEmbeddings([memoryId])).get(memoryId) ?? null;
      await store.upsertMemories([{ memory: next, embedding }]);
      return next;
    });
    emit('memory:invalidated', { memory, reason });
    return memory;
  }

  async function recall(queryInput: unknown, optionsInput?: unknown): Promise<RecallResponse> {
    const started = performance.now();
    const query = parseInput(querySchema, queryInput, 'recall', 'query');
    const options = parseInput(recallOptionsSchema, optionsInput ?? {}, 'recall', 'options');
    await ready('recall');
    const now = clock.now();
    const filter = toStoreFilter(
      options,
      settings.scope,
      options.includeInvalid ? undefined : new Date(now).toISOString(),
    );
    const ranked = await rankMemories(query, filter, options, {
      store,
      embedder,
      ranking,
      now,
      k: options.k ?? settings.recallK,
      resumedSession,
      queryVectors,
    });
    let response: RecallResponse;
    if (options.tokenBudget !== undefined) {
      const { packed, used, dropped } = await packIntoBudget(ranked, options.tokenBudget);
      response = { query, results: packed, totalTokens: used, droppedForBudget: dropped };
    } else {
      response = { query, results: ranked, droppedForBudget: 0 };
    }
    const accessedAt = new Date(now).toISOString();
    for (const result of response.results) {
      result.memory = { ...result.memory, accessCount: result.memory.accessCount + 1, lastAccessedAt: accessedAt };
      if (options.explain) result.explanation = explainScore(result.breakdown);
    }
    const recalledIds = response.results.map((result) => result.memory.id);
    if (recalledIds.length > 0) background('recordAccess', () => store.recordAccess(recalledIds, accessedAt));
    const durationMs = performance.now() - started;
    recallTimes.count++;
    recallTimes.totalMs += durationMs;
    emit('recall', { query, ids: recalledIds, durationMs });
    return response;
  }

  async function reindex(optionsInput?: unknown): Promise<ReindexResult> {
    const { onProgress, batchSize } = parseInput(reindexOptionsSchema, optionsInput ?? {}, 'reindex', 'options');
    assertOpen('reindex');
    const identity = { id: embedder.id, dimensions: embedder.dimensions };
    opened = (async () => {
      await store.resetEmbeddings(identity);
      await store.open(identity);
    })();
    await ready('reindex');
    const total = await store.countMemories();
    let done = 0;
    for (let offset = 0; offset < total; offset += batchSize) {
      const page = await store.listMemories({ orderBy: 'createdAt', direction: 'asc', limit: batchSize, offset });
      if (page.length === 0) break;
      const vectors = await embedAll(page.map(embeddingText), 'reindex');
      await store.transaction(() =>
        store.upsertMemories(page.map((memory, index) => ({ memory, embedding: vectors[index] ?? null }))),
      );
      done += page.length;
      onProgress?.(done, total);
    }
    return { reembedded: done };
  }

  async function resumeSession(idInput: unknown): Promise<Session> {
    const id = parseInput(idSchema, idInput, 'resumeSession', 'id');
    await ready('resumeSession');
    const [session] = await store.sessions.get([id]);
    if (!session) throw new NotFoundError('session', id, { component: 'resumeSession' });
    currentSession = id;
    resumedSession = id;
    return session;
  }

  async function listSessions(optionsInput?: unknown): Promise<SessionSummary[]> {
    const { limit } = parseInput(
      z.object({ limit: z.number().int().min(1).max(10_000).default(100) }).strict(),
      optionsInput ?? {},
      'listSessions',
      'options',
    );
    await ready('listSessions');
    const sessions = await store.sessions.list({ scope: settings.scope });
    const newestFirst = sessions.sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1)).slice(0, limit);
    return Promise.all(
      newestFirst.map(async (session) =>
        summariseSession(
          session,
          await store.listMemories({ filter: { sessionId: session.id, scope: settings.scope } }),
        ),
      ),
    );
  }

  async function deleteSession(idInput: unknown, optionsInput: unknown): Promise<number> {
    const id = parseInput(idSchema, idInput, 'deleteSession', 'id');
    parseInput(confirmSchema, optionsInput ?? {}, 'deleteSession', 'options');
    await ready('deleteSession');
    await autoBackup('delete-session');
    const deleted = await store.transaction(async () => {
      const memories = await store.listMemories({ filter: { sessionId: id, scope: settings.scope } });
      if (memories.length > 0) {
        await store.deleteMemories(memories.map((memory) => memory.id));
        await applyTallies(store, memories, -1, nowIso());
      }
      await store.sessions.delete([id]);
      return memories.map((memory) => memory.id);
    });
    if (deleted.length > 0) emit('memory:forgotten', { ids: deleted });
    if (currentSession === id) currentSession = null;
    if (resumedSession === id) resumedSession = null;
    return deleted.length;
  }

  const confirmSchema = z
    .object({ confirm: z.literal(true, 'expected confirm: true — this cannot be undone') })
    .strict();
  let backupDirectory: string | undefined;
  const backupsIn = () => {
    backupDirectory ??= settings.backupDirectory ?? defaults.backupDirectory({ home: settings.home });
    return backupDirectory;
  };
  const identity = () => ({ id: embedder.id, dimensions: embedder.dimensions });
  const autoBackup = (before: string) =>
    createBackup(store, {
      directory: backupsIn(),
      name: `auto-before-${before}`,
      embedder: identity(),
      now: clock.now,
    });

  async function backup(nameInput?: unknown): Promise<BackupInfo> {
    const name = parseInput(z.string().min(1).max(100).optional(), nameInput, 'backup', 'name');
    await ready('backup');
    return createBackup(store, { directory: backupsIn(), name, embedder: identity(), now: clock.now });
  }

  async function restore(pathInput: unknown, optionsInput: unknown): Promise<RestoreReport> {
    const path = parseInput(z.string().min(1), pathInput, 'restore', 'path');
    const { confirm } = parseInput(confirmSchema, optionsInput ?? {}, 'restore', 'options');
    await ready('restore');
    return restoreBackup(store, path, { confirm, embedder: identity(), backupFirst: () => autoBackup('restore') });
  }

  async function clearAll(optionsInput: unknown): Promise<BackupCounts> {
    parseInput(confirmSchema, optionsInput ?? {}, 'clearAll', 'options');
    await ready('clearAll');
    await autoBackup('clear-all');
    return clearStore(store);
  }

  let attachmentDirectory: string | undefined;
  const attachmentsIn = () => {
    attachmentDirectory ??= settings.attachmentDirectory ?? defaults.attachmentDirectory({ home: settings.home });
    return attachmentDirectory;
  };

  async function attach(idInput: unknown, pathInput: unknown): Promise<Attachment> {
    const memoryId = parseInput(idSchema, idInput, 'attach', 'memoryId');
    const path = parseInput(z.string().min(1, 'expected a file path'), pathInput, 'attach', 'path');
    await ready('attach');
    await requireMemory(memoryId, 'attach');
    const attachment = await copyAttachment(attachmentsIn(), memoryId, path);
    await store.transaction(async () => {
      const memory = await requireMemory(memoryId, 'attach');
      const previous = Array.isArray(memory.metadata.attachments) ? memory.metadata.attachments : [];
      const others = previous.filter((item) => (item as { name?: unknown } | null)?.name !== attachment.name);
      const embedding = (await store.getEmbeddings([memoryId])).get(memoryId) ?? null;
      await store.upsertMemories([
        {
          memory: {
            ...memory,
            metadata: { ...memory.metadata, attachments: [...others, { ...attachment }] },
            updatedAt: nowIso(),
          },
          embedding,
        },
      ]);
    });
    return attachment;
  }

  async function readAttachment(idInput: unknown, nameInput: unknown): Promise<Buffer> {
    const memoryId = parseInput(idSchema, idInput, 'readAttachment', 'memoryId');
    const name = parseInput(z.string().min(1), nameInput, 'readAttachment', 'name');
    await ready('readAttachment');
    const memory = await requireMemory(memoryId, 'readAttachment');
    const attachments = Array.isArray(memory.metadata.attachments) ? memory.metadata.attachments : [];
    const found = attachments.find((item) => (item as { name?: unknown } | null)?.name === name) as
      | { path?: unknown }
      | undefined;
    if (typeof found?.path !== 'string') throw new NotFoundError('attachment', name, { component: 'readAttachment' });
    return readAttachmentFile(attachmentsIn(), found.path);
  }

  const scoped = () => (settings.scope ? { scope: settings.scope } : {});

  async function detectAndStoreWorkflows(optionsInput?: unknown): Promise<DetectedWorkflow[]> {
    await ready('detectWorkflows');
    const options = (optionsInput ?? {}) as Omit<DetectWorkflowsOptions, 'now' | 'scope'>;
    const detected = await detectWorkflows(store, { ...options, ...scoped(), now: clock.now() });
    await storeWorkflows(detected, (inputs) => retainMemories(inputs, {}));
    return detected;
  }

  async function createWorkflowFromSession(sessionInput: unknown, nameInput: unknown): Promise<Procedure> {
    const sessionId = parseInput(idSchema, sessionInput, 'createWorkflowFromSession', 'sessionId');
    const name = parseInput(z.string().trim().min(1).max(200), nameInput, 'createWorkflowFromSession', 'name');
    await ready('createWorkflowFromSession');
    const procedure = await workflowFromSession(store, sessionId, name, { now: clock.now(), ...scoped() });
    await store.procedures.upsert([procedure]);
    return procedure;
  }

  async function runCleanup(): Promise<CleanupResult> {
    await ready('cleanup');
    return cleanup(store, { retentionDays: settings.retentionDays, now: clock.now(), ...scoped(), logger });
  }

  async function runConsolidate(optionsInput?: unknown): Promise<ConsolidateResult> {
    const options = parseInput(
      z.object({ threshold: z.number().gt(0).max(1).optional(), category: z.string().min(1).optional() }).strict(),
      optionsInput ?? {},
      'consolidate',
      'options',
    );
    await ready('consolidate');
    return consolidate(store, { ...options, ...scoped(), now: clock.now() });
  }

  const schedule = settings.schedule
    ? scheduleDaily(
        async () => {
          await runCleanup();
          if (settings.schedule?.consolidate) await runConsolidate();
        },
        {
          hour: settings.schedule.hour,
          clock,
          onError: (error) => emit('error', { operation: 'schedule', error: wrapError(error, 'schedule') }),
        },
      )
    : null;

  async function list(optionsInput?: unknown): Promise<Memory[]> {
    const options = parseInput(listOptionsSchema, optionsInput ?? {}, 'list', 'options');
    await ready('list');
    // 'current' names the client's session (the spec's memory_list(session_id="current")).
    if (options.sessionId === 'current') {
      if (currentSession === null) return [];
      options.sessionId = currentSession;
    }
    return store.listMemories({
      filter: toStoreFilter(options, settings.scope, options.includeInvalid ? undefined : nowIso()),
      orderBy: options.orderBy,
      direction: options.direction,
      limit: options.limit,
      offset: options.offset,
    });
  }

  const client: MemoryClient = {
    store,
    embedder,
    retain: ((input: unknown, options?: unknown) => retain(input, options)) as MemoryClient['retain'],
    retainAsync: (input, options) => retainAsync(input, options),
    async get(id) {
      const memoryId = parseInput(idSchema, id, 'get', 'id');
      await ready('get');
      return requireMemory(memoryId, 'get');
    },
    list: (options) => list(options),
    update: (id, patch) => update(id, patch),
    forget: (input) => forget(input),
    invalidate: (id, reason) => invalidate(id, reason),
    recall: (query, options) => recall(query, options),
    formatContext: (response, options) => formatContext(response, options),
    async stats() {
      await ready('stats');
      const storeStats = await store.stats();
      const byKind: Record<string, number> = {};
      const byCategory: Record<string, number> = {};
      const actions: string[] = [];
      // A full pass over the scope's memories, a page at a time: stats are for people, not hot paths.
      for (let offset = 0; ; offset += 1000) {
        const page = await store.listMemories({
          filter: { scope: settings.scope },
          orderBy: 'createdAt',
          limit: 1000,
          offset,
        });
        for (const memory of page) {
          byKind[memory.kind] = (byKind[memory.kind] ?? 0) + 1;
          byCategory[memory.category] = (byCategory[memory.category] ?? 0) + 1;
          if (memory.category === 'action') {
            actions.push(
              typeof memory.metadata.tool === 'string' ? memory.metadata.tool : (memory.entities[0] ?? 'action'),
            );
          }
        }
        if (page.length < 1000) break;
      }
      const sessions = await store.sessions.list({ scope: settings.scope });
      const sessionMemories = sessions.reduce((sum, session) => sum + session.memoryCount, 0);
      return {
        ...storeStats,
        pipeline: snapshotStats(pipelineStats),
        byKind,
        byCategory,
        quota: {
          maxSizeMb: settings.maxSizeMb,
          usedPercent: (100 * storeStats.bytes) / (settings.maxSizeMb * 1024 * 1024),
        },
        topActions: topTallies(actions),
        sessionActivity: {
          count: sessions.length,
          averageMemories: sessions.length ? sessionMemories / sessions.length : 0,
        },
        recall: {
          count: recallTimes.count,
          averageMs: recallTimes.count ? recallTimes.totalMs / recallTimes.count : 0,
        },
        embeddingCache: queryVectors.stats(),
      };
    },
    reindex: (options) => reindex(options),
    currentSession: () => currentSession,
    resumeSession: (id) => resumeSession(id),
    listSessions: (options) => listSessions(options),
    deleteSession: (id, options) => deleteSession(id, options),
    backup: (name) => backup(name),
    restore: (path, options) => restore(path, options),
    clearAll: (options) => clearAll(options),
    capture: (event) => sessionCapturer.capture(event),
    capturer: sessionCapturer,
    attach: (memoryId, path) => attach(memoryId, path),
    readAttachment: (memoryId, name) => readAttachment(memoryId, name),
    detectWorkflows: (options) => detectAndStoreWorkflows(options),
    createWorkflowFromSession: (sessionId, name) => createWorkflowFromSession(sessionId, name),
    async suggest(context, options) {
      await ready('suggest');
      return suggest(store, context, { ...options, ...scoped(), embed: (texts) => embedAll(texts, 'suggest') });
    },
    async warn(action) {
      await ready('warn');
      return warn(store, action, scoped());
    },
    async analyzePatterns(options) {
      await ready('analyzePatterns');
      return analyzePatterns(store, { ...options, ...scoped() });
    },
    cleanup: () => runCleanup(),
    async *export() {
      await ready('export');
      yield* exportRecords(store, { filter: { scope: settings.scope }, embedder: identity() });
    },
    async import(lines) {
      await ready('import');
      return importRecords(store, lines, { embedder: identity() });
    },
    consolidate: (options) => runConsolidate(options),
    on(event, listener) {
      emitter.on(event, listener as never);
      return client;
    },
    once(event, listener) {
      emitter.once(event, listener as never);
      return client;
    },
    off(event, listener) {
      emitter.off(event, listener as never);
      return client;
    },
    flush: () => queue.onIdle(),
    async close() {
      if (closed) return;
      schedule?.stop();
      await queue.onIdle();
      closed = true;
      await store.close();
      emitter.removeAllListeners();
    },
  };
  return client;
}
