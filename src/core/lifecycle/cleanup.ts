import {
  DEFAULT_RETENTION_ORIGINS,
  lastLearnedOrUsed,
  mayExpire,
  type RetentionOrigin,
} from '../retention/protection.js';
import { checkNow, invalid, removeMemories } from '../retention/removal.js';
import type { Memory, Scope } from '../spec/memory.js';
import type { Logger } from '../spec/runtime.js';
import { coreStore, type StoreLike } from '../store/store-facade.js';
import { memoryPages, PAGE_SIZE } from '../utils/pages.js';
import { DAY_MS } from '../utils/time.js';

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
  /**
   * Memories memoir has neither learned nor used for more than this many days (see
   * {@link lastLearnedOrUsed}) may be deleted. Positive.
   */
  retentionDays: number;
  /** The current time, epoch milliseconds. */
  now: number;
  /** Which memories may expire, by origin. Default `['captured']`: only what capture recorded on its own. */
  appliesTo?: readonly RetentionOrigin[];
  /** Only memories of this scope (same matching as {@link MemoryFilter.scope}). Default: all. */
  scope?: Scope;
  /**
   * Called once before anything is deleted, and only when something will be; it must make
   * (and check) a backup, and a rejection stops the cleanup with nothing deleted.
   */
  backupFirst?: () => Promise<unknown>;
  /** When given, one `info` line reports the deletion count and the bytes freed. */
  logger?: Logger;
  /**
   * Only say what would go: nothing is deleted and no backup is made. The result's `deleted`,
   * `ids` and `bytesFreed` then describe the memories a real run would delete now.
   */
  dryRun?: boolean;
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
  /** True when nothing was deleted because the run was a dry run: the counts say what would go. */
  dryRun: boolean;
}

/**
 * Delete the memories that may expire ({@link mayExpire}: unprotected and of an origin in
 * `appliesTo`) and that memoir has neither learned nor used for more than `retentionDays`.
 * `occurredAt` plays no part: it says when something happened in the world, and a fact about
 * 1990 retained yesterday is not old. When something will be deleted, `backupFirst` runs
 * first; the deletions and the matching entity and session tally updates then happen in one
 * `store.transaction`, each memory checked again inside it.
 *
 * @example
 * ```ts
 * const { deleted, bytesFreed } = await cleanup(store, { retentionDays: 30, now: Date.now() });
 * ```
 */
export async function cleanup(given: StoreLike, options: CleanupOptions): Promise<CleanupResult> {
  const store = coreStore(given);
  const { retentionDays, now, scope, logger, backupFirst, dryRun = false } = options;
  const appliesTo = options.appliesTo ?? DEFAULT_RETENTION_ORIGINS;
  if (!(Number.isFinite(retentionDays) && retentionDays > 0)) {
    throw invalid('cleanup', 'retentionDays', 'expected a positive number of days');
  }
  checkNow('cleanup', now);
  const cutoffMs = now - retentionDays * DAY_MS;
  const nowIso = new Date(now).toISOString();
  // "Older than" is strict: a memory learned at the cutoff instant itself is kept.
  const expired = (memory: Memory) => mayExpire(memory, appliesTo) && lastLearnedOrUsed(memory) < cutoffMs;

  const candidates: string[] = [];
  if (appliesTo.length > 0) {
    for await (const page of memoryPages(store, scope ? { scope } : {})) {
      for (const memory of page) if (expired(memory)) candidates.push(memory.id);
    }
  }
  if (candidates.length === 0) {
    return report({ deleted: 0, bytesFreed: 0, ids: [], dryRun }, retentionDays, logger);
  }
  if (dryRun) {
    // What a real run would delete now, read the same way; nothing is written, no backup made.
    let estimate = 0;
    const ids: string[] = [];
    for (let start = 0; start < candidates.length; start += PAGE_SIZE) {
      const batch = (await store.getMemories(candidates.slice(start, start + PAGE_SIZE))).filter(expired);
      estimate += estimateBytes(batch, await store.getEmbeddings(batch.map((memory) => memory.id)));
      ids.push(...batch.map((memory) => memory.id));
    }
    return { deleted: ids.length, bytesFreed: estimate, ids, dryRun };
  }
  await backupFirst?.();

  const before = (await store.stats()).bytes;
  const { victims, estimate } = await store.transaction(async () => {
    const victims: Memory[] = [];
    let estimate = 0;
    for (let start = 0; start < candidates.length; start += PAGE_SIZE) {
      // Read again: a memory recalled, bookmarked or deleted since the scan is left alone.
      const batch = (await store.getMemories(candidates.slice(start, start + PAGE_SIZE))).filter(expired);
      estimate += estimateBytes(batch, await store.getEmbeddings(batch.map((memory) => memory.id)));
      victims.push(...batch);
    }
    await removeMemories(store, victims, nowIso);
    return { victims, estimate };
  });

  const after = (await store.stats()).bytes;
  return report(
    {
      deleted: victims.length,
      bytesFreed: Math.max(before - after, estimate, 0),
      ids: victims.map((memory) => memory.id),
      dryRun,
    },
    retentionDays,
    logger,
  );
}

function report(result: CleanupResult, retentionDays: number, logger: Logger | undefined): CleanupResult {
  logger?.log('info', `retention cleanup deleted ${result.deleted} memories, freed ~${result.bytesFreed} bytes`, {
    retentionDays,
    deleted: result.deleted,
    bytesFreed: result.bytesFreed,
  });
  return result;
}
