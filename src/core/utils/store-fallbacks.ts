/**
 * The optional members of {@link MemoryStore}, each through the store's own when it has one
 * and a fallback built on the required members when it has not. The core calls these, never
 * the optional members directly.
 *
 * @module
 */
import { StoreError } from '../spec/errors.js';
import type {
  CompleteMemoryStore,
  EmbedderIdentity,
  MemoryFilter,
  MemoryStore,
  RecordCollection,
  StoreStats,
} from '../spec/store.js';
import { memoryPages, PAGE_SIZE, pagesOf } from './pages.js';

const textEncoder = new TextEncoder();

/** Number of memories matching `filter`: the store's count, else one pass over them. */
export async function countMemories(store: MemoryStore, filter?: MemoryFilter): Promise<number> {
  if (store.countMemories) return store.countMemories(filter);
  let count = 0;
  for await (const page of memoryPages(store, filter)) count += page.length;
  return count;
}

async function countRecords(collection: RecordCollection<{ id: string }>): Promise<{ count: number; bytes: number }> {
  let count = 0;
  let bytes = 0;
  for await (const page of pagesOf((offset, limit) => collection.list({ limit, offset }))) {
    count += page.length;
    for (const record of page) bytes += textEncoder.encode(JSON.stringify(record)).byteLength;
  }
  return { count, bytes };
}

/**
 * The store's counts and size: its own `stats()`, else counted by paging through every memory
 * and record, `bytes` being their JSON plus 4 bytes per embedding dimension.
 */
export async function storeStats(store: MemoryStore): Promise<StoreStats> {
  if (store.stats) return store.stats();
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

/**
 * Record that recall returned these memories: the store's `recordAccess`, else a read and a
 * write back of each memory (with its embedding, which an upsert replaces) in one transaction.
 */
export async function recordAccess(store: MemoryStore, ids: readonly string[], at: string): Promise<void> {
  if (store.recordAccess) return store.recordAccess(ids, at);
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

/**
 * Drop every embedding and record `embedder`: the store's `resetEmbeddings`. There is no safe
 * fallback (the store's recorded embedder is its own), so without it this refuses.
 */
export async function resetEmbeddings(store: MemoryStore, embedder: EmbedderIdentity): Promise<void> {
  if (store.resetEmbeddings) return store.resetEmbeddings(embedder);
  throw new StoreError(
    `reindex with a new embedder needs the store to drop its embeddings, and the ${store.name} store has no resetEmbeddings()`,
    {
      component: store.name,
      suggestion:
        'Re-embed only the memories without an embedding with reindex({ onlyMissing: true }), or give the store a resetEmbeddings() member.',
    },
  );
}

/**
 * The store itself when it has every member of {@link CompleteMemoryStore}, else a view of it
 * whose missing members are the fallbacks above (the store's own methods, bound to it, for
 * the rest). For code that would rather call the members than these functions, such as the
 * store contract.
 */
export function completeStore(store: MemoryStore): CompleteMemoryStore {
  if (store.countMemories && store.recordAccess && store.resetEmbeddings && store.stats) {
    return store as CompleteMemoryStore;
  }
  const fallbacks: Record<string, unknown> = {
    countMemories: (filter?: MemoryFilter) => countMemories(store, filter),
    recordAccess: (ids: readonly string[], at: string) => recordAccess(store, ids, at),
    resetEmbeddings: (embedder: EmbedderIdentity) => resetEmbeddings(store, embedder),
    stats: () => storeStats(store),
  };
  return new Proxy(store, {
    get(target, key) {
      const own: unknown = Reflect.get(target, key, target);
      if (own === undefined && typeof key === 'string' && key in fallbacks) return fallbacks[key];
      // Bound, so a store keeping its state in private fields is called on itself, not the view.
      return typeof own === 'function' ? own.bind(target) : own;
    },
  }) as CompleteMemoryStore;
}
