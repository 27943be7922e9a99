import type { Memory } from '../spec/memory.js';
import { DAY_MS } from '../utils/time.js';

/**
 * Where a memory came from, as retention sees it:
 * - `captured` — tool calls recorded automatically by `capture()` / `withCapture` (`metadata.captured: true`);
 * - `episodes` — raw conversation turns and tasks kept verbatim (`metadata.episode: true`), the
 *   words themselves that `reextract` reads again;
 * - `extracted` — memories a model (or the offline rules) extracted from a conversation (`metadata.extractedBy`);
 * - `retained` — everything a caller stored directly: facts, opinions, notes, workflows, imports.
 *
 * @group Backups and maintenance
 */
export const RETENTION_ORIGINS = ['captured', 'episodes', 'extracted', 'retained'] as const;
/**
 * One of {@link RETENTION_ORIGINS}.
 *
 * @group Backups and maintenance
 */
export type RetentionOrigin = (typeof RETENTION_ORIGINS)[number];

/**
 * What cleanup and eviction may delete by default: only what memoir captured on its own
 * (seed 001: retention expires "auto-captured, non-important old memories"). Anything a
 * person or their agent chose to keep stays until they opt its origin in.
 */
export const DEFAULT_RETENTION_ORIGINS: readonly RetentionOrigin[] = ['captured'];

/** Where a memory came from ({@link RETENTION_ORIGINS}); captured wins over episode, episode over extracted. */
export function originOf(memory: Pick<Memory, 'metadata'>): RetentionOrigin {
  const { metadata } = memory;
  if (metadata.captured === true) return 'captured';
  if (metadata.episode === true) return 'episodes';
  if (typeof metadata.extractedBy === 'string') return 'extracted';
  return 'retained';
}

/** True when cleanup or eviction may delete `memory`: not protected, and of an origin the caller let expire. */
export function mayExpire(
  memory: Pick<Memory, 'bookmarked' | 'metadata'>,
  appliesTo: readonly RetentionOrigin[],
): boolean {
  return !isProtected(memory) && appliesTo.includes(originOf(memory));
}

/**
 * The last time memoir learned or used a memory (epoch ms): the latest of `createdAt`,
 * `updatedAt` and `lastAccessedAt`. Retention counts age from here, not from `occurredAt`:
 * a fact about 1990 retained today is new knowledge, and one recalled yesterday is in use.
 */
export function lastLearnedOrUsed(memory: Pick<Memory, 'createdAt' | 'updatedAt' | 'lastAccessedAt'>): number {
  const times = [memory.createdAt, memory.updatedAt, memory.lastAccessedAt]
    .map((time) => (time ? Date.parse(time) : Number.NaN))
    .filter(Number.isFinite);
  return times.length > 0 ? Math.max(...times) : Number.POSITIVE_INFINITY;
}

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
