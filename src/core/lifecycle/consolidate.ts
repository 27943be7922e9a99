import { isProtected, originOf } from '../retention/protection.js';
import { checkNow, invalid, removeMemories } from '../retention/removal.js';
import { searchVector } from '../search/native-or-scan.js';
import type { JsonValue, Memory, Metadata, Scope } from '../spec/memory.js';
import type { MemoryFilter } from '../spec/store.js';
import { coreStore, type StoreLike } from '../store/store-facade.js';
import { negateAlike } from '../text/negation.js';
import { numbersAlike } from '../text/stated-numbers.js';
import { memoryPages } from '../utils/pages.js';

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
  /** Only say what would go: the clusters are found as in a real run, and nothing is written. */
  dryRun?: boolean;
}

/**
 * What `consolidate` did.
 *
 * @group Backups and maintenance
 */
export interface ConsolidateResult {
  /** Number of clusters with more than one memory. */
  clusters: number;
  /** Number of memories deleted. */
  deleted: number;
  /** Ids of the representatives kept, one per cluster. */
  kept: string[];
  /** Ids of the near-duplicates deleted (in a dry run: that a real run would delete). */
  ids: string[];
  /** True when nothing was changed because the run was a dry run. */
  dryRun: boolean;
}

/**
 * One entry of `metadata.consolidated` on a kept representative.
 *
 * @group Backups and maintenance
 */
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

// "X" and "not X" embed close (the local embedder: identically), and so do "two siblings" and
// "three siblings"; nothing here reads the words. A memory that negates otherwise, or states
// other numbers, is another fact, never a duplicate. Screens and captured tool calls are exempt
// from the numbers: repeats of one screen differ in the clock or the capture count they show,
// and merging them is what consolidation is for.
function sameStatement(a: Memory, b: Memory): boolean {
  if (!negateAlike(a.content, b.content)) return false;
  if (isObservation(a) && isObservation(b)) return true;
  return numbersAlike(a.content, b.content);
}

const isObservation = (memory: Memory): boolean => memory.category === 'screen' || originOf(memory) === 'captured';

/**
 * Merge near-duplicate memories. Currently valid, embedded memories (optionally of one scope
 * and category) are visited in `createdAt` order; each one not yet in a cluster starts a
 * cluster and claims every unclaimed memory whose embedding has cosine similarity
 * `>= threshold` with it, as many negations ("not", "never", "n't") and the same numbers in its
 * content (screens and captured tool calls may differ in numbers) (leader
 * clustering, found with `store.searchVector` when the store has it, else pairwise over
 * `getEmbeddings`). In each cluster of two or more the representative is
 * kept — a protected member if any, else the highest importance, else the oldest (by `createdAt`,
 * then `occurredAt`) — and the
 * others are deleted, except protected ones, which are always kept. The representative gets
 * `{ at, ids, count }` appended to `metadata.consolidated`. Everything runs in one
 * `store.transaction`, with entity and session tallies updated for the deleted memories.
 */
export async function consolidate(given: StoreLike, options: ConsolidateOptions): Promise<ConsolidateResult> {
  const store = coreStore(given);
  const { threshold = 0.95, scope, now, category, dryRun = false } = options;
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
    for await (const page of memoryPages(store, filter)) {
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
    // Leader clustering: each unclaimed memory, oldest first, claims every unclaimed one
    // within the threshold. Without native search the scan runs over the embeddings read above.
    for (const leader of memories) {
      if (claimed.has(leader.id)) continue;
      claimed.add(leader.id);
      const members = [leader];
      const vector = embeddings.get(leader.id)!;
      // Widen the search until the nearest hit below the threshold is seen (or all are seen).
      for (let limit = 64; ; limit *= 4) {
        const hits = await searchVector(store, { vector, filter, limit }, embeddings);
        const close = hits.filter((hit) => hit.score >= threshold);
        if (close.length === hits.length && hits.length === limit && limit < memories.length) continue;
        for (const hit of close) {
          const member = byId.get(hit.id);
          if (!member || claimed.has(hit.id)) continue;
          if (!sameStatement(leader, member)) continue;
          claimed.add(hit.id);
          members.push(member);
        }
        break;
      }
      clusters.push(members);
    }

    const result: ConsolidateResult = { clusters: 0, deleted: 0, kept: [], ids: [], dryRun };
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
    result.ids = victims.map((memory) => memory.id);
    if (dryRun) {
      result.deleted = victims.length;
      return result;
    }
    if (updates.length > 0) {
      await store.upsertMemories(updates.map((memory) => ({ memory, embedding: embeddings.get(memory.id) ?? null })));
    }
    result.deleted = await removeMemories(store, victims, nowIso);
    return result;
  });
}
