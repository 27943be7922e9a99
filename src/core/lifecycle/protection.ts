import type { Memory } from '../spec/memory.js';
import { DAY_MS } from '../utils/time.js';

/**
 * True when a memory must never be removed by cleanup, eviction or consolidation:
 * it is bookmarked (`memory.bookmarked`), or its metadata says `manual_save: true` or
 * `bookmarked: true`.
 */
export function isProtected(memory: Pick<Memory, 'bookmarked' | 'metadata'>): boolean {
  return memory.bookmarked || memory.metadata.manual_save === true || memory.metadata.bookmarked === true;
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
