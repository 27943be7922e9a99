import { applyTallies } from '../memories/record-tallies.js';
import { ValidationError } from '../spec/errors.js';
import type { JsonValue, Memory, Metadata, Scope } from '../spec/memory.js';
import type { Logger } from '../spec/runtime.js';
import type { MemoryFilter, MemoryStore } from '../spec/store.js';
import { cosineSimilarity } from '../text/bm25-index.js';

/**
 * Retention policies: age-based cleanup, eviction to a maximum collection size,
 * consolidation of near-duplicate memories and a daily scheduler to run them.
 *
 * Every function here talks to storage only through the {@link MemoryStore} port, keeps
 * entity and session tallies in step for the memories it deletes, and never removes a
 * protected memory (see {@link isProtected}).
 */

const DAY_MS = 86_400_000;
const PAGE_SIZE = 1_000;
const textEncoder = new TextEncoder();

/**
 * True when a memory must never be removed by cleanup, eviction or consolidation:
 * it is bookmarked (`memory.bookmarked`), or its metadata says `manual_save: true` or
 * `bookmarked: true`.
 */
export function isProtected(memory: Pick<Memory, 'bookmarked' | 'metadata'>): boolean {
  return memory.bookmarked || memory.metadata.manual_save === true || memory.metadata.bookmarked === true;
}

function invalid(component: string, field: string, message: string): ValidationError {
  return new ValidationError([{ field, message }], { component });
}

function checkNow(component: string, now: number): void {
  if (!Number.isFinite(now)) throw invalid(component, 'now', 'expected epoch milliseconds');
}

/** Every memory matching `filter`, read in pages of 1,000 in `createdAt` ascending order. */
async function* scanMemories(store: MemoryStore, filter: MemoryFilter): AsyncGenerator<Memory[]> {
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await store.listMemories({ filter, orderBy: 'createdAt', direction: 'asc', limit: PAGE_SIZE, offset });
    if (page.length > 0) yield page;
    if (page.length < PAGE_SIZE) return;
  }
}

/** Approximate bytes a memory occupies: UTF-8 JSON of the memory plus 4 bytes per embedding dimension. */
function estimateBytes(memories: readonly Memory[], embeddings: Map<string, Float32Array>): number {
  let bytes = 0;
  for (const memory of memories) {
    bytes += textEncoder.encode(JSON.stringify(memory)).byteLength;
    bytes += 4 * (embeddings.get(memory.id)?.length ?? 0);
  }
  return bytes;
}

/** Delete memories and take them off entity and session tallies. Runs in the caller's transaction. */
async function removeMemories(store: MemoryStore, memories: readonly Memory[], nowIso: string): Promise<number> {
  if (memories.length === 0) return 0;
  const deleted = await store.deleteMemories(memories.map((memory) => memory.id));
  await applyTallies(store, memories, -1, nowIso);
  return deleted;
}

/** Options of `cleanup`. */
export interface CleanupOptions {
  /** Memories whose `occurredAt` is more than this many days before `now` are deleted. Positive. */
  retentionDays: number;
  /** The current time, epoch milliseconds. */
  now: number;
  /** Only memories of this scope (same matching as {@link MemoryFilter.scope}). Default: all. */
  scope?: Scope;
  /** When given, one `info` line reports the deletion count and the bytes freed. */
  logger?: Logger;
}

/** What `cleanup` did. */
export interface CleanupResult {
  /** Number of memories deleted. */
  deleted: number;
  /**
   * Bytes freed: the larger of the drop in `store.stats().bytes` (which can be 0 for stores
   * that do not shrink their files, such as SQLite without VACUUM) and an estimate — UTF-8
   * bytes of the deleted memories' JSON plus 4 bytes per embedding dimension.
   */
  bytesFreed: number;
  /** Ids of the deleted memories. */
  ids: string[];
}

/**
 * Delete every memory whose `occurredAt` is older than `retentionDays` before `now`,
 * except protected ones ({@link isProtected}). All deletions and the matching entity and
 * session tally updates happen in one `store.transaction`.
 *
 * @example
 * ```ts
 * const { deleted, bytesFreed } = await cleanup(store, { retentionDays: 30, now: Date.now() });
 * ```
 */
export async function cleanup(store: MemoryStore, options: CleanupOptions): Promise<CleanupResult> {
  const { retentionDays, now, scope, logger } = options;
  if (!(Number.isFinite(retentionDays) && retentionDays > 0)) {
    throw invalid('cleanup', 'retentionDays', 'expected a positive number of days');
  }
  checkNow('cleanup', now);
  const cutoffMs = now - retentionDays * DAY_MS;
  const cutoff = new Date(cutoffMs).toISOString();
  const nowIso = new Date(now).toISOString();
  const before = (await store.stats()).bytes;

  const { victims, estimate } = await store.transaction(async () => {
    const victims: Memory[] = [];
    // `until` is inclusive; "older than" is strict, so the cutoff instant itself is kept.
    for await (const page of scanMemories(store, { ...(scope ? { scope } : {}), until: cutoff })) {
      for (const memory of page) {
        if (!isProtected(memory) && Date.parse(memory.occurredAt) < cutoffMs) victims.push(memory);
      }
    }
    let estimate = 0;
    for (let start = 0; start < victims.length; start += PAGE_SIZE) {
      const batch = victims.slice(start, start + PAGE_SIZE);
      estimate += estimateBytes(batch, await store.getEmbeddings(batch.map((memory) => memory.id)));
    }
    await removeMemories(store, victims, nowIso);
    return { victims, estimate };
  });

  const after = (await store.stats()).bytes;
  const result: CleanupResult = {
    deleted: victims.length,
    bytesFreed: Math.max(before - after, estimate, 0),
    ids: victims.map((memory) => memory.id),
  };
  logger?.log('info', `retention cleanup deleted ${result.deleted} memories, freed ~${result.bytesFreed} bytes`, {
    retentionDays,
    deleted: result.deleted,
    bytesFreed: result.bytesFreed,
  });
  return result;
}

/**
 * How much a memory is worth keeping, in 0..1 (higher is kept longer):
 *
 * `score = 0.5 × importance + 0.3 × recency + 0.2 × usage`, where
 * - `importance` is the memory's own 0..1 importance;
 * - `recency = 0.5 ^ (ageDays / 30)` — a 30-day half-life, with age measured from the later of
 *   `occurredAt` and `lastAccessedAt` to `now` (future times count as age 0);
 * - `usage = min(1, ln(1 + accessCount) / ln(1 + 100))` — access count, log-scaled so 100
 *   recalls saturate it.
 */
export function importanceScore(memory: Memory, now: number): number {
  const occurred = Date.parse(memory.occurredAt);
  const accessed = memory.lastAccessedAt ? Date.parse(memory.lastAccessedAt) : Number.NEGATIVE_INFINITY;
  const last = Math.max(Number.isFinite(occurred) ? occurred : now, accessed);
  const ageDays = Math.max(0, (now - last) / DAY_MS);
  const recency = 0.5 ** (ageDays / 30);
  const usage = Math.min(1, Math.log1p(Math.max(0, memory.accessCount)) / Math.log1p(100));
  const importance = Math.min(1, Math.max(0, memory.importance));
  const score = 0.5 * importance + 0.3 * recency + 0.2 * usage;
  return Math.min(1, Math.max(0, score));
}

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
 * lowest-scoring ({@link importanceScore}) unprotected memories so the new ones fit.
 * Memories are scanned in pages of 1,000 keeping only the worst N, so memory use is bounded
 * by the number to evict. When too few unprotected memories exist, all of them are deleted.
 *
 * Makes plain store calls and opens no transaction: wrap it, together with the write it
 * makes room for, in the caller's `store.transaction`.
 *
 * @returns The ids of the deleted memories, lowest-ranked first.
 */
export async function evictForRoom(store: MemoryStore, options: EvictOptions): Promise<string[]> {
  const { maxMemories, incoming, now, scope } = options;
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
  if (need <= 0) return [];

  // Sorted worst-first, at most `need` long.
  const worst: Ranked[] = [];
  for await (const page of scanMemories(store, filter)) {
    for (const memory of page) {
      if (isProtected(memory)) continue;
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

/** Options of `consolidate`. */
export interface ConsolidateOptions {
  /** Cosine similarity at or above which two memories are duplicates. Default 0.95. */
  threshold?: number;
  /** Only memories of this scope. Default: all. */
  scope?: Scope;
  /** The current time, epoch milliseconds; recorded in the consolidation entry. */
  now: number;
  /** Only memories of this category. Default: all. */
  category?: string;
}

/** What `consolidate` did. */
export interface ConsolidateResult {
  /** Number of clusters with more than one memory. */
  clusters: number;
  /** Number of memories deleted. */
  deleted: number;
  /** Ids of the representatives kept, one per cluster. */
  kept: string[];
}

/** One entry of `metadata.consolidated` on a kept representative. */
export interface ConsolidationRecord {
  /** When the consolidation ran (ISO 8601). */
  at: string;
  /** Ids of the near-duplicates deleted in favour of this memory. */
  ids: string[];
  /** `ids.length`. */
  count: number;
}

/**
 * The representative: a protected member if any, else the highest importance, else the oldest
 * (earliest `createdAt`, then earliest `occurredAt`, then smallest id).
 */
function pickRepresentative(members: readonly Memory[]): Memory {
  return [...members].sort((a, b) => {
    const protectedDiff = Number(isProtected(b)) - Number(isProtected(a));
    if (protectedDiff !== 0) return protectedDiff;
    if (a.importance !== b.importance) return b.importance - a.importance;
    if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
    if (a.occurredAt !== b.occurredAt) return a.occurredAt < b.occurredAt ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  })[0]!;
}

/**
 * Merge near-duplicate memories. Currently valid, embedded memories (optionally of one scope
 * and category) are visited in `createdAt` order; each one not yet in a cluster starts a
 * cluster and claims every unclaimed memory whose embedding has cosine similarity
 * `>= threshold` with it (leader clustering, found with `store.searchVector` when the store has
 * it, else pairwise over `getEmbeddings`). In each cluster of two or more the representative is
 * kept — a protected member if any, else the highest importance, else the oldest (by `createdAt`,
 * then `occurredAt`) — and the
 * others are deleted, except protected ones, which are always kept. The representative gets
 * `{ at, ids, count }` appended to `metadata.consolidated`. Everything runs in one
 * `store.transaction`, with entity and session tallies updated for the deleted memories.
 */
export async function consolidate(store: MemoryStore, options: ConsolidateOptions): Promise<ConsolidateResult> {
  const { threshold = 0.95, scope, now, category } = options;
  if (!(Number.isFinite(threshold) && threshold > 0 && threshold <= 1)) {
    throw invalid('consolidate', 'threshold', 'expected a cosine similarity in (0, 1]');
  }
  checkNow('consolidate', now);
  const nowIso = new Date(now).toISOString();
  const filter: MemoryFilter = {
    validAt: nowIso,
    ...(scope ? { scope } : {}),
    ...(category ? { categories: [category] } : {}),
  };

  return store.transaction(async () => {
    const memories: Memory[] = [];
    const embeddings = new Map<string, Float32Array>();
    for await (const page of scanMemories(store, filter)) {
      const vectors = await store.getEmbeddings(page.map((memory) => memory.id));
      for (const memory of page) {
        const vector = vectors.get(memory.id);
        if (!vector) continue;
        memories.push(memory);
        embeddings.set(memory.id, vector);
      }
    }
    const byId = new Map(memories.map((memory) => [memory.id, memory]));

    const claimed = new Set<string>();
    const clusters: Memory[][] = [];
    if (store.searchVector && store.capabilities.vectorSearch) {
      for (const leader of memories) {
        if (claimed.has(leader.id)) continue;
        claimed.add(leader.id);
        const members = [leader];
        const vector = embeddings.get(leader.id)!;
        // Widen the search until the nearest hit below the threshold is seen (or all are seen).
        for (let limit = 64; ; limit *= 4) {
          const hits = await store.searchVector({ vector, filter, limit });
          const close = hits.filter((hit) => hit.score >= threshold);
          if (close.length === hits.length && hits.length === limit && limit < memories.length) continue;
          for (const hit of close) {
            const member = byId.get(hit.id);
            if (!member || claimed.has(hit.id)) continue;
            claimed.add(hit.id);
            members.push(member);
          }
          break;
        }
        clusters.push(members);
      }
    } else {
      const leaders: Array<{ vector: Float32Array; members: Memory[] }> = [];
      for (const memory of memories) {
        const vector = embeddings.get(memory.id)!;
        const home = leaders.find((leader) => cosineSimilarity(leader.vector, vector) >= threshold);
        if (home) home.members.push(memory);
        else leaders.push({ vector, members: [memory] });
      }
      for (const leader of leaders) clusters.push(leader.members);
    }

    const result: ConsolidateResult = { clusters: 0, deleted: 0, kept: [] };
    const victims: Memory[] = [];
    const updates: Memory[] = [];
    for (const members of clusters) {
      if (members.length < 2) continue;
      const representative = pickRepresentative(members);
      const removed = members.filter((member) => member !== representative && !isProtected(member));
      result.clusters += 1;
      result.kept.push(representative.id);
      if (removed.length === 0) continue;
      victims.push(...removed);
      const ids = removed.map((member) => member.id);
      const previous = representative.metadata.consolidated;
      const history: JsonValue[] = Array.isArray(previous) ? [...previous] : [];
      const entry: ConsolidationRecord = { at: nowIso, ids, count: ids.length };
      history.push({ ...entry });
      const metadata: Metadata = { ...representative.metadata, consolidated: history };
      updates.push({ ...representative, metadata, updatedAt: nowIso });
    }
    if (updates.length > 0) {
      await store.upsertMemories(updates.map((memory) => ({ memory, embedding: embeddings.get(memory.id) ?? null })));
    }
    result.deleted = await removeMemories(store, victims, nowIso);
    return result;
  });
}

/** Options of `scheduleDaily`. */
export interface ScheduleDailyOptions {
  /** Hour of the day to run at, 0–23, in local time. */
  hour: number;
  /** Source of the current time. Default `Date.now`. */
  clock?: { now(): number };
  /** Receives every error the task throws or rejects with. Default: errors are ignored. */
  onError?: (error: unknown) => void;
}

/** Epoch milliseconds of the next local `hour`:00 strictly after `now`. */
function nextOccurrence(now: number, hour: number): number {
  const next = new Date(now);
  next.setHours(hour, 0, 0, 0);
  if (next.getTime() <= now) next.setDate(next.getDate() + 1);
  return next.getTime();
}

/**
 * Run `task` every day at `hour`:00 local time: the first run at the next occurrence of that
 * hour, then every 24 hours. The timers are `unref()`'d, so a schedule never keeps the process
 * alive. A run is skipped while the previous one is still going. Errors from the task go to
 * `onError` and are never thrown.
 *
 * @example
 * ```ts
 * const job = scheduleDaily(() => cleanup(store, { retentionDays: 30, now: Date.now() }), { hour: 3 });
 * // later
 * job.stop();
 * ```
 */
export function scheduleDaily(task: () => Promise<unknown>, options: ScheduleDailyOptions): { stop(): void } {
  const { hour, clock = { now: () => Date.now() }, onError } = options;
  if (!(Number.isInteger(hour) && hour >= 0 && hour <= 23)) {
    throw invalid('scheduleDaily', 'hour', 'expected a whole hour from 0 to 23');
  }
  let stopped = false;
  let running = false;
  let timeout: ReturnType<typeof setTimeout> | undefined;
  let interval: ReturnType<typeof setInterval> | undefined;

  const report = (error: unknown) => {
    try {
      onError?.(error);
    } catch {
      // onError must not break the schedule.
    }
  };
  const run = () => {
    if (stopped || running) return;
    running = true;
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(task());
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.catch(report).finally(() => {
      running = false;
    });
  };

  const now = clock.now();
  timeout = setTimeout(() => {
    timeout = undefined;
    if (stopped) return;
    interval = setInterval(run, DAY_MS);
    interval.unref?.();
    run();
  }, nextOccurrence(now, hour) - now);
  timeout.unref?.();

  return {
    stop() {
      stopped = true;
      if (timeout !== undefined) clearTimeout(timeout);
      if (interval !== undefined) clearInterval(interval);
      timeout = undefined;
      interval = undefined;
    },
  };
}
