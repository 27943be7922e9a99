import type { Memory } from '../../core/spec/memory.js';

/** Accesses recorded for one memory and not yet written. */
interface Pending {
  count: number;
  at: number;
}

/**
 * Access counts waiting to be written. Recall records an access after every query; written
 * one by one, each would be a commit, and every commit a fragment every later read visits.
 * Held here, they are written together (one update for any number of memories), and reads
 * in this process see them at once through {@link PendingAccess.overlay}, so counts are never
 * behind for the process that made them; other processes see them after the next flush.
 */
export class PendingAccess {
  readonly #pending = new Map<string, Pending>();

  /** How many memories have unwritten accesses. */
  get size(): number {
    return this.#pending.size;
  }

  /** One access to each of `ids` at `at` (epoch milliseconds). */
  add(ids: readonly string[], at: number): void {
    for (const id of new Set(ids)) {
      const entry = this.#pending.get(id);
      if (entry) {
        entry.count += 1;
        entry.at = Math.max(entry.at, at);
      } else this.#pending.set(id, { count: 1, at });
    }
  }

  /** Drop what is pending for memories being replaced or deleted: the write carries their count. */
  forget(ids: readonly string[]): void {
    for (const id of ids) this.#pending.delete(id);
  }

  /** `memory` with its unwritten accesses counted. */
  overlay(memory: Memory): Memory {
    const entry = this.#pending.get(memory.id);
    if (!entry) return memory;
    const at = new Date(entry.at).toISOString();
    const last = memory.lastAccessedAt === null || memory.lastAccessedAt < at ? at : memory.lastAccessedAt;
    return { ...memory, accessCount: memory.accessCount + entry.count, lastAccessedAt: last };
  }

  /**
   * Everything pending, and pending cleared; null when nothing is. `restore` puts the taken
   * entries back, for a write that failed.
   */
  take(): { entries: ReadonlyMap<string, Readonly<Pending>>; restore: () => void } | null {
    if (this.#pending.size === 0) return null;
    const entries = new Map(this.#pending);
    this.#pending.clear();
    return {
      entries,
      restore: () => {
        for (const [id, entry] of entries) {
          const now = this.#pending.get(id);
          if (now) {
            now.count += entry.count;
            now.at = Math.max(now.at, entry.at);
          } else this.#pending.set(id, { ...entry });
        }
      },
    };
  }
}
