import type { MemoryEngine } from '../engine/memory-engine.js';
import { type PipelineStats, snapshotStats } from '../engine/pipeline-stats.js';
import { type Tally, topTallies } from '../sessions/session-summaries.js';
import type { StoreStats } from '../spec/store.js';
import { memoryPages } from '../utils/pages.js';

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

/** The dashboard: counts, sizes, quota, activity and what the pipelines have cost. */
export interface StatsApi {
  /** Counts and sizes of the store, and what the conversation pipeline has cost per stage. */
  stats(): Promise<MemoryStats>;
}

/** The stats feature over an engine, with the quota it reports usage against. */
export function createStatsApi(engine: MemoryEngine, settings: { maxSizeMb: number }): StatsApi {
  const { store, metrics } = engine;
  return {
    async stats() {
      await engine.ready('stats');
      const storeStats = await store.stats();
      const byKind: Record<string, number> = {};
      const byCategory: Record<string, number> = {};
      const actions: string[] = [];
      // A full pass over the scope's memories: stats are for people, not hot paths.
      for await (const page of memoryPages(store, { scope: engine.scope })) {
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
      const sessionMemories = sessions.reduce((sum, session) => sum + session.memoryCount, 0);
      return {
        ...storeStats,
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
        embeddingCache: metrics.queryVectors.stats(),
      };
    },
  };
}
