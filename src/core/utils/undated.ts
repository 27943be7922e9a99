/**
 * Undated memories: an item of a workspace page with no date of its own (`memory.md`, the
 * `bank/` pages, a line that states no date) happened at no particular time. It is stored at
 * the earliest instant memoir stores, marked `metadata.undated`, so that every time window
 * leaves it out (a window with only an end starts just after that instant, see
 * {@link DATED_FROM}) while a recall without one still finds it. Recency treats it as
 * holding now: a curated page says what is true today.
 */
import type { Memory } from '../spec/memory.js';

/** Where an undated memory is stored in time: `0000-01-01T00:00:00.000Z`, before any dated one. */
export const UNDATED_AT = '0000-01-01T00:00:00.000Z';

/** The first instant a dated memory may have: the start of every time window that names only its end. */
export const DATED_FROM = '0000-01-01T00:00:00.001Z';

/** Whether a memory has no date of its own (see {@link UNDATED_AT}). */
export function isUndated(memory: Pick<Memory, 'occurredAt' | 'metadata'>): boolean {
  return memory.metadata.undated === true || memory.occurredAt === UNDATED_AT;
}

/** The start of a time window as a store compares it: a window with an end but no start leaves undated memories out. */
export function windowStart(since: string | undefined, until: string | undefined): string | undefined {
  return since === undefined && until !== undefined ? DATED_FROM : since;
}
