import type { MemoryEngine } from '../engine/memory-engine.js';
import { type PipelineStats, snapshotStats } from '../engine/pipeline-stats.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import { type Tally, topTallies } from '../shared/session-summaries.js';
import type { Memory, Scope } from '../spec/memory.js';
import type { StoreStats } from '../spec/store.js';
import type { RecordCollection } from '../store/store-facade.js';
import { memoryPages, pagesOf } from '../utils/pages.js';
import type { ResolvedStoreCapabilities } from '../utils/store-capabilities.js';

/**
 * What `stats()` reports.
 *
 * @group Backups and maintenance
 */
export interface MemoryStats extends StoreStats {
  /**
   * What the store declares (transactions, between processes, native search, staged changes)
   * and the optional members it lacks, so a user sees what its writes are promised.
   */
  capabilities: ResolvedStoreCapabilities;
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
  /**
   * Memories of the scope stored without an embedding (the embedder failed): lexical search
   * finds them; they are embedded in the background once the embedder answers, or by `reindex()`.
   */
  pendingEmbeddings: number;
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

const textEncoder = new TextEncoder();

// Approximate, like the stores' own figure: the memories' JSON plus 4 bytes per vector dimension.
function estimateBytes(memories: readonly Memory[], dimensions: number): number {
  let bytes = 0;
  for (const memory of memories) bytes += textEncoder.encode(JSON.stringify(memory)).byteLength + 4 * dimensions;
  return bytes;
}

async function countRecords(collection: RecordCollection<{ id: string }>, scope: Scope): Promise<number> {
  let count = 0;
  for await (const page of pagesOf((offset, limit) => collection.list({ scope, limit, offset }))) count += page.length;
  return count;
}

/**
 * The dashboard: counts, sizes, quota, activity and what the pipelines have cost.
 *
 * @group Client
 */
export interface StatsApi {
  /** Counts and sizes of the store, and what the conversation pipeline has cost per stage. */
  stats(): Promise<MemoryStats>;
}

/** The stats feature over an engine, with the quota it reports usage against. */
export function createStatsApi(engine: MemoryEngine, settings: { maxSizeMb: number }): StatsApi {
  const { store, metrics } = engine;
  return drained<AsyncMembers<StatsApi>>({
    async stats() {
      await engine.ready('stats');
      const byKind: Record<string, number> = {};
      const byCategory: Record<string, number> = {};
      const actions: string[] = [];
      let memories = 0;
      let bytes = 0;
      let pendingEmbeddings = 0;
      // A full pass over the scope's memories: stats are for people, not hot paths.
      for await (const page of memoryPages(store, { scope: engine.scope })) {
        memories += page.length;
        pendingEmbeddings += page.length - (await store.getEmbeddings(page.map((memory) => memory.id))).size;
        if (engine.scope) bytes += estimateBytes(page, engine.embedder.dimensions);
        for (const memory of page) {
          byKind[memory.kind] = (byKind[memory.kind] ?? 0) + 1;
          byCategory[memory.category] = (byCategory[memory.category] ?? 0) + 1;
          if (memory.category === 'action') {
            actions.push(
              typeof memory.metadata.tool === 'string' ? memory.metadata.tool : (memory.entities[0] ?? 'action'),
            );
          }
        }
      }
      const sessions = await store.sessions.list({ scope: engine.scope });
      // A scoped client counts only its own tenant; an unscoped one reads the store's own totals.
      const storeStats: StoreStats = engine.scope
        ? {
            memories,
            bytes,
            sessions: sessions.length,
            opinions: await countRecords(store.opinions, engine.scope),
            procedures: await countRecords(store.procedures, engine.scope),
            entities: await countRecords(store.entities, engine.scope),
          }
        : await store.stats();
      const sessionMemories = sessions.reduce((sum, session) => sum + session.memoryCount, 0);
      return {
        ...storeStats,
        capabilities: store.capabilities,
        pipeline: snapshotStats(metrics.pipeline),
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
          count: metrics.recall.count,
          averageMs: metrics.recall.count ? metrics.recall.totalMs / metrics.recall.count : 0,
        },
        pendingEmbeddings,
        embeddingCache: metrics.queryVectors.stats(),
      };
    },
  });
}
