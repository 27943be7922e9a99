import { compileFilter, scopeMatches } from '../search/memory-filter.js';
import type { Memory, Scope } from '../spec/memory.js';
import type { ListMemoriesQuery, MemoryFilter, MemoryOrder, RecordListQuery } from '../spec/store.js';

/** A record of a kind other than memory, as far as listing needs it. */
interface ScopedRecord {
  /** The record's key. */
  id: string;
  /** Whose record it is. */
  scope: Scope;
}

/**
 * Compare ids by UTF-16 code units: the order every listing by id uses (`<` on strings).
 *
 * @group Store kit
 */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKey(memory: Memory, orderBy: MemoryOrder): number {
  if (orderBy === 'importance') return memory.importance;
  // Parsed, so timestamps written with different precision or offsets still order by instant.
  return Date.parse(memory[orderBy]);
}

/**
 * The memories sorted as {@link ListMemoriesQuery} asks: by `orderBy` (default `createdAt`,
 * timestamps as instants) in `direction` (default `desc`), ties by id ascending whatever the
 * direction. Returns a new array.
 *
 * @group Store kit
 */
export function sortMemories(
  memories: Iterable<Memory>,
  orderBy: MemoryOrder = 'createdAt',
  direction: 'asc' | 'desc' = 'desc',
): Memory[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...memories]
    .map((memory) => ({ memory, key: sortKey(memory, orderBy) }))
    .sort((a, b) => (a.key !== b.key ? (a.key < b.key ? -1 : 1) * sign : compareIds(a.memory.id, b.memory.id)))
    .map(({ memory }) => memory);
}

/**
 * Apply `offset`, then `limit` (both floored; negative read as 0; `limit` absent: all).
 *
 * @group Store kit
 */
export function pageOf<T>(items: readonly T[], offset: number | undefined, limit: number | undefined): T[] {
  const start = Math.max(0, Math.floor(offset ?? 0));
  const end = limit === undefined ? undefined : start + Math.max(0, Math.floor(limit));
  return items.slice(start, end);
}

/**
 * The memories matching `filter` (the port's semantics; see `memoryMatches`), in the order
 * given. The filter is compiled once for the whole pass.
 *
 * @group Store kit
 */
export function filterMemories(memories: Iterable<Memory>, filter: MemoryFilter | undefined): Memory[] {
  const accept = compileFilter(filter);
  const found: Memory[] = [];
  for (const memory of memories) if (accept(memory)) found.push(memory);
  return found;
}

/**
 * Answer `list('memory', query)` over memories held in JavaScript: filter, sort, page.
 *
 * @group Store kit
 */
export function listMemoriesIn(memories: Iterable<Memory>, query: ListMemoriesQuery = {}): Memory[] {
  const sorted = sortMemories(filterMemories(memories, query.filter), query.orderBy, query.direction);
  return pageOf(sorted, query.offset, query.limit);
}

/**
 * Answer `list(kind, query)` for a kind other than memory over records held in JavaScript:
 * those of the scope, by id ascending, paged.
 *
 * @group Store kit
 */
export function listRecordsIn<T extends ScopedRecord>(records: Iterable<T>, query: RecordListQuery = {}): T[] {
  const matching = [...records]
    .filter((record) => scopeMatches(record.scope, query.scope))
    .sort((a, b) => compareIds(a.id, b.id));
  return pageOf(matching, query.offset, query.limit);
}
