import { z } from 'zod';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import { filterOptionFields, toStoreFilter } from '../search/filter-options.js';
import { narrowScope } from '../search/scope-boundary.js';
import { deriveAbstract, fingerprintOf, uniqueEntities } from '../shared/memory-builder.js';
import { applyTallies } from '../shared/record-tallies.js';
import { memoriesInScope, requireMemory } from '../shared/require-memory.js';
import { type Memory, type MemoryPatch, memoryPatchSchema, timeInputSchema } from '../spec/memory.js';
import type { Entity } from '../spec/records.js';
import { embeddingText } from '../text/memory-text.js';
import { idSchema, idsSchema, MAX_BATCH } from '../utils/common-schemas.js';
import { parseInput } from '../utils/validate.js';
import type { WorkspaceJournal } from '../workspace-format/workspace-journal.js';

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

const countOptionsSchema = z
  .object({
    ...filterOptionFields,
    /** Only bookmarked (true) or only unbookmarked (false) memories. */
    bookmarked: z.boolean().optional(),
    /** Count invalidated memories too. Default true, as `list` lists them. */
    includeInvalid: z.boolean().default(true),
  })
  .strict();

const listEntitiesSchema = z
  .object({
    /** Narrow the client's scope (a scoped client can never see outside its own). Default: the client's scope. */
    scope: filterOptionFields.scope,
    /** Page size, 1..1000. Default 100. */
    limit: z.number().int().min(1).max(1000).default(100),
    /** Entities to skip. Default 0. */
    offset: z.number().int().min(0).default(0),
  })
  .strict();

// The core block of a scope without a workspace is kept as an entity record of this id prefix
// (core-block-api.ts); it is not something memories mention.
const CORE_BLOCK_PREFIX = 'core-block:';

/**
 * Options of `count`: the filters `list` takes, without its order and paging.
 *
 * @group Memories and sessions
 */
export type CountOptions = z.input<typeof countOptionsSchema>;
/**
 * Options of `listEntities`: a page of the entities of the client's scope.
 *
 * @group Memories and sessions
 */
export type ListEntitiesOptions = z.input<typeof listEntitiesSchema>;

/**
 * Options of `invalidate`: a reason, or a reason with the replacing memory and the time it stopped holding.
 *
 * @group Memories and sessions
 */
export type InvalidateOptions = z.input<typeof invalidateSchema>;
/**
 * Options of `list`. Invalidated memories are included unless `includeInvalid: false`.
 *
 * @group Memories and sessions
 */
export type ListOptions = z.input<typeof listOptionsSchema>;

/**
 * Reading and changing stored memories one by one.
 *
 * @group Client
 */
export interface MemoriesApi {
  /** One memory by id. Rejects with NotFoundError when it doesn't exist. */
  get(id: string): Promise<Memory>;
  /** Memories matching filters, newest first by default, including invalidated ones unless asked not to. */
  list(options?: ListOptions): Promise<Memory[]>;
  /**
   * How many memories match the filters `list` takes (invalidated ones included unless
   * `includeInvalid: false`), counted by the store without reading them: the total behind a
   * paged `list`.
   */
  count(options?: CountOptions): Promise<number>;
  /**
   * A page of the entities (people, projects, things) the scope's memories mention, ordered by
   * id, each with the number of memories mentioning it and the page reflect wrote, if any.
   */
  listEntities(options?: ListEntitiesOptions): Promise<Entity[]>;
  /** Change fields of a memory; re-embeds when its text changes. Resolves to the updated memory. */
  update(id: string, patch: MemoryPatch): Promise<Memory>;
  /** Hard-delete one memory or several; resolves to the number deleted. Unknown ids are ignored. */
  forget(ids: string | readonly string[]): Promise<number>;
  /**
   * Soft-invalidate: the memory stops being recalled (unless `includeInvalid`) but stays
   * listed and exported, with `validTo` and the reason recorded.
   */
  invalidate(id: string, reason: InvalidateOptions): Promise<Memory>;
}

/** The memories feature over an engine. */
export function createMemoriesApi(engine: MemoryEngine, settings: { journal?: WorkspaceJournal } = {}): MemoriesApi {
  const { store } = engine;
  const { journal } = settings;

  async function update(id: unknown, patchInput: unknown): Promise<Memory> {
    const memoryId = parseInput(idSchema, id, 'update', 'id');
    const patch = parseInput(memoryPatchSchema, patchInput, 'update', 'patch');
    await engine.ready('update');
    const result = await store.transaction(async () => {
      const previous = await requireMemory(engine, memoryId, 'update');
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
        updatedAt: engine.nowIso(),
      };
      next.fingerprint = fingerprintOf({ ...next, occurredAt: next.occurredAt });
      const textChanged = next.content !== previous.content || next.abstract !== previous.abstract;
      const [embedding] = textChanged
        ? await engine.embed([embeddingText(next)], 'update')
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
    // A workspace's Markdown says what the memory now is, so a rebuilt index does too.
    if (journal) await journal.changed([result.next]);
    engine.emit('memory:updated', { memory: result.next, previous: result.previous });
    return result.next;
  }

  async function forget(input: unknown): Promise<number> {
    const parsed = parseInput(idsSchema, input, 'forget', 'ids');
    const targets = [...new Set(typeof parsed === 'string' ? [parsed] : parsed)];
    await engine.ready('forget');
    const deleted = await store.transaction(async () => {
      const existing = await memoriesInScope(engine, targets);
      if (existing.length === 0) return [];
      await store.deleteMemories(existing.map((memory) => memory.id));
      await applyTallies(store, existing, -1, engine.nowIso());
      return existing;
    });
    // Its line leaves the workspace's Markdown too, or a rebuilt index would bring it back.
    if (journal) await journal.forgotten(deleted);
    if (deleted.length > 0) engine.emit('memory:forgotten', { ids: deleted.map((memory) => memory.id) });
    return deleted.length;
  }

  async function invalidate(id: unknown, reasonInput: unknown): Promise<Memory> {
    const memoryId = parseInput(idSchema, id, 'invalidate', 'id');
    // The branch that fits the input's type, so a bad `at` is named rather than reported as a failed union.
    const branch = typeof reasonInput === 'string' ? invalidateSchema.options[0] : invalidateSchema.options[1];
    const parsed = parseInput(branch, reasonInput, 'invalidate', 'reason');
    const { reason, supersededBy, at } = typeof parsed === 'string' ? { reason: parsed } : parsed;
    await engine.ready('invalidate');
    const memory = await store.transaction(async () => {
      const previous = await requireMemory(engine, memoryId, 'invalidate');
      if (supersededBy !== undefined) await requireMemory(engine, supersededBy, 'invalidate');
      const now = engine.nowIso();
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
    if (journal) await journal.changed([memory]);
    engine.emit('memory:invalidated', { memory, reason });
    return memory;
  }

  async function list(optionsInput?: unknown): Promise<Memory[]> {
    const options = parseInput(listOptionsSchema, optionsInput ?? {}, 'list', 'options');
    await engine.ready('list');
    // 'current' names the client's session (the spec's memory_list(session_id="current")).
    if (options.sessionId === 'current') {
      if (engine.session.current === null) return [];
      options.sessionId = engine.session.current;
    }
    const scope = narrowScope(engine.scope, options.scope);
    if (scope === null) return [];
    const now = engine.clock.now();
    return store.listMemories({
      filter: toStoreFilter(options, scope, options.includeInvalid ? undefined : new Date(now).toISOString(), now),
      orderBy: options.orderBy,
      direction: options.direction,
      limit: options.limit,
      offset: options.offset,
    });
  }

  async function count(optionsInput?: unknown): Promise<number> {
    const options = parseInput(countOptionsSchema, optionsInput ?? {}, 'count', 'options');
    await engine.ready('count');
    if (options.sessionId === 'current') {
      if (engine.session.current === null) return 0;
      options.sessionId = engine.session.current;
    }
    const scope = narrowScope(engine.scope, options.scope);
    if (scope === null) return 0;
    const now = engine.clock.now();
    return store.countMemories(
      toStoreFilter(options, scope, options.includeInvalid ? undefined : new Date(now).toISOString(), now),
    );
  }

  async function listEntities(optionsInput?: unknown): Promise<Entity[]> {
    const options = parseInput(listEntitiesSchema, optionsInput ?? {}, 'listEntities', 'options');
    await engine.ready('listEntities');
    const scope = narrowScope(engine.scope, options.scope);
    if (scope === null) return [];
    const page = await store.entities.list({
      ...(scope ? { scope } : {}),
      limit: options.limit,
      offset: options.offset,
    });
    return page.filter((entity) => !entity.id.startsWith(CORE_BLOCK_PREFIX));
  }

  return drained<AsyncMembers<MemoriesApi>>({
    async get(id) {
      const memoryId = parseInput(idSchema, id, 'get', 'id');
      await engine.ready('get');
      return requireMemory(engine, memoryId, 'get');
    },
    list: (options) => list(options),
    count: (options) => count(options),
    listEntities: (options) => listEntities(options),
    update: (id, patch) => update(id, patch),
    forget: (ids) => forget(ids),
    invalidate: (id, reason) => invalidate(id, reason),
  });
}
