import type { Memory, Scope } from '../spec/memory.js';
import type { MemoryFilter } from '../spec/store.js';
import { coreStore, type StoreLike } from '../store/store-facade.js';
import { memoryPages } from '../utils/pages.js';
import { DEFAULT_RETENTION_ORIGINS, importanceScore, mayExpire, type RetentionOrigin } from './protection.js';
import { checkNow, invalid, removeMemories } from './removal.js';

/** Options of `evictForRoom`. */
export interface EvictOptions {
  /** The most memories the collection (the scope, when given) may hold. */
  maxMemories: number;
  /** How many memories are about to be stored. */
  incoming: number;
  /** The current time, epoch milliseconds (for {@link importanceScore}). */
  now: number;
  /** Only count and evict memories of this scope. Default: all. */
  scope?: Scope;
  /**
   * Which memories may be evicted, by origin, as for `cleanup`. Default `['captured']`: a
   * caller's own memories are never evicted unless their origin is opted in.
   */
  appliesTo?: readonly RetentionOrigin[];
}

interface Ranked {
  memory: Memory;
  score: number;
}

/** Orders lower score first, then older `createdAt`, then id: the first is evicted first. */
function worse(a: Ranked, b: Ranked): number {
  if (a.score !== b.score) return a.score - b.score;
  if (a.memory.createdAt !== b.memory.createdAt) return a.memory.createdAt < b.memory.createdAt ? -1 : 1;
  return a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0;
}

/**
 * Make room for `incoming` new memories: when `count + incoming > maxMemories`, delete the
 * lowest-scoring ({@link importanceScore}) memories that may expire ({@link mayExpire}: not
 * protected, and of an origin in `appliesTo`) so the new ones fit. Memories are scanned in
 * pages of 1,000 keeping only the worst N, so memory use is bounded by the number to evict.
 * When too few such memories exist, all of them are deleted and the collection goes over the
 * limit: a memory someone chose to keep is never deleted to make room.
 *
 * Makes plain store calls and opens no transaction: wrap it, together with the write it
 * makes room for, in the caller's `store.transaction`.
 *
 * @returns The ids of the deleted memories, lowest-ranked first.
 */
export async function evictForRoom(given: StoreLike, options: EvictOptions): Promise<string[]> {
  const store = coreStore(given);
  const { maxMemories, incoming, now, scope } = options;
  const appliesTo = options.appliesTo ?? DEFAULT_RETENTION_ORIGINS;
  if (!(Number.isInteger(maxMemories) && maxMemories >= 0)) {
    throw invalid('evictForRoom', 'maxMemories', 'expected a non-negative whole number');
  }
  if (!(Number.isInteger(incoming) && incoming >= 0)) {
    throw invalid('evictForRoom', 'incoming', 'expected a non-negative whole number');
  }
  checkNow('evictForRoom', now);
  const filter: MemoryFilter = scope ? { scope } : {};
  const count = await store.countMemories(filter);
  const need = count + incoming - maxMemories;
  if (need <= 0 || appliesTo.length === 0) return [];

  // Sorted worst-first, at most `need` long.
  const worst: Ranked[] = [];
  for await (const page of memoryPages(store, filter)) {
    for (const memory of page) {
      if (!mayExpire(memory, appliesTo)) continue;
      const candidate: Ranked = { memory, score: importanceScore(memory, now) };
      if (worst.length >= need && worse(candidate, worst[worst.length - 1]!) >= 0) continue;
      let low = 0;
      let high = worst.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (worse(worst[mid]!, candidate) <= 0) low = mid + 1;
        else high = mid;
      }
      worst.splice(low, 0, candidate);
      if (worst.length > need) worst.pop();
    }
  }
  const victims = worst.map((entry) => entry.memory);
  await removeMemories(store, victims, new Date(now).toISOString());
  return victims.map((memory) => memory.id);
}
