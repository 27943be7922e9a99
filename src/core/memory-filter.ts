import type { Memory, Scope } from './spec/memory.js';
import type { MemoryFilter } from './spec/store.js';

/** True when every field named by `filter` is equal on `scope` (see {@link MemoryFilter.scope}). */
export function scopeMatches(scope: Scope, filter: Scope | undefined): boolean {
  if (!filter) return true;
  if (filter.agentId !== undefined && scope.agentId !== filter.agentId) return false;
  if (filter.userId !== undefined && scope.userId !== filter.userId) return false;
  if (filter.namespace !== undefined && scope.namespace !== filter.namespace) return false;
  return true;
}

const anyOf = <T>(wanted: readonly T[] | undefined, value: T): boolean => !wanted || wanted.includes(value);

/**
 * Reference semantics of {@link MemoryFilter}, used by stores that filter in JavaScript.
 * Stores that filter natively must agree with it; the contract suite checks that they do.
 */
export function memoryMatches(memory: Memory, filter: MemoryFilter | undefined): boolean {
  if (!filter) return true;
  if (!scopeMatches(memory.scope, filter.scope)) return false;
  if (!anyOf(filter.ids, memory.id)) return false;
  if (!anyOf(filter.kinds, memory.kind)) return false;
  if (!anyOf(filter.categories, memory.category)) return false;
  if (!anyOf(filter.fingerprints, memory.fingerprint)) return false;
  if (filter.sessionId !== undefined && memory.sessionId !== filter.sessionId) return false;
  if (filter.bookmarked !== undefined && memory.bookmarked !== filter.bookmarked) return false;
  if (filter.since !== undefined && memory.occurredAt < filter.since) return false;
  if (filter.until !== undefined && memory.occurredAt > filter.until) return false;
  if (filter.validAt !== undefined) {
    if (memory.validFrom > filter.validAt) return false;
    if (memory.validTo !== null && memory.validTo <= filter.validAt) return false;
  }
  if (filter.entities) {
    const wanted = new Set(filter.entities.map((entity) => entity.toLowerCase()));
    if (!memory.entities.some((entity) => wanted.has(entity.toLowerCase()))) return false;
  }
  return true;
}
