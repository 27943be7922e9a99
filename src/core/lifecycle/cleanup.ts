import type { Memory, Scope } from '../spec/memory.js';
import type { Logger } from '../spec/runtime.js';
import type { MemoryStore } from '../spec/store.js';
import { memoryPages, PAGE_SIZE } from '../utils/pages.js';
import { DAY_MS } from '../utils/time.js';
import { isProtected } from './protection.js';
import { checkNow, invalid, removeMemories } from './removal.js';

const textEncoder = new TextEncoder();

/** Approximate bytes a memory occupies: UTF-8 JSON of the memory plus 4 bytes per embedding dimension. */
function estimateBytes(memories: readonly Memory[], embeddings: Map<string, Float32Array>): number {
  let bytes = 0;
  for (const memory of memories) {
    bytes += textEncoder.encode(JSON.stringify(memory)).byteLength;
    bytes += 4 * (embeddings.get(memory.id)?.length ?? 0);
  }
  return bytes;
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

/**
 * What `cleanup` did.
 *
 * @group Backups and maintenance
 */
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
    for await (const page of memoryPages(store, { ...(scope ? { scope } : {}), until: cutoff })) {
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
