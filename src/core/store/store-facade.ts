/**
 * The one view of a store the core talks to, built once per store ({@link coreStore}): the
 * narrow port (`get` / `put` / `delete` / `list` by kind) under the names core code calls
 * (`getMemories`, `opinions.get`, …), and everything the port leaves optional derived here when
 * the store lacks it — counts, stats, access recording, unembedded listing, embedding reset (or
 * its refusal), and transactions: a store without `transaction()` gets its writes serialised in
 * a queue of the core's own, with the guarantee `none`.
 *
 * @module
 */
import { StoreError } from '../spec/errors.js';
import type { Memory, Scope } from '../spec/memory.js';
import type {
  EmbedderIdentity,
  LexicalSearchQuery,
  ListMemoriesQuery,
  MemoryFilter,
  MemoryRecord,
  MemoryStore,
  RecordedEmbedder,
  RecordKind,
  RecordListQuery,
  SearchHit,
  StageChangeOptions,
  StagedChange,
  StoreCheck,
  StoredRecord,
  StoreStats,
  UnembeddedQuery,
  VectorSearchQuery,
} from '../spec/store.js';
import { createStoreGate } from '../store-kit/store-gate.js';
import { memoryPages, PAGE_SIZE, pagesOf } from '../utils/pages.js';
import { hasNative, type ResolvedStoreCapabilities, resolveCapabilities } from '../utils/store-capabilities.js';

/**
 * Key-value access to one kind of record other than memories, as core code reaches it
 * (`store.opinions.get(ids)`).
 *
 * @group Testing
 */
export interface RecordCollection<
  T extends {
    /** The record's key. */
    id: string;
  },
> {
  /** The records with these ids, in the given order; missing ids are left out. */
  get(ids: readonly string[]): Promise<T[]>;
  /** Insert or replace each record by id. All or nothing. */
  upsert(records: readonly T[]): Promise<void>;
  /** Delete by id; resolves to the number deleted. */
  delete(ids: readonly string[]): Promise<number>;
  /** Records of a scope, ordered by id. */
  list(options?: RecordListQuery): Promise<T[]>;
}

/** The record kinds other than memory, by the property name core code reaches them under. */
export type RecordCollectionName = 'opinions' | 'procedures' | 'sessions' | 'entities';

/** The kind each collection property holds. */
export const COLLECTION_KINDS = {
  opinions: 'opinion',
  procedures: 'procedure',
  sessions: 'session',
  entities: 'entity',
} as const satisfies Record<RecordCollectionName, Exclude<RecordKind, 'memory'>>;

/**
 * The store as the core sees it: every member present, natives where the store has them.
 * `derivedStore` on `memoir/testing` builds it for a store's own tests.
 *
 * @group Testing
 */
export interface CoreStore {
  /** The store itself (the port), as the caller gave it. */
  readonly port: MemoryStore;
  /** The store's name. */
  readonly name: string;
  /** What the store offers and guarantees, resolved once. */
  readonly capabilities: ResolvedStoreCapabilities;
  /** The port's `open`. */
  open(embedder: EmbedderIdentity): Promise<void>;
  /** The port's `close`, after the core's queued writes. */
  close(): Promise<void>;
  /** The store's own, when it has one. */
  recordedEmbedder?(): Promise<RecordedEmbedder | null>;
  /** The store's own, else a StoreError naming the member. */
  resetEmbeddings(embedder: EmbedderIdentity): Promise<void>;
  /** The store's own, when it has one. */
  check?(): Promise<StoreCheck>;
  /** `get('memory', ids)`. */
  getMemories(ids: readonly string[]): Promise<Memory[]>;
  /** `put('memory', records)`. */
  upsertMemories(records: readonly MemoryRecord[]): Promise<void>;
  /** `delete('memory', ids)`. */
  deleteMemories(ids: readonly string[]): Promise<number>;
  /** `list('memory', query)`. */
  listMemories(query?: ListMemoriesQuery): Promise<Memory[]>;
  /** The store's `count`, else a pass over the matching memories. */
  countMemories(filter?: MemoryFilter): Promise<number>;
  /** The port's `getEmbeddings`. */
  getEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /** The store's `listUnembedded`, else pages of the matching memories checked for an embedding. */
  listUnembedded(query: UnembeddedQuery): Promise<Memory[]>;
  /** The store's `recordAccess`, else a read and a put back in one transaction. */
  recordAccess(ids: readonly string[], at: string): Promise<void>;
  /** The store's `stats`, else counted by paging through every kind. */
  stats(): Promise<StoreStats>;
  /** The store's own lexical search, when it has one (native-or-scan falls back). */
  searchLexical?(query: LexicalSearchQuery): Promise<SearchHit[]>;
  /** The store's own vector search, when it has one (native-or-scan falls back). */
  searchVector?(query: VectorSearchQuery): Promise<SearchHit[]>;
  /** The store's own, when it has one. */
  stageChange?(options?: StageChangeOptions): Promise<StagedChange>;
  /** The store's `transaction`, else `work` behind the core's write queue (guarantee `none`). */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Opinions. */
  readonly opinions: RecordCollection<StoredRecord<'opinion'>>;
  /** Procedures. */
  readonly procedures: RecordCollection<StoredRecord<'procedure'>>;
  /** Sessions. */
  readonly sessions: RecordCollection<StoredRecord<'session'>>;
  /** Entities. */
  readonly entities: RecordCollection<StoredRecord<'entity'>>;
}

/** A store as a caller may hand it to a core function: the port itself, or the core's view of it. */
export type StoreLike = MemoryStore | CoreStore;

const textEncoder = new TextEncoder();
const facades = new WeakMap<object, CoreStore>();
const built = new WeakSet<object>();

/** True for a view {@link coreStore} built. */
export function isCoreStore(store: StoreLike): store is CoreStore {
  return built.has(store);
}

/**
 * The core's view of `store`, built on first call and the same object afterwards, so every
 * part of the core (and every client over the store) shares one write queue. A view passed
 * in is returned as it is.
 */
export function coreStore(store: StoreLike): CoreStore {
  if (isCoreStore(store)) return store;
  let facade = facades.get(store);
  if (!facade) {
    facade = buildFacade(store);
    facades.set(store, facade);
    built.add(facade);
  }
  return facade;
}

function buildFacade(port: MemoryStore): CoreStore {
  // Without a transaction() of its own, the store's writes are serialised here; a transaction
  // is `work` holding the queue, and the writes it makes are not queued behind it.
  const gate = hasNative(port, 'transaction') ? undefined : createStoreGate({ name: port.name });
  const write = <T>(operation: () => Promise<T>): Promise<T> => (gate ? gate.write(operation) : operation());

  const collection = <K extends Exclude<RecordKind, 'memory'>>(kind: K): RecordCollection<StoredRecord<K>> => ({
    get: (ids) => port.get(kind, ids),
    upsert: (records) => write(() => port.put(kind, records as never)),
    delete: (ids) => write(() => port.delete(kind, ids)),
    list: (query) => port.list(kind, query as never),
  });

  const facade: CoreStore = {
    port,
    name: port.name,
    capabilities: resolveCapabilities(port),
    open: (embedder) => port.open(embedder),
    close: () => (gate ? gate.close(() => port.close()) : port.close()),
    ...(port.recordedEmbedder ? { recordedEmbedder: () => port.recordedEmbedder!() } : {}),
    resetEmbeddings: (embedder) => {
      if (port.resetEmbeddings) return write(() => port.resetEmbeddings!(embedder));
      return Promise.reject(noResetEmbeddings(port));
    },
    ...(port.check ? { check: () => port.check!() } : {}),
    getMemories: (ids) => port.get('memory', ids),
    upsertMemories: (records) => write(() => port.put('memory', records)),
    deleteMemories: (ids) => write(() => port.delete('memory', ids)),
    listMemories: (query) => port.list('memory', query),
    countMemories: (filter) => (port.count ? port.count(filter) : countByPages(facade, filter)),
    getEmbeddings: (ids) => port.getEmbeddings(ids),
    listUnembedded: (query) => (port.listUnembedded ? port.listUnembedded(query) : unembeddedByPages(facade, query)),
    recordAccess: (ids, at) =>
      port.recordAccess ? write(() => port.recordAccess!(ids, at)) : recordAccessByPut(facade, ids, at),
    stats: () => (port.stats ? port.stats() : statsByPages(facade)),
    ...(port.searchLexical ? { searchLexical: (query: LexicalSearchQuery) => port.searchLexical!(query) } : {}),
    ...(port.searchVector ? { searchVector: (query: VectorSearchQuery) => port.searchVector!(query) } : {}),
    ...(port.stageChange ? { stageChange: (options?: StageChangeOptions) => port.stageChange!(options) } : {}),
    transaction: (work) => (gate ? gate.transaction(work, { begin: () => true }) : port.transaction!(work)),
    opinions: collection('opinion'),
    procedures: collection('procedure'),
    sessions: collection('session'),
    entities: collection('entity'),
  };
  return facade;
}

function noResetEmbeddings(port: MemoryStore): StoreError {
  return new StoreError(
    `reindex with a new embedder needs the store to drop its embeddings, and the ${port.name} store has no resetEmbeddings()`,
    {
      component: port.name,
      suggestion:
        'Re-embed only the memories without an embedding with reindex({ onlyMissing: true }), or give the store a resetEmbeddings() member.',
    },
  );
}

async function countByPages(store: CoreStore, filter: MemoryFilter | undefined): Promise<number> {
  let count = 0;
  for await (const page of memoryPages(store, filter)) count += page.length;
  return count;
}

/** Unembedded memories in id order after `after`: pages of the matching memories, checked for an embedding. */
async function unembeddedByPages(store: CoreStore, query: UnembeddedQuery): Promise<Memory[]> {
  const limit = Math.max(0, Math.floor(query.limit));
  if (limit === 0) return [];
  const found: Memory[] = [];
  for await (const page of memoryPages(store, query.filter)) {
    const candidates = page.filter((memory) => query.after === undefined || memory.id > query.after);
    const embedded = await store.getEmbeddings(candidates.map((memory) => memory.id));
    for (const memory of candidates) if (!embedded.has(memory.id)) found.push(memory);
  }
  found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return found.slice(0, limit);
}

/** Access recorded by reading each memory (with its embedding, which a put replaces) and putting it back. */
async function recordAccessByPut(store: CoreStore, ids: readonly string[], at: string): Promise<void> {
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += PAGE_SIZE) {
    const batch = unique.slice(start, start + PAGE_SIZE);
    await store.transaction(async () => {
      const memories = await store.getMemories(batch);
      const embeddings = await store.getEmbeddings(batch);
      await store.upsertMemories(
        memories.map((memory) => ({
          memory: { ...memory, accessCount: memory.accessCount + 1, lastAccessedAt: at },
          embedding: embeddings.get(memory.id) ?? null,
        })),
      );
    });
  }
}

async function countRecords(collection: RecordCollection<{ id: string; scope: Scope }>) {
  let count = 0;
  let bytes = 0;
  for await (const page of pagesOf((offset, limit) => collection.list({ limit, offset }))) {
    count += page.length;
    for (const record of page) bytes += textEncoder.encode(JSON.stringify(record)).byteLength;
  }
  return { count, bytes };
}

/** Counts by paging through every memory and record; `bytes` is their JSON plus 4 bytes per embedding dimension. */
async function statsByPages(store: CoreStore): Promise<StoreStats> {
  let memories = 0;
  let bytes = 0;
  for await (const page of memoryPages(store, undefined)) {
    memories += page.length;
    for (const memory of page) bytes += textEncoder.encode(JSON.stringify(memory)).byteLength;
    for (const embedding of (await store.getEmbeddings(page.map((memory) => memory.id))).values()) {
      bytes += 4 * embedding.length;
    }
  }
  const opinions = await countRecords(store.opinions);
  const procedures = await countRecords(store.procedures);
  const sessions = await countRecords(store.sessions);
  const entities = await countRecords(store.entities);
  return {
    memories,
    opinions: opinions.count,
    procedures: procedures.count,
    sessions: sessions.count,
    entities: entities.count,
    bytes: bytes + opinions.bytes + procedures.bytes + sessions.bytes + entities.bytes,
  };
}
