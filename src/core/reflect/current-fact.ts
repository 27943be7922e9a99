/**
 * Which facts reflect may present as current: the current-truth rules (a superseded or
 * invalidated version is history) plus the time a fact states itself — a stay, a trip, a
 * contract "Nov 27–Dec 1, 2025" is not current once its last day is over.
 */
import { validAt } from '../search/memory-versions.js';
import type { Memory } from '../spec/memory.js';
import { statedTime } from '../workspace-format/stated-range.js';

/** A stated time range: both ends as ISO instants. */
interface Range {
  start: string;
  end: string;
}

function rangeOfMetadata(memory: Memory): Range | undefined {
  const value = memory.metadata.timeRange;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { start, end } = value as Record<string, unknown>;
  return typeof start === 'string' && typeof end === 'string' ? { start, end } : undefined;
}

/**
 * The time range a memory states: the one the workspace parser recorded (`metadata.timeRange`),
 * else the first one its text states in any format that parser reads ("Nov 27–Dec 1, 2025",
 * "Nov 27–30, 2025", "2025-11-27 to 2025-12-01", …), so a memory retained through another door
 * is judged the same way. A single date is the day of an event, not a span something held
 * over: it is not a range, and never makes a fact "ended".
 */
export function statedRangeOf(memory: Memory): Range | undefined {
  const range =
    rangeOfMetadata(memory) ??
    (() => {
      const stated = statedTime(memory.content);
      return stated !== undefined && 'range' in stated ? stated.range : undefined;
    })();
  if (range === undefined) return undefined;
  // One day (start and end on the same calendar day) is a date, not a range.
  return range.start.slice(0, 10) === range.end.slice(0, 10) ? undefined : range;
}

/** The end (ISO) of the range a memory states, when that range was over before `nowIso`. */
export function endedAt(memory: Memory, nowIso: string): string | undefined {
  const range = statedRangeOf(memory);
  return range !== undefined && range.end < nowIso ? range.end : undefined;
}

/**
 * True when reflect may present `memory` as holding at `nowIso` (an entity page's current
 * facts): valid then in world time (not superseded or invalidated before it), and not a
 * stated range that ended.
 */
export function currentAt(memory: Memory, nowIso: string): boolean {
  return validAt(memory, nowIso) && endedAt(memory, nowIso) === undefined;
}

/**
 * True when reflect may propose `memory` as a lasting line of `memory.md`: current at
 * `nowIso`, and neither linked to a newer version (even one that takes over later) nor
 * invalidated: a fact known to be replaced is not a lasting one.
 */
export function durableAt(memory: Memory, nowIso: string): boolean {
  return currentAt(memory, nowIso) && memory.supersededBy === null && memory.invalidationReason === null;
}
